//! Hand-written Rust declarations of `Sources/KineticC/include/kinetic.h`, as a Rust user
//! without bindgen writes them: the constants, the plain `#[repr(C)]` structs, opaque handle
//! types, and every function of the header in one `extern "C"` block (linked by build.rs with
//! `-l KineticC`).
//!
//! C to Rust: `int32_t` / `int64_t` / `uint64_t` / `double` / `size_t` are `i32` / `i64` /
//! `u64` / `f64` / `usize`; `T *` is `*mut T` and `const T *` is `*const T`; the anonymous
//! C enums are `i32` constants (every field and parameter that takes them is `int32_t`); the
//! macros are constants. The whole header is declared, so some items are unused by the test.
#![allow(dead_code)]

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::c_char;

// ---------------------------------------------------------------- status and version

pub const KN_VERSION_MAJOR: i32 = 0;
pub const KN_VERSION_MINOR: i32 = 2;
pub const KN_VERSION_PATCH: i32 = 0;

/// `KN_MAX_COUNT ((int64_t)1 << 28)`.
pub const KN_MAX_COUNT: i64 = 1 << 28;

/// `typedef int32_t kn_status`.
pub type KnStatus = i32;

pub const KN_OK: KnStatus = 0;
pub const KN_ERR_NULL_ARGUMENT: KnStatus = 1;
pub const KN_ERR_NOT_FINITE: KnStatus = 2;
pub const KN_ERR_OUT_OF_RANGE: KnStatus = 3;
pub const KN_ERR_COUNT_MISMATCH: KnStatus = 4;
pub const KN_ERR_STALE_HANDLE: KnStatus = 5;
pub const KN_ERR_WRONG_KIND: KnStatus = 6;
pub const KN_ERR_STRUCTURE_MISMATCH: KnStatus = 7;
pub const KN_ERR_UNSUPPORTED: KnStatus = 8;
pub const KN_ERR_BUFFER_TOO_SMALL: KnStatus = 9;
pub const KN_ERR_INTERNAL: KnStatus = 10;
pub const KN_ERR_ILLEGAL_STATE: KnStatus = 11;

// ---------------------------------------------------------------- opaque handles

/// Declares `typedef struct name name;` handles the Rust way (the Nomicon's opaque type):
/// unsized in spirit, neither `Send` nor `Sync` nor `Unpin` by default.
macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            #[repr(C)]
            pub struct $name {
                _data: [u8; 0],
                _marker: PhantomData<(*mut u8, PhantomPinned)>,
            }
        )*
    };
}

opaque!(
    /// `kn_bezier`: immutable, shareable between threads (the header says so).
    KnBezier,
    /// `kn_spring`: immutable, shareable between threads.
    KnSpring,
    /// `kn_velocity_tracker`: mutable, one thread at a time.
    KnVelocityTracker,
    /// `kn_store`: mutable, one thread at a time.
    KnStore,
    /// `kn_engine`: mutable, one thread at a time.
    KnEngine,
);

// ---------------------------------------------------------------- enums

pub const KN_BEZIER_LINEAR: i32 = 0;
pub const KN_BEZIER_EASE: i32 = 1;
pub const KN_BEZIER_EASE_IN: i32 = 2;
pub const KN_BEZIER_EASE_OUT: i32 = 3;
pub const KN_BEZIER_EASE_IN_OUT: i32 = 4;

pub const KN_VELOCITY_LSQ2: i32 = 0;
pub const KN_VELOCITY_IMPULSE: i32 = 1;

pub const KN_INTERPOLATION_HOLD: i32 = 0;
pub const KN_INTERPOLATION_LINEAR: i32 = 1;
pub const KN_INTERPOLATION_EASED: i32 = 2;
pub const KN_INTERPOLATION_CATMULL_ROM: i32 = 3;

pub const KN_TIMING_LINEAR: i32 = 0;
pub const KN_TIMING_CUBIC: i32 = 1;
pub const KN_TIMING_DAMPED_SPRING: i32 = 2;
pub const KN_TIMING_PHYSICAL_SPRING: i32 = 3;

