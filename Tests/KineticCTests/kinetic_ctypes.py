#!/usr/bin/env python3
"""ctypes over the installed libKineticC: the main calls of kinetic.h, their error paths, and
bit-for-bit agreement with the Swift API (through the CLI's reference CSVs, as kinetic_test.c).

    python3 kinetic_ctypes.py LIBKINETICC_SO BEZIER_CSV SPRING_CSV

The CSVs are written by `make test-c` with `kinetic sample bezier 0.34,1.56,0.64,1 --count 1001`
and `kinetic sample spring --damping-ratio 0.5 --response 0.4 --velocity 2 --rate 240`.
Ends with "kinetic_ctypes: N passed, M failed"; exits 1 on any failure.
"""
import ctypes as C
import csv
import math
import struct
import sys

KN_OK, KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE = 0, 1, 2, 3
KN_ERR_COUNT_MISMATCH, KN_ERR_STALE_HANDLE, KN_ERR_WRONG_KIND = 4, 5, 6
KN_ERR_BUFFER_TOO_SMALL = 9
KN_ERR_ILLEGAL_STATE = 11
KN_TIMING_LINEAR, KN_TIMING_CUBIC, KN_TIMING_DAMPED_SPRING, KN_TIMING_PHYSICAL_SPRING = 0, 1, 2, 3
KN_POSITION_END, KN_POSITION_START, KN_POSITION_CURRENT = 0, 1, 2
KN_RUN_INACTIVE, KN_RUN_ACTIVE, KN_RUN_STOPPED = 0, 1, 2
KN_EVENT_FINISHED, KN_EVENT_PAUSED_AT_END = 0, 1
KN_CALCULATION_LINEAR, KN_CALCULATION_DISCRETE, KN_CALCULATION_PACED = 0, 1, 2
KN_CALCULATION_CUBIC, KN_CALCULATION_CUBIC_PACED = 3, 4
KN_BEZIER_EASE = 1
KN_INTERPOLATION_HOLD, KN_INTERPOLATION_LINEAR, KN_INTERPOLATION_EASED = 0, 1, 2

D, DP, I64, U64, I32 = C.c_double, C.POINTER(C.c_double), C.c_int64, C.c_uint64, C.c_int32
VP, VPP = C.c_void_p, C.POINTER(C.c_void_p)


class SpringProperties(C.Structure):
    """kn_spring_properties."""
    _fields_ = [(name, D) for name in
                ("mass", "stiffness", "damping", "damping_ratio", "response", "duration", "bounce")]


class Decay(C.Structure):
    _fields_ = [("decay_constant", C.c_double), ("velocity_threshold", C.c_double)]


class Timing(C.Structure):
    """kn_timing."""
    _fields_ = [("kind", C.c_int32), ("x1", C.c_double), ("y1", C.c_double), ("x2", C.c_double),
                ("y2", C.c_double), ("damping_ratio", C.c_double), ("spring", C.c_void_p),
                ("velocity_x", C.c_double), ("velocity_y", C.c_double)]


class Event(C.Structure):
    """kn_event."""
    _fields_ = [("run", C.c_uint64), ("kind", C.c_int32), ("position", C.c_int32)]


class RunInfo(C.Structure):
    """kn_run_info."""
    _fields_ = [(name, C.c_int32) for name in
                ("state", "running", "reversed", "interruptible", "scrubs_linearly", "pauses_on_completion")] \
        + [("fraction_complete", C.c_double)]


