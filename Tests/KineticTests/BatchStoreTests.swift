// BatchStore and KeyframeBatch (Sources/Kinetic/Engine/BatchStore*.swift, KeyframeBatch.swift):
// the keyframe batch kernel against KeyframeTrack.value(at:) per track (shared and per-track
// progress, every interpolation shape, jumps, extrapolation), native against BLAS; the store
// against plain scalar formulas written here (groups, per-lane, keyframes, springs against
// Spring's closed form), through random add/remove churn; stale handles; the capacity bound
// after a million add/remove cycles.
import Kinetic
import XCTest
import TestSupport

final class BatchStoreTests: XCTestCase {
    // MARK: Helpers

    private func assertClose(_ actual: Double, _ expected: Double, scale: Double, tolerance: Double = 1e-12,
                             _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        let bound = tolerance * max(1, scale)
        if !(abs(actual - expected) <= bound) {
            XCTFail("\(what()): \(actual) vs \(expected) (bound \(bound))", file: file, line: line)
        }
    }

    /// Sorted key times in [0, 1] starting at 0 and ending at 1, optionally with a repeated time.
    private func keyTimes(_ n: Int, jump: Bool, _ rng: inout SeededRandom) -> [Double] {
        var t = (0 ..< n - 2).map { _ in rng.uniform(0.02, 0.98) }.sorted()
        if jump && t.count >= 2 { t[t.count / 2] = t[t.count / 2 - 1] }
        return [0] + t + [1]
    }

    private func randomCurve(_ rng: inout SeededRandom) -> CubicBezier {
        try! CubicBezier(rng.uniform(0, 1), rng.uniform(-0.5, 1.5), rng.uniform(0, 1), rng.uniform(-0.5, 1.5))
    }

