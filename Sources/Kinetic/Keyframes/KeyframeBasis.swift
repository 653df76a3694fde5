/// The weights by which the keyframes of a Core Animation keyframe track combine at a
/// progress (internal to the package: the engine's keyframe animations).
///
/// Every calculation mode interpolates linearly in the keyframe values once the key times
/// are fixed (the cubic modes' Kochanek–Bartels tangents are linear combinations of the
/// values too), so a track's value is
///
///     value(p) = v₀ + Σₖ (vₖ − vₖ₋₁) · Wₖ(p),  k = 1 ..< keyCount,
///
/// where the *step weight* Wₖ is the value the same track would have if its values were 0
/// before key k and 1 from it. The engine gives each step its own additive contribution
/// (span vₖ − vₖ₋₁, progress Wₖ), so that keyframe animations compose with every other
/// animation on the same lanes. The key times, the paced modes' retiming and the cubic
/// paced mode's arc-length parametrisation come from the real values (all lanes of the
/// track together, as Core Animation measures distance); only the interpolation is taken
/// on the steps.
package final class KeyframeBasis: Sendable {
    /// The real track's storage: it locates a progress and retimes the paced modes.
    let segments: KeyframeSegments
    /// For the cubic modes, per step k, the Hermite tangents of the step values (0 before key
    /// k, 1 from it) on the only segments where they can differ from 0, k − 2 to k (a
    /// tangent reads the keys beside its segment only): two per segment, six per step, at
    /// `6·(k − 1) + 2·(s − k + 2)`, so that the basis grows linearly with the keys. Empty
    /// for the other modes.
    let stepTangents: [Double]

    /// The number of keyframes (≥ 1).
    package var keyCount: Int { segments.times.count }
    /// The key times the track uses, in [0, 1] (the generated ones for the paced modes).
    package var keyTimes: [Double] { segments.times }

    /// A basis for the track `CAKeyframeAnimation` builds from `values` (`laneCount` lanes
    /// per keyframe, keyframe after keyframe).
    /// - Parameters:
    ///   - values: the keyframe lanes, `keyCount × laneCount`, finite.
    ///   - laneCount: lanes per keyframe, ≥ 1.
    ///   - keyTimes: key times in [0, 1], non-decreasing, one per keyframe (ignored by the
    ///     paced modes; for `.discrete`, value i holds from `keyTimes[i]`).
    ///   - calculationMode: see ``KeyframeCalculationMode``.
    /// - Throws: ``ParameterError`` as
    ///   ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:tensionValues:continuityValues:biasValues:)``,
    ///   and `countMismatch("values", …)` when `values` is not a whole number of keyframes.
    package init(values: [Double], laneCount: Int, keyTimes: [Double], calculationMode: KeyframeCalculationMode)
        throws(ParameterError) {
        guard laneCount >= 1, values.count % laneCount == 0 else {
            throw .countMismatch(parameter: "values", expected: keyTimes.count * max(laneCount, 1), actual: values.count)
        }
        try ParameterError.requireAllFinite(values, "values")
        let n = values.count / laneCount
        let (times, storage) = try KeyframeSegments.coreAnimation(
            lanes: values, laneCount: laneCount, keyTimes: keyTimes, calculationMode: calculationMode,
            timingFunctions: nil, tensionValues: nil, continuityValues: nil, biasValues: nil)
        segments = storage
        switch calculationMode {
        case .cubic, .cubicPaced:
            let shapeTimes = calculationMode == .cubic ? times : (0 ..< n).map(Double.init)
            var tangents = [Double](repeating: 0, count: 6 * max(n - 1, 0))
            for k in 1 ..< max(n, 1) {
                for s in max(k - 2, 0) ... min(k, n - 2) {
                    let (outgoing, incoming) = KeyframeTangents.kochanekBartels(
                        segment: s, times: shapeTimes, tension: [], continuity: [], bias: []) { $0 >= k ? 1 : 0 }
                    tangents[6 * (k - 1) + 2 * (s - k + 2)] = outgoing
                    tangents[6 * (k - 1) + 2 * (s - k + 2) + 1] = incoming
                }
            }
            stepTangents = tangents
        case .linear, .discrete, .paced:
            stepTangents = []
        }
    }

    /// The step weight Wₖ at `progress` (the track's time fraction; outside [0, 1] the first
    /// or last key holds, or the end segment extrapolates, as the track does).
    /// - Parameter k: the step, in `1 ..< keyCount`.
    package func weight(ofStep k: Int, at progress: Double) -> Double {
        var cursor = 0
        let location = segments.times.withUnsafeBufferPointer {
            KeyframeLookup.locate(progress, in: $0, cursor: &cursor, useCursor: false)
        }
        switch location {
        case .key(let j):
            return j >= k ? 1 : 0
        case .segment(let s, let u):
            let a: Double = s >= k ? 1 : 0, b: Double = s + 1 >= k ? 1 : 0
            let spec = segments.specs[s]
            switch spec.shape {
            case .hold:
                return u < 1 ? a : b
            case .linear:
                let f = spec.easing.map { $0.value(at: u) } ?? u
                return a + (b - a) * f
            case .hermite, .pacedHermite:
                var v = spec.easing.map { $0.value(at: u) } ?? u
                if spec.shape == .pacedHermite { v = segments.pacedParameter(segment: s, fraction: v) }
                var result = 0.0
                let (m0, m1) = tangents(ofStep: k, segment: s)
                withUnsafePointer(to: a) { a in
                    withUnsafePointer(to: b) { b in
                        withUnsafePointer(to: m0) { m0 in
                            withUnsafePointer(to: m1) { m1 in
                                KeyframeTangents.hermite(a, b, m0, m1, at: v, count: 1, into: &result)
                            }
                        }
                    }
                }
                return result
            }
        }
    }

    /// Step k's tangents on segment s (see ``stepTangents``): 0 away from the step.
    @inline(__always)
    private func tangents(ofStep k: Int, segment s: Int) -> (Double, Double) {
        guard s >= k - 2, s <= k else { return (0, 0) }
        let i = 6 * (k - 1) + 2 * (s - k + 2)
        return (stepTangents[i], stepTangents[i + 1])
    }

    /// The rate dWₖ/dp of the step weight Wₖ with respect to the track's time fraction `p`:
    /// 0 where a key holds (before the first key time, after the last, on a discrete step),
    /// the derivative of the segment's interpolation otherwise (one-sided, the segment that
    /// starts at `p`, on a key time).
    /// - Parameter k: the step, in `1 ..< keyCount`.
    package func weightSlope(ofStep k: Int, at progress: Double) -> Double {
        var cursor = 0
        let location = segments.times.withUnsafeBufferPointer {
            KeyframeLookup.locate(progress, in: $0, cursor: &cursor, useCursor: false)
        }
        guard case .segment(let s, let u) = location else { return 0 }
        let a: Double = s >= k ? 1 : 0, b: Double = s + 1 >= k ? 1 : 0
        let spec = segments.specs[s]
        // du/dp: the segment's share of the time fraction (the end segments extrapolate over
        // [0, t₁] and [tₙ₋₂, 1], as `locate` measures them).
        let times = segments.times
        let lower = s == 0 && progress < times[0] ? 0 : times[s]
        let upper = s == times.count - 2 && progress > times[s + 1] ? 1 : times[s + 1]
        let du = 1 / (upper - lower)
        let f = spec.easing.map { $0.value(at: u) } ?? u
        let df = (spec.easing.map { $0.slope(at: u) } ?? 1) * du
        switch spec.shape {
        case .hold:
            return 0
        case .linear:
            return (b - a) * df
        case .hermite, .pacedHermite:
            var v = f, dv = df
            if spec.shape == .pacedHermite {
                v = segments.pacedParameter(segment: s, fraction: f)
                dv *= segments.pacedParameterSlope(segment: s, parameter: v)
            }
            let (m0, m1) = tangents(ofStep: k, segment: s)
            return KeyframeTangents.hermiteSlope(b - a, m0, m1, at: v) * dv
        }
    }
}

