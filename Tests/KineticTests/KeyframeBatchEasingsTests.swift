// KeyframeBatch tracks that ease a segment each with its own curve (Engine/KeyframeBatchEasings.swift):
// the lane solver (Curves/BezierLanes.swift) against an independent Float80 solve, the batch
// against KeyframeTrack.value(at:) at shared and per-track progress, overflow, and the store.
import Kinetic
import KineticSIMD
import XCTest
import TestSupport

final class KeyframeBatchEasingsTests: XCTestCase {
    /// Issue 17's random curves (x1, x2 in [0, 1], y1, y2 in [−1, 2]) with its degenerate
    /// families mixed in.
    private func curve(_ rng: inout SeededRandom) -> CubicBezier {
        let special: [(Double, Double, Double, Double)] = [
            (0, 0.5, 0.6, 0.9), (0.4, 0.1, 1, 0.5), (1e-9, 0, 0.58, 1), (0, 0, 1, 1), (1.0 / 3, 0, 2.0 / 3, 1),
            (1, 0, 0, 1), (0.999, 0, 0.001, 1), (0, 1, 0, 1), (0, 0.3, 0, 1), (0.95, 0.05, 0.05, 0.95),
            (0.99, 0, 0.01, 1), (0.34, 1.56, 0.64, 1), (0.6, -0.5, 0.7, 1.2), (0.3, 0.3, 0.8, 0.8),
        ]
        if rng.chance(0.15) {
            let p = special[Int(rng.unit() * Double(special.count)) % special.count]
            return try! CubicBezier(p.0, p.1, p.2, p.3)
        }
        return try! CubicBezier(rng.unit(), rng.uniform(-1, 2), rng.unit(), rng.uniform(-1, 2))
    }

    /// The kernel over `curves` at `u` (one progress per lane): values and certificates.
    private func lanes(_ curves: [CubicBezier], _ u: [Double]) -> (w: [Double], ok: [Bool]) {
        let x1 = curves.map(\.x1), y1 = curves.map(\.y1), x2 = curves.map(\.x2), y2 = curves.map(\.y2)
        var w = [Double](repeating: .nan, count: curves.count), ok = [UInt8](repeating: 7, count: curves.count)
        w.withUnsafeMutableBufferPointer { w in
            ok.withUnsafeMutableBufferPointer { ok in
                BezierLanes.values(x1: x1, y1: y1, x2: x2, y2: y2, at: u, into: w.baseAddress!, ok: ok.baseAddress!,
                                   count: curves.count)
            }
        }
        XCTAssertTrue(ok.allSatisfy { $0 == 0 || $0 == 1 })
        return (w, ok.map { $0 == 1 })
    }