    /// Track families sharing a structure: (name, tracks).
    private func families(tracks n: Int, _ rng: inout SeededRandom) throws -> [(String, [KeyframeTrack<Double>])] {
        var result: [(String, [KeyframeTrack<Double>])] = []
        let keys = 8
        // All eased (one curve per segment).
        let times = keyTimes(keys, jump: false, &rng)
        let eased = (0 ..< keys - 1).map { _ in KeyframeInterpolation.eased(randomCurve(&rng)) }
        result.append(("eased", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-100, 100) },
                              interpolations: eased)
        }))
        // Mixed shapes with a jump.
        let mixedTimes = keyTimes(keys, jump: true, &rng)
        let mixed: [KeyframeInterpolation] = [.hold, .linear, .eased(.easeInOut), .catmullRom, .hold,
                                              .eased(randomCurve(&rng)), .linear]
        result.append(("mixed", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: mixedTimes, values: (0 ..< keys).map { _ in rng.uniform(-10, 10) },
                              interpolations: mixed)
        }))
        // Catmull-Rom everywhere.
        result.append(("catmullRom", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-1, 1) },
                              interpolation: .catmullRom)
        }))
        // Explicit Hermite tangents with easings on some segments.
        let easings: [CubicBezier?] = (0 ..< keys - 1).map { $0 % 2 == 0 ? randomCurve(&rng) : nil }
        result.append(("hermite", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-5, 5) },
                              tangents: (0 ..< keys).map { _ in rng.uniform(-20, 20) }, easings: easings)
        }))
        // Key times not covering [0, 1]; two keys; one key.
        result.append(("inner", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: [0.2, 0.5, 0.7], values: [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)],
                              interpolation: .eased(.ease))
        }))
        result.append(("two keys", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: [0, 1], values: [rng.uniform(-1, 1), rng.uniform(-1, 1)], interpolation: .catmullRom)
        }))
        result.append(("one key", try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: [0.5], values: [rng.uniform(-1, 1)])
        }))
        return result
    }

    private func scale(_ tracks: [KeyframeTrack<Double>]) -> Double {
        tracks.map { $0.values.map(abs).max()! }.max()!
    }

    // MARK: KeyframeBatch

    func testKeyframeBatchSharedProgressMatchesTracks() throws {
        var rng = SeededRandom(seed: 0x4B46_4241)
        for (name, tracks) in try families(tracks: 37, &rng) {
            let batch = try KeyframeBatch(tracks: tracks)
            var native = [Double](repeating: .nan, count: tracks.count)
            var blas = native
            let s = scale(tracks) * 100  // tangents up to ~100 × the values' scale
            // Forward walk from before 0 to past 1 at 60 Hz-like steps, then random jumps,
            // then the exact key times.
            var progresses = stride(from: -0.25, through: 1.25, by: 1.0 / 97).map { $0 }
            progresses += (0 ..< 50).map { _ in rng.uniform(-0.3, 1.3) }
            progresses += tracks[0].keyTimes + [0, 1, -1e-300, 1 + 1e-15]
            for p in progresses {
                try native.withUnsafeMutableBufferPointer { try batch.evaluate(at: p, into: $0, backend: .native) }
                if Backend.blas.isAvailable {
                    try blas.withUnsafeMutableBufferPointer { try batch.evaluate(at: p, into: $0, backend: .blas) }
                } else {
                    blas = native  // a build without BLAS: BuildConfigurationTests checks that .blas is refused
                }
                for (t, track) in tracks.enumerated() {
                    let expected = track.value(at: p)
                    assertClose(native[t], expected, scale: s, "\(name) native track \(t) at \(p)")
                    assertClose(blas[t], native[t], scale: abs(native[t]), "\(name) blas vs native track \(t) at \(p)")
                }
            }
        }
    }

    func testKeyframeBatchPerTrackProgressMatchesTracks() throws {
        var rng = SeededRandom(seed: 0x5054_5250)
        for (name, tracks) in try families(tracks: 23, &rng) {
            // Staggered starts walking forward; then random jumps.
            try walkStaggeredFrames(try KeyframeBatch(tracks: tracks), &rng) { progress, out in
                for (t, track) in tracks.enumerated() {
                    assertClose(out[t], track.value(at: progress[t]), scale: scale(tracks) * 100,
                                "\(name) track \(t) at \(progress[t])")
                }
            }
        }
    }

    func testKeyframeBatchRejectsBadInput() throws {
        let a = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1])
        let b = try KeyframeTrack(keyTimes: [0, 0.5], values: [0.0, 1])
        let c = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1], interpolation: .hold)
        let paced = try KeyframeTrack(values: [0.0, 1, 3], calculationMode: .cubicPaced)
        XCTAssertThrowsError(try KeyframeBatch(tracks: [a, b])) { XCTAssertEqual($0 as? BatchStoreError, .structureMismatch(track: 1)) }
        XCTAssertThrowsError(try KeyframeBatch(tracks: [a, a, c])) { XCTAssertEqual($0 as? BatchStoreError, .structureMismatch(track: 2)) }
        XCTAssertThrowsError(try KeyframeBatch(tracks: [paced])) { XCTAssertEqual($0 as? BatchStoreError, .unsupportedInterpolation(track: 0)) }
        XCTAssertThrowsError(try KeyframeBatch(tracks: [])) {
            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "tracks", expected: 1, actual: 0))
        }
        let batch = try KeyframeBatch(tracks: [a, a])
        var short = [Double](repeating: 7, count: 1)
        XCTAssertThrowsError(try short.withUnsafeMutableBufferPointer { try batch.evaluate(at: 0.5, into: $0) })
        XCTAssertEqual(short, [7])
    }

    // MARK: Store against a scalar reference

    /// What the test expects of one entry.
    private enum Expected {
        case group(from: [Double], to: [Double], progress: Double)
        case lanes(from: [Double], to: [Double], progress: [Double])
        case keyframes(tracks: [KeyframeTrack<Double>], progress: Double)
        /// Springs from rest-relative displacement d0, zero velocity, `time` seconds ago.
        case springs(spring: Spring, targets: [Double], d0: [Double], time: Double)
    }

    private func expectedValues(_ e: Expected) -> [Double] {
        switch e {
        case .group(let from, let to, let p): return zip(from, to).map { $0 + p * ($1 - $0) }
        case .lanes(let from, let to, let p): return (0 ..< from.count).map { from[$0] + p[$0] * (to[$0] - from[$0]) }
        case .keyframes(let tracks, let p): return tracks.map { $0.value(at: p) }
        case .springs(let spring, let targets, let d0, let time):
            let u = spring.value(at: time)
            return zip(targets, d0).map { $0 + $1 * (1 - u) }
        }
    }

    private func makeEntry(_ store: BatchStore, _ rng: inout SeededRandom, keyframeFamilies: [[KeyframeTrack<Double>]],
                           springs: [Spring]) throws -> (BatchStore.Handle, Expected) {
        let n = Int(rng.next() % 40)
        let from = (0 ..< n).map { _ in rng.uniform(-100, 100) }, to = (0 ..< n).map { _ in rng.uniform(-100, 100) }
        switch rng.next() % 4 {
        case 0:
            let p = rng.uniform(-0.2, 1.2)
            return (try store.addGroup(from: from, to: to, progress: p), .group(from: from, to: to, progress: p))
        case 1:
            let p = (0 ..< n).map { _ in rng.uniform(0, 1) }
            return (try store.addLanes(from: from, to: to, progress: p), .lanes(from: from, to: to, progress: p))
        case 2:
            let family = keyframeFamilies[Int(rng.next() % UInt64(keyframeFamilies.count))]
            let tracks = Array(family.prefix(1 + Int(rng.next() % UInt64(family.count))))
            let p = rng.uniform(-0.1, 1.1)
            return (try store.addKeyframes(tracks, progress: p), .keyframes(tracks: tracks, progress: p))
        default:
            let spring = springs[Int(rng.next() % UInt64(springs.count))]
            let d0 = (0 ..< n).map { _ in rng.uniform(-50, 50) }
            return (try store.addSprings(spring, targets: to, displacements: d0), .springs(spring: spring, targets: to, d0: d0, time: 0))
        }
    }

    private func check(_ store: BatchStore, _ live: [(BatchStore.Handle, Expected)], tolerance: Double,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(store.entryCount, live.count, file: file, line: line)
        var ranges: [Range<Int>] = []
        for (handle, expected) in live {
            let values = try store.values(of: handle)
            let reference = expectedValues(expected)
            XCTAssertEqual(values.count, reference.count, file: file, line: line)
            for i in 0 ..< min(values.count, reference.count) {
                assertClose(values[i], reference[i], scale: 100, tolerance: tolerance, "\(handle.kind) lane \(i)",
                            file: file, line: line)
            }
            ranges.append(try store.range(of: handle))
        }
        // The ranges tile the output exactly (compact storage).
        XCTAssertEqual(ranges.map(\.count).reduce(0, +), store.laneCount, file: file, line: line)
        XCTAssertEqual(Set(ranges.flatMap { Array($0) }).count, store.laneCount, file: file, line: line)
    }

    func testStoreMatchesScalarReferenceThroughChurn() throws {
        var rng = SeededRandom(seed: 0x5354_4F52)
        let families = try self.families(tracks: 9, &rng).map(\.1)
        let springs = [try Spring(dampingRatio: 0.5, response: 0.4), try Spring(dampingRatio: 1, response: 0.3),
                       try Spring(mass: 1, stiffness: 200, damping: 5)]
        let store = BatchStore()
        var live: [(BatchStore.Handle, Expected)] = []
        let dt = 1.0 / 60
        for round in 0 ..< 300 {
            // Add or remove a few entries, in random places.
            for _ in 0 ..< Int(rng.next() % 4) {
                if !live.isEmpty && rng.chance(0.45) {
                    let i = Int(rng.next() % UInt64(live.count))
                    try store.remove(live[i].0)
                    live.remove(at: i)
                } else {
                    live.append(try makeEntry(store, &rng, keyframeFamilies: families, springs: springs))
                }
            }
            // New progress for some entries.
            for i in live.indices where rng.chance(0.3) {
                switch live[i].1 {
                case .group(let f, let t, _):
                    let p = rng.uniform(-0.2, 1.2)
                    try store.setProgress(p, for: live[i].0)
                    live[i].1 = .group(from: f, to: t, progress: p)
                case .lanes(let f, let t, _):
                    let p = f.map { _ in rng.uniform(0, 1) }
                    try store.setProgress(p, for: live[i].0)
                    live[i].1 = .lanes(from: f, to: t, progress: p)
                case .keyframes(let tracks, let p):
                    let q = p + (rng.chance(0.8) ? dt : rng.uniform(-1, 1))  // mostly forward
                    try store.setProgress(q, for: live[i].0)
                    live[i].1 = .keyframes(tracks: tracks, progress: q)
                case .springs: break
                }
            }
            let backend: Backend = Backend.available[round % Backend.available.count]
            try store.tick(over: dt, backend: backend)
            for i in live.indices {
                if case .springs(let s, let t, let d0, let time) = live[i].1 {
                    live[i].1 = .springs(spring: s, targets: t, d0: d0, time: time + dt)
                }
            }
            // Springs stepped by Φ accumulate rounding over the frames: 1e-9 of the scale.
            try check(store, live, tolerance: 1e-9)
        }
        XCTAssertGreaterThan(store.entryCount, 0)
    }

    /// Adds and removals keep every other entry's values as of the last evaluation (and a fresh
    /// entry reads 0), whichever sections they touch: the output moves with the ranges.
    func testValuesSurviveAddsAndRemovalsOfOtherEntries() throws {
        let store = BatchStore()
        let spring = try Spring(dampingRatio: 0.7, response: 0.5)
        let s = try store.addSprings(spring, targets: [7], displacements: [0])
        let k = try store.addKeyframes([try KeyframeTrack<Double>(keyTimes: [0, 1], values: [5, 6], interpolations: [.linear])],
                                       progress: 0)
        let l = try store.addLanes(from: [1, 2], to: [11, 12], progress: [1, 1])
        let g = try store.addGroup(from: [3], to: [13], progress: 1)
        try store.evaluate()
        let expected: [(BatchStore.Handle, [Double])] = [(s, [7]), (k, [5]), (l, [11, 12]), (g, [13])]
        func assertKept(_ what: String) throws {
            for (h, values) in expected where store.contains(h) {
                XCTAssertEqual(try store.values(of: h), values, "\(h.kind) after \(what)")
            }
        }
        let g2 = try store.addGroup(from: [1, 2], to: [3, 4], progress: 0.5)
        XCTAssertEqual(try store.values(of: g2), [0, 0], "a fresh entry reads 0 until evaluated")
        try assertKept("adding a group")
        let l2 = try store.addLanes(from: [1], to: [2], progress: [0])
        XCTAssertEqual(try store.values(of: l2), [0])
        try assertKept("adding lanes")
        try store.remove(g)
        try assertKept("removing a group")
        try store.remove(l)
        try assertKept("removing lanes")
        XCTAssertEqual(try store.values(of: g2), [0, 0])
        try store.evaluate()
        XCTAssertEqual(try store.values(of: g2), [2, 3])
    }

    func testSpringEntriesStepThroughTheirGroup() throws {
        let store = BatchStore()
        let spring = try Spring(dampingRatio: 0.7, response: 0.5)
        let h = try store.addSprings(spring, targets: [10, -3], displacements: [-10, 2], velocities: [0, 0])
        for _ in 0 ..< 30 { try store.tick(over: 1.0 / 60) }
        let u = spring.value(at: 0.5)
        assertClose(try store.value(of: h, lane: 0), 10 - 10 * (1 - u), scale: 10, tolerance: 1e-10, "lane 0")
        assertClose(try store.value(of: h, lane: 1), -3 + 2 * (1 - u), scale: 10, tolerance: 1e-10, "lane 1")
        XCTAssertEqual(try store.springGroup(for: h).transitionComputations, 1)
        XCTAssertThrowsError(try store.tick(over: -1)) { XCTAssertTrue($0 is ParameterError) }
    }

    // MARK: Handles

    func testStaleAndWrongKindHandlesThrowTypedErrors() throws {
        let store = BatchStore()
        let a = try store.addGroup(from: [0, 1], to: [1, 2])
        let b = try store.addLanes(from: [0], to: [1], progress: [0.5])
        try store.remove(a)
        XCTAssertFalse(store.contains(a))
        for attempt in [{ try store.remove(a) }, { try store.setProgress(0.5, for: a) }, { _ = try store.range(of: a) },
                        { _ = try store.value(of: a) }] {
            XCTAssertThrowsError(try attempt()) { error in
                guard case .staleHandle = error as? BatchStoreError else { return XCTFail("\(error)") }
            }
        }
        // The slot is reused by the next add; the old handle stays stale, the new one works.
        let c = try store.addGroup(from: [5], to: [6], progress: 1)
        XCTAssertThrowsError(try store.setProgress(0.5, for: a))
        try store.evaluate()
        XCTAssertEqual(try store.values(of: c), [6])
        XCTAssertEqual(try store.values(of: b), [0.5])
        XCTAssertThrowsError(try store.springGroup(for: b)) {
            XCTAssertEqual($0 as? BatchStoreError, .wrongKind(expected: .springs, actual: .lanes))
        }
        XCTAssertThrowsError(try store.setProgress([0.1, 0.2], for: b)) { XCTAssertTrue($0 is ParameterError) }
        XCTAssertThrowsError(try store.setProgress([Double.nan], for: b)) {
            guard case .notFinite(let name, let value)? = $0 as? ParameterError else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "progress[0]")
            XCTAssertTrue(value.isNaN)
        }
        try store.evaluate()
        XCTAssertEqual(try store.values(of: b), [0.5], "a rejected per-lane progress changes nothing")
        XCTAssertThrowsError(try store.setProgress([0.1], for: c)) {
            XCTAssertEqual($0 as? BatchStoreError, .wrongKind(expected: .lanes, actual: .group))
        }
        XCTAssertThrowsError(try store.value(of: c, lane: 1)) { XCTAssertTrue($0 is ParameterError) }
        XCTAssertThrowsError(try store.addGroup(from: [1], to: [.nan])) { XCTAssertTrue($0 is ParameterError) }
        XCTAssertThrowsError(try store.addGroup(from: [1], to: [1, 2])) { XCTAssertTrue($0 is ParameterError) }
        XCTAssertEqual(store.entryCount, 2)
    }

    // MARK: Memory

    func testMillionAddRemoveCyclesStayCompact() throws {
        let store = BatchStore()
        var rng = SeededRandom(seed: 0x4348_5552)
        let from = [1.0, 2, 3], to = [4.0, 5, 6]
        var live: [BatchStore.Handle] = []
        for _ in 0 ..< 100 { live.append(try store.addGroup(from: from, to: to, progress: 0.5)) }
        for cycle in 0 ..< 1_000_000 {
            let i = Int(rng.next() % UInt64(live.count))
            try store.remove(live[i])
            live[i] = cycle % 1000 == 0
                ? try store.addLanes(from: from, to: to, progress: [0, 0.5, 1])
                : try store.addGroup(from: from, to: to, progress: 0.5)
        }
        XCTAssertEqual(store.entryCount, 100)
        XCTAssertEqual(store.laneCount, 300)
        XCTAssertLessThanOrEqual(store.slotCapacity, 101)
        XCTAssertLessThanOrEqual(store.laneCapacity, 1024)
        try store.evaluate()
        XCTAssertEqual(try store.values(of: live[0]).count, 3)
    }

    func testSteadyStateFramesDoNotGrowStorage() throws {
        var rng = SeededRandom(seed: 0x5354_4459)
        let store = BatchStore()
        let tracks = try families(tracks: 50, &rng)[0].1
        _ = try store.addGroup(from: Array(repeating: 1, count: 1000), to: Array(repeating: 2, count: 1000))
        let lanes = try store.addLanes(from: Array(repeating: 0, count: 999), to: Array(repeating: 1, count: 999),
                                       progress: Array(repeating: 0, count: 999))
        let keyed = try store.addKeyframes(tracks)
        _ = try store.addSprings(try Spring(dampingRatio: 0.8, response: 0.3), targets: Array(repeating: 1, count: 513))
        try store.tick(over: 1.0 / 60)
        let capacity = store.laneCapacity, slots = store.slotCapacity
        let progress = [Double](repeating: 0.25, count: 999)
        try progress.withUnsafeBufferPointer { p in
            for frame in 0 ..< 600 {
                try store.setProgress(Double(frame) / 600, for: keyed)
                try store.setProgress(p, for: lanes)
                try store.tick(over: 1.0 / 60)
            }
        }
        XCTAssertEqual(store.laneCapacity, capacity)
        XCTAssertEqual(store.slotCapacity, slots)
        XCTAssertEqual(try store.value(of: lanes, lane: 3), 0.25)
    }
}
