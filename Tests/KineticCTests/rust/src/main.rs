//! The Rust client of libKineticC: the calls of kinetic.h through hand-written declarations
//! (src/ffi.rs), their error paths, the structs' layouts, bit-for-bit agreement with the Swift
//! API (through the CLI's reference CSVs, as kinetic_test.c and kinetic_ctypes.py), an
//! independent accuracy check of the curves, and handles shared between threads.
//!
//!     kinetic-rust-client BEZIER_CSV SPRING_CSV
//!
//! The CSVs are written by `make test-c` with `kinetic sample bezier 0.34,1.56,0.64,1 --count
//! 1001` (columns x,value,slope) and `kinetic sample spring --damping-ratio 0.5 --response 0.4
//! --velocity 2 --rate 240` (columns time,value,velocity; the last row at the settling
//! duration). The CLI prints every double so that it parses back to the same bits (and Rust's
//! `str::parse::<f64>` rounds correctly), so comparing bits compares with the Swift API.
//!
//! Every expectation comes from a comment of kinetic.h. Prints one line per failed check (what
//! was expected, what came back) and ends with "kinetic_rust: N passed, M failed"; exits 1 on
//! any failure.

mod ffi;

use ffi::*;
use std::ffi::CStr;
use std::fmt::Display;
use std::mem::{align_of, offset_of, size_of};
use std::os::raw::c_char;
use std::process::ExitCode;
use std::ptr::{null, null_mut};

// ---------------------------------------------------------------- checks

struct Checks {
    passed: u32,
    failed: u32,
}

impl Checks {
    fn check(&mut self, condition: bool, what: impl Display) -> bool {
        if condition {
            self.passed += 1;
        } else {
            self.failed += 1;
            eprintln!("FAIL {what}");
        }
        condition
    }

    /// A call that must return `expected`.
    fn status(&mut self, expected: KnStatus, got: KnStatus, what: &str) -> bool {
        let ok = expected == got;
        if !ok {
            let detail = if got == KN_OK { String::new() } else { format!("; last error \"{}\"", last_error()) };
            return self.check(
                false,
                format!(
                    "{what}: expected status {expected} ({}), got {got} ({}){detail}",
                    status_message(expected),
                    status_message(got)
                ),
            );
        }
        self.check(true, "")
    }

    fn ok(&mut self, got: KnStatus, what: &str) -> bool {
        self.status(KN_OK, got, what)
    }

    /// The value of a call that must succeed (None, and a failure, when it did not).
    fn get<T>(&mut self, result: Result<T, KnStatus>, what: &str) -> Option<T> {
        match result {
            Ok(value) => {
                self.check(true, "");
                Some(value)
            }
            Err(status) => {
                self.status(KN_OK, status, what);
                None
            }
        }
    }

    fn bits(&mut self, expected: f64, got: f64, what: impl Display) -> bool {
        self.check(
            expected.to_bits() == got.to_bits(),
            format_args!("{what}: expected {} bit for bit, got {}", show(expected), show(got)),
        )
    }

    fn near(&mut self, expected: f64, got: f64, tolerance: f64, what: impl Display) -> bool {
        self.check(
            (got - expected).abs() <= tolerance,
            format_args!(
                "{what}: expected {expected:?} within {tolerance:e}, got {got:?} (off by {:e})",
                (got - expected).abs()
            ),
        )
    }

    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, expected: T, got: T, what: impl Display) -> bool {
        self.check(expected == got, format_args!("{what}: expected {expected:?}, got {got:?}"))
    }

    /// The calling thread's last error message contains `needle`.
    fn mentions(&mut self, needle: &str, what: &str) -> bool {
        let message = last_error();
        self.check(
            message.contains(needle),
            format_args!("{what}: expected the last error to mention \"{needle}\", got \"{message}\""),
        )
    }
}

fn show(x: f64) -> String {
    format!("{x:?} ({:#018x})", x.to_bits())
}

fn status_message(status: KnStatus) -> String {
    let message = unsafe { kn_status_message(status) };
    if message.is_null() {
        return "<NULL>".into();
    }
    // kinetic.h: a static, NUL-terminated string, never freed.
    unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
}

/// The calling thread's last error message: ask for the length, then copy it.
fn last_error() -> String {
    let mut length = 0usize;
    unsafe { kn_last_error_message(null_mut(), 0, &mut length) };
    let mut buffer = vec![0u8; length + 1];
    unsafe { kn_last_error_message(buffer.as_mut_ptr().cast::<c_char>(), buffer.len(), null_mut()) };
    buffer.truncate(length);
    String::from_utf8_lossy(&buffer).into_owned()
}

fn result<T>(status: KnStatus, value: T) -> Result<T, KnStatus> {
    if status == KN_OK {
        Ok(value)
    } else {
        Err(status)
    }
}

// ---------------------------------------------------------------- safe handles

/// `impl Drop` for a handle type: the library's destroy call on the pointer in `$field`.
macro_rules! destroyed_on_drop {
    ($handle:ty, $field:tt, $destroy:ident) => {
        impl Drop for $handle {
            fn drop(&mut self) {
                unsafe { $destroy(self.$field) };
            }
        }
    };
}

/// A `kn_bezier` handle, destroyed on drop.
struct Bezier(*mut KnBezier);

impl Bezier {
    fn new(x1: f64, y1: f64, x2: f64, y2: f64) -> Result<Bezier, KnStatus> {
        let mut curve = null_mut();
        let status = unsafe { kn_bezier_create(x1, y1, x2, y2, &mut curve) };
        result(status, Bezier(curve))
    }

    fn preset(preset: i32) -> Result<Bezier, KnStatus> {
        let mut curve = null_mut();
        let status = unsafe { kn_bezier_create_preset(preset, &mut curve) };
        result(status, Bezier(curve))
    }

    fn value(&self, x: f64) -> Result<f64, KnStatus> {
        let mut y = f64::NAN;
        let status = unsafe { kn_bezier_value(self.0, x, &mut y) };
        result(status, y)
    }

    fn slope(&self, x: f64) -> Result<f64, KnStatus> {
        let mut s = f64::NAN;
        let status = unsafe { kn_bezier_slope(self.0, x, &mut s) };
        result(status, s)
    }

    fn values(&self, xs: &[f64], out: &mut [f64]) -> Result<(), KnStatus> {
        assert_eq!(xs.len(), out.len());
        let status = unsafe { kn_bezier_values(self.0, xs.as_ptr(), out.as_mut_ptr(), xs.len() as i64) };
        result(status, ())
    }

    /// kn_bezier_values with out == xs (the header allows exactly that overlap).
    fn values_in_place(&self, xs: &mut [f64]) -> Result<(), KnStatus> {
        let p = xs.as_mut_ptr();
        let status = unsafe { kn_bezier_values(self.0, p, p, xs.len() as i64) };
        result(status, ())
    }

    fn control_points(&self) -> Result<[f64; 4], KnStatus> {
        let mut p = [f64::NAN; 4];
        let [x1, y1, x2, y2] = &mut p;
        let status = unsafe { kn_bezier_control_points(self.0, x1, y1, x2, y2) };
        result(status, p)
    }
}

destroyed_on_drop!(Bezier, 0, kn_bezier_destroy);

/// A `kn_spring` handle, destroyed on drop.
struct Spring(*mut KnSpring);

impl Spring {
    fn from_status(status: KnStatus, spring: *mut KnSpring) -> Result<Spring, KnStatus> {
        result(status, Spring(spring))
    }

    fn new(mass: f64, stiffness: f64, damping: f64) -> Result<Spring, KnStatus> {
        let mut s = null_mut();
        let status = unsafe { kn_spring_create(mass, stiffness, damping, &mut s) };
        Spring::from_status(status, s)
    }

    fn damping_ratio(ratio: f64, response: f64) -> Result<Spring, KnStatus> {
        let mut s = null_mut();
        let status = unsafe { kn_spring_create_damping_ratio(ratio, response, &mut s) };
        Spring::from_status(status, s)
    }

    fn duration(duration: f64, bounce: f64) -> Result<Spring, KnStatus> {
        let mut s = null_mut();
        let status = unsafe { kn_spring_create_duration(duration, bounce, &mut s) };
        Spring::from_status(status, s)
    }

    fn settling(settling: f64, ratio: f64, epsilon: f64) -> Result<Spring, KnStatus> {
        let mut s = null_mut();
        let status = unsafe { kn_spring_create_settling(settling, ratio, epsilon, &mut s) };
        Spring::from_status(status, s)
    }

    fn value(&self, time: f64, velocity: f64) -> Result<f64, KnStatus> {
        let mut v = f64::NAN;
        let status = unsafe { kn_spring_value(self.0, time, velocity, &mut v) };
        result(status, v)
    }

    fn velocity(&self, time: f64, velocity: f64) -> Result<f64, KnStatus> {
        let mut v = f64::NAN;
        let status = unsafe { kn_spring_velocity(self.0, time, velocity, &mut v) };
        result(status, v)
    }

    fn settling_duration(&self, velocity: f64, epsilon: f64) -> Result<f64, KnStatus> {
        let mut t = f64::NAN;
        let status = unsafe { kn_spring_settling_duration(self.0, velocity, epsilon, &mut t) };
        result(status, t)
    }

    fn parameters(&self) -> Result<[f64; 3], KnStatus> {
        let mut p = [f64::NAN; 3];
        let [m, k, c] = &mut p;
        let status = unsafe { kn_spring_parameters(self.0, m, k, c) };
        result(status, p)
    }

    fn properties(&self) -> Result<KnSpringProperties, KnStatus> {
        let mut p = KnSpringProperties::default();
        let status = unsafe { kn_spring_get_properties(self.0, &mut p) };
        result(status, p)
    }

    fn transition(&self, dt: f64) -> Result<[f64; 4], KnStatus> {
        let mut phi = [f64::NAN; 4];
        let status = unsafe { kn_spring_transition(self.0, dt, &mut phi) };
        result(status, phi)
    }
}

destroyed_on_drop!(Spring, 0, kn_spring_destroy);

/// A `kn_velocity_tracker`, destroyed on drop. It keeps its lane count: the header's add and
/// velocity calls take lane_count doubles with no length, and there is no call to read it back.
struct Tracker {
    handle: *mut KnVelocityTracker,
    lanes: usize,
}

impl Tracker {
    fn new(strategy: i32, lanes: usize) -> Result<Tracker, KnStatus> {
        let mut handle = null_mut();
        let status = unsafe { kn_velocity_tracker_create(strategy, lanes as i64, &mut handle) };
        result(status, Tracker { handle, lanes })
    }

    fn add(&mut self, time: f64, positions: &[f64]) -> Result<(), KnStatus> {
        assert_eq!(positions.len(), self.lanes);
        let status = unsafe { kn_velocity_tracker_add(self.handle, time, positions.as_ptr()) };
        result(status, ())
    }

    fn velocity(&self, time: f64) -> Result<Vec<f64>, KnStatus> {
        let mut out = vec![f64::NAN; self.lanes];
        let status = unsafe { kn_velocity_tracker_velocity(self.handle, time, out.as_mut_ptr()) };
        result(status, out)
    }

    fn reset(&mut self) -> Result<(), KnStatus> {
        result(unsafe { kn_velocity_tracker_reset(self.handle) }, ())
    }
}

destroyed_on_drop!(Tracker, handle, kn_velocity_tracker_destroy);

/// A `kn_store`, destroyed on drop.
struct Store(*mut KnStore);

impl Store {
    fn new() -> Result<Store, KnStatus> {
        let mut store = null_mut();
        let status = unsafe { kn_store_create(&mut store) };
        result(status, Store(store))
    }

    fn value(&self, entry: KnEntry, lane: i64) -> Result<f64, KnStatus> {
        let mut v = f64::NAN;
        let status = unsafe { kn_store_value(self.0, entry, lane, &mut v) };
        result(status, v)
    }

    fn read(&self, entry: KnEntry, out: &mut [f64]) -> Result<i64, KnStatus> {
        let mut count = -1;
        let status = unsafe { kn_store_read(self.0, entry, out.as_mut_ptr(), out.len() as i64, &mut count) };
        result(status, count)
    }

    fn range(&self, entry: KnEntry) -> Result<(i64, i64), KnStatus> {
        let (mut offset, mut count) = (-1, -1);
        let status = unsafe { kn_store_range(self.0, entry, &mut offset, &mut count) };
        result(status, (offset, count))
    }

    fn counts(&self) -> Result<(i64, i64), KnStatus> {
        let (mut lanes, mut entries) = (-1, -1);
        let status = unsafe { kn_store_counts(self.0, &mut lanes, &mut entries) };
        result(status, (lanes, entries))
    }

    fn contains(&self, entry: KnEntry) -> Result<i32, KnStatus> {
        let mut live = -1;
        let status = unsafe { kn_store_contains(self.0, entry, &mut live) };
        result(status, live)
    }
}