    func testLanesAgreeWithFloat80WhereCertified() {
        var rng = SeededRandom(seed: 0x1A_7E5)
        var curves: [CubicBezier] = [], us: [Double] = []
        for _ in 0 ..< 3000 {
            let group = (0 ..< 4).map { _ in curve(&rng) }
            for k in 0 ..< 8 {
                let u: [Double] = k == 0 ? [0, 1, 1e-300, 1 - 0x1p-53] : k == 1 ? [0.5, 0.5.nextDown, 1e-9, 1 - 1e-9]
                    : (0 ..< 4).map { _ in rng.unit() }
                curves += group
                us += u
            }
        }
        // Large y control values, where the power form of y cancels: such lanes must not be
        // certified on the strength of the step alone.
        for p in [(0.30068, -1e300, 0.98922, 1.09358), (0.3, 1e3, 0.7, -1e3), (0.2, 6e5, 0.9, 0.5), (0.5, 40, 0.5, -40)] {
            for u in [1 - 0x1p-53, 0.5, 0.25, 1e-3, 0.999] {
                curves.append(try! CubicBezier(p.0, p.1, p.2, p.3))
                us.append(u)
            }
        }
        // Odd counts too: the vector loop's remainder.
        for count in [curves.count, 1, 3, 7, 13] {
            let (w, ok) = lanes(Array(curves.prefix(count)), Array(us.prefix(count)))
            var certified = 0, randomCertified = 0, randomLanes = 0
            var worst = 0.0, worstCase = ""
            for i in 0 ..< count {
                let c = curves[i], u = us[i]
                let reference = BezierReference80(c.x1, c.y1, c.x2, c.y2).value(at: u)
                let isRandom = !(c.x1 == 0 || c.x2 == 1 || c.x1 < 1e-6 || c.x1 > 0.9 && c.x2 < 0.1)
                if isRandom { randomLanes += 1 }
                guard ok[i] else {
                    // The lanes left over take the exact solve (no table, no allocation):
                    // within 1e-12 like CubicBezier, 4e-6 at and next to the triple root.
                    let exact = BezierLanes.exactValue(c.x1, c.y1, c.x2, c.y2, at: u)
                    let bound = (c.x1 > 0.99 && c.x2 < 0.01 ? 4e-6 : 1e-12) * max(1, abs(c.y1), abs(c.y2))
                    XCTAssertLessThanOrEqual(abs(exact - reference), bound, "exact solve, \(c) at \(u)")
                    continue
                }
                certified += 1
                if isRandom { randomCertified += 1 }
                let error = abs(w[i] - reference)
                if error > worst { worst = error; worstCase = "\(c) at \(u): \(w[i])" }
                if u == 0 || u == 1 { XCTAssertEqual(w[i], u, "exact ends, \(c)") }
            }
            XCTAssertLessThanOrEqual(worst, 2e-13, worstCase)
            if count == curves.count {
                print("[BezierLanes] \(certified) of \(count) lanes certified (\(randomCertified) of \(randomLanes) on "
                      + "ordinary random curves); worst error \(worst) (\(worstCase))")
                // The fast path does the work: nearly every lane of an ordinary curve is certified.
                XCTAssertGreaterThan(Double(randomCertified) / Double(randomLanes), 0.99)
            }
        }
        // Progress outside [0, 1] is left to the exact solve.
        let outside = lanes([CubicBezier](repeating: try! CubicBezier(0.3, 0.1, 0.6, 0.9), count: 4), [-0.5, 1.5, -1e-300, 1.nextUp])
        XCTAssertEqual(outside.ok, [false, false, false, false])
    }