def load(path):
    lib = C.CDLL(path)
    signatures = {
        "kn_status_message": (C.c_char_p, [I32]),
        "kn_last_error_message": (I32, [C.c_char_p, C.c_size_t, C.POINTER(C.c_size_t)]),
        "kn_version": (I32, [C.POINTER(I32)] * 3),
        "kn_version_string": (C.c_char_p, []),
        "kn_bezier_create": (I32, [D, D, D, D, VPP]),
        "kn_bezier_create_preset": (I32, [I32, VPP]),
        "kn_bezier_value": (I32, [VP, D, DP]),
        "kn_bezier_values": (I32, [VP, DP, DP, I64]),
        "kn_bezier_slope": (I32, [VP, D, DP]),
        "kn_bezier_destroy": (None, [VP]),
        "kn_spring_create": (I32, [D, D, D, VPP]),
        "kn_spring_create_damping_ratio": (I32, [D, D, VPP]),
        "kn_spring_create_duration": (I32, [D, D, VPP]),
        "kn_spring_create_settling": (I32, [D, D, D, VPP]),
        "kn_spring_parameters": (I32, [VP, DP, DP, DP]),
        "kn_spring_get_properties": (I32, [VP, C.POINTER(SpringProperties)]),
        "kn_spring_value": (I32, [VP, D, D, DP]),
        "kn_spring_velocity": (I32, [VP, D, D, DP]),
        "kn_spring_settling_duration": (I32, [VP, D, D, DP]),
        "kn_spring_transition": (I32, [VP, D, DP]),
        "kn_spring_step": (I32, [VP, D, DP, DP, I64]),
        "kn_spring_destroy": (None, [VP]),
        "kn_store_create": (I32, [VPP]),
        "kn_store_add_group": (I32, [VP, DP, DP, I64, D, C.POINTER(U64)]),
        "kn_store_add_keyframes": (I32, [VP, DP, I64, DP, I64, C.POINTER(I32), VPP, D, C.POINTER(U64)]),
        "kn_store_add_springs": (I32, [VP, VP, DP, DP, DP, I64, C.POINTER(U64)]),
        "kn_store_remove": (I32, [VP, U64]),
        "kn_store_set_progress": (I32, [VP, U64, D]),
        "kn_store_tick": (I32, [VP, D]),
        "kn_store_counts": (I32, [VP, C.POINTER(I64), C.POINTER(I64)]),
        "kn_store_value": (I32, [VP, U64, I64, DP]),
        "kn_store_read": (I32, [VP, U64, DP, I64, C.POINTER(I64)]),
        "kn_store_destroy": (None, [VP]),
        "kn_engine_create": (I32, [VPP]),
        "kn_engine_destroy": (None, [VP]),
        "kn_engine_add_lanes": (I32, [VP, DP, I64, C.POINTER(I64)]),
        "kn_engine_read": (I32, [VP, I64, I64, DP]),
        "kn_engine_read_velocity": (I32, [VP, I64, I64, DP]),
        "kn_engine_read_model": (I32, [VP, I64, I64, DP]),
        "kn_engine_set_model": (I32, [VP, I64, D]),
        "kn_engine_advance_to": (I32, [VP, D]),
        "kn_engine_advance_by": (I32, [VP, D]),
        "kn_engine_next_event": (I32, [VP, C.POINTER(Event), C.POINTER(I32)]),
        "kn_engine_run_create": (I32, [VP, C.POINTER(Timing), D, C.POINTER(U64)]),
        "kn_engine_run_release": (I32, [VP, U64]),
        "kn_engine_run_add_animations": (I32, [VP, U64, C.POINTER(I64), DP, C.POINTER(I32), I64, D]),
        "kn_engine_run_add_keyframes": (I32, [VP, U64, C.POINTER(I64), I64, DP, DP, I64, I32]),
        "kn_engine_run_start": (I32, [VP, U64]),
        "kn_velocity_tracker_create": (I32, [I32, I64, C.POINTER(VP)]),
        "kn_velocity_tracker_destroy": (None, [VP]),
        "kn_velocity_tracker_add": (I32, [VP, D, DP]),
        "kn_velocity_tracker_velocity": (I32, [VP, D, DP]),
        "kn_velocity_tracker_reset": (I32, [VP]),
        "kn_decay_from_rate": (I32, [D, C.POINTER(Decay)]),
        "kn_decay_from_friction": (I32, [D, D, C.POINTER(Decay)]),
        "kn_decay_state": (I32, [C.POINTER(Decay), D, D, DP, DP]),
        "kn_decay_resting_offset": (I32, [C.POINTER(Decay), D, DP]),
        "kn_decay_duration": (I32, [C.POINTER(Decay), D, DP]),
        "kn_spline_fling": (I32, [D, D, D, D, DP, DP]),
        "kn_spline_fling_extent": (I32, [D, D, D, DP, DP]),
        "kn_rubber_band": (I32, [D, D, D, DP]),
        "kn_rubber_band_inverse": (I32, [D, D, D, DP]),
        "kn_snap": (I32, [D, D, DP, I64, C.POINTER(Decay), C.POINTER(I64), DP]),
        "kn_store_add_decays": (I32, [VP, C.POINTER(Decay), DP, DP, I64, C.POINTER(U64)]),
        "kn_store_retarget_springs": (I32, [VP, U64, DP, I64]),
        "kn_engine_run_pause": (I32, [VP, U64]),
        "kn_engine_run_stop": (I32, [VP, U64, I32]),
        "kn_engine_run_finish": (I32, [VP, U64, I32]),
        "kn_engine_run_continue": (I32, [VP, U64, C.POINTER(Timing), D]),
        "kn_engine_run_set_fraction": (I32, [VP, U64, D]),
        "kn_engine_run_set_reversed": (I32, [VP, U64, I32]),
        "kn_engine_run_info": (I32, [VP, U64, C.POINTER(RunInfo)]),
    }
    for name, (restype, argtypes) in signatures.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, argtypes
    return lib