pub const KN_POSITION_END: i32 = 0;
pub const KN_POSITION_START: i32 = 1;
pub const KN_POSITION_CURRENT: i32 = 2;

pub const KN_RUN_INACTIVE: i32 = 0;
pub const KN_RUN_ACTIVE: i32 = 1;
pub const KN_RUN_STOPPED: i32 = 2;

pub const KN_EVENT_FINISHED: i32 = 0;
pub const KN_EVENT_PAUSED_AT_END: i32 = 1;

pub const KN_CALCULATION_LINEAR: i32 = 0;
pub const KN_CALCULATION_DISCRETE: i32 = 1;
pub const KN_CALCULATION_PACED: i32 = 2;
pub const KN_CALCULATION_CUBIC: i32 = 3;
pub const KN_CALCULATION_CUBIC_PACED: i32 = 4;

// ---------------------------------------------------------------- ids

/// `typedef uint64_t kn_entry`.
pub type KnEntry = u64;
/// `KN_ENTRY_NONE`.
pub const KN_ENTRY_NONE: KnEntry = 0;
/// `typedef uint64_t kn_run`.
pub type KnRun = u64;

// ---------------------------------------------------------------- plain structs

/// `kn_spring_properties`: seven doubles.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KnSpringProperties {
    pub mass: f64,
    pub stiffness: f64,
    pub damping: f64,
    pub damping_ratio: f64,
    pub response: f64,
    pub duration: f64,
    pub bounce: f64,
}

/// `kn_decay`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KnDecay {
    pub decay_constant: f64,
    pub velocity_threshold: f64,
}

/// `kn_timing`. Not `Default` (a raw pointer has none): see `KnTiming::zeroed`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KnTiming {
    pub kind: i32,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    pub damping_ratio: f64,
    pub spring: *const KnSpring,
    pub velocity_x: f64,
    pub velocity_y: f64,
}

impl KnTiming {
    /// Every field 0 (NULL spring), as C's `memset(&t, 0, sizeof t)`.
    pub const fn zeroed(kind: i32) -> KnTiming {
        KnTiming {
            kind,
            x1: 0.0,
            y1: 0.0,
            x2: 0.0,
            y2: 0.0,
            damping_ratio: 0.0,
            spring: std::ptr::null(),
            velocity_x: 0.0,
            velocity_y: 0.0,
        }
    }
}

/// `kn_event`: u64 + i32 + i32.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnEvent {
    pub run: KnRun,
    pub kind: i32,
    pub position: i32,
}

/// `kn_run_info`: six int32_t flags and a double.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KnRunInfo {
    pub state: i32,
    pub running: i32,
    pub reversed: i32,
    pub interruptible: i32,
    pub scrubs_linearly: i32,
    pub pauses_on_completion: i32,
    pub fraction_complete: f64,
}

// ---------------------------------------------------------------- functions