    /// The second pass (`kinetic_simd_bezier_lanes_retry`, more steps) over the lanes that the
    /// first leaves uncertified certifies most of them within the same bound, and
    /// `resolveUncertified` gives every lane its value: the second pass's where certified, the
    /// exact solve's elsewhere, each within its bound of the Float80 reference.
    func testUncertifiedLanesAreResolved() {
        var rng = SeededRandom(seed: 0x2E7_2E7)
        var curves: [CubicBezier] = [], us: [Double] = []
        for i in 0 ..< 40_000 {
            curves.append(curve(&rng))
            us.append(i % 97 == 0 ? rng.uniform(-0.5, 1.5) : i % 89 == 0 ? [0, 1, 1e-12, 1 - 1e-12][i % 4] : rng.unit())
        }
        let n = curves.count
        let x1 = curves.map(\.x1), y1 = curves.map(\.y1), x2 = curves.map(\.x2), y2 = curves.map(\.y2)
        let first = lanes(curves, us)
        let failed = (0 ..< n).filter { !first.ok[$0] }
        XCTAssertGreaterThan(failed.count, 0)
        // The second pass, on the failed lanes gathered.
        let g = (x1: failed.map { x1[$0] }, y1: failed.map { y1[$0] }, x2: failed.map { x2[$0] }, y2: failed.map { y2[$0] },
                 u: failed.map { us[$0] })
        var w2 = [Double](repeating: .nan, count: failed.count), ok2 = [UInt8](repeating: 9, count: failed.count)
        var bits: [[UInt64]] = []
        for path in KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path() {
            kinetic_simd_bezier_lanes_retry(path, g.x1, g.y1, g.x2, g.y2, g.u, &w2, &ok2, failed.count)
            bits.append(zip(w2, ok2).map { $1 == 1 ? $0.bitPattern : 0 } + ok2.map(UInt64.init))
        }
        for b in bits.dropFirst() { XCTAssertEqual(b, bits[0], "the second pass differs between paths") }
        var retried = 0, ordinaryFailed = 0, ordinaryRetried = 0
        for (j, i) in failed.enumerated() {
            let c = curves[i]
            let ordinary = !(c.x1 == 0 || c.x2 == 1 || c.x1 < 1e-6 || c.x1 > 0.9 && c.x2 < 0.1) && us[i] >= 0 && us[i] <= 1
            if ordinary { ordinaryFailed += 1 }
            guard ok2[j] == 1 else { continue }
            retried += 1
            if ordinary { ordinaryRetried += 1 }
            let reference = BezierReference80(c.x1, c.y1, c.x2, c.y2).value(at: us[i])
            XCTAssertLessThanOrEqual(abs(w2[j] - reference), 2e-13, "second pass, \(c) at \(us[i])")
        }
        print("[BezierLanes] first pass left \(failed.count) of \(n) lanes; the second pass certified \(retried) "
              + "(\(ordinaryRetried) of \(ordinaryFailed) on ordinary curves in [0, 1])")
        XCTAssertGreaterThan(ordinaryFailed, 0)
        XCTAssertGreaterThan(Double(ordinaryRetried), 0.5 * Double(ordinaryFailed))
        let secondPass = Dictionary(uniqueKeysWithValues: failed.enumerated().map { ($1, (w2[$0], ok2[$0] == 1)) })
        // Every lane resolved, a few at a time through the scratch (more than its capacity).
        var w = first.w
        let ok = first.ok.map { UInt8($0 ? 1 : 0) }
        let scratch = BezierLanes.Scratch()
        defer { scratch.deallocate() }
        BezierLanes.resolveUncertified(w: &w, ok: ok, count: n, x1: x1, y1: y1, x2: x2, y2: y2, u: us, sharedU: 0,
                                       scratch: scratch)
        for i in 0 ..< n {
            let c = curves[i]
            if first.ok[i] { XCTAssertEqual(w[i].bitPattern, first.w[i].bitPattern); continue }
            // The second pass's value where it certifies the lane, the exact solve's elsewhere.
            let pass = secondPass[i]!
            let exact = BezierLanes.exactValue(c.x1, c.y1, c.x2, c.y2, at: us[i])
            XCTAssertEqual(w[i].bitPattern, (pass.1 ? pass.0 : exact).bitPattern, "\(c) at \(us[i])")
            guard us[i] >= 0 && us[i] <= 1 else {
                // Outside [0, 1]: the extrapolation along the end tangents, which only the
                // exact path gives.
                XCTAssertEqual(w[i].bitPattern, BezierLanes.exactValue(c.x1, c.y1, c.x2, c.y2, at: us[i]).bitPattern)
                continue
            }
            let reference = BezierReference80(c.x1, c.y1, c.x2, c.y2).value(at: us[i])
            let bound = (c.x1 > 0.99 && c.x2 < 0.01 ? 4e-6 : 1e-12) * max(1, abs(c.y1), abs(c.y2))
            XCTAssertLessThanOrEqual(abs(w[i] - reference), bound * max(1, abs(reference)), "\(c) at \(us[i])")
        }
        // One progress for every lane (the shared path of a keyframe batch), inside and outside
        // [0, 1].
        for shared in [0.37, 0.999, 1e-9, -0.25, 1.5] {
            var w = [Double](repeating: .nan, count: n), ok = [UInt8](repeating: 9, count: n)
            BezierLanes.values(x1: x1, y1: y1, x2: x2, y2: y2, at: shared, into: &w, ok: &ok, count: n)
            let before = w
            BezierLanes.resolveUncertified(w: &w, ok: ok, count: n, x1: x1, y1: y1, x2: x2, y2: y2, u: nil,
                                           sharedU: shared, scratch: scratch)
            for i in 0 ..< n {
                let c = curves[i]
                if ok[i] == 1 { XCTAssertEqual(w[i].bitPattern, before[i].bitPattern); continue }
                guard shared >= 0 && shared <= 1 else {
                    XCTAssertEqual(w[i].bitPattern, BezierLanes.exactValue(c.x1, c.y1, c.x2, c.y2, at: shared).bitPattern)
                    continue
                }
                let reference = BezierReference80(c.x1, c.y1, c.x2, c.y2).value(at: shared)
                let bound = (c.x1 > 0.99 && c.x2 < 0.01 ? 4e-6 : 1e-12) * max(1, abs(c.y1), abs(c.y2))
                XCTAssertLessThanOrEqual(abs(w[i] - reference), bound * max(1, abs(reference)), "\(c) at \(shared)")
            }
        }
    }