class Checks:
    def __init__(self, lib):
        self.lib, self.passed, self.failed = lib, 0, 0

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}", file=sys.stderr)

    def expect(self, expected, status, what):
        self.check(status == expected, f"{what}: status {status}, expected {expected}")

    def ok(self, status, what):
        self.expect(KN_OK, status, what)

    def last_error(self):
        buffer = C.create_string_buffer(512)
        self.lib.kn_last_error_message(buffer, len(buffer), None)
        return buffer.value.decode()


def bits(x):
    return struct.pack("<d", x)


def doubles(values):
    return (D * len(values))(*values)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return [[float(v) for v in row] for row in rows[1:]]


def test_status(t):
    lib = t.lib
    t.check(lib.kn_status_message(KN_OK) == b"success", "kn_status_message(KN_OK)")
    t.check(lib.kn_status_message(123) == b"unknown status", "kn_status_message(123)")
    major, minor, patch = I32(-1), I32(-1), I32(-1)
    t.ok(lib.kn_version(C.byref(major), C.byref(minor), C.byref(patch)), "kn_version")
    t.check(lib.kn_version_string().decode() == f"{major.value}.{minor.value}.{patch.value}", "version string")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_version(None, None, None), "kn_version(NULL x3)")


def test_bezier(t, path):
    lib = t.lib
    rows = read_csv(path)
    curve = VP()
    t.ok(lib.kn_bezier_create(0.34, 1.56, 0.64, 1, C.byref(curve)), "kn_bezier_create")
    value, slope = D(), D()
    mismatches = 0
    for x, expected_value, expected_slope in rows:
        t.ok(lib.kn_bezier_value(curve, x, C.byref(value)), "kn_bezier_value")
        t.ok(lib.kn_bezier_slope(curve, x, C.byref(slope)), "kn_bezier_slope")
        mismatches += bits(value.value) != bits(expected_value) or bits(slope.value) != bits(expected_slope)
    t.check(mismatches == 0, f"bezier value/slope bit mismatches: {mismatches} of {len(rows)}")
    xs, out = doubles([r[0] for r in rows]), (D * len(rows))()
    t.ok(lib.kn_bezier_values(curve, xs, out, len(rows)), "kn_bezier_values")
    batch_mismatches = sum(bits(out[i]) != bits(rows[i][1]) for i in range(len(rows)))
    t.check(batch_mismatches == 0, f"bezier batch bit mismatches: {batch_mismatches}")

    # Error paths: NULL handles and pointers, NaN / out-of-range parameters, bad counts.
    bad = VP()
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_bezier_value(None, 0.5, C.byref(value)), "value(NULL curve)")
    t.check(t.last_error() == "curve is NULL", "NULL curve message")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_bezier_value(curve, 0.5, None), "value(NULL out)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_bezier_slope(None, 0.5, C.byref(value)), "slope(NULL curve)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_bezier_values(curve, None, out, 4), "values(NULL xs)")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_bezier_values(curve, xs, out, -1), "values(count -1)")
    t.expect(KN_ERR_NOT_FINITE, lib.kn_bezier_create(math.nan, 0, 1, 1, C.byref(bad)), "create(NaN)")
    t.check(t.last_error() == "x1 = nan is not a finite number", "NaN message: " + t.last_error())
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_bezier_create(0.5, 0, 1.5, 1, C.byref(bad)), "create(x2 1.5)")
    t.check(t.last_error() == "x2 = 1.5 is outside [0, 1]", "x2 message: " + t.last_error())
    t.expect(KN_ERR_NOT_FINITE, lib.kn_bezier_create(0.5, math.inf, 0.5, 1, C.byref(bad)), "create(inf)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_bezier_create(0.5, 0, 0.5, 1, None), "create(NULL out)")
    t.check(bad.value is None, "no handle written on failure")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_bezier_create_preset(9, C.byref(bad)), "preset 9")
    lib.kn_bezier_destroy(curve)
    lib.kn_bezier_destroy(None)