destroyed_on_drop!(Store, 0, kn_store_destroy);

/// A `kn_engine`, destroyed on drop.
struct Engine(*mut KnEngine);

impl Engine {
    fn new() -> Result<Engine, KnStatus> {
        let mut engine = null_mut();
        let status = unsafe { kn_engine_create(&mut engine) };
        result(status, Engine(engine))
    }

    fn add_lanes(&mut self, values: &[f64]) -> Result<i64, KnStatus> {
        let mut first = -1;
        let status = unsafe { kn_engine_add_lanes(self.0, values.as_ptr(), values.len() as i64, &mut first) };
        result(status, first)
    }

    /// Presentation values (kn_engine_read takes a non-const engine: `&mut self`).
    fn read(&mut self, first: i64, count: usize) -> Result<Vec<f64>, KnStatus> {
        let mut out = vec![f64::NAN; count];
        let status = unsafe { kn_engine_read(self.0, first, count as i64, out.as_mut_ptr()) };
        result(status, out)
    }

    fn read_model(&self, first: i64, count: usize) -> Result<Vec<f64>, KnStatus> {
        let mut out = vec![f64::NAN; count];
        let status = unsafe { kn_engine_read_model(self.0, first, count as i64, out.as_mut_ptr()) };
        result(status, out)
    }

    fn read_velocity(&self, first: i64, count: usize) -> Result<Vec<f64>, KnStatus> {
        let mut out = vec![f64::NAN; count];
        let status = unsafe { kn_engine_read_velocity(self.0, first, count as i64, out.as_mut_ptr()) };
        result(status, out)
    }

    fn advance_to(&mut self, time: f64) -> KnStatus {
        unsafe { kn_engine_advance_to(self.0, time) }
    }

    fn time(&self) -> Result<f64, KnStatus> {
        let mut t = f64::NAN;
        let status = unsafe { kn_engine_time(self.0, &mut t) };
        result(status, t)
    }

    /// Every queued event, oldest first.
    fn drain(&mut self) -> Result<Vec<KnEvent>, KnStatus> {
        let mut events = Vec::new();
        loop {
            let mut event = KnEvent::default();
            let mut has = -1;
            let status = unsafe { kn_engine_next_event(self.0, &mut event, &mut has) };
            if status != KN_OK {
                return Err(status);
            }
            if has == 0 {
                return Ok(events);
            }
            events.push(event);
        }
    }

    fn run(&mut self, timing: &KnTiming, duration: f64) -> Result<KnRun, KnStatus> {
        let mut run = 0;
        let status = unsafe { kn_engine_run_create(self.0, timing, duration, &mut run) };
        result(status, run)
    }

    fn animate(&mut self, run: KnRun, lanes: &[i64], targets: &[f64], vertical: Option<&[i32]>) -> KnStatus {
        assert_eq!(lanes.len(), targets.len());
        let vertical = vertical.map_or(null(), |v| v.as_ptr());
        unsafe {
            kn_engine_run_add_animations(
                self.0,
                run,
                lanes.as_ptr(),
                targets.as_ptr(),
                vertical,
                lanes.len() as i64,
                0.0,
            )
        }
    }

    fn info(&self, run: KnRun) -> Result<KnRunInfo, KnStatus> {
        let mut info = KnRunInfo::default();
        let status = unsafe { kn_engine_run_info(self.0, run, &mut info) };
        result(status, info)
    }
}

destroyed_on_drop!(Engine, 0, kn_engine_destroy);

// ---------------------------------------------------------------- references

/// Reads a CSV of three numeric columns after a header line.
fn read_csv(path: &str) -> Result<Vec<[f64; 3]>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 3 {
            return Err(format!("{path}:{}: expected 3 columns, got {line:?}", n + 1));
        }
        let mut row = [0.0; 3];
        for (slot, field) in row.iter_mut().zip(&fields) {
            *slot = field.trim().parse().map_err(|e| format!("{path}:{}: {field:?}: {e}", n + 1))?;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// SplitMix64: a tiny seeded generator, so every run draws the same curves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 random bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A double-double number (hi + lo, |lo| <= ulp(hi) / 2): about 106 bits, enough to decide
/// the sign of Bx(t) − x exactly wherever it is not within ~1e-32 of 0.
#[derive(Clone, Copy)]
struct Dd {
    hi: f64,
    lo: f64,
}

impl Dd {
    fn from(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let bb = s - a;
        Dd { hi: s, lo: (a - (s - bb)) + (b - bb) }
    }

    fn add(self, o: Dd) -> Dd {
        let s = Dd::two_sum(self.hi, o.hi);
        let t = Dd::two_sum(self.lo, o.lo);
        let hi_lo = Dd::two_sum(s.hi, s.lo + t.hi);
        Dd::two_sum(hi_lo.hi, hi_lo.lo + t.lo)
    }

    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }

    fn mul(self, o: Dd) -> Dd {
        let p = self.hi * o.hi;
        let e = self.hi.mul_add(o.hi, -p); // the exact error of the product (a fused multiply-add)
        Dd::two_sum(p, e + (self.hi * o.lo + self.lo * o.hi))
    }
}

/// The exact eased progress of the curve (x1, y1, x2, y2) at x in [0, 1]: bisection on t over
/// the doubles until lo and hi are adjacent, with Bx(t) − x in double-double, then By(t) in
/// double-double. (t is within one ulp of the root: |y error| <= |By'| · 2^-53, about 1e-15.)
fn exact_bezier(x1: f64, y1: f64, x2: f64, y2: f64, x: f64) -> f64 {
    // B(t) = c·t + b·t² + a·t³ with c = 3p1, b = 3p2 − 6p1, a = 1 + 3p1 − 3p2, in double-double.
    let coefficients = |p1: f64, p2: f64| {
        let c = Dd::from(3.0).mul(Dd::from(p1));
        let b = Dd::from(3.0).mul(Dd::from(p2)).add(Dd::from(6.0).mul(Dd::from(p1)).neg());
        let a = Dd::from(1.0).add(c).add(Dd::from(3.0).mul(Dd::from(p2)).neg());
        (a, b, c)
    };
    let horner = |(a, b, c): (Dd, Dd, Dd), t: f64| {
        let t = Dd::from(t);
        a.mul(t).add(b).mul(t).add(c).mul(t)
    };
    let bx = coefficients(x1, x2);
    let by = coefficients(y1, y2);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    loop {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        let r = horner(bx, mid).add(Dd::from(-x));
        if r.hi + r.lo < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // The end whose Bx is nearer x.
    let rl = horner(bx, lo).add(Dd::from(-x));
    let rh = horner(bx, hi).add(Dd::from(-x));
    let t = if (rl.hi + rl.lo).abs() <= (rh.hi + rh.lo).abs() { lo } else { hi };
    let y = horner(by, t);
    y.hi + y.lo
}

// ---------------------------------------------------------------- status, errors, version

fn test_status(t: &mut Checks) {
    t.eq("success".to_string(), status_message(KN_OK), "kn_status_message(KN_OK)");
    for s in KN_ERR_NULL_ARGUMENT..=KN_ERR_ILLEGAL_STATE {
        let m = status_message(s);
        t.check(!m.is_empty() && m != "unknown status", format_args!("kn_status_message({s}) = {m:?}"));
    }
    for s in [-1, 12, i32::MIN, i32::MAX] {
        t.eq("unknown status".to_string(), status_message(s), format_args!("kn_status_message({s})"));
    }
    // Static strings: the same pointer every time.
    let (a, b) = unsafe { (kn_status_message(KN_ERR_STALE_HANDLE), kn_status_message(KN_ERR_STALE_HANDLE)) };
    t.check(a == b, "kn_status_message: a static string (the same pointer twice)");

    let (mut major, mut minor, mut patch) = (-1, -1, -1);
    t.ok(unsafe { kn_version(&mut major, &mut minor, &mut patch) }, "kn_version");
    t.eq(
        (KN_VERSION_MAJOR, KN_VERSION_MINOR, KN_VERSION_PATCH),
        (major, minor, patch),
        "kn_version against ffi.rs's KN_VERSION_ constants",
    );
    let mut only_minor = -1;
    t.ok(unsafe { kn_version(null_mut(), &mut only_minor, null_mut()) }, "kn_version(NULL, &minor, NULL)");
    t.eq(KN_VERSION_MINOR, only_minor, "kn_version: the minor alone");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_version(null_mut(), null_mut(), null_mut()) }, "kn_version(NULL x3)");
    let version = unsafe { CStr::from_ptr(kn_version_string()) }.to_string_lossy().into_owned();
    t.eq(format!("{KN_VERSION_MAJOR}.{KN_VERSION_MINOR}.{KN_VERSION_PATCH}"), version, "kn_version_string");
    t.check(unsafe { kn_version_string() == kn_version_string() }, "kn_version_string: a static string");

    // The last error message: the length, truncation, the NUL, a NULL buffer.
    let mut curve = null_mut();
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_create(1.5, 0.0, 0.5, 1.0, &mut curve) }, "create(x1 1.5)");
    t.check(curve.is_null(), "a failed create writes no handle");
    let message = "x1 = 1.5 is outside [0, 1]"; // the header's own example
    let mut length = 12345usize;
    let s = unsafe { kn_last_error_message(null_mut(), 0, &mut length) };
    // A length query (capacity 0) returns KN_OK and writes nothing, as the header says.
    t.status(KN_OK, s, "length query (NULL, 0)");
    t.eq(message.len(), length, "length query (NULL, 0): the full length without the NUL");
    t.eq(message.to_string(), last_error(), "the last error names the value");
    let mut small = [b'z' as c_char; 5];
    length = 0;
    t.status(
        KN_ERR_BUFFER_TOO_SMALL,
        unsafe { kn_last_error_message(small.as_mut_ptr(), small.len(), &mut length) },
        "kn_last_error_message into 5 bytes",
    );
    t.eq(message.len(), length, "truncated: the full length still reported");
    let prefix: Vec<u8> = small.iter().map(|&c| c as u8).collect();
    t.eq(b"x1 =\0".to_vec(), prefix, "truncated: a NUL-terminated prefix of 4 bytes");
    // Exactly the length: no room for the NUL (truncated); the length + 1: the whole message.
    let mut exact = vec![b'z' as c_char; message.len()];
    t.status(
        KN_ERR_BUFFER_TOO_SMALL,
        unsafe { kn_last_error_message(exact.as_mut_ptr(), exact.len(), null_mut()) },
        "a buffer of exactly the length (no room for the NUL)",
    );
    t.check(exact[message.len() - 1] == 0, "that buffer is NUL-terminated");
    let mut whole = vec![b'z' as c_char; message.len() + 1];
    t.ok(unsafe { kn_last_error_message(whole.as_mut_ptr(), whole.len(), null_mut()) }, "length + 1 bytes");
    t.check(whole[message.len()] == 0, "the whole message, NUL-terminated");
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe { kn_last_error_message(null_mut(), 8, null_mut()) },
        "kn_last_error_message(NULL, 8)",
    );
    t.eq(message.to_string(), last_error(), "kn_last_error_message never changes the last error");
    // A success leaves the message as it was.
    let ease = Bezier::preset(KN_BEZIER_EASE);
    t.check(ease.is_ok(), "kn_bezier_create_preset(EASE)");
    t.eq(message.to_string(), last_error(), "a successful call keeps the last error");
}

// ---------------------------------------------------------------- curves