    func testEveryKernelPathGivesTheSameBits() {
        var rng = SeededRandom(seed: 0xB175)
        let n = 1001
        let curves = (0 ..< n).map { _ in curve(&rng) }
        let x1 = curves.map(\.x1), y1 = curves.map(\.y1), x2 = curves.map(\.x2), y2 = curves.map(\.y2)
        let u = (0 ..< n).map { i in i % 50 == 0 ? rng.uniform(-1, 2) : rng.unit() }
        let paths = Array(KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path())
        var results: [[UInt64]] = []
        for path in paths {
            for shared in [false, true] {
                var w = [Double](repeating: .nan, count: n), ok = [UInt8](repeating: 9, count: n)
                if shared {
                    kinetic_simd_bezier_lanes_shared(path, x1, y1, x2, y2, 0.3, &w, &ok, n)
                    let single = u.indices.map { _ in 0.3 }
                    var w2 = [Double](repeating: .nan, count: n), ok2 = [UInt8](repeating: 9, count: n)
                    kinetic_simd_bezier_lanes(path, x1, y1, x2, y2, single, &w2, &ok2, n)
                    XCTAssertEqual(w.map(\.bitPattern), w2.map(\.bitPattern), "shared = one progress per lane, path \(path)")
                    XCTAssertEqual(ok, ok2)
                } else {
                    kinetic_simd_bezier_lanes(path, x1, y1, x2, y2, u, &w, &ok, n)
                    results.append(zip(w, ok).map { $1 == 1 ? $0.bitPattern : 0 } + ok.map(UInt64.init))
                }
            }
        }
        for r in results.dropFirst() { XCTAssertEqual(r, results[0], "AVX2 and baseline differ") }
    }