def test_spring(t, path):
    lib = t.lib
    rows = read_csv(path)
    spring = VP()
    t.ok(lib.kn_spring_create_damping_ratio(0.5, 0.4, C.byref(spring)), "kn_spring_create_damping_ratio")
    value, velocity = D(), D()
    mismatches = 0
    for time, expected_value, expected_velocity in rows:
        t.ok(lib.kn_spring_value(spring, time, 2, C.byref(value)), "kn_spring_value")
        t.ok(lib.kn_spring_velocity(spring, time, 2, C.byref(velocity)), "kn_spring_velocity")
        mismatches += bits(value.value) != bits(expected_value) or bits(velocity.value) != bits(expected_velocity)
    t.check(mismatches == 0, f"spring value/velocity bit mismatches: {mismatches} of {len(rows)}")
    settle = D()
    t.ok(lib.kn_spring_settling_duration(spring, 2, 0.001, C.byref(settle)), "settling duration")
    t.check(bits(settle.value) == bits(rows[-1][0]), f"settling {settle.value!r} != {rows[-1][0]!r}")

    others = [VP(), VP(), VP()]
    t.ok(lib.kn_spring_create(1, 100, 10, C.byref(others[0])), "kn_spring_create")
    t.ok(lib.kn_spring_create_duration(0.5, 0.3, C.byref(others[1])), "kn_spring_create_duration")
    t.ok(lib.kn_spring_create_settling(0.8, 0.9, 0.001, C.byref(others[2])), "kn_spring_create_settling")
    t.ok(lib.kn_spring_settling_duration(others[2], 0, 0.001, C.byref(settle)), "settling of settling spring")
    t.check(abs(settle.value - 0.8) < 1e-9, "settling-duration spring settles at 0.8 s")
    m, k, c = D(), D(), D()
    t.ok(lib.kn_spring_parameters(others[0], C.byref(m), C.byref(k), C.byref(c)), "parameters")
    t.check((m.value, k.value, c.value) == (1, 100, 10), "parameters read back")
    # Every parameterisation, from the defining formulas (Python floats round each operation).
    props = SpringProperties()
    for s in [spring] + others:
        t.ok(lib.kn_spring_get_properties(s, C.byref(props)), "kn_spring_get_properties")
        t.ok(lib.kn_spring_parameters(s, C.byref(m), C.byref(k), C.byref(c)), "parameters")
        zeta = c.value / (2 * math.sqrt(k.value * m.value))
        response = 2 * math.pi * math.sqrt(m.value / k.value)
        expected = (m.value, k.value, c.value, zeta, response, response, 1 - zeta if zeta <= 1 else 1 / zeta - 1)
        got = tuple(getattr(props, name) for name, _ in SpringProperties._fields_)
        t.check(list(map(bits, got)) == list(map(bits, expected)), f"properties {got} != {expected}")

    # Φ step over 3 springs: the transition matrix applied (Python floats do not fuse).
    phi = (D * 4)()
    t.ok(lib.kn_spring_transition(others[0], 1 / 60, phi), "kn_spring_transition")
    x, v = doubles([-1, 0.5, 2]), doubles([0, 1, -3])
    x0, v0 = list(x), list(v)
    t.ok(lib.kn_spring_step(others[0], 1 / 60, x, v, 3), "kn_spring_step")
    step_ok = all(bits(x[i]) == bits(phi[0] * x0[i] + phi[1] * v0[i]) and
                  bits(v[i]) == bits(phi[2] * x0[i] + phi[3] * v0[i]) for i in range(3))
    t.check(step_ok, "Φ step equals the matrix applied bit for bit")

    bad = VP()
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_spring_create(0, 100, 10, C.byref(bad)), "mass 0")
    t.expect(KN_ERR_NOT_FINITE, lib.kn_spring_create(1, math.nan, 10, C.byref(bad)), "stiffness NaN")
    t.check("stiffness = nan" in t.last_error(), "stiffness message: " + t.last_error())
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_spring_create_duration(0.5, 1, C.byref(bad)), "bounce 1")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_spring_create_settling(0.8, 0.9, 1, C.byref(bad)), "epsilon 1")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_spring_value(None, 0.1, 0, C.byref(value)), "value(NULL spring)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_spring_value(spring, 0.1, 0, None), "value(NULL out)")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_spring_step(spring, -1, x, v, 3), "step(dt -1)")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_spring_step(spring, 0.1, x, v, -3), "step(count -3)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_spring_step(spring, 0.1, None, v, 3), "step(NULL)")
    for s in [spring] + others:
        lib.kn_spring_destroy(s)
    lib.kn_spring_destroy(None)