fn test_bezier(t: &mut Checks, path: &str) {
    let rows = match read_csv(path) {
        Ok(rows) => rows,
        Err(e) => {
            t.check(false, format_args!("reading the bezier CSV: {e}"));
            return;
        }
    };
    t.check(rows.len() == 1001, format_args!("bezier CSV: 1001 rows, got {}", rows.len()));
    let Some(curve) = t.get(Bezier::new(0.34, 1.56, 0.64, 1.0), "kn_bezier_create(0.34, 1.56, 0.64, 1)") else {
        return;
    };
    // Value and slope, bit for bit the Swift API's (the CSV).
    let mut mismatches = 0;
    for &[x, value, slope] in &rows {
        let (v, s) = (curve.value(x), curve.slope(x));
        let same = matches!(v, Ok(v) if v.to_bits() == value.to_bits())
            && matches!(s, Ok(s) if s.to_bits() == slope.to_bits());
        if !same {
            mismatches += 1;
            if mismatches <= 3 {
                eprintln!("  x = {x:?}: expected value {value:?}, slope {slope:?}; got {v:?}, {s:?}");
            }
        }
    }
    t.eq(0, mismatches, format_args!("bezier value/slope bit mismatches of {}", rows.len()));

    // kn_bezier_values: calls of 16 or more before the handle's batch values pass 8,192 are
    // bit for bit kn_bezier_value's (this handle's batch values stay below 8,192 here).
    let xs: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    let mut out = vec![f64::NAN; xs.len()];
    if t.get(curve.values(&xs, &mut out), "kn_bezier_values (1001)").is_some() {
        let bad = (0..xs.len()).filter(|&i| out[i].to_bits() != rows[i][1].to_bits()).count();
        t.eq(0, bad, "kn_bezier_values (1001 x) bit mismatches against the CSV");
    }
    let mut in_place = xs.clone();
    if t.get(curve.values_in_place(&mut in_place), "kn_bezier_values in place").is_some() {
        let bad = (0..xs.len()).filter(|&i| in_place[i].to_bits() != rows[i][1].to_bits()).count();
        t.eq(0, bad, "kn_bezier_values in place (out == xs) bit mismatches");
    }
    // Below 16: always kn_bezier_value's; exactly 16: the vectorised path, the same bits.
    for n in [1usize, 7, 15, 16, 17, 40] {
        let batch: Vec<f64> = (0..n).map(|i| -0.05 + 1.1 * i as f64 / n as f64).collect();
        let mut got = vec![f64::NAN; n];
        if t.get(curve.values(&batch, &mut got), "kn_bezier_values").is_some() {
            let bad = (0..n).filter(|&i| curve.value(batch[i]).map(f64::to_bits) != Ok(got[i].to_bits())).count();
            t.eq(0, bad, format_args!("kn_bezier_values of {n}: bit mismatches against kn_bezier_value"));
        }
    }
    // NULL arrays with count 0; NULL with a count; negative and too large counts.
    t.ok(unsafe { kn_bezier_values(curve.0, null(), null_mut(), 0) }, "kn_bezier_values(NULL, NULL, 0)");
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe { kn_bezier_values(curve.0, xs.as_ptr(), null_mut(), 4) },
        "kn_bezier_values(NULL out)",
    );
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_values(curve.0, xs.as_ptr(), out.as_mut_ptr(), -1) }, "count -1");
    t.status(
        KN_ERR_OUT_OF_RANGE,
        unsafe { kn_bezier_values(curve.0, null(), null_mut(), KN_MAX_COUNT + 1) },
        "count KN_MAX_COUNT + 1",
    );

    // Control points.
    if let Some(p) = t.get(curve.control_points(), "kn_bezier_control_points") {
        t.eq([0.34, 1.56, 0.64, 1.0], p, "control points read back");
    }
    let mut y1 = f64::NAN;
    t.ok(
        unsafe { kn_bezier_control_points(curve.0, null_mut(), &mut y1, null_mut(), null_mut()) },
        "control points: NULL pointers are not written",
    );
    t.eq(1.56, y1, "y1 alone");
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe { kn_bezier_control_points(null(), &mut y1, null_mut(), null_mut(), null_mut()) },
        "control points of NULL",
    );
    let presets = [
        (KN_BEZIER_LINEAR, [0.0, 0.0, 1.0, 1.0]),
        (KN_BEZIER_EASE, [0.25, 0.1, 0.25, 1.0]),
        (KN_BEZIER_EASE_IN, [0.42, 0.0, 1.0, 1.0]),
        (KN_BEZIER_EASE_OUT, [0.0, 0.0, 0.58, 1.0]),
        (KN_BEZIER_EASE_IN_OUT, [0.42, 0.0, 0.58, 1.0]),
    ];
    for (preset, points) in presets {
        if let Some(c) = t.get(Bezier::preset(preset), "kn_bezier_create_preset") {
            let got = t.get(c.control_points(), "preset control points");
            t.eq(Some(points), got, format_args!("preset {preset}'s control points"));
        }
    }
    for bad in [-1, 5] {
        let mut c = null_mut();
        t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_create_preset(bad, &mut c) }, "an unknown preset");
    }
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_create_preset(KN_BEZIER_EASE, null_mut()) }, "preset(NULL)");

    // Slopes: ±infinity on a vertical tangent; outside [0, 1] along the end tangents.
    if let Ok(up) = Bezier::new(0.0, 0.5, 0.5, 1.0) {
        t.eq(Ok(f64::INFINITY), up.slope(0.0), "a vertical tangent at 0: +infinity");
    }
    if let Ok(down) = Bezier::new(0.0, -0.5, 0.5, 1.0) {
        t.eq(Ok(f64::NEG_INFINITY), down.slope(0.0), "a vertical tangent at 0: -infinity");
    }
    if let Ok(c) = Bezier::new(0.2, 0.3, 0.6, 0.8) {
        let (start, end) = (0.3 / 0.2, (0.8 - 1.0) / (0.6 - 1.0));
        t.near(start, c.slope(-0.25).unwrap_or(f64::NAN), 1e-15, "slope before 0: the start tangent y1 / x1");
        t.near(start * -0.25, c.value(-0.25).unwrap_or(f64::NAN), 1e-15, "value before 0: along the start tangent");
        t.near(end, c.slope(1.5).unwrap_or(f64::NAN), 1e-15, "slope after 1: the end tangent");
        t.near(1.0 + end * 0.5, c.value(1.5).unwrap_or(f64::NAN), 1e-15, "value after 1: along the end tangent");
    }

    // Bad input: nothing written, the message names the parameter and the value.
    let sentinel = 0x1234usize as *mut KnBezier;
    let mut c = sentinel;
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_create(2.0, 0.0, 0.5, 1.0, &mut c) }, "create(x1 = 2)");
    t.mentions("x1 = 2", "x1 = 2");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_create(0.5, 0.0, -0.25, 1.0, &mut c) }, "create(x2 = -0.25)");
    t.mentions("x2 = -0.25", "x2 = -0.25");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_bezier_create(f64::NAN, 0.0, 0.5, 1.0, &mut c) }, "create(x1 NaN)");
    t.mentions("x1", "NaN x1");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_bezier_create(0.5, f64::INFINITY, 0.5, 1.0, &mut c) }, "create(y1 inf)");
    t.mentions("y1", "infinite y1");
    t.check(c == sentinel, "failed creates leave the out-parameter as it was");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_create(0.5, 0.0, 0.5, 1.0, null_mut()) }, "create(NULL out)");
    let mut v = 42.0;
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_value(null(), 0.5, &mut v) }, "value(NULL curve)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_value(curve.0, 0.5, null_mut()) }, "value(NULL out)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_slope(null(), 0.5, &mut v) }, "slope(NULL curve)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_bezier_slope(curve.0, 0.5, null_mut()) }, "slope(NULL out)");
    t.eq(42.0, v, "failed calls write nothing");
    // y1, y2 any finite value; NaN only for NaN x.
    t.check(Bezier::new(0.3, 1e308, 0.7, -1e308).is_ok(), "y at ±1e308 accepted");
    t.check(curve.value(f64::NAN).is_ok_and(f64::is_nan), "value(NaN) is NaN");
    t.check(
        [f64::INFINITY, f64::NEG_INFINITY, -3.0, 7.0].iter().all(|&x| curve.value(x).is_ok_and(|y| !y.is_nan())),
        "value outside [0, 1] and at ±infinity is not NaN",
    );
    unsafe { kn_bezier_destroy(null_mut()) }; // a no-op
}

/// Monotonicity and the ends of ease-in-out. The header promises accuracy, not monotonicity:
/// every value is within 1e-12 of the exact, non-decreasing curve, so no value may fall more
/// than 2e-12 below an earlier one, and none leaves [0, 1] by more than 1e-12.
fn test_bezier_shape(t: &mut Checks) {
    let Some(curve) = t.get(Bezier::preset(KN_BEZIER_EASE_IN_OUT), "ease-in-out") else { return };
    let mut xs: Vec<f64> = (0..=100_000).map(|i| i as f64 / 100_000.0).collect();
    // 2^-k down to the smallest subnormal (halving: powi(-1074) would be 1 / infinity), and
    // 1 − 2^-k up to the largest double below 1.
    let halves: Vec<f64> = std::iter::successors(Some(0.5f64), |&h| Some(h / 2.0)).take_while(|&h| h > 0.0).collect();
    xs.extend(&halves);
    xs.extend(halves.iter().take(53).map(|h| 1.0 - h));
    xs.extend([f64::MIN_POSITIVE, 1e-300, 1e-100, 1e-20, 1e-9, 1.0 - 1e-9, 1.0 - 1e-15]);
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let values: Vec<f64> = xs.iter().map(|&x| curve.value(x).unwrap_or(f64::NAN)).collect();
    let falls = values.windows(2).filter(|w| w[1].is_nan() || w[1] < w[0] - 2e-12).count();
    t.eq(0, falls, format_args!("ease-in-out over {} sorted x: values falling by more than 2e-12", xs.len()));
    let outside = values.iter().filter(|&&v| !(-1e-12..=1.0 + 1e-12).contains(&v)).count();
    t.eq(0, outside, "ease-in-out values outside [0, 1] (beyond 1e-12)");
    // Exactly 0 at 0 and 1 at 1: the header promises it of kn_bezier_values' table, and says
    // x within 2^-26 of an end is always bit for bit kn_bezier_value, so it holds for both.
    let mut rng = SplitMix(0x454E_4453);
    let mut curves = vec![[0.42, 0.0, 0.58, 1.0], [0.34, 1.56, 0.64, 1.0], [0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]];
    curves.extend((0..20).map(|_| [rng.unit(), 3.0 * rng.unit() - 1.0, rng.unit(), 3.0 * rng.unit() - 1.0]));
    let mut wrong = 0;
    for p in &curves {
        if let Ok(c) = Bezier::new(p[0], p[1], p[2], p[3]) {
            if c.value(0.0) != Ok(0.0) || c.value(1.0) != Ok(1.0) {
                wrong += 1;
                eprintln!("  curve {p:?}: value(0) = {:?}, value(1) = {:?}", c.value(0.0), c.value(1.0));
            }
        }
    }
    t.eq(0, wrong, format_args!("value(0) == 0 and value(1) == 1 exactly, of {} curves", curves.len()));
}

/// The header's accuracy promise, against an independent solve: within 1e-12 · max(1, |y1|,
/// |y2|) of the exact value in [0, 1]. 300 seeded random curves (x1, x2 in [0, 1], y1, y2 in
/// [−1, 2]), 80 x each (past the 65th evaluation, so with and without the solve table).
fn test_bezier_accuracy(t: &mut Checks) {
    let mut rng = SplitMix(0x004B_494E_4554_4943);
    let (mut far, mut compared, mut worst) = (0, 0, 0.0f64);
    for _ in 0..300 {
        let (x1, y1, x2, y2) = (rng.unit(), 3.0 * rng.unit() - 1.0, rng.unit(), 3.0 * rng.unit() - 1.0);
        let Ok(curve) = Bezier::new(x1, y1, x2, y2) else {
            t.check(false, format_args!("kn_bezier_create({x1}, {y1}, {x2}, {y2})"));
            continue;
        };
        let bound = 1e-12 * 1f64.max(y1.abs()).max(y2.abs());
        for k in 0..80 {
            let x = match k {
                0 => 0.0,
                1 => 1.0,
                2 => 1e-9,
                3 => 1.0 - 1e-9,
                _ => rng.unit(),
            };
            let exact = exact_bezier(x1, y1, x2, y2, x);
            let got = curve.value(x).unwrap_or(f64::NAN);
            compared += 1;
            let error = (got - exact).abs();
            worst = worst.max(error / bound * 1e-12);
            if error.is_nan() || error > bound {
                far += 1;
                if far <= 3 {
                    eprintln!("  ({x1:?}, {y1:?}, {x2:?}, {y2:?}) at {x:?}: exact {exact:?}, got {got:?}");
                }
            }
        }
    }
    t.eq(
        0,
        far,
        format_args!("values beyond 1e-12 · max(1, |y1|, |y2|) of the exact, of {compared} (worst {worst:e})"),
    );
}