    /// The solve at a shared progress from prepared planes (two Halley steps from a Hermite
    /// start on the curve's knots of t(x)): the same bits on every path, at every lane count
    /// around the block sizes (the padded remainder); certified lanes within the certificate's
    /// bound of the Float80 reference, and nearly every lane of an ordinary curve certified (so
    /// the start is good); exact ends and identities (the planes mark them by a sign) next to
    /// near-identities; progress outside [0, 1] never certified. The knots themselves: t(x) at
    /// x = j/4 to within rounding, rising, with slopes that keep the interpolant monotone.
    func testPreparedPlanesSolveWithinTheCertificate() {
        var rng = SeededRandom(seed: 0x9_9E9A)
        var curves = (0 ..< 700).map { _ in curve(&rng) }
        // Identities other than linear, and curves one ulp away from one.
        for p in [0.0, 0.2, 0.5, 0.9, 1] {
            curves.append(try! CubicBezier(p, p, 1 - p, 1 - p))
            curves.append(try! CubicBezier(p, p.nextUp, 1 - p, 1 - p))
            curves.append(try! CubicBezier(p, p, 1 - p, (1 - p).nextDown))
        }
        let progresses = [0, 1, 0.25, 0.5, 0.75, 0.3, 1e-300, 0.999_999, 0.25.nextDown, 0.75.nextUp, -0.25, 1.5, 1e300, .nan]
            + (0 ..< 6).map { _ in rng.unit() }
        let paths = Array(KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path())
        let planeCount = Int(KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES), knots = (planeCount - 8) / 2 - 1
        XCTAssertEqual(knots, 4)
        var randomLanes = 0, randomCertified = 0
        for n in [1, 15, 16, 17, 31, 32, 33, 63, 64, 65, curves.count] {
            let c = Array(curves.shuffled(using: &rng).prefix(n))
            let x1 = c.map(\.x1), y1 = c.map(\.y1), x2 = c.map(\.x2), y2 = c.map(\.y2)
            // A stride larger than n, as a caller with padded planes would pass.
            let stride = n + 3
            var planes = [Double](repeating: .nan, count: planeCount * stride)
            kinetic_simd_bezier_lanes_prepare(paths[0], x1, y1, x2, y2, &planes, stride, n)
            // Every path prepares the same bits (the knots come from the lane solver).
            for path in paths.dropFirst() {
                var other = [Double](repeating: .nan, count: planeCount * stride)
                kinetic_simd_bezier_lanes_prepare(path, x1, y1, x2, y2, &other, stride, n)
                for plane in 0 ..< planeCount {
                    let a = (0 ..< n).map { planes[plane * stride + $0].bitPattern }
                    XCTAssertEqual(a, (0 ..< n).map { other[plane * stride + $0].bitPattern }, "plane \(plane), path \(path)")
                }
            }
            for k in 0 ..< n {
                let identity = c[k].x1 == c[k].y1 && c[k].x2 == c[k].y2
                XCTAssertEqual(planes[7 * stride + k] < 0, identity, "identity mark, curve \(c[k])")
                // The coefficients and rounding bounds, as the kernel from control points makes them.
                let cx = 3 * c[k].x1, bx = 3 * (c[k].x2 - c[k].x1) - cx, ax = 1 - cx - bx
                let cy = 3 * c[k].y1, by = 3 * (c[k].y2 - c[k].y1) - cy, ay = 1 - cy - by
                let xr = 0x1p-50 * (abs(ax) + abs(bx) + abs(cx)), yr = 0x1p-50 * (abs(ay) + abs(by) + abs(cy))
                let want = [ax, bx, cx, ay, by, cy, xr, identity ? -yr : yr]
                XCTAssertEqual((0 ..< 8).map { planes[$0 * stride + k].bitPattern }, want.map(\.bitPattern), "\(c[k])")
                let t = (0 ... knots).map { planes[(8 + 2 * $0) * stride + k] }
                let m = (0 ... knots).map { planes[(9 + 2 * $0) * stride + k] }
                XCTAssertEqual(t.first, 0)
                XCTAssertEqual(t.last, 1)
                let reference = BezierReference80(c[k].x1, c[k].y1, c[k].x2, c[k].y2)
                for j in 0 ... knots {
                    if j > 0 { XCTAssertGreaterThanOrEqual(t[j], t[j - 1], "knots rise, \(c[k])") }
                    let tj = Float80(t[j]), v = 1 - tj
                    let x = 3 * reference.x1 * tj * v * v + 3 * reference.x2 * tj * tj * v + tj * tj * tj
                    XCTAssertLessThanOrEqual(abs(x - Float80(j) / Float80(knots)), 4e-13, "x(t_\(j)) = \(j)/\(knots), \(c[k])")
                    XCTAssertGreaterThanOrEqual(m[j], 0, "slope \(j), \(c[k])")
                    if j > 0 { XCTAssertLessThanOrEqual(m[j], 3 * (t[j] - t[j - 1]), "monotone, slope \(j), \(c[k])") }
                    if j < knots { XCTAssertLessThanOrEqual(m[j], 3 * (t[j + 1] - t[j]), "monotone, slope \(j), \(c[k])") }
                }
            }
            for u in progresses {
                var first: [UInt64]?
                for path in paths {
                    var w = [Double](repeating: .nan, count: n), ok = [UInt8](repeating: 8, count: n)
                    kinetic_simd_bezier_lanes_shared_prepared(path, planes, stride, u, &w, &ok, n)
                    XCTAssertTrue(ok.allSatisfy { $0 == 0 || $0 == 1 })
                    let bits = w.map(\.bitPattern) + ok.map(UInt64.init)
                    if let first { XCTAssertEqual(bits, first, "every path, n = \(n), path \(path), u = \(u)") } else { first = bits }
                    guard u >= 0 && u <= 1 else {
                        XCTAssertTrue(ok.allSatisfy { $0 == 0 }, "progress \(u) is never certified")
                        continue
                    }
                    for k in 0 ..< n {
                        let curve = c[k]
                        if curve.x1 == curve.y1 && curve.x2 == curve.y2 {
                            XCTAssertEqual(ok[k], 1)
                            XCTAssertEqual(w[k].bitPattern, u.bitPattern, "the identity gives u exactly")
                        }
                        if u == 0 || u == 1 { XCTAssertEqual(w[k], u, "exact ends, \(curve)") }
                        let isRandom = !(curve.x1 == 0 || curve.x2 == 1 || curve.x1 < 1e-6 || curve.x1 > 0.9 && curve.x2 < 0.1)
                        // (The ends, the knots and their neighbours, and 1e-300 start on or next to
                        // the answer: the rate counts the other progresses.)
                        let trivial = u == 0 || u == 1 || u < 1e-200 || [0.25, 0.5, 0.75].contains { abs(u - $0) < 1e-12 }
                        if path == paths[0] && n == curves.count && isRandom && !trivial {
                            randomLanes += 1
                            if ok[k] == 1 { randomCertified += 1 }
                        }
                        guard ok[k] == 1 else { continue }
                        let reference = BezierReference80(curve.x1, curve.y1, curve.x2, curve.y2).value(at: u)
                        XCTAssertLessThanOrEqual(abs(w[k] - reference), 2e-13, "\(curve) at \(u)")
                    }
                }
            }
        }
        // The start does the work: nearly every lane of an ordinary curve is certified.
        print("[BezierLanes prepared] \(randomCertified) of \(randomLanes) lanes of ordinary random curves certified")
        XCTAssertGreaterThan(randomLanes, 4000)
        XCTAssertGreaterThan(Double(randomCertified) / Double(randomLanes), 0.99)
    }