def test_store(t):
    lib = t.lib
    store, spring, ease = VP(), VP(), VP()
    t.ok(lib.kn_store_create(C.byref(store)), "kn_store_create")
    t.ok(lib.kn_spring_create(1, 100, 10, C.byref(spring)), "spring")
    t.ok(lib.kn_bezier_create_preset(KN_BEZIER_EASE, C.byref(ease)), "ease")

    group, keys, springs = U64(), U64(), U64()
    t.ok(lib.kn_store_add_group(store, doubles([0, 10]), doubles([100, 20]), 2, 0.25, C.byref(group)), "add_group")
    times, values = doubles([0, 0.5, 1]), doubles([0, 10, 20])
    interpolations = (I32 * 2)(KN_INTERPOLATION_EASED, KN_INTERPOLATION_HOLD)
    easings = (C.c_void_p * 2)(ease.value, None)
    t.ok(lib.kn_store_add_keyframes(store, times, 3, values, 1, interpolations, easings, 0.25, C.byref(keys)),
         "add_keyframes")
    t.ok(lib.kn_store_add_springs(store, spring, doubles([1]), doubles([-1]), None, 1, C.byref(springs)),
         "add_springs")
    lanes, entries = I64(), I64()
    t.ok(lib.kn_store_counts(store, C.byref(lanes), C.byref(entries)), "counts")
    t.check((lanes.value, entries.value) == (4, 3), f"counts {lanes.value}, {entries.value}")

    t.ok(lib.kn_store_tick(store, 1 / 60), "tick")
    out, count = (D * 4)(), I64()
    t.ok(lib.kn_store_read(store, group, out, 4, C.byref(count)), "read group")
    t.check(count.value == 2 and out[0] == 25 and out[1] == 12.5, "group values")
    eased, value = D(), D()
    lib.kn_bezier_value(ease, 0.5, C.byref(eased))
    t.ok(lib.kn_store_value(store, keys, 0, C.byref(value)), "keyframe value")
    t.check(abs(value.value - 10 * eased.value) < 1e-12, "eased keyframe value")
    phi = (D * 4)()
    lib.kn_spring_transition(spring, 1 / 60, phi)
    t.ok(lib.kn_store_value(store, springs, 0, C.byref(value)), "spring value")
    t.check(abs(value.value - (1 - phi[0])) < 1e-12, "spring lane after one tick")

    # Error paths.
    t.expect(KN_ERR_NOT_FINITE, lib.kn_store_tick(store, math.nan), "tick(NaN)")
    t.expect(KN_ERR_NULL_ARGUMENT, lib.kn_store_tick(None, 0.1), "tick(NULL)")
    t.expect(KN_ERR_WRONG_KIND, lib.kn_store_set_progress(store, springs, 0.5), "progress of springs")
    t.expect(KN_ERR_NOT_FINITE, lib.kn_store_set_progress(store, group, math.nan), "progress NaN")
    t.expect(KN_ERR_BUFFER_TOO_SMALL, lib.kn_store_read(store, group, out, 1, C.byref(count)), "read cap 1")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_store_value(store, group, 5, C.byref(value)), "lane 5")
    t.expect(KN_ERR_COUNT_MISMATCH,
             lib.kn_store_add_keyframes(store, times, 3, values, 0, None, None, 0, C.byref(keys)), "0 tracks")
    t.expect(KN_ERR_NOT_FINITE,
             lib.kn_store_add_group(store, doubles([math.nan]), doubles([1]), 1, 0, C.byref(group)), "from NaN")
    t.check("from[0] = nan" in t.last_error(), "from[0] message: " + t.last_error())
    t.ok(lib.kn_store_remove(store, keys), "remove")
    t.expect(KN_ERR_STALE_HANDLE, lib.kn_store_remove(store, keys), "remove twice")
    t.expect(KN_ERR_STALE_HANDLE, lib.kn_store_value(store, keys, 0, C.byref(value)), "stale value")
    t.ok(lib.kn_store_counts(store, C.byref(lanes), C.byref(entries)), "counts after remove")
    t.check((lanes.value, entries.value) == (3, 2), "counts after remove")

    lib.kn_store_destroy(store)
    lib.kn_store_destroy(None)
    lib.kn_spring_destroy(spring)
    lib.kn_bezier_destroy(ease)