/// Past 8,192 batch values the handle's batch table: within 2e-13 · max(1, |y1|, |y2|) of
/// kn_bezier_value in [0, 1], exactly 0 at 0 and 1 at 1; within 2^-26 of an end, outside
/// [0, 1] and NaN bit for bit. Before that, bit for bit.
fn test_bezier_batch_table(t: &mut Checks) {
    let (x1, y1, x2, y2) = (0.2, -0.8, 0.6, 1.8);
    let Some(curve) = t.get(Bezier::new(x1, y1, x2, y2), "kn_bezier_create") else { return };
    let mut rng = SplitMix(0x0054_4142_4C45);
    let mut xs: Vec<f64> = (0..4096).map(|_| 1.2 * rng.unit() - 0.1).collect();
    let ends = 2f64.powi(-26);
    let special = [0.0, 1.0, ends / 2.0, 1.0 - ends / 2.0, -0.5, 1.5, f64::NAN, f64::INFINITY, 1e-300];
    xs[..special.len()].copy_from_slice(&special);
    let scalar: Vec<f64> = xs.iter().map(|&x| curve.value(x).unwrap_or(-7.0)).collect();
    let same = |a: &[f64], b: &[f64]| a.iter().zip(b).filter(|(p, q)| p.to_bits() != q.to_bits()).count();
    let mut out = vec![0.0; xs.len()];
    for call in 1..=2 {
        t.get(curve.values(&xs, &mut out), "kn_bezier_values (4096)");
        t.eq(0, same(&scalar, &out), format_args!("batch call {call} (before 8,192): bit mismatches"));
    }
    t.get(curve.values(&xs, &mut out), "kn_bezier_values (past 8,192)");
    let bound = 2e-13 * 1f64.max(y1.abs()).max(y2.abs());
    let (mut far, mut exact_ends_wrong, mut outside_differs) = (0, 0, 0);
    for i in 0..xs.len() {
        let x = xs[i];
        if x.is_nan() || !(ends..=1.0 - ends).contains(&x) {
            outside_differs += (scalar[i].to_bits() != out[i].to_bits()) as usize;
        } else if out[i].is_nan() || (out[i] - scalar[i]).abs() > bound {
            far += 1;
        }
    }
    exact_ends_wrong += (out[0] != 0.0) as usize + (out[1] != 1.0) as usize;
    t.eq(0, far, "batch table: values beyond 2e-13 · max(1, |y|) of kn_bezier_value");
    t.eq(0, exact_ends_wrong, "batch table: exactly 0 at 0 and 1 at 1");
    t.eq(0, outside_differs, "batch table: within 2^-26 of an end, outside [0, 1], NaN: bit for bit");
}

// ---------------------------------------------------------------- springs

fn test_spring(t: &mut Checks, path: &str) {
    let rows = match read_csv(path) {
        Ok(rows) => rows,
        Err(e) => {
            t.check(false, format_args!("reading the spring CSV: {e}"));
            return;
        }
    };
    t.check(rows.len() > 10, format_args!("spring CSV rows: {}", rows.len()));
    let Some(spring) = t.get(Spring::damping_ratio(0.5, 0.4), "kn_spring_create_damping_ratio(0.5, 0.4)") else {
        return;
    };
    let v0 = 2.0;
    let mut mismatches = 0;
    for &[time, value, velocity] in &rows {
        let (v, w) = (spring.value(time, v0), spring.velocity(time, v0));
        if v.map(f64::to_bits) != Ok(value.to_bits()) || w.map(f64::to_bits) != Ok(velocity.to_bits()) {
            mismatches += 1;
            if mismatches <= 3 {
                eprintln!("  t = {time:?}: expected {value:?}, {velocity:?}; got {v:?}, {w:?}");
            }
        }
    }
    t.eq(0, mismatches, format_args!("spring value/velocity bit mismatches of {}", rows.len()));
    if let (Some(settle), Some(last)) = (t.get(spring.settling_duration(v0, 0.001), "settling"), rows.last()) {
        t.bits(last[0], settle, "settling duration (epsilon 0.001) = the CSV's last time");
    }

    // The four constructors, and what each gives back.
    let Some(physical) = t.get(Spring::new(1.0, 100.0, 10.0), "kn_spring_create(1, 100, 10)") else { return };
    let Some(bouncy) = t.get(Spring::duration(0.5, 0.3), "kn_spring_create_duration(0.5, 0.3)") else { return };
    let Some(settling) = t.get(Spring::settling(0.8, 0.9, 0.001), "kn_spring_create_settling") else { return };
    t.eq(Ok([1.0, 100.0, 10.0]), physical.parameters(), "kn_spring_parameters");
    t.ok(unsafe { kn_spring_parameters(physical.0, null_mut(), null_mut(), null_mut()) }, "parameters(NULL x3)");
    if let Some(s) = t.get(settling.settling_duration(0.0, 0.001), "settling of the settling spring") {
        t.near(0.8, s, 0.8e-12, "kn_spring_create_settling gives its duration back (1e-12 relative)");
    }
    // kn_spring_get_properties: the header's formulas, bit for bit (Rust never fuses).
    for (name, s) in
        [("damping ratio", &spring), ("physical", &physical), ("duration", &bouncy), ("settling", &settling)]
    {
        let (Some(p), Some([m, k, c])) = (t.get(s.properties(), "properties"), t.get(s.parameters(), "parameters"))
        else {
            continue;
        };
        let zeta = c / (2.0 * (k * m).sqrt());
        let response = 2.0 * std::f64::consts::PI * (m / k).sqrt();
        let bounce = if zeta <= 1.0 { 1.0 - zeta } else { 1.0 / zeta - 1.0 };
        let expected = KnSpringProperties {
            mass: m,
            stiffness: k,
            damping: c,
            damping_ratio: zeta,
            response,
            duration: response,
            bounce,
        };
        let same = [
            (expected.mass, p.mass),
            (expected.stiffness, p.stiffness),
            (expected.damping, p.damping),
            (expected.damping_ratio, p.damping_ratio),
            (expected.response, p.response),
            (expected.duration, p.duration),
            (expected.bounce, p.bounce),
        ]
        .iter()
        .all(|(a, b)| a.to_bits() == b.to_bits());
        t.check(same, format_args!("{name} spring properties: expected {expected:?}, got {p:?}"));
    }
    // Round trips: the arguments come back up to rounding.
    if let Ok(p) = spring.properties() {
        t.near(0.5, p.damping_ratio, 1e-15, "damping ratio 0.5 read back");
        t.near(0.4, p.response, 1e-15, "response 0.4 read back");
    }
    if let Ok(p) = bouncy.properties() {
        t.near(0.5, p.duration, 1e-15, "duration 0.5 read back");
        t.near(0.3, p.bounce, 1e-15, "bounce 0.3 read back");
    }
    let mut props = KnSpringProperties::default();
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_get_properties(null(), &mut props) }, "properties(NULL)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_get_properties(spring.0, null_mut()) }, "properties(out NULL)");

    // value / velocity: before time 0, at +infinity, NaN.
    t.eq(Ok(0.0), physical.value(-1.0, 0.75), "value before time 0");
    t.eq(Ok(0.75), physical.velocity(-1.0, 0.75), "velocity before time 0: initial_velocity");
    t.eq(Ok(1.0), physical.value(f64::INFINITY, 0.5), "value at +infinity (damped): 1");
    t.eq(Ok(0.0), physical.velocity(f64::INFINITY, 0.5), "velocity at +infinity (damped): 0");
    t.check(physical.value(f64::NAN, 0.0).is_ok_and(f64::is_nan), "value at NaN time: NaN");
    if let Ok(undamped) = Spring::new(1.0, 100.0, 0.0) {
        t.check(undamped.value(f64::INFINITY, 0.0).is_ok_and(f64::is_nan), "undamped at +infinity: NaN");
        t.eq(Ok(f64::INFINITY), undamped.settling_duration(0.0, 0.001), "undamped settling: +infinity");
    }
    t.eq(Ok(f64::INFINITY), physical.settling_duration(0.0, 0.0), "settling with epsilon 0: +infinity");
    t.eq(Ok(f64::INFINITY), physical.settling_duration(f64::INFINITY, 0.001), "settling at infinite velocity");
    t.eq(Ok(0.0), physical.settling_duration(0.0, 2.0), "settling within a band it never leaves: 0");

    // Φ(dt): (d, v)(t + dt) = Φ · (d, v)(t); the unit move starts at d = −1, v = v0.
    let dt = 1.0 / 60.0;
    if let Some(phi) = t.get(physical.transition(dt), "kn_spring_transition") {
        let d = -phi[0] + phi[1] * v0;
        let w = -phi[2] + phi[3] * v0;
        t.near(physical.value(dt, v0).unwrap_or(f64::NAN) - 1.0, d, 1e-14, "Φ row 0 against kn_spring_value");
        t.near(physical.velocity(dt, v0).unwrap_or(f64::NAN), w, 1e-13, "Φ row 1 against kn_spring_velocity");
        // kn_spring_step: Φ applied to each spring, in place.
        let mut x = [-1.0, 0.5, 2.0];
        let mut v = [0.0, 1.0, -3.0];
        let (x0, w0) = (x, v);
        t.ok(unsafe { kn_spring_step(physical.0, dt, x.as_mut_ptr(), v.as_mut_ptr(), 3) }, "kn_spring_step");
        for i in 0..3 {
            t.near(phi[0] * x0[i] + phi[1] * w0[i], x[i], 1e-15, format_args!("step: displacement {i}"));
            t.near(phi[2] * x0[i] + phi[3] * w0[i], v[i], 1e-13, format_args!("step: velocity {i}"));
        }
        let before = (x, v);
        t.status(
            KN_ERR_OUT_OF_RANGE,
            unsafe { kn_spring_step(physical.0, -dt, x.as_mut_ptr(), v.as_mut_ptr(), 3) },
            "step(dt < 0)",
        );
        t.status(
            KN_ERR_OUT_OF_RANGE,
            unsafe { kn_spring_step(physical.0, dt, x.as_mut_ptr(), v.as_mut_ptr(), -3) },
            "step(count -3)",
        );
        t.status(
            KN_ERR_NULL_ARGUMENT,
            unsafe { kn_spring_step(physical.0, dt, null_mut(), v.as_mut_ptr(), 3) },
            "step(NULL)",
        );
        t.eq(before, (x, v), "failed steps change nothing");
    }
    let mut phi = [42.0; 4];
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_transition(physical.0, -dt, &mut phi) }, "transition(dt < 0)");
    t.mentions("dt", "transition(dt < 0) names dt");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_spring_transition(physical.0, f64::NAN, &mut phi) }, "transition(NaN)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_transition(physical.0, dt, null_mut()) }, "transition(NULL)");
    t.eq([42.0; 4], phi, "failed transitions write nothing");

    // A finite velocity that puts the true position beyond double: a status, not infinity.
    if let Some(soft) = t.get(Spring::new(1.0, 1e-4, 0.01), "a soft spring") {
        let mut out = 42.0;
        t.status(
            KN_ERR_OUT_OF_RANGE,
            unsafe { kn_spring_value(soft.0, 100.0, 1e308, &mut out) },
            "value with initial_velocity 1e308 on a soft spring",
        );
        t.mentions("initial_velocity", "the overflow names initial_velocity");
        t.eq(42.0, out, "nothing written on overflow");
        t.check(soft.value(100.0, 1e300).is_ok_and(f64::is_finite), "1e300 stays in range: finite");
        let v = soft.velocity(100.0, 1e308);
        t.check(
            v.is_ok_and(f64::is_finite) || v == Err(KN_ERR_OUT_OF_RANGE),
            format_args!("velocity at 1e308: finite or OUT_OF_RANGE, got {v:?}"),
        );
    }

    // Bad parameters: nothing written.
    let sentinel = 0x5678usize as *mut KnSpring;
    let mut s = sentinel;
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create(0.0, 100.0, 10.0, &mut s) }, "mass 0");
    t.mentions("mass", "mass 0 names mass");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_spring_create(1.0, f64::NAN, 10.0, &mut s) }, "stiffness NaN");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create(1e-310, 1.0, 0.0, &mut s) }, "mass 1e-310");
    t.mentions("stiffness / mass", "mass 1e-310 names stiffness / mass");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create_damping_ratio(-0.5, 0.4, &mut s) }, "ratio -0.5");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create_duration(0.5, 1.0, &mut s) }, "bounce 1");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create_settling(0.8, 0.9, 1.0, &mut s) }, "epsilon 1");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spring_create_settling(0.8, 0.0, 0.001, &mut s) }, "ratio 0");
    t.check(s == sentinel, "failed creates leave the handle as it was");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_create(1.0, 100.0, 10.0, null_mut()) }, "create(NULL)");
    let mut out = 42.0;
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_value(null(), 0.1, 0.0, &mut out) }, "value(NULL)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_spring_velocity(spring.0, 0.1, 0.0, null_mut()) }, "velocity(NULL out)");
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe { kn_spring_settling_duration(null(), 0.0, 0.001, &mut out) },
        "settling(NULL)",
    );
    t.eq(42.0, out, "failed calls write nothing");
    unsafe { kn_spring_destroy(null_mut()) };
}

// ---------------------------------------------------------------- gesture motion

fn rel(expected: f64) -> f64 {
    expected.abs()
}

