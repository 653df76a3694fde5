import Kinetic
import KineticC
import XCTest

import KineticPlatform

/// The C exports, called through their Swift declarations, against the Swift API: results must
/// agree bit for bit (the C layer only marshals), and every Kinetic error must arrive as its
/// status with the Swift error's message. The C program and the ctypes script (`make test-c`)
/// check the same through the installed header and library.
final class KineticCExportTests: XCTestCase {
    private let ok = Int32(0), nullArgument = Int32(1), notFinite = Int32(2), outOfRange = Int32(3)
    private let staleHandle = Int32(5), wrongKind = Int32(6), bufferTooSmall = Int32(9)

    private func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = kn_last_error_message(&buffer, UInt(buffer.count), nil)
        return string(buffer)
    }

    /// The NUL-terminated string in `buffer`.
    private func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Progress values in and outside [0, 1], from a fixed LCG.
    private func sampleXs(_ count: Int) -> [Double] {
        var state: UInt64 = 0x4B4E_4331
        return (0 ..< count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 1.4 - 0.2
        }
    }

    func testBezierExportsAgreeWithSwiftBitForBit() throws {
        // The presets (linear is the identity, which has no solve table), overshoot, steep, an
        // identity other than linear, a vertical start, the triple root, and random curves. On a
        // handle of a curve that is not a preset, the scalar calls run first: the first 64 x in
        // [0, 1] before the curve's solve table exists, the rest through it; the batch call then.
        var state: UInt64 = 0x5EED
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let random = try (0 ..< 24).map { _ in try CubicBezier(unit(), 3 * unit() - 1, unit(), 3 * unit() - 1) }
        let curves = CubicBezier.presets.map(\.curve) + [try CubicBezier(0.34, 1.56, 0.64, 1), try CubicBezier(0.9, 0.1, 0.1, 0.9),
                                                          try CubicBezier(0.3, 0.3, 0.7, 0.7), try CubicBezier(0, 0.8, 0.2, 1),
                                                          try CubicBezier(1, 0, 0, 1)] + random
        let xs = sampleXs(2000) + [0, 1, -0.0, .infinity, -.infinity, .nan, 1e-300, 0x1p-27, 1 - 0x1p-53, 0.5, 0.5.nextUp]
        for curve in curves {
            var handle: OpaquePointer?
            XCTAssertEqual(kn_bezier_create(curve.x1, curve.y1, curve.x2, curve.y2, &handle), ok)
            defer { kn_bezier_destroy(handle) }
            for x in xs {
                var value = Double.nan, slope = Double.nan
                XCTAssertEqual(kn_bezier_value(handle, x, &value), ok)
                XCTAssertEqual(kn_bezier_slope(handle, x, &slope), ok)
                XCTAssertEqual(value.bitPattern, curve.value(at: x).bitPattern, "\(curve) at \(x)")
                XCTAssertEqual(slope.bitPattern, curve.slope(at: x).bitPattern, "\(curve) slope at \(x)")
            }
            var out = [Double](repeating: .nan, count: xs.count)
            XCTAssertEqual(xs.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { kn_bezier_values(handle, x.baseAddress, $0.baseAddress, Int64(xs.count)) }
            }, ok)
            let expected = curve.values(at: xs)
            for (i, x) in xs.enumerated() {
                XCTAssertEqual(out[i].bitPattern, expected[i].bitPattern, "\(curve) batch at \(x)")
            }
        }
        for (index, preset) in CubicBezier.presets.enumerated() {
            var handle: OpaquePointer?
            XCTAssertEqual(kn_bezier_create_preset(Int32(index), &handle), ok)
            var p = (0.0, 0.0, 0.0, 0.0)
            XCTAssertEqual(kn_bezier_control_points(handle, &p.0, &p.1, &p.2, &p.3), ok)
            XCTAssertEqual([p.0, p.1, p.2, p.3], [preset.curve.x1, preset.curve.y1, preset.curve.x2, preset.curve.y2])
            kn_bezier_destroy(handle)
        }
    }

    func testSpringExportsAgreeWithSwiftBitForBit() throws {
        var handles: [OpaquePointer?] = [nil, nil, nil, nil]
        XCTAssertEqual(kn_spring_create(2, 300, 12, &handles[0]), ok)
        XCTAssertEqual(kn_spring_create_damping_ratio(0.7, 0.35, &handles[1]), ok)
        XCTAssertEqual(kn_spring_create_duration(0.5, -0.4, &handles[2]), ok)
        XCTAssertEqual(kn_spring_create_settling(0.6, 1.3, 0.002, &handles[3]), ok)
        defer { handles.forEach(kn_spring_destroy) }
        let springs = [try Spring(mass: 2, stiffness: 300, damping: 12), try Spring(dampingRatio: 0.7, response: 0.35),
                       try Spring(duration: 0.5, bounce: -0.4),
                       try Spring(settlingDuration: 0.6, dampingRatio: 1.3, epsilon: 0.002)]
        for (handle, spring) in zip(handles, springs) {
            var m = 0.0, k = 0.0, c = 0.0
            XCTAssertEqual(kn_spring_parameters(handle, &m, &k, &c), ok)
            XCTAssertEqual([m.bitPattern, k.bitPattern, c.bitPattern],
                           [spring.mass.bitPattern, spring.stiffness.bitPattern, spring.damping.bitPattern])
            // kn_spring_get_properties: kn_spring_properties is seven doubles in field order.
            var properties = [Double](repeating: -1, count: 7)
            XCTAssertEqual(kn_spring_get_properties(handle, &properties), ok)
            XCTAssertEqual(properties.map(\.bitPattern),
                           [spring.mass, spring.stiffness, spring.damping, spring.dampingRatio, spring.response,
                            spring.duration, spring.bounce].map(\.bitPattern))
            for t in stride(from: -0.1, through: 2.0, by: 0.013) {
                var value = 0.0, velocity = 0.0
                XCTAssertEqual(kn_spring_value(handle, t, 1.5, &value), ok)
                XCTAssertEqual(kn_spring_velocity(handle, t, 1.5, &velocity), ok)
                XCTAssertEqual(value.bitPattern, spring.value(at: t, initialVelocity: 1.5).bitPattern)
                XCTAssertEqual(velocity.bitPattern, spring.velocity(at: t, initialVelocity: 1.5).bitPattern)
            }
            var settle = 0.0
            XCTAssertEqual(kn_spring_settling_duration(handle, -3, 0.0005, &settle), ok)
            XCTAssertEqual(settle.bitPattern, spring.settlingDuration(initialVelocity: -3, epsilon: 0.0005).bitPattern)
            var matrix = [Double](repeating: 0, count: 4)
            XCTAssertEqual(kn_spring_transition(handle, 1.0 / 120, &matrix), ok)
            let phi = try spring.transition(over: 1.0 / 120)
            XCTAssertEqual(matrix.map(\.bitPattern), [phi.m11, phi.m12, phi.m21, phi.m22].map(\.bitPattern))
            // The Φ step over N springs.
            var x = sampleXs(300), v = sampleXs(300).reversed().map { $0 * 4 }
            var expectedX = x, expectedV = v
            try expectedX.withUnsafeMutableBufferPointer { ex in
                try expectedV.withUnsafeMutableBufferPointer { try phi.step(displacements: ex, velocities: $0) }
            }
            XCTAssertEqual(kn_spring_step(handle, 1.0 / 120, &x, &v, 300), ok)
            XCTAssertEqual(x.map(\.bitPattern), expectedX.map(\.bitPattern))
            XCTAssertEqual(v.map(\.bitPattern), expectedV.map(\.bitPattern))
        }
    }

    func testErrorsArriveAsStatusWithTheSwiftMessage() throws {
        var handle: OpaquePointer?
        XCTAssertEqual(kn_bezier_create(0.2, 0, 1.5, 1, &handle), outOfRange)
        XCTAssertNil(handle)
        XCTAssertThrowsError(try CubicBezier(0.2, 0, 1.5, 1)) { XCTAssertEqual(lastError(), "\($0)") }
        XCTAssertEqual(kn_spring_create_duration(0.4, .nan, &handle), notFinite)
        XCTAssertThrowsError(try Spring(duration: 0.4, bounce: .nan)) { XCTAssertEqual(lastError(), "\($0)") }
        XCTAssertEqual(kn_bezier_values(nil, nil, nil, -1), nullArgument)
        XCTAssertEqual(lastError(), "curve is NULL")
        var value = 0.0
        XCTAssertEqual(kn_spring_get_properties(nil, &value), nullArgument)
        XCTAssertEqual(lastError(), "spring is NULL")
        XCTAssertEqual(kn_spring_value(nil, 0, 0, &value), nullArgument)
        XCTAssertEqual(lastError(), "spring is NULL")
        XCTAssertEqual(String(cString: kn_status_message(staleHandle)), "the store entry was removed or belongs to another store")
        // Truncation reports the full length.
        var small = [CChar](repeating: 1, count: 4)
        var length: UInt = 0
        XCTAssertEqual(kn_last_error_message(&small, 4, &length), bufferTooSmall)
        XCTAssertEqual(string(small), "spr")
        XCTAssertEqual(length, UInt("spring is NULL".utf8.count))
    }

    /// The same operations on a BatchStore and through kn_store_*: the same lanes, bit for bit.
    func testStoreAgreesWithBatchStoreBitForBit() throws {
        let swift = BatchStore()
        var store: OpaquePointer?
        XCTAssertEqual(kn_store_create(&store), ok)
        defer { kn_store_destroy(store) }
        let spring = try Spring(dampingRatio: 0.4, response: 0.5)
        var springHandle: OpaquePointer?
        XCTAssertEqual(kn_spring_create_damping_ratio(0.4, 0.5, &springHandle), ok)
        defer { kn_spring_destroy(springHandle) }
        var ease: OpaquePointer?
        XCTAssertEqual(kn_bezier_create_preset(1, &ease), ok)
        defer { kn_bezier_destroy(ease) }

        let from = sampleXs(50), to = sampleXs(100).suffix(50).map { $0 * 7 }
        var g: UInt64 = 0, k: UInt64 = 0, s: UInt64 = 0
        let swiftGroup = try swift.addGroup(from: from, to: Array(to), progress: 0.3)
        XCTAssertEqual(kn_store_add_group(store, from, Array(to), 50, 0.3, &g), ok)
        let times = [0, 0.3, 0.3, 1.0], values = (0 ..< 40).map { Double($0 % 7) - 3 }
        let tracks = try (0 ..< 10).map { t in
            try KeyframeTrack<Double>(keyTimes: times, values: Array(values[t * 4 ..< t * 4 + 4]),
                                      interpolations: [.eased(.ease), .hold, .catmullRom])
        }
        let swiftKeys = try swift.addKeyframes(tracks, progress: 0.1)
        let codes: [Int32] = [2, 0, 3]
        let easings: [OpaquePointer?] = [ease, nil, nil]
        XCTAssertEqual(kn_store_add_keyframes(store, times, 4, values, 10, codes, easings, 0.1, &k), ok)
        let targets = sampleXs(20), displacements = sampleXs(40).suffix(20).map { $0 - 1 }
        _ = try swift.addSprings(spring, targets: targets, displacements: Array(displacements))
        XCTAssertEqual(kn_store_add_springs(store, springHandle, targets, Array(displacements), nil, 20, &s), ok)

        for frame in 1 ... 30 {
            let p = Double(frame) / 30
            try swift.setProgress(p, for: swiftGroup)
            try swift.setProgress(p, for: swiftKeys)
            XCTAssertEqual(kn_store_set_progress(store, g, p), ok)
            XCTAssertEqual(kn_store_set_progress(store, k, p), ok)
            try swift.tick(over: 1.0 / 60)
            XCTAssertEqual(kn_store_tick(store, 1.0 / 60), ok)
            var count: Int64 = 0
            var out = [Double](repeating: .nan, count: 80)
            XCTAssertEqual(kn_store_read_all(store, &out, 80, &count), ok)
            XCTAssertEqual(count, Int64(swift.laneCount))
            XCTAssertEqual(out.map(\.bitPattern), swift.withValues { Array($0) }.map(\.bitPattern), "frame \(frame)")
        }
        XCTAssertEqual(kn_store_set_progress(store, s, 0.5), wrongKind)
        XCTAssertEqual(kn_store_remove(store, k), ok)
        XCTAssertEqual(kn_store_remove(store, k), staleHandle)
        var value = 0.0
        XCTAssertEqual(kn_store_value(store, s, 20, &value), outOfRange)
    }

    /// The fuzzer's case and its relatives: counts (and products of counts) far beyond what can
    /// be allocated return a status naming the value; none may abort the process.
    func testHostileCountsReturnAStatusInsteadOfAllocating() {
        let countMismatch = Int32(4)
        var store: OpaquePointer?
        XCTAssertEqual(kn_store_create(&store), ok)
        defer { kn_store_destroy(store) }
        var spring: OpaquePointer?
        XCTAssertEqual(kn_spring_create(1, 100, 10, &spring), ok)
        defer { kn_spring_destroy(spring) }
        var curve: OpaquePointer?
        XCTAssertEqual(kn_bezier_create_preset(0, &curve), ok)
        defer { kn_bezier_destroy(curve) }
        var entry: UInt64 = 77
        XCTAssertEqual(kn_store_add_keyframes(store, nil, 0, nil, Int64(1) << 40, nil, nil, 0.5, &entry), countMismatch)
        XCTAssertTrue(lastError().contains("key_count = 0"), lastError())
        XCTAssertEqual(kn_store_add_keyframes(store, nil, 1, nil, Int64(1) << 40, nil, nil, 0.5, &entry), outOfRange)
        XCTAssertTrue(lastError().contains("track_count = 1099511627776"), lastError())
        XCTAssertEqual(kn_store_add_keyframes(store, nil, 1 << 20, nil, 1 << 20, nil, nil, 0.5, &entry), outOfRange)
        XCTAssertTrue(lastError().contains("= 1099511627776 is above KN_MAX_COUNT"), lastError())
        for count in [Int64.max, Int64.min, -1, (Int64(1) << 28) + 1, Int64(1) << 62] {
            XCTAssertEqual(kn_store_add_group(store, nil, nil, count, 0, &entry), outOfRange, "\(count)")
            XCTAssertTrue(lastError().contains("count = \(count)"), lastError())
            XCTAssertEqual(kn_store_add_lanes(store, nil, nil, nil, count, &entry), outOfRange, "\(count)")
            XCTAssertEqual(kn_store_add_springs(store, spring, nil, nil, nil, count, &entry), outOfRange, "\(count)")
            XCTAssertEqual(kn_store_add_keyframes(store, nil, count, nil, 1, nil, nil, 0, &entry), outOfRange, "\(count)")
            XCTAssertEqual(kn_store_add_keyframes(store, nil, 2, nil, count, nil, nil, 0, &entry), outOfRange, "\(count)")
            XCTAssertEqual(kn_bezier_values(curve, nil, nil, count), outOfRange, "\(count)")
            XCTAssertEqual(kn_spring_step(spring, 0.1, nil, nil, count), outOfRange, "\(count)")
        }
        XCTAssertEqual(entry, 77)
        var lanes: Int64 = -1
        XCTAssertEqual(kn_store_counts(store, &lanes, nil), ok)
        XCTAssertEqual(lanes, 0)
        // Capacities are only bounded below: nothing is allocated for them.
        var count: Int64 = -1
        XCTAssertEqual(kn_store_read_all(store, nil, Int64.max, &count), ok)
        XCTAssertEqual(count, 0)
        XCTAssertEqual(kn_store_read_all(store, nil, -1, &count), outOfRange)
    }

    /// Finite in, never infinite out, through C: a position or velocity beyond the range of
    /// double is KN_ERR_OUT_OF_RANGE naming initial_velocity; settling stays finite.
    func testHugeFiniteVelocityGivesAStatusNotInfinity() {
        var spring: OpaquePointer?
        XCTAssertEqual(kn_spring_create(1, 1e-2, 0.5, &spring), ok)
        defer { kn_spring_destroy(spring) }
        var overflowed = 0
        for v0 in [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e308, 1e300, 0, .leastNonzeroMagnitude] {
            var settle = Double.nan
            XCTAssertEqual(kn_spring_settling_duration(spring, v0, 1e-3, &settle), ok)
            XCTAssertTrue(settle.isFinite, "v0 \(v0): \(settle)")
            for t in [0.5, 1, 10, 100, 1e4] {
                var x = 42.0, v = 42.0
                let sx = kn_spring_value(spring, t, v0, &x), sv = kn_spring_velocity(spring, t, v0, &v)
                for (status, out) in [(sx, x), (sv, v)] {
                    if status == ok {
                        XCTAssertTrue(out.isFinite, "v0 \(v0) t \(t)")
                    } else {
                        overflowed += 1
                        XCTAssertEqual(status, outOfRange, "v0 \(v0) t \(t)")
                        XCTAssertEqual(out, 42, "nothing written on failure")
                    }
                }
                if sx != ok {
                    XCTAssertTrue(lastError().contains("initial_velocity = \(v0)"), lastError())
                }
            }
        }
        XCTAssertGreaterThan(overflowed, 0)
    }

    /// A friction multiplier whose decay constant (4.2 × it) is beyond the range of Double is
    /// refused with the status the header lists, naming it, and nothing is written.
    func testDecayFromFrictionBeyondTheRangeIsOutOfRange() {
        var decay: [Double] = [42, 42]
        XCTAssertEqual(kn_decay_from_friction(1e308, 0.1, &decay), outOfRange)
        XCTAssertTrue(lastError().contains("1e+308"), lastError())
        XCTAssertEqual(decay, [42, 42])
        XCTAssertEqual(kn_decay_from_friction(4e307, 0.1, &decay), ok)
        XCTAssertTrue(decay.allSatisfy(\.isFinite))
    }

    /// A keyframe entry within KN_MAX_COUNT whose construction would still need more than
    /// the machine's memory (one scalar track per lane, several hundred bytes each: 2^28
    /// tracks of one key would take about 250 GB) is refused before anything is allocated,
    /// naming the counts, instead of ending the process.
    func testKeyframeEntryBeyondTheMachinesMemoryIsRefusedBeforeAllocating() throws {
        try XCTSkipIf((memoryLimitBytes ?? 0) > 200 << 30, "this process could build the entry")
        var store: OpaquePointer?
        XCTAssertEqual(kn_store_create(&store), ok)
        defer { kn_store_destroy(store) }
        // Never read: the call is refused before it looks at the values.
        var times = [0.5], value = 1.0, entry: UInt64 = 77
        XCTAssertEqual(kn_store_add_keyframes(store, &times, 1, &value, 1 << 28, nil, nil, 0, &entry), outOfRange)
        XCTAssertTrue(lastError().contains("track_count = 268435456 with key_count = 1"), lastError())
        XCTAssertTrue(lastError().contains("GiB"), lastError())
        XCTAssertEqual(entry, 77, "nothing written")
        // A small entry is taken.
        var values = [1.0, 2.0]
        XCTAssertEqual(kn_store_add_keyframes(store, &times, 1, &values, 2, nil, nil, 0, &entry), ok)
    }

    /// The memory the size checks use is the machine's, or its control group's lower limit
    /// (a container's): never more than the machine has, and a real amount here.
    func testTheMemoryLimitIsTheMachinesOrItsControlGroupsLower() throws {
        let physical = try XCTUnwrap(physicalMemoryBytes)
        let limit = try XCTUnwrap(memoryLimitBytes)
        XCTAssertLessThanOrEqual(limit, physical)
        XCTAssertGreaterThan(limit, 64 << 20, "at least the 64 MiB any test run needs")
    }
}