def test_motion(t):
    """Gesture motion from Python: Android's parabolic LSQ2 case, the 40 ms stop, UIKit's
    decay against math.exp, Android's spline fling identity, the rubber band's inverse,
    snapping; struct kn_decay's layout."""
    lib = t.lib
    t.check(C.sizeof(Decay) == 16, "kn_decay is two doubles")
    tracker = C.c_void_p()
    t.ok(lib.kn_velocity_tracker_create(0, 1, C.byref(tracker)), "tracker")
    for time, x in [(0, 1), (0.001, 4), (0.002, 9)]:
        t.ok(lib.kn_velocity_tracker_add(tracker, time, doubles([x])), "add")
    v = D(math.nan)
    t.ok(lib.kn_velocity_tracker_velocity(tracker, 0.002, C.byref(v)), "velocity")
    t.check(abs(v.value - 6e3) <= 6e3 * 1e-5, f"Android Parabolic2: {v.value}")
    t.ok(lib.kn_velocity_tracker_velocity(tracker, 0.05, C.byref(v)), "late velocity")
    t.check(v.value == 0, "stopped after 40 ms")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_velocity_tracker_add(tracker, 0.0005, doubles([0])), "time going back")
    t.expect(KN_ERR_NOT_FINITE, lib.kn_velocity_tracker_add(tracker, 0.003, doubles([math.inf])), "infinite sample")
    t.ok(lib.kn_velocity_tracker_velocity(tracker, 0.002, C.byref(v)), "velocity")
    t.check(abs(v.value - 6e3) <= 6e3 * 1e-5, "unchanged by refused samples")
    lib.kn_velocity_tracker_destroy(tracker)

    decay = Decay()
    t.ok(lib.kn_decay_from_rate(0.99, C.byref(decay)), "fast rate")
    x, vel = D(), D()
    t.ok(lib.kn_decay_state(C.byref(decay), 0.25, -3000, C.byref(x), C.byref(vel)), "decay state")
    k = -1000 * math.log(0.99)
    t.check(abs(vel.value - -3000 * math.exp(-k * 0.25)) <= 1e-12 * 3000, "velocity")
    t.check(abs(x.value - -3000 * -math.expm1(-k * 0.25) / k) <= 1e-12 * abs(x.value), "offset")
    t.ok(lib.kn_decay_from_friction(1, 0.1, C.byref(decay)), "compose decay")
    t.check((decay.decay_constant, decay.velocity_threshold) == (4.2, 0.1), "compose constants")
    distance, duration = D(), D()
    t.ok(lib.kn_spline_fling_extent(3, 0.015, 8000, C.byref(distance), C.byref(duration)), "fling extent")
    t.check(abs(distance.value - 0.35 * 8000 * duration.value) <= 1e-9 * distance.value, "distance = 0.35 v T")
    y, back = D(), D()
    t.ok(lib.kn_rubber_band(123.0, 600, 0.55, C.byref(y)), "rubber band")
    t.ok(lib.kn_rubber_band_inverse(y.value, 600, 0.55, C.byref(back)), "inverse")
    t.check(abs(back.value - 123.0) <= 1e-12 * 123, "inverse round trip")
    index, normalized = I64(-1), D()
    t.ok(lib.kn_snap(100, 1500, doubles([0, 300, 600]), 3, None, C.byref(index), C.byref(normalized)), "snap")
    t.check(index.value == 2 and normalized.value == 3, "snaps to the projected target")
    t.expect(KN_ERR_COUNT_MISMATCH, lib.kn_snap(0, 0, None, 0, None, None, None), "no targets")
    # Decaying lanes in a store: one tick of 0.1 s against math.exp.
    store = C.c_void_p()
    t.ok(lib.kn_store_create(C.byref(store)), "store")
    t.ok(lib.kn_decay_from_rate(0.998, C.byref(decay)), "normal rate")
    entry = U64(0)
    t.ok(lib.kn_store_add_decays(store, C.byref(decay), doubles([5]), doubles([-1200]), 1, C.byref(entry)), "add decays")
    t.ok(lib.kn_store_tick(store, 0.1), "tick")
    value, n = D(), I64()
    t.ok(lib.kn_store_read(store, entry, C.byref(value), 1, C.byref(n)), "read")
    k = decay.decay_constant
    t.check(abs(value.value - (5 - 1200 * -math.expm1(-k * 0.1) / k)) <= 1e-12 * 300, f"decay lane {value.value}")
    t.expect(KN_ERR_WRONG_KIND, lib.kn_store_retarget_springs(store, entry, doubles([1]), 1), "retarget a decay")
    lib.kn_store_destroy(store)