fn test_motion(t: &mut Checks) {
    // LSQ2 on two lanes: a parabola and a line (a degree-2 fit is exact on them).
    if let Some(mut tracker) = t.get(Tracker::new(KN_VELOCITY_LSQ2, 2), "tracker (LSQ2, 2 lanes)") {
        t.eq(Ok(vec![0.0, 0.0]), tracker.velocity(0.0), "no samples: 0");
        for time in [0.0, 0.001, 0.002] {
            let x = 1000.0 * time + 1.0;
            t.get(tracker.add(time, &[x * x, 5.0 - 2000.0 * time]), "tracker add");
        }
        let v = tracker.velocity(0.002).unwrap_or_default();
        t.near(6000.0, v.first().copied().unwrap_or(f64::NAN), 6000.0 * 1e-9, "LSQ2: d/dt (1000t + 1)² at 2 ms");
        t.near(-2000.0, v.get(1).copied().unwrap_or(f64::NAN), 2000.0 * 1e-9, "LSQ2: the line's slope");
        t.eq(Ok(vec![0.0, 0.0]), tracker.velocity(0.002 + 0.0401), "asked 40.1 ms after the newest: 0");
        t.eq(Err(KN_ERR_OUT_OF_RANGE), tracker.add(0.001, &[0.0, 0.0]), "a sample before the newest");
        t.eq(Err(KN_ERR_NOT_FINITE), tracker.add(0.003, &[f64::NAN, 0.0]), "a NaN sample");
        t.eq(Ok(v), tracker.velocity(0.002), "refused samples change nothing");
        t.get(tracker.reset(), "reset");
        t.get(tracker.add(1.0, &[3.0, 3.0]), "one sample after the reset");
        t.eq(Ok(vec![0.0, 0.0]), tracker.velocity(1.0), "fewer than 2 samples: 0");
    }
    if let Some(mut impulse) = t.get(Tracker::new(KN_VELOCITY_IMPULSE, 1), "tracker (impulse)") {
        for i in 0..3 {
            t.get(impulse.add(0.01 * i as f64, &[5.0 * i as f64]), "impulse add");
        }
        let v = impulse.velocity(0.02).unwrap_or_default();
        t.near(500.0, v.first().copied().unwrap_or(f64::NAN), 500.0 * 1e-9, "impulse: a steady 500 per second");
    }
    t.eq(Err(KN_ERR_OUT_OF_RANGE), Tracker::new(2, 1).map(|_| ()), "strategy 2");
    t.eq(Err(KN_ERR_OUT_OF_RANGE), Tracker::new(KN_VELOCITY_LSQ2, 0).map(|_| ()), "0 lanes");
    t.eq(Err(KN_ERR_OUT_OF_RANGE), Tracker::new(KN_VELOCITY_LSQ2, 65).map(|_| ()), "65 lanes");
    t.check(Tracker::new(KN_VELOCITY_LSQ2, 64).is_ok(), "64 lanes");

    // Decay: UIKit's rate per millisecond.
    let mut decay = KnDecay::default();
    t.ok(unsafe { kn_decay_from_rate(0.99, &mut decay) }, "kn_decay_from_rate(0.99)");
    let k = -1000.0 * 0.99f64.ln();
    t.near(k, decay.decay_constant, k * 1e-15, "decay constant = −1000 ln(rate)");
    t.eq(0.0, decay.velocity_threshold, "UIKit's threshold: 0");
    let (mut x, mut v) = (f64::NAN, f64::NAN);
    t.ok(unsafe { kn_decay_state(&decay, 0.25, -3000.0, &mut x, &mut v) }, "kn_decay_state");
    let kd = decay.decay_constant;
    let e = (-kd * 0.25).exp();
    t.near(-3000.0 * e, v, rel(3000.0 * e) * 1e-12, "decay velocity v0 e^(−kt)");
    let offset = -3000.0 * -(-kd * 0.25).exp_m1() / kd;
    t.near(offset, x, rel(offset) * 1e-12, "decay offset v0 (1 − e^(−kt)) / k");
    t.ok(unsafe { kn_decay_state(&decay, 0.25, -3000.0, null_mut(), null_mut()) }, "decay state: NULL outputs");
    let mut rest = f64::NAN;
    t.ok(unsafe { kn_decay_resting_offset(&decay, -3000.0, &mut rest) }, "resting offset");
    t.near(-3000.0 / kd, rest, rel(3000.0 / kd) * 1e-15, "resting offset with threshold 0: v0 / k");
    let mut duration = 42.0;
    t.status(
        KN_ERR_OUT_OF_RANGE,
        unsafe { kn_decay_duration(&decay, -3000.0, &mut duration) },
        "duration, threshold 0",
    );
    t.ok(unsafe { kn_decay_duration(&decay, 0.0, &mut duration) }, "duration of a release at rest");
    t.eq(0.0, duration, "a release at rest has already stopped");
    // Compose: 4.2 × friction, |threshold| clamped.
    t.ok(unsafe { kn_decay_from_friction(1.0, 2.0, &mut decay) }, "kn_decay_from_friction(1, 2)");
    t.eq(KnDecay { decay_constant: 4.2, velocity_threshold: 2.0 }, decay, "Compose's constants");
    t.ok(unsafe { kn_decay_resting_offset(&decay, -800.0, &mut rest) }, "resting offset, threshold 2");
    t.near(-798.0 / 4.2, rest, 798.0 / 4.2 * 1e-15, "(v0 − sign(v0) · threshold) / k");
    t.ok(unsafe { kn_decay_duration(&decay, -800.0, &mut duration) }, "duration, threshold 2");
    t.near(400f64.ln() / 4.2, duration, 1e-14, "duration ln(|v0| / threshold) / k");
    t.ok(unsafe { kn_decay_resting_offset(&decay, 1.5, &mut rest) }, "a release below the threshold");
    t.eq(0.0, rest, "|v0| <= threshold: rests at 0");
    let mut clamped = KnDecay::default();
    t.ok(unsafe { kn_decay_from_friction(0.0, -0.5, &mut clamped) }, "kn_decay_from_friction(0, -0.5)");
    t.eq(KnDecay { decay_constant: 4.2 * 0.0001, velocity_threshold: 0.5 }, clamped, "friction and threshold clamped");
    t.ok(unsafe { kn_decay_from_friction(1.0, 0.0, &mut clamped) }, "kn_decay_from_friction(1, 0)");
    t.eq(1e-7, clamped.velocity_threshold, "threshold at least 1e-7");
    let untouched = KnDecay { decay_constant: 42.0, velocity_threshold: 42.0 };
    let mut d = untouched;
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_decay_from_rate(1.0, &mut d) }, "rate 1");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_decay_from_rate(f64::NAN, &mut d) }, "rate NaN");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_decay_from_rate(0.99, null_mut()) }, "rate to NULL");
    t.eq(untouched, d, "failed decays write nothing");
    let broken = KnDecay { decay_constant: 0.0, velocity_threshold: 0.0 };
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_decay_state(&broken, 0.1, 1.0, &mut x, &mut v) }, "decay constant 0");
    let negative = KnDecay { decay_constant: 1.0, velocity_threshold: -1.0 };
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_decay_resting_offset(&negative, 1.0, &mut rest) }, "threshold < 0");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_decay_state(null(), 0.1, 1.0, &mut x, &mut v) }, "decay NULL");

    // Android's fling: signed distance, the full distance and velocity 0 after it.
    let (mut distance, mut fling_duration) = (f64::NAN, f64::NAN);
    t.ok(
        unsafe { kn_spline_fling_extent(3.0, 0.015, 8000.0, &mut distance, &mut fling_duration) },
        "kn_spline_fling_extent",
    );
    t.check(distance > 0.0 && fling_duration > 0.0, format_args!("fling extent {distance}, {fling_duration}"));
    let (mut back, mut back_duration) = (f64::NAN, f64::NAN);
    t.ok(unsafe { kn_spline_fling_extent(3.0, 0.015, -8000.0, &mut back, &mut back_duration) }, "extent (v < 0)");
    t.check(back < 0.0, format_args!("a fling the other way goes the other way: {back}"));
    let (mut o, mut w) = (f64::NAN, f64::NAN);
    t.ok(unsafe { kn_spline_fling(3.0, 0.015, 8000.0, fling_duration + 1.0, &mut o, &mut w) }, "kn_spline_fling");
    t.bits(distance, o, "after the fling: the full distance");
    t.eq(0.0, w, "after the fling: velocity 0");
    t.ok(unsafe { kn_spline_fling(3.0, 0.015, 8000.0, 0.1, null_mut(), null_mut()) }, "fling: NULL outputs");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spline_fling(0.0, 0.015, 8000.0, 0.1, &mut o, &mut w) }, "density 0");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_spline_fling_extent(3.0, -1.0, 8000.0, &mut o, &mut w) }, "friction < 0");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_spline_fling(3.0, 0.015, f64::NAN, 0.1, &mut o, &mut w) }, "NaN velocity");

    // The rubber band: the header's formula; its inverse.
    let (d_, c_) = (600.0, 0.55);
    let mut y = f64::NAN;
    t.ok(unsafe { kn_rubber_band(123.0, d_, c_, &mut y) }, "kn_rubber_band");
    let expected = (1.0 - 1.0 / (123.0 * c_ / d_ + 1.0)) * d_;
    t.near(expected, y, expected * 1e-14, "rubber band: (1 − 1 / (x c / d + 1)) d");
    let mut drag = f64::NAN;
    t.ok(unsafe { kn_rubber_band_inverse(y, d_, c_, &mut drag) }, "kn_rubber_band_inverse");
    t.near(123.0, drag, 123.0 * 1e-12, "the inverse gives the drag back");
    let mut y_neg = f64::NAN;
    t.ok(unsafe { kn_rubber_band(-123.0, d_, c_, &mut y_neg) }, "rubber band (negative)");
    t.near(-expected, y_neg, expected * 1e-14, "signed as the overscroll");
    // |result| < dimension however far the drag: past about 2^53·d/c (1e19 here), where the
    // formula rounds to the dimension itself, the largest double below it; the inverse takes
    // it back to a finite drag.
    for huge in [1e19, 1e300, f64::MAX] {
        t.ok(unsafe { kn_rubber_band(-huge, d_, c_, &mut y) }, "rubber band (a drag of 1e19 or more)");
        t.eq((-d_).next_up().to_bits(), y.to_bits(), "the largest double inside the dimension");
        t.ok(unsafe { kn_rubber_band_inverse(y, d_, c_, &mut drag) }, "the inverse there");
        t.check(drag.is_finite() && drag < -1e16, format_args!("a finite drag back: {drag}"));
    }
    t.ok(unsafe { kn_rubber_band(1e12, d_, c_, &mut y) }, "rubber band (a huge drag)");
    t.check(y < d_ && y > 0.999 * d_, format_args!("|result| < dimension: {y}"));
    t.ok(unsafe { kn_rubber_band_inverse(y, d_, c_, &mut drag) }, "the inverse of a huge drag");
    t.near(1e12, drag, 1e12 * 1e-3, "the huge drag back (to the 1e-3 rounding near the dimension allows)");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_rubber_band_inverse(600.0, d_, c_, &mut drag) }, "inverse at d");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_rubber_band(1.0, 0.0, c_, &mut y) }, "dimension 0");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_rubber_band(1.0, d_, -1.0, &mut y) }, "coefficient < 0");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_rubber_band(f64::INFINITY, d_, c_, &mut y) }, "infinite overscroll");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_rubber_band(1.0, d_, c_, null_mut()) }, "rubber band to NULL");

    // Snapping: the target nearest the projected rest; velocity / (target − position).
    let targets = [0.0, 300.0, 600.0];
    let (mut index, mut normalized) = (-1i64, f64::NAN);
    t.ok(
        unsafe { kn_snap(100.0, 1500.0, targets.as_ptr(), 3, null(), &mut index, &mut normalized) },
        "kn_snap (UIKit's normal rate)",
    );
    let rest_at = 100.0 + 1500.0 / (-1000.0 * 0.998f64.ln()); // about 849
    let nearest = (0..3).min_by(|&a, &b| (targets[a] - rest_at).abs().total_cmp(&(targets[b] - rest_at).abs()));
    t.eq(nearest.map(|i| i as i64), Some(index), "the target nearest where it coasts to rest");
    t.bits(1500.0 / (600.0 - 100.0), normalized, "normalised velocity");
    let fast = KnDecay { decay_constant: 10.0, velocity_threshold: 0.0 }; // rests at 250
    t.ok(unsafe { kn_snap(100.0, 1500.0, targets.as_ptr(), 3, &fast, &mut index, &mut normalized) }, "snap (decay)");
    t.eq(1, index, "with a given decay: 300");
    t.bits(1500.0 / 200.0, normalized, "normalised velocity (decay)");
    let pair = [100.0, 200.0];
    t.ok(unsafe { kn_snap(150.0, 0.0, pair.as_ptr(), 2, null(), &mut index, null_mut()) }, "snap (a tie)");
    t.eq(0, index, "ties go to the first target");
    let here = [300.0];
    t.ok(unsafe { kn_snap(300.0, 0.0, here.as_ptr(), 1, null(), null_mut(), &mut normalized) }, "snap (distance 0)");
    t.eq(0.0, normalized, "distance 0: normalised velocity 0");
    t.status(
        KN_ERR_COUNT_MISMATCH,
        unsafe { kn_snap(0.0, 0.0, null(), 0, null(), null_mut(), null_mut()) },
        "no targets",
    );
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe { kn_snap(0.0, 0.0, null(), 2, null(), null_mut(), null_mut()) },
        "NULL targets, count 2",
    );
    let nan_target = [0.0, f64::NAN];
    t.status(
        KN_ERR_NOT_FINITE,
        unsafe { kn_snap(0.0, 0.0, nan_target.as_ptr(), 2, null(), null_mut(), null_mut()) },
        "a NaN target",
    );
    t.mentions("targets[1]", "names targets[1]");
    t.status(
        KN_ERR_OUT_OF_RANGE,
        unsafe { kn_snap(0.0, 0.0, targets.as_ptr(), 3, &broken, null_mut(), null_mut()) },
        "a broken decay",
    );
}