extern "C" {
    // status and version
    pub fn kn_status_message(status: KnStatus) -> *const c_char;
    pub fn kn_last_error_message(buffer: *mut c_char, capacity: usize, length: *mut usize) -> KnStatus;
    pub fn kn_version(major: *mut i32, minor: *mut i32, patch: *mut i32) -> KnStatus;
    pub fn kn_version_string() -> *const c_char;

    // cubic-bezier curves
    pub fn kn_bezier_create(x1: f64, y1: f64, x2: f64, y2: f64, out: *mut *mut KnBezier) -> KnStatus;
    pub fn kn_bezier_create_preset(preset: i32, out: *mut *mut KnBezier) -> KnStatus;
    pub fn kn_bezier_control_points(
        curve: *const KnBezier,
        x1: *mut f64,
        y1: *mut f64,
        x2: *mut f64,
        y2: *mut f64,
    ) -> KnStatus;
    pub fn kn_bezier_value(curve: *const KnBezier, x: f64, out: *mut f64) -> KnStatus;
    pub fn kn_bezier_values(curve: *const KnBezier, xs: *const f64, out: *mut f64, count: i64) -> KnStatus;
    pub fn kn_bezier_slope(curve: *const KnBezier, x: f64, out: *mut f64) -> KnStatus;
    pub fn kn_bezier_destroy(curve: *mut KnBezier);

    // springs
    pub fn kn_spring_create(mass: f64, stiffness: f64, damping: f64, out: *mut *mut KnSpring) -> KnStatus;
    pub fn kn_spring_create_damping_ratio(damping_ratio: f64, response: f64, out: *mut *mut KnSpring) -> KnStatus;
    pub fn kn_spring_create_duration(duration: f64, bounce: f64, out: *mut *mut KnSpring) -> KnStatus;
    pub fn kn_spring_create_settling(
        settling_duration: f64,
        damping_ratio: f64,
        epsilon: f64,
        out: *mut *mut KnSpring,
    ) -> KnStatus;
    pub fn kn_spring_parameters(
        spring: *const KnSpring,
        mass: *mut f64,
        stiffness: *mut f64,
        damping: *mut f64,
    ) -> KnStatus;
    pub fn kn_spring_get_properties(spring: *const KnSpring, out: *mut KnSpringProperties) -> KnStatus;
    pub fn kn_spring_value(spring: *const KnSpring, time: f64, initial_velocity: f64, out: *mut f64) -> KnStatus;
    pub fn kn_spring_velocity(spring: *const KnSpring, time: f64, initial_velocity: f64, out: *mut f64) -> KnStatus;
    pub fn kn_spring_settling_duration(
        spring: *const KnSpring,
        initial_velocity: f64,
        epsilon: f64,
        out: *mut f64,
    ) -> KnStatus;
    /// `double matrix[4]`: a C array parameter is a pointer; declared as a pointer to 4 doubles.
    pub fn kn_spring_transition(spring: *const KnSpring, dt: f64, matrix: *mut [f64; 4]) -> KnStatus;
    pub fn kn_spring_step(
        spring: *const KnSpring,
        dt: f64,
        displacements: *mut f64,
        velocities: *mut f64,
        count: i64,
    ) -> KnStatus;
    pub fn kn_spring_destroy(spring: *mut KnSpring);

    // gesture motion
    pub fn kn_velocity_tracker_create(strategy: i32, lane_count: i64, out: *mut *mut KnVelocityTracker) -> KnStatus;
    pub fn kn_velocity_tracker_destroy(tracker: *mut KnVelocityTracker);
    pub fn kn_velocity_tracker_add(tracker: *mut KnVelocityTracker, time: f64, lanes: *const f64) -> KnStatus;
    pub fn kn_velocity_tracker_velocity(tracker: *const KnVelocityTracker, time: f64, out: *mut f64) -> KnStatus;
    pub fn kn_velocity_tracker_reset(tracker: *mut KnVelocityTracker) -> KnStatus;
    pub fn kn_decay_from_rate(deceleration_rate: f64, out: *mut KnDecay) -> KnStatus;
    pub fn kn_decay_from_friction(friction_multiplier: f64, abs_velocity_threshold: f64, out: *mut KnDecay)
        -> KnStatus;
    pub fn kn_decay_state(
        decay: *const KnDecay,
        time: f64,
        initial_velocity: f64,
        offset: *mut f64,
        velocity: *mut f64,
    ) -> KnStatus;
    pub fn kn_decay_resting_offset(decay: *const KnDecay, initial_velocity: f64, out: *mut f64) -> KnStatus;
    pub fn kn_decay_duration(decay: *const KnDecay, initial_velocity: f64, out: *mut f64) -> KnStatus;
    pub fn kn_spline_fling(
        density: f64,
        friction: f64,
        initial_velocity: f64,
        time: f64,
        offset: *mut f64,
        velocity: *mut f64,
    ) -> KnStatus;
    pub fn kn_spline_fling_extent(
        density: f64,
        friction: f64,
        initial_velocity: f64,
        distance: *mut f64,
        duration: *mut f64,
    ) -> KnStatus;
    pub fn kn_rubber_band(overscroll: f64, dimension: f64, coefficient: f64, out: *mut f64) -> KnStatus;
    pub fn kn_rubber_band_inverse(offset: f64, dimension: f64, coefficient: f64, out: *mut f64) -> KnStatus;
    pub fn kn_snap(
        position: f64,
        velocity: f64,
        targets: *const f64,
        count: i64,
        decay: *const KnDecay,
        index: *mut i64,
        normalized_velocity: *mut f64,
    ) -> KnStatus;

    // batch store
    pub fn kn_store_create(out: *mut *mut KnStore) -> KnStatus;
    pub fn kn_store_add_group(
        store: *mut KnStore,
        from: *const f64,
        to: *const f64,
        count: i64,
        progress: f64,
        out: *mut KnEntry,
    ) -> KnStatus;
    pub fn kn_store_add_lanes(
        store: *mut KnStore,
        from: *const f64,
        to: *const f64,
        progress: *const f64,
        count: i64,
        out: *mut KnEntry,
    ) -> KnStatus;
    /// `kn_bezier *const *easings`: a pointer to an array of (mutable) curve pointers.
    pub fn kn_store_add_keyframes(
        store: *mut KnStore,
        key_times: *const f64,
        key_count: i64,
        values: *const f64,
        track_count: i64,
        interpolations: *const i32,
        easings: *const *mut KnBezier,
        progress: f64,
        out: *mut KnEntry,
    ) -> KnStatus;
    pub fn kn_store_add_springs(
        store: *mut KnStore,
        spring: *const KnSpring,
        targets: *const f64,
        displacements: *const f64,
        velocities: *const f64,
        count: i64,
        out: *mut KnEntry,
    ) -> KnStatus;
    pub fn kn_store_retarget_springs(store: *mut KnStore, entry: KnEntry, targets: *const f64, count: i64) -> KnStatus;
    pub fn kn_store_add_decays(
        store: *mut KnStore,
        decay: *const KnDecay,
        positions: *const f64,
        velocities: *const f64,
        count: i64,
        out: *mut KnEntry,
    ) -> KnStatus;
    pub fn kn_store_remove(store: *mut KnStore, entry: KnEntry) -> KnStatus;
    pub fn kn_store_contains(store: *const KnStore, entry: KnEntry, out: *mut i32) -> KnStatus;
    pub fn kn_store_set_progress(store: *mut KnStore, entry: KnEntry, progress: f64) -> KnStatus;
    pub fn kn_store_set_lane_progress(
        store: *mut KnStore,
        entry: KnEntry,
        progress: *const f64,
        count: i64,
    ) -> KnStatus;
    pub fn kn_store_tick(store: *mut KnStore, dt: f64) -> KnStatus;
    pub fn kn_store_evaluate(store: *mut KnStore) -> KnStatus;
    pub fn kn_store_counts(store: *const KnStore, lane_count: *mut i64, entry_count: *mut i64) -> KnStatus;
    pub fn kn_store_range(store: *const KnStore, entry: KnEntry, offset: *mut i64, count: *mut i64) -> KnStatus;
    pub fn kn_store_value(store: *const KnStore, entry: KnEntry, lane: i64, out: *mut f64) -> KnStatus;
    pub fn kn_store_read(
        store: *const KnStore,
        entry: KnEntry,
        out: *mut f64,
        capacity: i64,
        count: *mut i64,
    ) -> KnStatus;
    pub fn kn_store_read_all(store: *const KnStore, out: *mut f64, capacity: i64, count: *mut i64) -> KnStatus;
    pub fn kn_store_destroy(store: *mut KnStore);

    // animation engine
    pub fn kn_engine_create(out: *mut *mut KnEngine) -> KnStatus;
    pub fn kn_engine_destroy(engine: *mut KnEngine);
    pub fn kn_engine_add_lanes(engine: *mut KnEngine, values: *const f64, count: i64, first_lane: *mut i64)
        -> KnStatus;
    pub fn kn_engine_lane_count(engine: *const KnEngine, out: *mut i64) -> KnStatus;
    /// Note: `kn_engine *` (not const), unlike `kn_engine_read_model` / `_read_velocity`.
    pub fn kn_engine_read(engine: *mut KnEngine, first_lane: i64, count: i64, out: *mut f64) -> KnStatus;
    pub fn kn_engine_read_model(engine: *const KnEngine, first_lane: i64, count: i64, out: *mut f64) -> KnStatus;
    pub fn kn_engine_read_velocity(engine: *const KnEngine, first_lane: i64, count: i64, out: *mut f64) -> KnStatus;
    pub fn kn_engine_set_model(engine: *mut KnEngine, lane: i64, value: f64) -> KnStatus;
    pub fn kn_engine_advance_to(engine: *mut KnEngine, time: f64) -> KnStatus;
    pub fn kn_engine_advance_by(engine: *mut KnEngine, dt: f64) -> KnStatus;
    pub fn kn_engine_time(engine: *const KnEngine, out: *mut f64) -> KnStatus;
    pub fn kn_engine_next_event(engine: *mut KnEngine, out: *mut KnEvent, has_event: *mut i32) -> KnStatus;
    pub fn kn_engine_run_create(
        engine: *mut KnEngine,
        timing: *const KnTiming,
        duration: f64,
        out: *mut KnRun,
    ) -> KnStatus;
    pub fn kn_engine_run_release(engine: *mut KnEngine, run: KnRun) -> KnStatus;
    pub fn kn_engine_run_configure(
        engine: *mut KnEngine,
        run: KnRun,
        repeats: i32,
        autoreverses: i32,
        begins_from_current_state: i32,
    ) -> KnStatus;
    pub fn kn_engine_run_set_repeat_count(engine: *mut KnEngine, run: KnRun, cycles: f64) -> KnStatus;
    pub fn kn_engine_run_add_animations(
        engine: *mut KnEngine,
        run: KnRun,
        lanes: *const i64,
        targets: *const f64,
        vertical: *const i32,
        count: i64,
        delay_factor: f64,
    ) -> KnStatus;
    pub fn kn_engine_run_add_keyframes(
        engine: *mut KnEngine,
        run: KnRun,
        lanes: *const i64,
        lane_count: i64,
        values: *const f64,
        key_times: *const f64,
        key_count: i64,
        calculation_mode: i32,
    ) -> KnStatus;
    pub fn kn_engine_run_start(engine: *mut KnEngine, run: KnRun) -> KnStatus;
    pub fn kn_engine_run_start_after_delay(engine: *mut KnEngine, run: KnRun, delay: f64) -> KnStatus;
    pub fn kn_engine_run_pause(engine: *mut KnEngine, run: KnRun) -> KnStatus;
    pub fn kn_engine_run_stop(engine: *mut KnEngine, run: KnRun, without_finishing: i32) -> KnStatus;
    pub fn kn_engine_run_finish(engine: *mut KnEngine, run: KnRun, position: i32) -> KnStatus;
    pub fn kn_engine_run_continue(
        engine: *mut KnEngine,
        run: KnRun,
        timing: *const KnTiming,
        duration_factor: f64,
    ) -> KnStatus;
    pub fn kn_engine_run_set_fraction(engine: *mut KnEngine, run: KnRun, fraction: f64) -> KnStatus;
    pub fn kn_engine_run_set_reversed(engine: *mut KnEngine, run: KnRun, reversed: i32) -> KnStatus;
    pub fn kn_engine_run_set_interruptible(engine: *mut KnEngine, run: KnRun, interruptible: i32) -> KnStatus;
    pub fn kn_engine_run_set_scrubs_linearly(engine: *mut KnEngine, run: KnRun, scrubs_linearly: i32) -> KnStatus;
    pub fn kn_engine_run_set_pauses_on_completion(engine: *mut KnEngine, run: KnRun, pauses: i32) -> KnStatus;
    pub fn kn_engine_run_info(engine: *const KnEngine, run: KnRun, out: *mut KnRunInfo) -> KnStatus;
}