def test_engine_keyframes(t):
    """Keyframe runs through kn_engine_run_add_keyframes: discrete holds then jumps at each
    key time; cubic paced moves at a constant speed (equal steps); bad modes refused."""
    lib = t.lib
    engine = C.c_void_p()
    t.ok(lib.kn_engine_create(C.byref(engine)), "kn_engine_create")
    first = I64(-1)
    t.ok(lib.kn_engine_add_lanes(engine, doubles([0, 0]), 2, C.byref(first)), "add_lanes")
    linear = Timing(kind=KN_TIMING_LINEAR)
    run = U64(0)
    t.ok(lib.kn_engine_run_create(engine, C.byref(linear), 1, C.byref(run)), "run_create")
    lanes = (I64 * 1)(0)
    t.ok(lib.kn_engine_run_add_keyframes(engine, run, lanes, 1, doubles([5, 7, 9]), doubles([0.25, 0.5, 1]), 3,
                                         KN_CALCULATION_DISCRETE), "discrete keyframes")
    t.ok(lib.kn_engine_run_start(engine, run), "start")
    values = (D * 2)()
    for time, expected in [(0.1, 0), (0.24, 0), (0.25, 5), (0.49, 5), (0.5, 7), (0.99, 7)]:
        t.ok(lib.kn_engine_advance_to(engine, time), "advance")
        t.ok(lib.kn_engine_read(engine, 0, 1, values), "read")
        t.check(values[0] == expected, f"discrete at {time}: {values[0]} vs {expected}")
    t.ok(lib.kn_engine_advance_to(engine, 1), "advance to the end")
    t.ok(lib.kn_engine_read(engine, 0, 1, values), "read")
    t.check(values[0] == 9, "discrete ends at the last key")
    # Cubic paced over both lanes: equal time steps cover equal distances.
    paced = U64(0)
    t.ok(lib.kn_engine_run_create(engine, C.byref(linear), 1, C.byref(paced)), "run_create")
    both = (I64 * 2)(0, 1)
    t.ok(lib.kn_engine_run_add_keyframes(engine, paced, both, 2, doubles([200, 80, 40, 300]), None, 2,
                                         KN_CALCULATION_CUBIC_PACED), "cubic paced keyframes")
    t.ok(lib.kn_engine_run_start(engine, paced), "start")
    steps, speeds, previous = [], [], (9.0, 0.0)
    velocity = (D * 2)()
    for k in range(1, 201):
        t.ok(lib.kn_engine_advance_to(engine, 1 + k / 200), "advance")
        t.ok(lib.kn_engine_read(engine, 0, 2, values), "read")
        steps.append(math.hypot(values[0] - previous[0], values[1] - previous[1]))
        previous = (values[0], values[1])
        if k < 200:
            t.ok(lib.kn_engine_read_velocity(engine, 0, 2, velocity), "read_velocity")
            speeds.append(math.hypot(velocity[0], velocity[1]))
    mean = sum(steps) / len(steps)
    t.check(all(abs(s - mean) < 2e-3 * mean for s in steps), "constant speed along the spline")
    # The exact velocity has that constant speed too: the path's length per second.
    t.check(all(abs(s - 200 * mean) < 2e-3 * 200 * mean for s in speeds), "read_velocity: the paced speed")
    t.ok(lib.kn_engine_read_velocity(engine, 0, 2, velocity), "read_velocity at the end")
    t.check(velocity[0] == 0 and velocity[1] == 0, "still once the run ended")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_engine_read_velocity(engine, 1, 2, velocity), "velocity: lanes outside")
    t.check(previous == (40.0, 300.0), "ends at the last key")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_engine_run_add_keyframes(engine, paced, lanes, 1, doubles([1]), None, 1, 9),
             "calculation_mode 9")
    t.check("calculation_mode = 9" in t.last_error(), "names the mode")
    t.expect(KN_ERR_STALE_HANDLE, lib.kn_engine_run_add_keyframes(engine, 12345678, lanes, 1, doubles([1]), None, 1, 0),
             "a run that never was")
    lib.kn_engine_destroy(engine)