// ---------------------------------------------------------------- batch store

fn test_store(t: &mut Checks) {
    let Some(store) = t.get(Store::new(), "kn_store_create") else { return };
    let Some(other) = t.get(Store::new(), "another store") else { return };
    let Some(spring) = t.get(Spring::new(1.0, 100.0, 10.0), "spring") else { return };
    let Some(ease) = t.get(Bezier::preset(KN_BEZIER_EASE), "ease") else { return };
    let ease_half = ease.value(0.5).unwrap_or(f64::NAN);

    // A group, lanes, keyframes (an eased and a hold segment), springs, decays.
    let (from, to) = ([0.0, 10.0], [100.0, 20.0]);
    let mut group = KN_ENTRY_NONE;
    t.ok(unsafe { kn_store_add_group(store.0, from.as_ptr(), to.as_ptr(), 2, 0.25, &mut group) }, "add_group");
    t.check(group != KN_ENTRY_NONE, "an entry is never KN_ENTRY_NONE");
    let progress = [0.5, 1.0];
    let mut lanes = KN_ENTRY_NONE;
    t.ok(
        unsafe { kn_store_add_lanes(store.0, from.as_ptr(), to.as_ptr(), progress.as_ptr(), 2, &mut lanes) },
        "add_lanes",
    );
    let times = [0.0, 0.5, 1.0];
    let values = [0.0, 10.0, 20.0];
    let interpolations = [KN_INTERPOLATION_EASED, KN_INTERPOLATION_HOLD];
    // A plain array of curve pointers passes as `kn_bezier *const *`; the store copies them.
    let easings: [*mut KnBezier; 2] = [ease.0, null_mut()];
    let mut keys = KN_ENTRY_NONE;
    t.ok(
        unsafe {
            kn_store_add_keyframes(
                store.0,
                times.as_ptr(),
                3,
                values.as_ptr(),
                1,
                interpolations.as_ptr(),
                easings.as_ptr(),
                0.25,
                &mut keys,
            )
        },
        "add_keyframes",
    );
    drop(ease); // "they may be destroyed after this call"
    let (targets, displacements) = ([1.0], [-1.0]);
    let mut springs = KN_ENTRY_NONE;
    t.ok(
        unsafe {
            kn_store_add_springs(store.0, spring.0, targets.as_ptr(), displacements.as_ptr(), null(), 1, &mut springs)
        },
        "add_springs",
    );
    let decay = KnDecay { decay_constant: 4.0, velocity_threshold: 0.0 };
    let (positions, velocities) = ([5.0], [-120.0]);
    let mut decays = KN_ENTRY_NONE;
    t.ok(
        unsafe { kn_store_add_decays(store.0, &decay, positions.as_ptr(), velocities.as_ptr(), 1, &mut decays) },
        "add_decays",
    );
    t.eq(Ok(5.0), store.value(decays, 0), "a decays entry shows its positions from the start");
    t.eq(Ok((7, 5)), store.counts(), "lane and entry counts");
    // Output order: groups, lanes, keyframes, springs, decays.
    let expected_ranges = [(group, (0, 2)), (lanes, (2, 2)), (keys, (4, 1)), (springs, (5, 1)), (decays, (6, 1))];
    for (n, (entry, range)) in expected_ranges.iter().enumerate() {
        t.eq(Ok(*range), store.range(*entry), format_args!("range of entry {n}"));
    }

    let dt = 1.0 / 60.0;
    t.ok(unsafe { kn_store_tick(store.0, dt) }, "kn_store_tick");
    let mut two = [f64::NAN; 2];
    t.eq(Ok(2), store.read(group, &mut two), "read the group");
    t.eq([0.0 + 0.25 * (100.0 - 0.0), 10.0 + 0.25 * (20.0 - 10.0)], two, "from + progress · (to − from)");
    t.eq(Ok(2), store.read(lanes, &mut two), "read the lanes");
    t.eq([0.0 + 0.5 * 100.0, 10.0 + 1.0 * 10.0], two, "per-lane progress");
    let keyed = store.value(keys, 0).unwrap_or(f64::NAN);
    t.near(10.0 * ease_half, keyed, 1e-12, "eased segment: local progress 0.5 through ease");
    if let Ok(phi) = spring.transition(dt) {
        let sprung = store.value(springs, 0).unwrap_or(f64::NAN);
        t.near(1.0 + (-phi[0] + phi[1] * 0.0), sprung, 1e-12, "spring: target + one Φ step");
    }
    let expected = 5.0 - 120.0 * -(-4.0 * dt).exp_m1() / 4.0;
    t.near(expected, store.value(decays, 0).unwrap_or(f64::NAN), 1e-12, "decay: one exact step");
    let mut all = [f64::NAN; 7];
    t.eq(
        Ok(7),
        {
            let mut count = -1;
            result(unsafe { kn_store_read_all(store.0, all.as_mut_ptr(), 7, &mut count) }, count)
        },
        "read_all",
    );
    t.eq([25.0, 12.5, 50.0, 20.0], [all[0], all[1], all[2], all[3]], "read_all: the group, then the lanes");
    let mut small = [42.0];
    t.eq(Err(KN_ERR_BUFFER_TOO_SMALL), store.read(group, &mut small), "read into 1 of 2");
    let mut count = -1;
    unsafe { kn_store_read(store.0, group, small.as_mut_ptr(), 1, &mut count) };
    t.eq((2, 42.0), (count, small[0]), "too small: the count reported, nothing copied");

    // Progress: set, hold segment, wrong kind, not finite.
    t.ok(unsafe { kn_store_set_progress(store.0, keys, 0.75) }, "set_progress (keyframes)");
    t.ok(unsafe { kn_store_evaluate(store.0) }, "kn_store_evaluate");
    t.eq(Ok(10.0), store.value(keys, 0), "hold segment: its start value");
    t.status(KN_ERR_WRONG_KIND, unsafe { kn_store_set_progress(store.0, springs, 0.5) }, "progress of springs");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_store_set_progress(store.0, group, f64::NAN) }, "progress NaN");
    let new_progress = [0.0, 0.25];
    t.ok(unsafe { kn_store_set_lane_progress(store.0, lanes, new_progress.as_ptr(), 2) }, "set_lane_progress");
    t.status(
        KN_ERR_COUNT_MISMATCH,
        unsafe { kn_store_set_lane_progress(store.0, lanes, new_progress.as_ptr(), 1) },
        "lane progress count 1 of 2",
    );

    // Retargeted springs keep their position.
    let before = store.value(springs, 0).unwrap_or(f64::NAN);
    let moved = [3.0];
    t.ok(unsafe { kn_store_retarget_springs(store.0, springs, moved.as_ptr(), 1) }, "retarget_springs");
    t.ok(unsafe { kn_store_evaluate(store.0) }, "evaluate");
    t.near(before, store.value(springs, 0).unwrap_or(f64::NAN), 1e-14, "retargeted: the position kept");
    t.status(
        KN_ERR_WRONG_KIND,
        unsafe { kn_store_retarget_springs(store.0, decays, moved.as_ptr(), 1) },
        "retarget a decay",
    );

    // Remove: later lanes move down; the removed id is stale, as are other stores' ids.
    t.eq(Ok(1), store.contains(keys), "contains a live entry");
    t.ok(unsafe { kn_store_remove(store.0, keys) }, "remove the keyframes");
    t.eq(Ok(0), store.contains(keys), "contains a removed entry: 0");
    t.eq(Ok((4, 1)), store.range(springs), "later entries moved down");
    t.eq(Ok((6, 4)), store.counts(), "counts after the removal");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_store_remove(store.0, keys) }, "remove twice");
    t.eq(Err(KN_ERR_STALE_HANDLE), store.value(keys, 0), "value of a removed entry");
    t.eq(Err(KN_ERR_STALE_HANDLE), store.range(keys), "range of a removed entry");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_store_remove(store.0, KN_ENTRY_NONE) }, "remove KN_ENTRY_NONE");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_store_remove(other.0, group) }, "another store's entry");
    t.eq(Err(KN_ERR_OUT_OF_RANGE), store.value(group, 2), "lane 2 of a 2-lane entry");

    // Bad input: nothing added, the entry out-parameter untouched.
    let mut e: KnEntry = 12345;
    let bad = [0.0, f64::NAN];
    t.status(
        KN_ERR_NOT_FINITE,
        unsafe { kn_store_add_group(store.0, bad.as_ptr(), to.as_ptr(), 2, 0.0, &mut e) },
        "a NaN from",
    );
    t.mentions("from[1]", "names from[1]");
    t.status(
        KN_ERR_OUT_OF_RANGE,
        unsafe { kn_store_add_group(store.0, from.as_ptr(), to.as_ptr(), -1, 0.0, &mut e) },
        "count -1",
    );
    t.status(
        KN_ERR_COUNT_MISMATCH,
        unsafe { kn_store_add_keyframes(store.0, times.as_ptr(), 3, values.as_ptr(), 0, null(), null(), 0.0, &mut e) },
        "0 tracks",
    );
    let missing: [*mut KnBezier; 2] = [null_mut(); 2];
    t.status(
        KN_ERR_NULL_ARGUMENT,
        unsafe {
            kn_store_add_keyframes(
                store.0,
                times.as_ptr(),
                3,
                values.as_ptr(),
                1,
                interpolations.as_ptr(),
                missing.as_ptr(),
                0.0,
                &mut e,
            )
        },
        "an eased segment without its curve",
    );
    t.mentions("easings[0]", "names easings[0]");
    t.eq(12345, e, "failed adds write no entry");
    t.eq(Ok((6, 4)), store.counts(), "failed adds add nothing");
    t.status(KN_ERR_NOT_FINITE, unsafe { kn_store_tick(store.0, f64::NAN) }, "tick(NaN)");
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_store_tick(store.0, -dt) }, "tick(dt < 0)");
    t.status(KN_ERR_NULL_ARGUMENT, unsafe { kn_store_tick(null_mut(), dt) }, "tick(NULL)");
    drop(spring); // the store copied its parameters
    t.ok(unsafe { kn_store_tick(store.0, dt) }, "tick after the spring was destroyed");
    unsafe { kn_store_destroy(null_mut()) };
}

// ---------------------------------------------------------------- animation engine

/// The values read, or NaN for each when the read failed (the comparisons then fail).
fn vals(read: Result<Vec<f64>, KnStatus>, count: usize) -> Vec<f64> {
    read.unwrap_or_else(|_| vec![f64::NAN; count])
}

fn cubic(x1: f64, y1: f64, x2: f64, y2: f64) -> KnTiming {
    KnTiming { x1, y1, x2, y2, ..KnTiming::zeroed(KN_TIMING_CUBIC) }
}

