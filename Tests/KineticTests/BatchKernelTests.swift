// Batch kernels (Sources/Kinetic/Backends): every kernel, on every backend (native, BLAS,
// automatic), against a plain scalar loop written here, on seeded random data at sizes
// 0, 1, 3, 7, 1023 and 100,003 (odd sizes exercise the SIMD tails); native and BLAS against
// each other; spring-group stepping against the closed form; the Φ cache; count checks.
import Kinetic
import KineticSIMD
import XCTest
import TestSupport


final class BatchKernelTests: XCTestCase {
    static let sizes = [0, 1, 3, 7, 1023, 100_003]
    /// Relative tolerance against the scalar reference (BLAS may fuse multiply-adds).
    static let tolerance = 1e-12

    private func random(_ n: Int, _ range: ClosedRange<Double>, _ rng: inout SeededRandom) -> [Double] {
        (0..<n).map { _ in Double.random(in: range, using: &rng) }
    }

    /// Asserts |actual − expected| ≤ tolerance · scale per lane (scale: the sum of the
    /// magnitudes of the terms, so cancellation does not make the bar impossible).
    private func assertClose(_ actual: [Double], _ expected: [Double], scale: [Double], _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, what, file: file, line: line)
        var worst = 0.0, worstIndex = -1
        for i in 0..<min(actual.count, expected.count) {
            let err = abs(actual[i] - expected[i]) / max(scale[i], .leastNormalMagnitude)
            if !(err <= worst) { worst = err; worstIndex = i }
        }
        XCTAssert(worst <= Self.tolerance, "\(what): worst relative error \(worst) at lane \(worstIndex)", file: file, line: line)
    }

    // MARK: Shared progress

    func testSharedProgressMatchesScalarLoop() throws {
        var rng = SeededRandom(seed: 1)
        for n in Self.sizes {
            let from = random(n, -100...100, &rng), delta = random(n, -100...100, &rng)
            let p = Double.random(in: -0.2...1.2, using: &rng)
            let expected = (0..<n).map { from[$0] + p * delta[$0] }
            let scale = (0..<n).map { abs(from[$0]) + abs(p * delta[$0]) }
            var results: [Backend: [Double]] = [:]
            for backend in Backend.available {
                var out = [Double](repeating: .nan, count: n)
                try from.withUnsafeBufferPointer { f in
                    try delta.withUnsafeBufferPointer { d in
                        try out.withUnsafeMutableBufferPointer { o in
                            try Batch.interpolate(from: f, delta: d, progress: p, into: o, backend: backend)
                        }
                    }
                }
                assertClose(out, expected, scale: scale, "shared n=\(n) \(backend)")
                results[backend] = out
            }
            // The native loop is the same arithmetic as the reference (no fused multiply-add).
            XCTAssertEqual(results[.native], expected, "shared native n=\(n) not bit-exact")
            if let blas = results[.blas] { assertClose(blas, results[.native]!, scale: scale, "shared native vs blas n=\(n)") }
        }
    }

    func testSharedProgressInPlaceAndParallel() throws {
        var rng = SeededRandom(seed: 2)
        let n = 300_001  // above 2 × 131,072: really split over two ranges
        let from = random(n, -1...1, &rng), delta = random(n, -1...1, &rng)
        let expected = (0..<n).map { from[$0] + 0.625 * delta[$0] }
        for backend in Backend.available {
            var buffer = from  // in place: out is the same buffer as from
            try delta.withUnsafeBufferPointer { d in
                try buffer.withUnsafeMutableBufferPointer { o in
                    try Batch.interpolate(from: UnsafeBufferPointer(o), delta: d, progress: 0.625, into: o,
                                          backend: backend, parallel: true)
                }
            }
            assertClose(buffer, expected, scale: (0..<n).map { abs(from[$0]) + abs(delta[$0]) }, "parallel \(backend)")
        }
    }

    // MARK: Per-lane progress

    func testPerLaneProgressMatchesScalarLoop() throws {
        var rng = SeededRandom(seed: 3)
        for n in Self.sizes + [300_001] {
            let from = random(n, -100...100, &rng), delta = random(n, -100...100, &rng)
            let p = random(n, -0.2...1.2, &rng)
            let expected = (0..<n).map { from[$0] + p[$0] * delta[$0] }
            let scale = (0..<n).map { abs(from[$0]) + abs(p[$0] * delta[$0]) }
            var results: [Backend: [Double]] = [:]
            for backend in Backend.available {
                var out = [Double](repeating: .nan, count: n)
                try from.withUnsafeBufferPointer { f in
                    try delta.withUnsafeBufferPointer { d in
                        try p.withUnsafeBufferPointer { pp in
                            try out.withUnsafeMutableBufferPointer { o in
                                try Batch.interpolate(from: f, delta: d, progress: pp, into: o, backend: backend,
                                                      parallel: n > 200_000)
                            }
                        }
                    }
                }
                assertClose(out, expected, scale: scale, "per-lane n=\(n) \(backend)")
                results[backend] = out
            }
            XCTAssertEqual(results[.native], expected, "per-lane native n=\(n) not bit-exact")
            if let blas = results[.blas] { assertClose(blas, results[.native]!, scale: scale, "per-lane native vs blas n=\(n)") }
        }
    }

    func testCountMismatchesThrowAndLeaveOutputAlone() throws {
        let a = [1.0, 2, 3], b = [1.0, 2]
        var out = [9.0, 9, 9]
        for backend in Backend.available {
            try a.withUnsafeBufferPointer { a in
                try b.withUnsafeBufferPointer { b in
                    try out.withUnsafeMutableBufferPointer { o in
                        XCTAssertThrowsError(try Batch.interpolate(from: a, delta: b, progress: 0.5, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "delta", expected: 3, actual: 2))
                        }
                        XCTAssertThrowsError(try Batch.interpolate(from: a, delta: a, progress: b, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "progress", expected: 3, actual: 2))
                        }
                        let short = UnsafeMutableBufferPointer(rebasing: o[0..<2])
                        XCTAssertThrowsError(try Batch.interpolate(from: a, delta: a, progress: 0.5, into: short, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "out", expected: 3, actual: 2))
                        }
                        XCTAssertThrowsError(try Batch.compose(a, contributionCount: 2, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "contributions", expected: 6, actual: 3))
                        }
                        XCTAssertThrowsError(try Batch.compose(a, contributionCount: 1, weights: b, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "weights", expected: 1, actual: 2))
                        }
                        // keys of 3 lanes (6 values) but basis for 1 frame × 3 keys
                        XCTAssertThrowsError(try Batch.bake(basis: a, keys: b, lanes: 1, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "basis", expected: 6, actual: 3))
                        }
                        XCTAssertThrowsError(try Batch.bake(progress: b, keys: a, into: o, backend: backend)) {
                            XCTAssertEqual($0 as? ParameterError, .countMismatch(parameter: "keys", expected: 2, actual: 3))
                        }
                    }
                }
            }
        }
        XCTAssertEqual(out, [9, 9, 9])
    }

    // MARK: Composition

    func testCompositionMatchesScalarLoop() throws {
        var rng = SeededRandom(seed: 4)
        for n in Self.sizes {
            // Up to 11 rows: the native loop adds four rows per pass, then the rest one by one.
            for k in [0, 1, 3, 4, 5, 8, 11] {
                let c = random(k * n, -10...10, &rng)
                let w = random(k, -2...2, &rng)
                for weighted in [false, true] {
                    var expected = [Double](repeating: 0, count: n), scale = expected
                    for i in 0..<n {
                        for r in 0..<k {
                            let term = (weighted ? w[r] : 1) * c[r * n + i]
                            expected[i] += term
                            scale[i] += abs(term)
                        }
                    }
                    var results: [Backend: [Double]] = [:]
                    for backend in Backend.available {
                        var out = [Double](repeating: .nan, count: n)
                        try c.withUnsafeBufferPointer { cp in
                            try w.withUnsafeBufferPointer { wp in
                                try out.withUnsafeMutableBufferPointer { o in
                                    try Batch.compose(cp, contributionCount: k, weights: weighted ? wp : nil, into: o, backend: backend)
                                }
                            }
                        }
                        assertClose(out, expected, scale: scale, "compose n=\(n) k=\(k) weighted=\(weighted) \(backend)")
                        results[backend] = out
                    }
                    if let blas = results[.blas] { assertClose(blas, results[.native]!, scale: scale, "compose native vs blas n=\(n) k=\(k)") }
                    if k == 0 { XCTAssertEqual(results[.native], [Double](repeating: 0, count: n)) }
                    // Native sums left to right over the rows, each term rounded: the bits of
                    // the scalar loop above.
                    XCTAssertEqual(results[.native]?.map(\.bitPattern), expected.map(\.bitPattern),
                                   "compose native n=\(n) k=\(k) weighted=\(weighted)")
                }
            }
        }
    }

    // MARK: Bake

    func testBakeWithBasisMatchesScalarLoop() throws {
        var rng = SeededRandom(seed: 5)
        for n in Self.sizes {
            for (k, frames) in [(2, 4), (3, 3), (4, 2), (9, 2)] {
                let keys = random(k * n, -50...50, &rng), basis = random(frames * k, -1...2, &rng)
                var expected = [Double](repeating: 0, count: frames * n), scale = expected
                for f in 0..<frames {
                    for i in 0..<n {
                        for r in 0..<k {
                            let term = basis[f * k + r] * keys[r * n + i]
                            expected[f * n + i] += term
                            scale[f * n + i] += abs(term)
                        }
                    }
                }
                var results: [Backend: [Double]] = [:]
                for backend in Backend.available {
                    var out = [Double](repeating: .nan, count: frames * n)
                    try basis.withUnsafeBufferPointer { b in
                        try keys.withUnsafeBufferPointer { kp in
                            try out.withUnsafeMutableBufferPointer { o in
                                try Batch.bake(basis: b, keys: kp, lanes: n, into: o, backend: backend)
                            }
                        }
                    }
                    assertClose(out, expected, scale: scale, "bake basis n=\(n) k=\(k) \(backend)")
                    results[backend] = out
                }
                if let blas = results[.blas] { assertClose(blas, results[.native]!, scale: scale, "bake native vs blas n=\(n) k=\(k)") }
                if k != 2 {  // (K = 2 has its own loop, which interpolates)
                    XCTAssertEqual(results[.native]?.map(\.bitPattern), expected.map(\.bitPattern), "bake native n=\(n) k=\(k)")
                }
            }
        }
    }

    func testBakeProgressMatchesScalarLoopAndHitsEndpoints() throws {
        var rng = SeededRandom(seed: 6)
        for n in Self.sizes {
            let keys = random(2 * n, -50...50, &rng)
            let progress = [0.0, 1.0] + random(3, -0.1...1.1, &rng)  // 5 frames
            let frames = progress.count
            var expected = [Double](repeating: 0, count: frames * n), scale = expected
            for f in 0..<frames {
                for i in 0..<n {
                    expected[f * n + i] = (1 - progress[f]) * keys[i] + progress[f] * keys[n + i]
                    scale[f * n + i] = abs((1 - progress[f]) * keys[i]) + abs(progress[f] * keys[n + i])
                }
            }
            for backend in Backend.available {
                var out = [Double](repeating: .nan, count: frames * n)
                try progress.withUnsafeBufferPointer { p in
                    try keys.withUnsafeBufferPointer { kp in
                        try out.withUnsafeMutableBufferPointer { o in
                            try Batch.bake(progress: p, keys: kp, into: o, backend: backend)
                        }
                    }
                }
                assertClose(out, expected, scale: scale, "bake progress n=\(n) \(backend)")
                // Frame 0 (progress 0) is exactly `from`, frame 1 (progress 1) exactly `to`.
                XCTAssertEqual(Array(out[0..<n]), Array(keys[0..<n]), "bake frame 0 n=\(n) \(backend)")
                XCTAssertEqual(Array(out[n..<(2 * n)]), Array(keys[n..<(2 * n)]), "bake frame 1 n=\(n) \(backend)")
            }
        }
    }

    // MARK: Spring groups

    func testSpringGroupStepsMatchClosedFormOver100Steps() throws {
        var rng = SeededRandom(seed: 7)
        let springs = [try Spring(mass: 1, stiffness: 100, damping: 10),   // ζ = 0.5
                       try Spring(mass: 1, stiffness: 100, damping: 20),   // ζ = 1
                       try Spring(mass: 2, stiffness: 50, damping: 40)]    // ζ = 2
        let dt = 1.0 / 60, steps = 100
        for spring in springs {
            for n in [0, 1, 3, 7, 1023] {
                // Displacement magnitude in [0.1, 2] with a random sign; velocity in [-20, 20].
                let d0 = (0..<n).map { _ in Double.random(in: 0.1...2, using: &rng) * (Bool.random(using: &rng) ? 1 : -1) }
                let v0 = random(n, -20...20, &rng)
                var finals: [Backend: ([Double], [Double])] = [:]
                for backend in Backend.available {
                    let group = try SpringGroup(spring: spring, displacements: d0, velocities: v0)
                    for _ in 0..<steps { try group.step(over: dt, backend: backend) }
                    let t = Double(steps) * dt
                    var xs: [Double] = [], vs: [Double] = []
                    for i in 0..<n {
                        // A move from displacement D0 is the unit move scaled by −D0, with the
                        // initial velocity normalised to the distance: iv = V0 / (−D0).
                        let iv = v0[i] / -d0[i]
                        let x = d0[i] * (1 - spring.value(at: t, initialVelocity: iv))
                        let v = -d0[i] * spring.velocity(at: t, initialVelocity: iv)
                        let scale = abs(d0[i]) + abs(v0[i]) * dt
                        XCTAssertEqual(group.displacement(at: i), x, accuracy: 1e-11 * scale,
                                       "spring \(spring) lane \(i) \(backend)")
                        XCTAssertEqual(group.velocity(at: i), v, accuracy: 1e-10 * (abs(d0[i]) * 10 + abs(v0[i])),
                                       "spring \(spring) lane \(i) \(backend)")
                        xs.append(group.displacement(at: i)); vs.append(group.velocity(at: i))
                    }
                    // Every lane actually moved (the test would pass vacuously otherwise).
                    if n > 0 { XCTAssertNotEqual(xs[0], d0[0]) }
                    finals[backend] = (xs, vs)
                }
                guard let blas = finals[.blas] else { continue }  // a build without BLAS
                let native = finals[.native]!
                for i in 0..<n {
                    XCTAssertEqual(blas.0[i], native.0[i], accuracy: 1e-12 * (abs(d0[i]) + abs(v0[i])))
                    XCTAssertEqual(blas.1[i], native.1[i], accuracy: 1e-12 * (abs(d0[i]) + abs(v0[i])) * 10)
                }
            }
        }
    }

    /// The native step (a fused SIMD loop) equals Φ applied lane by lane, bit for bit, at
    /// sizes that are not multiples of the vector width: no fused multiply-add, no reordering.
    func testSpringGroupNativeStepIsTheScalarFormulaBitForBit() throws {
        let spring = try Spring(dampingRatio: 0.3, response: 0.5)
        let phi = try spring.transition(over: 1.0 / 120)
        var rng = SeededRandom(seed: 9)
        for n in [0, 1, 3, 7, 1_023, 100_003] {
            let d0 = random(n, -3...3, &rng), v0 = random(n, -40...40, &rng)
            let group = try SpringGroup(spring: spring, displacements: d0, velocities: v0)
            for _ in 0..<2 { try group.step(over: 1.0 / 120, backend: .native) }
            var mismatches = 0
            for i in 0..<n {
                let s = phi.applied(to: phi.applied(to: SpringState(displacement: d0[i], velocity: v0[i])))
                if group.displacement(at: i).bitPattern != s.displacement.bitPattern
                    || group.velocity(at: i).bitPattern != s.velocity.bitPattern { mismatches += 1 }
            }
            XCTAssertEqual(mismatches, 0, "n = \(n)")
            if n > 0 { XCTAssertNotEqual(group.displacement(at: n - 1), d0[n - 1]) }
        }
    }

    /// The checked magnitude pass and the retarget loop behind `retargetSprings`, on every
    /// vector path: the largest |x| against a plain loop, NaN wherever a NaN sits (in the
    /// vector body or the tail), +infinity for an infinity; the retarget bit for bit against
    /// the scalar formula.
    func testRetargetKernelsOnEveryVectorPath() {
        let paths = Array(KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path())
        var rng = SeededRandom(seed: 11)
        for path in paths {
            for n in [0, 1, 3, 4, 7, 8, 9, 17, 1_001] {
                let values = random(n, -1e6...1e6, &rng)
                let largest = values.reduce(0.0) { max($0, $1.magnitude) }
                XCTAssertEqual(kinetic_simd_max_magnitude_checked(path, values, n), largest, "path \(path), n = \(n)")
                for k in [0, n / 2, n - 1] where n > 0 {
                    var bad = values
                    bad[k] = .nan
                    XCTAssertTrue(kinetic_simd_max_magnitude_checked(path, bad, n).isNaN, "NaN at \(k) of \(n)")
                    bad[k] = -.infinity
                    XCTAssertEqual(kinetic_simd_max_magnitude_checked(path, bad, n), .infinity, "-inf at \(k) of \(n)")
                }
                var x = random(n, -300...300, &rng), old = random(n, -500...500, &rng)
                let target = random(n, -500...500, &rng)
                let expected = (0 ..< n).map { x[$0] + (old[$0] - target[$0]) }
                kinetic_simd_spring_retarget(path, &x, &old, target, n)
                XCTAssertEqual(x.map(\.bitPattern), expected.map(\.bitPattern), "path \(path), n = \(n)")
                XCTAssertEqual(old, target)
            }
        }
    }

    /// Each vector path of KineticSIMD's spring step (the 128-bit baseline and, where this
    /// processor has it, AVX2) equals Φ applied lane by lane, bit for bit: at sizes that are
    /// not multiples of any vector width, and from rows that start off a 32-byte boundary.
    func testSpringStepEveryVectorPathIsTheScalarFormulaBitForBit() throws {
        let phi = try Spring(dampingRatio: 0.15, response: 0.35).transition(over: 1.0 / 90)
        let paths = Array(KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path())
        print("spring step paths tested: \(paths) (0 = baseline, 1 = AVX2)")
        var rng = SeededRandom(seed: 10)
        for path in paths {
            for n in [0, 1, 3, 7, 8, 9, 1_023, 100_003] {
                for offset in [0, 1, 3] {
                    let d0 = random(n + offset, -3...3, &rng), v0 = random(n + offset, -40...40, &rng)
                    var x = d0, v = v0
                    x.withUnsafeMutableBufferPointer { xp in
                        v.withUnsafeMutableBufferPointer { vp in
                            kinetic_simd_spring_step(path, xp.baseAddress! + offset, vp.baseAddress! + offset, n,
                                                phi.m11, phi.m12, phi.m21, phi.m22)
                        }
                    }
                    var mismatches = 0
                    for i in 0..<(n + offset) {
                        let s = i < offset ? SpringState(displacement: d0[i], velocity: v0[i])
                            : phi.applied(to: SpringState(displacement: d0[i], velocity: v0[i]))
                        if x[i].bitPattern != s.displacement.bitPattern || v[i].bitPattern != s.velocity.bitPattern {
                            mismatches += 1
                        }
                    }
                    XCTAssertEqual(mismatches, 0, "path \(path), n = \(n), offset \(offset)")
                }
            }
        }
        // A path this processor cannot run falls back to the baseline (same bits).
        var x = [1.5, -2.0], v = [3.0, 0.25]
        kinetic_simd_spring_step(99, &x, &v, 2, phi.m11, phi.m12, phi.m21, phi.m22)
        XCTAssertEqual(x[1], phi.applied(to: SpringState(displacement: -2, velocity: 0.25)).displacement)
    }

    /// `SpringTransition.step(displacements:velocities:)` (the same kernel, on the caller's
    /// buffers) equals Φ applied lane by lane bit for bit; overlapping buffers are refused with
    /// an error naming `velocities` and its offset, and nothing changes; adjacent ones work.
    func testSpringTransitionArrayStepIsExactAndRefusesOverlap() throws {
        let phi = try Spring(dampingRatio: 0.6, response: 0.25).transition(over: 1.0 / 144)
        var rng = SeededRandom(seed: 11)
        for n in Self.sizes {
            let d0 = random(n, -2...2, &rng), v0 = random(n, -30...30, &rng)
            var x = d0, v = v0
            try x.withUnsafeMutableBufferPointer { xp in
                try v.withUnsafeMutableBufferPointer { vp in try phi.step(displacements: xp, velocities: vp) }
            }
            let mismatches = (0..<n).filter { i in
                let s = phi.applied(to: SpringState(displacement: d0[i], velocity: v0[i]))
                return x[i].bitPattern != s.displacement.bitPattern || v[i].bitPattern != s.velocity.bitPattern
            }.count
            XCTAssertEqual(mismatches, 0, "n = \(n)")
        }
        var both = (0..<10).map(Double.init)
        try both.withUnsafeMutableBufferPointer { b in
            for (start, other) in [(0, 3), (3, 0), (2, 2)] {
                let xs = UnsafeMutableBufferPointer(rebasing: b[start..<(start + 4)])
                let vs = UnsafeMutableBufferPointer(rebasing: b[other..<(other + 4)])
                XCTAssertThrowsError(try phi.step(displacements: xs, velocities: vs)) { error in
                    guard case ParameterError.outOfRange(let name, let value, _) = error else {
                        return XCTFail("expected outOfRange, got \(error)")
                    }
                    XCTAssertEqual(name, "velocities")
                    XCTAssertEqual(value, Double(other - start))
                }
            }
            XCTAssertEqual(Array(b), (0..<10).map(Double.init), "a refused step changes nothing")
            try phi.step(displacements: UnsafeMutableBufferPointer(rebasing: b[0..<4]),
                         velocities: UnsafeMutableBufferPointer(rebasing: b[4..<8]))
            XCTAssertEqual(b[1], phi.applied(to: SpringState(displacement: 1, velocity: 5)).displacement)
        }
    }

    /// Both state rows start on a 64-byte boundary, whatever the count (the 256-bit step
    /// loses most of its speed on rows that are only 16-byte aligned), before and after BLAS
    /// steps swap the buffers.
    func testSpringGroupRowsAre64ByteAligned() throws {
        for n in [1, 3, 7, 8, 9, 1_023, 100_003] {
            let group = try SpringGroup(spring: .coreAnimationDefault, count: n)
            for backend in [Backend.native, .blas, .blas, .native] where backend.isAvailable {
                try group.step(over: 1.0 / 60, backend: backend)
                group.withState { x, v in
                    XCTAssertEqual(Int(bitPattern: x.baseAddress) % 64, 0, "n = \(n), row 0 after \(backend)")
                    XCTAssertEqual(Int(bitPattern: v.baseAddress) % 64, 0, "n = \(n), row 1 after \(backend)")
                    XCTAssertEqual(x.count, n); XCTAssertEqual(v.count, n)
                }
            }
        }
    }

    func testSpringGroupParallelAndWithStateAgree() throws {
        let spring = Spring.coreAnimationDefault
        let n = 300_001
        var rng = SeededRandom(seed: 8)
        let d0 = random(n, -1...1, &rng), v0 = random(n, -5...5, &rng)
        let phi = try spring.transition(over: 0.01)
        for backend in Backend.available {
            let group = try SpringGroup(spring: spring, displacements: d0, velocities: v0)
            for _ in 0..<3 { try group.step(over: 0.01, backend: backend, parallel: true) }
            group.withState { x, v in
                XCTAssertEqual(x.count, n); XCTAssertEqual(v.count, n)
                for i in stride(from: 0, to: n, by: 997) {
                    var s = SpringState(displacement: d0[i], velocity: v0[i])
                    for _ in 0..<3 { s = phi.applied(to: s) }
                    XCTAssertEqual(x[i], s.displacement, accuracy: 1e-13 * (1 + abs(v0[i])), "\(backend) lane \(i)")
                    XCTAssertEqual(v[i], s.velocity, accuracy: 1e-12 * (1 + abs(v0[i])) * 10, "\(backend) lane \(i)")
                }
            }
        }
    }

    func testTransitionCacheReturnsSameMatrixForSameDt() throws {
        let spring = try Spring(dampingRatio: 0.7, response: 0.4)
        let group = try SpringGroup(spring: spring, count: 4)
        let a = try group.transition(over: 1.0 / 60)
        XCTAssertEqual(group.transitionComputations, 1)
        XCTAssertEqual(a, try spring.transition(over: 1.0 / 60))
        let b = try group.transition(over: 1.0 / 60)
        XCTAssertEqual(a, b)
        XCTAssertEqual(group.transitionComputations, 1, "same dt must come from the cache")
        for _ in 0..<10 { try group.step(over: 1.0 / 60) }
        XCTAssertEqual(group.transitionComputations, 1)
        let c = try group.transition(over: 1.0 / 120)
        XCTAssertEqual(group.transitionComputations, 2)
        XCTAssertNotEqual(a, c)
        XCTAssertEqual(c, try spring.transition(over: 1.0 / 120))
        // -0.0 and 0.0 differ in bits: separate entries, both valid.
        _ = try group.transition(over: 0.0)
        _ = try group.transition(over: 1.0 / 30)
        XCTAssertEqual(group.transitionComputations, 4)
        _ = try group.transition(over: 1.0 / 60)  // still cached (4 entries)
        XCTAssertEqual(group.transitionComputations, 4)
        _ = try group.transition(over: 1.0 / 90)  // evicts the oldest (1/60)
        _ = try group.transition(over: 1.0 / 60)
        XCTAssertEqual(group.transitionComputations, 6)
        XCTAssertThrowsError(try group.step(over: -1))
        XCTAssertThrowsError(try group.step(over: .nan))
    }

    func testBLASRunsSingleThreadedByDefault() throws {
        try XCTSkipUnless(BLASRuntime.isAvailable, "this build has no BLAS backend (BuildConfigurationTests covers it)")
        var out = [0.0]
        try [1.0].withUnsafeBufferPointer { a in
            try out.withUnsafeMutableBufferPointer { o in
                try Batch.interpolate(from: a, delta: a, progress: 1, into: o, backend: .blas)
            }
        }
        XCTAssertEqual(out, [2])
        XCTAssertEqual(BLASRuntime.threadCount, BLASRuntime.defaultThreadCount)
        XCTAssertEqual(BLASRuntime.defaultThreadCount, 1)
    }
}