def test_engine(t):
    """An interactive transition through kn_engine_*: a paused run scrubbed by a finger, then
    continued with a spring; the values against kn_bezier / kn_spring, the events, the
    illegal calls (status and UIKit's reason), stale runs; the structs' sizes (the ABI)."""
    lib = t.lib
    t.check((C.sizeof(Timing), C.sizeof(Event), C.sizeof(RunInfo)) == (72, 16, 32), "kn_timing / kn_event / kn_run_info sizes")
    engine = C.c_void_p()
    t.ok(lib.kn_engine_create(C.byref(engine)), "kn_engine_create")
    first = I64(-1)
    t.ok(lib.kn_engine_add_lanes(engine, doubles([0, 300]), 2, C.byref(first)), "add_lanes")
    t.check(first.value == 0, "first lane")

    def lane(i):
        v = D(math.nan)
        t.ok(lib.kn_engine_read(engine, i, 1, C.byref(v)), "read")
        return v.value

    def info(run):
        i = RunInfo()
        t.ok(lib.kn_engine_run_info(engine, run, C.byref(i)), "run_info")
        return i

    def events():
        out, has = [], I32(1)
        while True:
            e = Event()
            t.ok(lib.kn_engine_next_event(engine, C.byref(e), C.byref(has)), "next_event")
            if not has.value:
                return out
            out.append((e.run, e.kind, e.position))

    run = U64(0)
    cubic = Timing(kind=KN_TIMING_CUBIC, x1=0.42, y1=0, x2=0.58, y2=1)
    t.ok(lib.kn_engine_run_create(engine, C.byref(cubic), 0.5, C.byref(run)), "run_create")
    lanes = (I64 * 1)(1)
    t.ok(lib.kn_engine_run_add_animations(engine, run, lanes, doubles([0]), None, 1, 0), "add_animations")
    # The finger: pause at once, scrub through 40 % linearly, as a pan gesture does.
    t.ok(lib.kn_engine_run_pause(engine, run), "pause")
    t.check(info(run).state == KN_RUN_ACTIVE and not info(run).running, "paused")
    for k, fraction in enumerate([0.1, 0.2, 0.3, 0.4]):
        t.ok(lib.kn_engine_advance_to(engine, (k + 1) / 60), "advance")
        t.ok(lib.kn_engine_run_set_fraction(engine, run, fraction), "set_fraction")
        t.check(bits(lane(1)) == bits(300 + (0 - 300) * fraction), f"scrubbed linearly to {fraction}")
    t.expect(KN_ERR_ILLEGAL_STATE, lib.kn_engine_run_finish(engine, run, KN_POSITION_END), "finish while paused")
    t.check("should only be called on a stopped animator! (it is active)" in t.last_error(), "UIKit's reason")
    # Released: continue with a damped spring and the finger's velocity (normalised).
    spring = Timing(kind=KN_TIMING_DAMPED_SPRING, damping_ratio=0.8, velocity_x=1.5, velocity_y=1.5)
    t.ok(lib.kn_engine_run_continue(engine, run, C.byref(spring), 0), "continue")
    unit = C.c_void_p()
    t.ok(lib.kn_spring_create_settling(1, 0.8, 0.001, C.byref(unit)), "unit spring")
    length = 0.6 * 0.5  # the time the original timing had left
    start = 4 / 60
    t.ok(lib.kn_engine_advance_to(engine, start + length / 2), "advance")
    p = D()
    t.ok(lib.kn_spring_value(unit, 0.5, 1.5 * length, C.byref(p)), "spring value")
    expected = 300 - 300 * (0.4 + 0.6 * p.value)
    t.check(abs(lane(1) - expected) < 1e-9, f"spring leg: {lane(1)} vs {expected}")
    t.ok(lib.kn_engine_advance_to(engine, start + length), "advance to the end")
    t.check(events() == [(run.value, KN_EVENT_FINISHED, KN_POSITION_END)], "one finished event")
    t.check(lane(1) == 0 and info(run).state == KN_RUN_INACTIVE, "at the end, inactive")
    # Stale and bad input.
    t.ok(lib.kn_engine_run_release(engine, run), "release")
    t.expect(KN_ERR_STALE_HANDLE, lib.kn_engine_run_start(engine, run), "released run")
    t.expect(KN_ERR_NOT_FINITE, lib.kn_engine_advance_to(engine, math.inf), "infinite time")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_engine_advance_to(engine, 0), "time going back")
    t.expect(KN_ERR_OUT_OF_RANGE, lib.kn_engine_read(engine, 1, 2, doubles([0, 0])), "lanes outside")
    lib.kn_spring_destroy(unit)
    lib.kn_engine_destroy(engine)
    lib.kn_engine_destroy(None)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    t = Checks(load(sys.argv[1]))
    test_status(t)
    test_bezier(t, sys.argv[2])
    test_spring(t, sys.argv[3])
    test_store(t)
    test_engine(t)
    test_engine_keyframes(t)
    test_motion(t)
    print(f"kinetic_ctypes: {t.passed} passed, {t.failed} failed")
    return 0 if t.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