fn test_engine(t: &mut Checks) {
    let Some(mut engine) = t.get(Engine::new(), "kn_engine_create") else { return };
    t.eq(Ok(0), engine.add_lanes(&[0.0, 100.0, 5.0]), "add_lanes: the first lane");
    t.eq(Ok(3), engine.add_lanes(&[7.0]), "add_lanes again: the next index");
    let mut n = -1;
    t.ok(unsafe { kn_engine_lane_count(engine.0, &mut n) }, "lane_count");
    t.eq(4, n, "4 lanes");

    // A cubic run over lanes 0 and 1, against kn_bezier_value / _slope of the same curve.
    let Some(ease) = t.get(Bezier::new(0.42, 0.0, 0.58, 1.0), "the run's curve") else { return };
    let Some(run) = t.get(engine.run(&cubic(0.42, 0.0, 0.58, 1.0), 1.0), "run_create (cubic, 1 s)") else { return };
    t.check(run != 0, "0 is never a run");
    let (lanes, targets) = ([0i64, 1], [50.0, -100.0]);
    t.ok(engine.animate(run, &lanes, &targets, None), "add_animations");
    t.eq(Ok(vec![0.0, 100.0]), engine.read_model(0, 2), "inactive: the models kept until the start");
    let info = engine.info(run).unwrap_or_default();
    t.eq(
        KnRunInfo { state: KN_RUN_INACTIVE, interruptible: 1, scrubs_linearly: 1, ..KnRunInfo::default() },
        info,
        "a new run: inactive, interruptible, scrubs linearly",
    );
    // An illegal call: UIKit's reason, nothing changed.
    let Some(idle) = t.get(engine.run(&KnTiming::zeroed(KN_TIMING_LINEAR), 1.0), "an idle run") else { return };
    let shown = engine.read(0, 4);
    t.status(KN_ERR_ILLEGAL_STATE, unsafe { kn_engine_run_stop(engine.0, idle, 1) }, "stop an inactive run");
    t.mentions("stopAnimation", "UIKit's reason names stopAnimation");
    t.eq(shown, engine.read(0, 4), "the refused call changed no lane");

    t.ok(unsafe { kn_engine_run_start(engine.0, run) }, "run_start");
    t.eq(Ok(vec![50.0, -100.0]), engine.read_model(0, 2), "started: the models are the targets");
    t.ok(engine.advance_to(0.5), "advance_to(0.5)");
    let e = ease.value(0.5).unwrap_or(f64::NAN);
    let s = ease.slope(0.5).unwrap_or(f64::NAN);
    let got = vals(engine.read(0, 3), 3);
    t.near(0.0 + 50.0 * e, got[0], 50.0 * 1e-12, "lane 0 at the middle: from + span · bezier(0.5)");
    t.near(100.0 - 200.0 * e, got[1], 200.0 * 1e-12, "lane 1 at the middle");
    t.bits(5.0, got[2], "lane 2 is not animated");
    let velocity = vals(engine.read_velocity(0, 3), 3);
    t.near(50.0 * s, velocity[0], 50.0 * s * 1e-9, "velocity: span · slope / duration");
    t.near(-200.0 * s, velocity[1], 200.0 * s * 1e-9, "velocity of lane 1");
    t.eq(0.0, velocity[2], "velocity of a lane no run moves: 0");
    let info = engine.info(run).unwrap_or_default();
    t.eq((KN_RUN_ACTIVE, 1), (info.state, info.running), "running");
    t.near(0.5, info.fraction_complete, 1e-15, "fraction_complete at the middle");
    t.eq(Ok(Vec::<KnEvent>::new()), engine.drain(), "no event mid-run");
    t.ok(engine.advance_to(1.0), "advance_to(1.0)");
    t.eq(
        Ok(vec![KnEvent { run, kind: KN_EVENT_FINISHED, position: KN_POSITION_END }]),
        engine.drain(),
        "one event: finished at the end",
    );
    t.eq(Ok(vec![50.0, -100.0]), engine.read(0, 2), "ended exactly at the targets");
    t.eq(
        Ok(KnRunInfo { state: KN_RUN_INACTIVE, interruptible: 1, scrubs_linearly: 1, ..KnRunInfo::default() }),
        engine.info(run),
        "ended: inactive, fraction 0",
    );

    // A linear run: value = from + (to − from) · fraction.
    let Some(linear) = t.get(engine.run(&KnTiming::zeroed(KN_TIMING_LINEAR), 2.0), "run_create (linear, 2 s)") else {
        return;
    };
    let lin_targets = [10.1, 20.0, 0.3];
    t.ok(engine.animate(linear, &[0, 1, 3], &lin_targets, None), "add_animations (linear)");
    t.ok(unsafe { kn_engine_run_start(engine.0, linear) }, "start (linear)");
    t.ok(engine.advance_to(1.5), "advance_to(1.5): a quarter");
    let got = vals(engine.read(0, 4), 4);
    for (lane, from, to) in [(0usize, 50.0, 10.1), (1, -100.0, 20.0), (3, 7.0, 0.3)] {
        let expected = from + (to - from) * 0.25;
        t.near(expected, got[lane], 1e-13 * 100.0, format_args!("linear lane {lane}: from + (to − from) · 0.25"));
    }
    t.ok(engine.advance_to(3.0), "advance_to(3.0)");
    let got = vals(engine.read(0, 4), 4);
    t.eq([10.1, 20.0, 0.3], [got[0], got[1], got[3]], "linear: exactly at the targets");
    t.eq(Ok(1), engine.drain().map(|events| events.len()), "one event");

    // Pause, scrub, continue with a damped spring (velocity_x for lane 0, velocity_y for the
    // vertical lane 1), against kn_spring_value of the unit spring that settles in 1 s.
    let Some(scrub) = t.get(engine.run(&cubic(0.42, 0.0, 0.58, 1.0), 1.0), "run_create (scrub)") else { return };
    t.ok(engine.animate(scrub, &[0, 1], &[0.0, -20.0], Some(&[0, 1][..])), "add_animations (vertical lane 1)");
    t.ok(unsafe { kn_engine_run_pause(engine.0, scrub) }, "pause an inactive run");
    t.ok(unsafe { kn_engine_run_set_fraction(engine.0, scrub, 0.4) }, "set_fraction(0.4)");
    let info = engine.info(scrub).unwrap_or_default();
    t.eq((KN_RUN_ACTIVE, 0, 0.4), (info.state, info.running, info.fraction_complete), "paused at 0.4");
    let got = vals(engine.read(0, 2), 2);
    t.near(10.1 - 10.1 * 0.4, got[0], 1e-13, "scrubbed linearly: lane 0");
    t.near(20.0 - 40.0 * 0.4, got[1], 1e-13, "scrubbed linearly: lane 1");
    t.status(
        KN_ERR_ILLEGAL_STATE,
        unsafe { kn_engine_run_finish(engine.0, scrub, KN_POSITION_END) },
        "finish a paused run",
    );
    let (vx, vy) = (1.5, -0.5);
    let spring_timing =
        KnTiming { damping_ratio: 0.8, velocity_x: vx, velocity_y: vy, ..KnTiming::zeroed(KN_TIMING_DAMPED_SPRING) };
    t.ok(unsafe { kn_engine_run_continue(engine.0, scrub, &spring_timing, 0.0) }, "continue with a spring");
    let start = engine.time().unwrap_or(f64::NAN);
    let length = 0.6; // factor 0: the time the original timing had left
    let left = [0.0 - (10.1 - 10.1 * 0.4), -20.0 - (20.0 - 40.0 * 0.4)];
    let velocity = vals(engine.read_velocity(0, 2), 2);
    t.near(vx * left[0], velocity[0], 1e-9, "just after continue: velocity_x × the distance left");
    t.near(vy * left[1], velocity[1], 1e-9, "just after continue: velocity_y × the distance left (vertical)");
    if let Some(unit) = t.get(Spring::settling(1.0, 0.8, 0.001), "the unit spring") {
        t.ok(engine.advance_to(start + length / 2.0), "advance half the spring leg");
        let px = unit.value(0.5, vx * length).unwrap_or(f64::NAN);
        let py = unit.value(0.5, vy * length).unwrap_or(f64::NAN);
        let got = vals(engine.read(0, 2), 2);
        t.near(10.1 - 10.1 * (0.4 + 0.6 * px), got[0], 1e-9, "spring leg: lane 0");
        t.near(20.0 - 40.0 * (0.4 + 0.6 * py), got[1], 1e-9, "spring leg: lane 1 (velocity_y)");
    }
    t.ok(engine.advance_to(start + length), "advance to the spring's end");
    t.eq(
        Ok(vec![KnEvent { run: scrub, kind: KN_EVENT_FINISHED, position: KN_POSITION_END }]),
        engine.drain(),
        "the spring leg finishes at the end",
    );
    t.eq(Ok(vec![0.0, -20.0]), engine.read(0, 2), "exactly at the targets");

    // A physical spring timing (the kn_timing's spring pointer, copied): the run lasts the
    // spring's settling time.
    if let Some(physical) = t.get(Spring::new(1.0, 100.0, 20.0), "a critically damped spring") {
        let timing = KnTiming { spring: physical.0, ..KnTiming::zeroed(KN_TIMING_PHYSICAL_SPRING) };
        let settle = physical.settling_duration(0.0, 0.001).unwrap_or(f64::NAN);
        let expected = physical.value(0.1, 0.0).unwrap_or(f64::NAN);
        if let Some(sprung) = t.get(engine.run(&timing, 5.0), "run_create (physical spring)") {
            drop(physical); // "The spring is copied: it may be destroyed after the call."
            let begin = engine.time().unwrap_or(f64::NAN);
            t.ok(engine.animate(sprung, &[2], &[15.0], None), "add_animations (physical)");
            t.ok(unsafe { kn_engine_run_start(engine.0, sprung) }, "start (physical)");
            t.ok(engine.advance_to(begin + 0.1), "advance 0.1 s");
            let got = vals(engine.read(2, 1), 1);
            t.near(5.0 + 10.0 * expected, got[0], 1e-9, "physical spring: from + span · spring value");
            // 1 µs before: the engine ends a leg within 1 ns of its end time (RunRecord's
            // endTolerance; kinetic.h does not say so), so nearer than that would already end it.
            t.ok(engine.advance_to(begin + settle - 1e-6), "advance to just before the settling time");
            t.eq(Ok(0), engine.drain().map(|events| events.len()), "still running 1 µs before the settling time");
            t.ok(engine.advance_to(begin + settle), "advance to the settling time (not the 5 s given)");
            t.eq(Ok(1), engine.drain().map(|events| events.len()), "ended at its settling time");
            t.eq(Ok(vec![15.0]), engine.read(2, 1), "at its target");
        }
    }

    // Stale ids, time going back.
    t.ok(unsafe { kn_engine_run_release(engine.0, scrub) }, "release");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_engine_run_start(engine.0, scrub) }, "start a released run");
    t.eq(Err(KN_ERR_STALE_HANDLE), engine.info(scrub), "info of a released run");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_engine_run_release(engine.0, scrub) }, "release twice");
    t.status(KN_ERR_STALE_HANDLE, unsafe { kn_engine_run_start(engine.0, 0) }, "run 0");
    if let Some(mut other) = t.get(Engine::new(), "another engine") {
        t.status(KN_ERR_STALE_HANDLE, unsafe { kn_engine_run_start(other.0, run) }, "another engine's run");
        t.eq(Err(KN_ERR_OUT_OF_RANGE), other.read(0, 1), "reading a lane the engine does not have");
    }
    let now = engine.time().unwrap_or(f64::NAN);
    t.status(KN_ERR_OUT_OF_RANGE, engine.advance_to(now - 1.0), "time going backwards");
    t.status(KN_ERR_NOT_FINITE, engine.advance_to(f64::INFINITY), "time +infinity");
    t.eq(Ok(now), engine.time(), "a refused advance keeps the time");
    let bad_kind = KnTiming::zeroed(7);
    let mut out_run: KnRun = 99;
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_engine_run_create(engine.0, &bad_kind, 1.0, &mut out_run) }, "kind 7");
    let bad_curve = cubic(1.5, 0.0, 1.0, 1.0);
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_engine_run_create(engine.0, &bad_curve, 1.0, &mut out_run) }, "x1 1.5");
    t.mentions("x1 = 1.5", "names x1");
    t.eq(99, out_run, "failed run_create writes no id");
    unsafe { kn_engine_destroy(null_mut()) };
}

// ---------------------------------------------------------------- threads

/// A curve handle shared between threads. SAFETY: kinetic.h: "kn_bezier and kn_spring are
/// immutable after creation: one handle may be used from any number of threads at once".
#[derive(Clone, Copy)]
struct SharedCurve(*const KnBezier);
unsafe impl Send for SharedCurve {}
unsafe impl Sync for SharedCurve {}

/// A spring handle shared between threads (as SharedCurve).
#[derive(Clone, Copy)]
struct SharedSpring(*const KnSpring);
unsafe impl Send for SharedSpring {}
unsafe impl Sync for SharedSpring {}

struct ThreadReport {
    mismatches: usize,
    fresh_error_empty: bool,
    own_error_kept: bool,
}

fn evaluate_shared(curve: SharedCurve, spring: SharedSpring, xs: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut values = Vec::with_capacity(xs.len());
    let mut springs = Vec::with_capacity(xs.len());
    for &x in xs {
        let (mut y, mut s) = (f64::NAN, f64::NAN);
        unsafe {
            kn_bezier_value(curve.0, x, &mut y);
            kn_spring_value(spring.0, x, 1.5, &mut s);
        }
        values.push(y);
        springs.push(s);
    }
    // Batches below 16 (kn_bezier_value's, always; they do not count towards the table).
    let mut batched = vec![f64::NAN; xs.len()];
    for (chunk, out) in xs.chunks(15).zip(batched.chunks_mut(15)) {
        unsafe { kn_bezier_values(curve.0, chunk.as_ptr(), out.as_mut_ptr(), chunk.len() as i64) };
    }
    (values, springs, batched)
}