    /// Tracks of one structure whose eased segments each have their own curve per track.
    private func distinctTracks(_ n: Int, _ rng: inout SeededRandom) throws -> [(String, [KeyframeTrack<Double>])] {
        let keys = 8
        var times = (0 ..< keys - 2).map { _ in rng.uniform(0.02, 0.98) }.sorted()
        times = [0] + times + [1]
        let eased = try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-100, 100) },
                              interpolations: (0 ..< keys - 1).map { _ in .eased(curve(&rng)) })
        }
        // Some tracks uneased, others eased, on the same linear segments.
        let mixed = try (0 ..< n).map { t in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-1, 1) },
                              interpolations: (0 ..< keys - 1).map { s in (t + s) % 3 == 0 ? .linear : .eased(curve(&rng)) })
        }
        // Explicit Hermite tangents, eased per track.
        let hermite = try (0 ..< n).map { _ in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-5, 5) },
                              tangents: (0 ..< keys).map { _ in rng.uniform(-20, 20) },
                              easings: (0 ..< keys - 1).map { _ in curve(&rng) })
        }
        return [("eased", eased), ("mixed", mixed), ("hermite", hermite)]
    }

    private func scale(_ tracks: [KeyframeTrack<Double>]) -> Double {
        tracks.flatMap(\.values).reduce(1) { max($0, abs($1)) }
    }

    func testSharedProgressMatchesTheTracks() throws {
        var rng = SeededRandom(seed: 0xD157_1AC7)
        for (name, tracks) in try distinctTracks(37, &rng) {
            let batch = try KeyframeBatch(tracks: tracks)
            var out = [Double](repeating: .nan, count: tracks.count)
            let progresses = (0 ... 200).map { Double($0) / 200 } + tracks[0].keyTimes + [-0.3, 1.4, 1e-12]
            for p in progresses {
                try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: p, into: $0) }
                for (t, track) in tracks.enumerated() {
                    // (Extrapolated cubic segments: see the per-track test.)
                    let want = track.value(at: p)
                    XCTAssertLessThanOrEqual(abs(out[t] - want), 1e-12 * max(scale(tracks), abs(want)),
                                             "\(name) track \(t) at \(p)")
                }
            }
            // At every key time the value is the keyframe's own (the lerp is exact at w = 1).
            if name != "hermite" {
                for (k, time) in tracks[0].keyTimes.enumerated() {
                    try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: time, into: $0) }
                    for (t, track) in tracks.enumerated() { XCTAssertEqual(out[t], track.values[k], "\(name) key \(k)") }
                }
            }
        }
    }

    func testPerTrackProgressMatchesTheTracks() throws {
        var rng = SeededRandom(seed: 0x57A6_6E2)
        for (name, tracks) in try distinctTracks(29, &rng) {
            try walkStaggeredFrames(try KeyframeBatch(tracks: tracks), &rng) { progress, out in
                for (t, track) in tracks.enumerated() {
                    // Beyond the last key the cubic segments extrapolate (w far outside [0, 1]),
                    // where the batch's power form and the track's Hermite basis round apart in
                    // proportion to the value (as for shared easings, BatchStoreTests).
                    let want = track.value(at: progress[t])
                    XCTAssertLessThanOrEqual(abs(out[t] - want), 1e-12 * max(scale(tracks), abs(want)),
                                             "\(name) track \(t) at \(progress[t])")
                }
            }
        }
    }

    /// Per-track progress keeps each track's current curve in the kernel's planes from frame
    /// to frame, copied only when the track changes segment. That cache must not show: a batch
    /// walked through random frames (tracks jumping between segments with distinct easings, a
    /// segment every track eases alike, keys, both ends and beyond) gives, frame by frame, the
    /// bits of a fresh batch evaluated at that frame alone, and the tracks' values.
    func testPerTrackCurveCacheDoesNotChangeValues() throws {
        var rng = SeededRandom(seed: 0xCAC4_E5)
        let n = 41, keys = 6
        let times = [0, 0.15, 0.4, 0.4, 0.7, 1.0]  // a repeated key time too
        let shared = try CubicBezier(0.3, -0.4, 0.6, 1.3)
        let tracks = try (0 ..< n).map { t in
            try KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in rng.uniform(-50, 50) },
                              interpolations: (0 ..< keys - 1).map { s in
                                  // Segment 1 eases alike on every track; on the others a
                                  // track is eased by its own curve or left linear.
                                  s == 1 ? .eased(shared) : (t + s) % 4 == 0 ? .linear : .eased(curve(&rng))
                              })
        }
        let walked = try KeyframeBatch(tracks: tracks)
        var out = [Double](repeating: .nan, count: n), fresh = out
        let special = times + [-0.2, 1.3, 0, 1, 0x1p-40, 1 - 0x1p-40]
        for frame in 0 ..< 150 {
            let progress = (0 ..< n).map { t -> Double in
                switch (frame + t) % 5 {
                case 0: return special[(frame * 7 + t) % special.count]
                case 1: return rng.uniform(-0.1, 1.1)
                default: return Double(frame % 30) / 29 + Double(t) * 1e-3  // walking
                }
            }
            try progress.withUnsafeBufferPointer { p in
                try out.withUnsafeMutableBufferPointer { try walked.evaluate(progress: p, into: $0) }
                try fresh.withUnsafeMutableBufferPointer { try KeyframeBatch(tracks: tracks).evaluate(progress: p, into: $0) }
            }
            XCTAssertEqual(out.map(\.bitPattern), fresh.map(\.bitPattern), "frame \(frame): the walked batch differs")
            for (t, track) in tracks.enumerated() {
                let want = track.value(at: progress[t])
                XCTAssertLessThanOrEqual(abs(out[t] - want), 1e-12 * max(scale(tracks), abs(want)),
                                         "frame \(frame), track \(t) at \(progress[t])")
                if let k = times.lastIndex(of: progress[t]), progress[t] > 0 {
                    XCTAssertEqual(out[t], track.values[k], "frame \(frame), track \(t) at key \(k)")
                }
            }
        }
    }

    func testShapesMustStillMatch() throws {
        let linear = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1])
        let eased = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1], interpolation: .eased(.ease))
        let hold = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1], interpolation: .hold)
        let cubic = try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 1], interpolation: .catmullRom)
        XCTAssertNoThrow(try KeyframeBatch(tracks: [linear, eased]))
        XCTAssertThrowsError(try KeyframeBatch(tracks: [linear, eased, hold])) {
            XCTAssertEqual($0 as? BatchStoreError, .structureMismatch(track: 2))
        }
        XCTAssertThrowsError(try KeyframeBatch(tracks: [eased, cubic])) {
            XCTAssertEqual($0 as? BatchStoreError, .structureMismatch(track: 1))
        }
    }

    func testOverflowNamesTheTrackAndWritesNothing() throws {
        let overshoot = try CubicBezier(0.3, 2, 0.7, 2)  // eased progress up to about 1.5
        let tracks = [
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1.5e308], interpolation: .eased(.ease)),
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1], interpolation: .eased(overshoot)),
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1.5e308], interpolation: .eased(overshoot)),
        ]
        let batch = try KeyframeBatch(tracks: tracks)
        var out = [7.0, 7, 7]
        XCTAssertThrowsError(try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: 0.5, into: $0) }) {
            XCTAssertEqual($0 as? BatchStoreError, .overflow(lane: 2, quantity: "value"))
        }
        XCTAssertEqual(out, [7, 7, 7], "nothing written")
        try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: 0.05, into: $0) }
        for (t, track) in tracks.enumerated() { XCTAssertEqual(out[t], track.value(at: 0.05), accuracy: 1.5e308 * 1e-12) }
    }

    func testStoreTakesTracksWithTheirOwnEasings() throws {
        var rng = SeededRandom(seed: 0x5702E)
        let tracks = try (0 ..< 50).map { _ in
            try KeyframeTrack<Double>(keyTimes: [0, 0.4, 1], values: [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)],
                                      interpolations: [.eased(curve(&rng)), .eased(curve(&rng))])
        }
        let store = BatchStore()
        let h = try store.addKeyframes(tracks, progress: 0)
        for p in [0, 0.1, 0.4, 0.77, 1, 1.2] {
            try store.setProgress(p, for: h)
            try store.evaluate()
            for (t, value) in try store.values(of: h).enumerated() {
                XCTAssertEqual(value, tracks[t].value(at: p), accuracy: 1e-12, "track \(t) at \(p)")
            }
        }
    }
}