extension KeyframeSegments {
    /// Runs `body` on segment `s`'s ends `a`, `b` (scaled by 2^-hermiteExponent, as the arc
    /// tables are), tangents `m0`, `m1` and arc-length table.
    private func withScaledSegment<R>(_ s: Int, _ body: (UnsafePointer<Double>, UnsafePointer<Double>,
                                                        UnsafePointer<Double>, UnsafePointer<Double>,
                                                        UnsafePointer<Double>) -> R) -> R {
        let count = laneCount
        return lanes.withUnsafeBufferPointer { lanes in
            tangents.withUnsafeBufferPointer { tangents in
                arcTables.withUnsafeBufferPointer { tables in
                    let a = lanes.baseAddress! + s * count, b = a + count
                    let m0 = tangents.baseAddress! + 2 * s * count, m1 = m0 + count
                    let table = tables.baseAddress! + s * KeyframeArcLength.stride
                    guard hermiteExponent != 0 else { return body(a, b, m0, m1, table) }
                    let down = Double(sign: .plus, exponent: -hermiteExponent, significand: 1)
                    return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { ends in
                        let sa = ends.baseAddress!, sb = sa + count
                        for i in 0 ..< count {
                            sa[i] = a[i] * down
                            sb[i] = b[i] * down
                        }
                        return body(sa, sb, m0, m1, table)
                    }
                }
            }
        }
    }

    /// d v / d fraction of ``pacedParameter(segment:fraction:)`` at parameter `v`: the
    /// segment's arc length over its speed there (on the lanes scaled as the tables are);
    /// 0 for a segment of no length.
    func pacedParameterSlope(segment s: Int, parameter v: Double) -> Double {
        withScaledSegment(s) { a, b, m0, m1, table in
            let total = table[KeyframeArcLength.pieces]
            let speed = KeyframeTangents.speed(a, b, m0, m1, at: v, count: laneCount)
            return total > 0 && speed > 0 ? total / speed : 0
        }
    }

    /// The parameter of paced cubic segment `s` at which its arc length from the start is
    /// `fraction` of its length (on the lanes scaled as the tables are).
    func pacedParameter(segment s: Int, fraction: Double) -> Double {
        withScaledSegment(s) { a, b, m0, m1, table in
            KeyframeArcLength.parameter(forFraction: fraction, table: table, a, b, m0, m1, count: laneCount)
        }
    }
}