fn test_threads(t: &mut Checks) {
    let Some(curve) = t.get(Bezier::new(0.34, 1.56, 0.64, 1.0), "the shared curve") else { return };
    let Some(spring) = t.get(Spring::damping_ratio(0.5, 0.4), "the shared spring") else { return };
    let (shared_curve, shared_spring) = (SharedCurve(curve.0), SharedSpring(spring.0));
    let xs: Vec<f64> = (0..3000).map(|i| i as f64 / 2999.0 * 1.2 - 0.1).collect();
    let (values, springs, batched) = evaluate_shared(shared_curve, shared_spring, &xs);
    t.check(
        values.iter().zip(&batched).all(|(a, b)| a.to_bits() == b.to_bits()),
        "batches below 16 equal kn_bezier_value (main thread)",
    );
    // The main thread's own last error.
    let mut bad = null_mut();
    t.status(KN_ERR_OUT_OF_RANGE, unsafe { kn_bezier_create(0.5, 0.0, 7.5, 1.0, &mut bad) }, "x2 = 7.5");
    let main_error = last_error();
    let reports: Vec<ThreadReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|index| {
                let (xs, values, springs, batched) = (&xs, &values, &springs, &batched);
                scope.spawn(move || {
                    let fresh_error_empty = last_error().is_empty();
                    let mut bad = null_mut();
                    let x1 = 1.0 + (index + 1) as f64 / 8.0;
                    unsafe { kn_bezier_create(x1, 0.0, 0.5, 1.0, &mut bad) };
                    let own = last_error();
                    let mut mismatches = 0;
                    for _ in 0..10 {
                        let (v, s, b) = evaluate_shared(shared_curve, shared_spring, xs);
                        let differ =
                            |p: &[f64], q: &[f64]| p.iter().zip(q).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
                        mismatches += differ(&v, values) + differ(&s, springs) + differ(&b, batched);
                        unsafe { kn_bezier_values(null(), null(), null_mut(), 0) }; // another error in between
                        unsafe { kn_bezier_create(x1, 0.0, 0.5, 1.0, &mut bad) };
                    }
                    let own_error_kept = last_error() == own && own.contains(&format!("x1 = {x1}"));
                    ThreadReport { mismatches, fresh_error_empty, own_error_kept }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a thread panicked")).collect()
    });
    for (i, r) in reports.iter().enumerate() {
        t.eq(0, r.mismatches, format_args!("thread {i}: bits differing from the main thread's"));
        t.check(r.fresh_error_empty, format_args!("thread {i}: a fresh thread's last error is \"\""));
        t.check(r.own_error_kept, format_args!("thread {i}: its own last error, kept through the others'"));
    }
    t.eq(main_error, last_error(), "the main thread's last error, kept through the threads'");
    drop((curve, spring)); // after the threads (scope) have ended
}

// ---------------------------------------------------------------- layouts

fn test_layouts(t: &mut Checks) {
    // The C layouts (x86_64 / aarch64 Linux: double and pointers 8 bytes, 8-aligned).
    t.eq((56, 8), (size_of::<KnSpringProperties>(), align_of::<KnSpringProperties>()), "kn_spring_properties");
    t.eq(
        [0, 8, 16, 24, 32, 40, 48],
        [
            offset_of!(KnSpringProperties, mass),
            offset_of!(KnSpringProperties, stiffness),
            offset_of!(KnSpringProperties, damping),
            offset_of!(KnSpringProperties, damping_ratio),
            offset_of!(KnSpringProperties, response),
            offset_of!(KnSpringProperties, duration),
            offset_of!(KnSpringProperties, bounce),
        ],
        "kn_spring_properties offsets",
    );
    t.eq(
        (16, 0, 8),
        (size_of::<KnDecay>(), offset_of!(KnDecay, decay_constant), offset_of!(KnDecay, velocity_threshold)),
        "kn_decay",
    );
    t.eq((72, 8), (size_of::<KnTiming>(), align_of::<KnTiming>()), "kn_timing size, alignment");
    t.eq(
        [0, 8, 16, 24, 32, 40, 48, 56, 64],
        [
            offset_of!(KnTiming, kind),
            offset_of!(KnTiming, x1),
            offset_of!(KnTiming, y1),
            offset_of!(KnTiming, x2),
            offset_of!(KnTiming, y2),
            offset_of!(KnTiming, damping_ratio),
            offset_of!(KnTiming, spring),
            offset_of!(KnTiming, velocity_x),
            offset_of!(KnTiming, velocity_y),
        ],
        "kn_timing offsets (4 bytes of padding after kind)",
    );
    t.eq(
        (16, 0, 8, 12),
        (size_of::<KnEvent>(), offset_of!(KnEvent, run), offset_of!(KnEvent, kind), offset_of!(KnEvent, position)),
        "kn_event: u64 + i32 + i32",
    );
    t.eq(
        (32, [0, 4, 8, 12, 16, 20, 24]),
        (
            size_of::<KnRunInfo>(),
            [
                offset_of!(KnRunInfo, state),
                offset_of!(KnRunInfo, running),
                offset_of!(KnRunInfo, reversed),
                offset_of!(KnRunInfo, interruptible),
                offset_of!(KnRunInfo, scrubs_linearly),
                offset_of!(KnRunInfo, pauses_on_completion),
                offset_of!(KnRunInfo, fraction_complete),
            ],
        ),
        "kn_run_info",
    );
    t.eq(8, size_of::<KnEntry>(), "kn_entry: uint64_t");
    t.eq(4, size_of::<KnStatus>(), "kn_status: int32_t");
    t.eq(size_of::<usize>(), size_of::<*const u8>(), "size_t as usize");
}

/// The Rust type a hand-written binding gives a C type of kinetic.h: `const T *` is
/// `*const T`, `T *` is `*mut T`, `T *const *` is `*const *mut T`, `double m[4]` is
/// `*mut [f64; 4]`. None for a type the header does not use.
fn rust_type(c: &str) -> Option<String> {
    let spaced = c.replace('*', " * ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let mut i = usize::from(words.first() == Some(&"const"));
    let mut pointee_const = i == 1;
    let base = match *words.get(i)? {
        "void" if words.len() == i + 1 => return Some(String::new()), // a return type
        "double" => "f64",
        "int32_t" => "i32",
        "int64_t" => "i64",
        "uint64_t" => "u64",
        "size_t" => "usize",
        "char" => "c_char",
        "kn_status" => "KnStatus",
        "kn_entry" => "KnEntry",
        "kn_run" => "KnRun",
        "kn_bezier" => "KnBezier",
        "kn_spring" => "KnSpring",
        "kn_velocity_tracker" => "KnVelocityTracker",
        "kn_store" => "KnStore",
        "kn_engine" => "KnEngine",
        "kn_spring_properties" => "KnSpringProperties",
        "kn_decay" => "KnDecay",
        "kn_timing" => "KnTiming",
        "kn_event" => "KnEvent",
        "kn_run_info" => "KnRunInfo",
        _ => return None,
    };
    i += 1;
    let mut rust = base.to_string();
    while i < words.len() {
        match words[i] {
            "const" if i == 1 + usize::from(words[0] == "const") => pointee_const = true, // `T const *`
            "*" => {
                rust = format!("{} {rust}", if pointee_const { "*const" } else { "*mut" });
                pointee_const = words.get(i + 1) == Some(&"const"); // `T *const *`
                i += usize::from(pointee_const);
            }
            _ => return None,
        }
        i += 1;
    }
    Some(rust)
}

/// Splits `text` at `separator` where no bracket is open.
fn split_top(text: &str, separator: char) -> Vec<String> {
    let (mut parts, mut depth, mut current) = (Vec::new(), 0i32, String::new());
    for ch in text.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if ch == separator && depth == 0 {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(ch);
        }
    }
    parts.push(current);
    parts.into_iter().map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

/// Every function of the header as (name, [return type, parameter types...]) in Rust terms.
fn header_signatures(header: &str) -> Vec<(String, Vec<String>)> {
    let mut text = String::new(); // without comments and preprocessor lines
    let mut rest = header;
    while let Some(open) = rest.find("/*") {
        text.push_str(&rest[..open]);
        rest = rest[open..].find("*/").map_or("", |close| &rest[open + close + 2..]);
    }
    text.push_str(rest);
    let text: String = text.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n");
    let mut functions = Vec::new();
    for declaration in text.split(';').map(|d| d.split_whitespace().collect::<Vec<_>>().join(" ")) {
        let (Some(open), Some(close)) = (declaration.find('('), declaration.rfind(')')) else { continue };
        let head = &declaration[..open];
        let Some(name_at) = head.rfind("kn_") else { continue };
        if declaration.starts_with("typedef") || !head.trim_end().ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut types = vec![rust_type(&head[..name_at]).unwrap_or_else(|| format!("<{}>", &head[..name_at]))];
        for parameter in declaration[open + 1..close].split(',').map(str::trim).filter(|p| *p != "void") {
            // Drop the parameter's name (and turn `name[4]` into a pointer to 4).
            let (parameter, array) = match parameter.strip_suffix(']') {
                Some(p) => (p[..p.rfind('[').unwrap_or(0)].to_string(), p.rsplit('[').next().map(str::to_string)),
                None => (parameter.to_string(), None),
            };
            let c_type = parameter.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
            let rust = rust_type(c_type).unwrap_or_else(|| format!("<{c_type}>"));
            types.push(match array {
                Some(n) => format!("*mut [{rust}; {n}]"),
                None => rust,
            });
        }
        functions.push((head[name_at..].trim().to_string(), types));
    }
    functions
}

/// Every `pub fn kn_...` of ffi.rs as (name, [return type, parameter types...]).
fn ffi_signatures(ffi: &str) -> Vec<(String, Vec<String>)> {
    let mut functions = Vec::new();
    for piece in ffi.split("pub fn ").skip(1).filter(|p| p.starts_with("kn_")) {
        let open = piece.find('(').unwrap_or(0);
        let declaration = &split_top(&piece[open..], ';')[0]; // up to the `;` outside brackets
        let parts = split_top(declaration, ')'); // "(params" and "-> Ret"
        let inner = declaration.trim_start_matches('(');
        let params = split_top(&inner[..inner.rfind(')').unwrap_or(0)], ',');
        let ret = parts.last().map_or("", |r| r.trim().trim_start_matches("->").trim()).to_string();
        let mut types = vec![ret];
        types.extend(
            params
                .iter()
                .filter(|p| !p.is_empty())
                .map(|p| p.split_once(':').map_or("", |(_, ty)| ty.trim()).to_string()),
        );
        functions.push((piece[..open].to_string(), types));
    }
    functions
}

/// ffi.rs against the header this crate sits beside: every function of kinetic.h declared
/// with the Rust types of its C types (the ABI would let a wrong integer width or a lost
/// `const` pass unnoticed), nothing else, and the KN_VERSION_ constants as the macros.
fn test_declarations(t: &mut Checks) {
    const HEADER: &str = include_str!("../../../../Sources/KineticC/include/kinetic.h");
    const FFI: &str = include_str!("ffi.rs");
    let header = header_signatures(HEADER);
    let ffi = ffi_signatures(FFI);
    t.check(header.len() > 80, format_args!("functions found in kinetic.h: {}", header.len()));
    for (name, types) in &header {
        let declared = ffi.iter().find(|(n, _)| n == name).map(|(_, ty)| ty);
        t.eq(Some(types), declared, format_args!("ffi.rs's {name}: [return, parameters...]"));
    }
    let extra: Vec<_> = ffi.iter().filter(|(n, _)| !header.iter().any(|(h, _)| h == n)).map(|(n, _)| n).collect();
    t.eq(Vec::<&String>::new(), extra, "ffi.rs functions not in kinetic.h");
    for (name, value) in [
        ("KN_VERSION_MAJOR", KN_VERSION_MAJOR),
        ("KN_VERSION_MINOR", KN_VERSION_MINOR),
        ("KN_VERSION_PATCH", KN_VERSION_PATCH),
    ] {
        let define = format!("#define {name} {value}");
        t.check(HEADER.lines().any(|l| l.trim() == define), format_args!("kinetic.h has \"{define}\""));
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} BEZIER_CSV SPRING_CSV", args.first().map_or("kinetic-rust-client", String::as_str));
        return ExitCode::from(2);
    }
    let mut t = Checks { passed: 0, failed: 0 };
    test_declarations(&mut t);
    test_layouts(&mut t);
    test_status(&mut t);
    test_bezier(&mut t, &args[1]);
    test_bezier_shape(&mut t);
    test_bezier_accuracy(&mut t);
    test_bezier_batch_table(&mut t);
    test_spring(&mut t, &args[2]);
    test_motion(&mut t);
    test_store(&mut t);
    test_engine(&mut t);
    test_threads(&mut t);
    println!("kinetic_rust: {} passed, {} failed", t.passed, t.failed);
    if t.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
