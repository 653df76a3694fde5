/// Tangents for cubic Hermite segments (internal).
///
/// Tangents are stored per segment as two lane vectors — the outgoing tangent at the start
/// key and the incoming tangent at the end key — in value units per unit of *segment
/// parameter* (the time derivative times the segment's duration), laid out
/// `[segment][start, end][lane]`.
enum KeyframeTangents {
    /// Kochanek–Bartels tangents in time units, scaled to each segment; with all tension,
    /// continuity and bias zero these are the Catmull-Rom tangents
    /// `(v[k+1] − v[k−1]) / (t[k+1] − t[k−1])`.
    ///
    /// The form used at an interior key k, with `dIn = v[k] − v[k−1]`,
    /// `dOut = v[k+1] − v[k]` and `span = t[k+1] − t[k−1]`:
    ///
    ///     outgoing = (1 − T)·((1 + C)(1 + B)·dIn + (1 − C)(1 − B)·dOut) / span
    ///     incoming = (1 − T)·((1 − C)(1 + B)·dIn + (1 + C)(1 − B)·dOut) / span
    ///
    /// For evenly spaced keys this is the classic per-parameter Kochanek–Bartels form
    /// divided by the spacing. At the first and last key, and beside a jump (two keys at
    /// one time), the missing side is dropped and the tangent is `(1 − T)` times the
    /// one-sided secant slope. Zero-length segments get zero tangents (never evaluated).
    static func kochanekBartels(
        times: [Double], lanes: [Double], laneCount: Int,
        tension: [Double] = [], continuity: [Double] = [], bias: [Double] = []
    ) -> [Double] {
        let segmentCount = max(times.count - 1, 0)
        var result = [Double](repeating: 0, count: segmentCount * 2 * laneCount)
        for i in 0 ..< segmentCount {
            for lane in 0 ..< laneCount {
                let (outgoing, incoming) = kochanekBartels(segment: i, times: times, tension: tension,
                                                           continuity: continuity, bias: bias) {
                    lanes[$0 * laneCount + lane]
                }
                result[(2 * i) * laneCount + lane] = outgoing
                result[(2 * i + 1) * laneCount + lane] = incoming
            }
        }
        return result
    }

    /// Segment i's two tangents as ``kochanekBartels(times:lanes:laneCount:tension:continuity:bias:)``
    /// gives them, for one lane whose value at key j is `value(j)`: the outgoing tangent at
    /// key i and the incoming one at key i + 1 (both 0 on a zero-length segment). They read
    /// the keys i − 1 to i + 2 only.
    @inline(__always)
    static func kochanekBartels(
        segment i: Int, times: [Double], tension: [Double], continuity: [Double], bias: [Double],
        value: (Int) -> Double
    ) -> (outgoing: Double, incoming: Double) {
        let n = times.count
        guard times[i + 1] > times[i] else { return (0, 0) }
        func parameter(_ array: [Double], _ k: Int) -> Double { k < array.count ? array[k] : 0 }
        let duration = times[i + 1] - times[i]
        // Outgoing tangent at key i. The slope times the duration, with the duration divided
        // first (it is at most the span), so that neither step overflows on its own.
        let outgoing: Double
        do {
            let k = i
            let t = parameter(tension, k), c = parameter(continuity, k), b = parameter(bias, k)
            let dOut = value(k + 1) - value(k)
            if k > 0 && times[k - 1] < times[k] {
                let dIn = value(k) - value(k - 1)
                outgoing = (1 - t) * ((1 + c) * (1 + b) * dIn + (1 - c) * (1 - b) * dOut)
                    * (duration / (times[k + 1] - times[k - 1]))
            } else {
                outgoing = (1 - t) * dOut
            }
        }
        // Incoming tangent at key i + 1.
        let incoming: Double
        do {
            let k = i + 1
            let t = parameter(tension, k), c = parameter(continuity, k), b = parameter(bias, k)
            let dIn = value(k) - value(k - 1)
            if k < n - 1 && times[k + 1] > times[k] {
                let dOut = value(k + 1) - value(k)
                incoming = (1 - t) * ((1 - c) * (1 + b) * dIn + (1 + c) * (1 - b) * dOut)
                    * (duration / (times[k + 1] - times[k - 1]))
            } else {
                incoming = (1 - t) * dIn
            }
        }
        return (outgoing, incoming)
    }

    /// Hermite data that stays within the range of `Double`: `make` (the tangents, and for
    /// the paced mode the arc-length tables, from the lanes it is given) runs on the lanes as
    /// they are, and where that gives a number beyond the range, on the lanes scaled by 2^-k
    /// for the first k of a few that keeps every number finite. Scaling is exact (lanes below
    /// 2^(k − 1074) aside): the tangents are linear in the lanes, and the arc-length
    /// parametrisation does not change with the scale. The segments then evaluate on lanes
    /// × 2^-k and scale the result back (`KeyframeSegments.hermiteExponent`).
    ///
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` for `values`, naming
    ///   the largest lane, when no scale keeps the tangents finite (tension, continuity or
    ///   bias factors that multiply differences beyond 2^1000).
    static func withinRange(
        lanes: [Double], make: ([Double]) -> (tangents: [Double], tables: [Double])
    ) throws(ParameterError) -> (tangents: [Double], tables: [Double], exponent: Int) {
        let direct = make(lanes)
        if allFinite(direct.tangents) && allFinite(direct.tables) { return (direct.tangents, direct.tables, 0) }
        let largest = lanes.reduce(0.0) { max($0, $1.magnitude) }
        // First a small scale (room for the differences and the tension, continuity and bias
        // factors; tiny lanes keep their precision), then the largest lane brought to about
        // 2^480 (squares and sums of 17 lanes stay finite: the paced mode's arc lengths), then
        // more room for large factors.
        let base = max(5, Int(largest.exponent) - 480)
        for k in [4, base, base + 128, base + 256, base + 512] where k <= 1074 {
            let down = Double(sign: .plus, exponent: -k, significand: 1)
            let scaled = make(lanes.map { $0 * down })
            if allFinite(scaled.tangents) && allFinite(scaled.tables) { return (scaled.tangents, scaled.tables, k) }
        }
        throw .outOfRange(parameter: "values", value: largest,
                          expected: "values whose cubic tangents (times the tension, continuity and bias factors) are within the range of Double")
    }

    private static func allFinite(_ values: [Double]) -> Bool {
        values.allSatisfy(\.isFinite)
    }

    /// Explicit tangents (time units, one lane vector per key) scaled to each segment.
    static func explicit(times: [Double], tangentLanes: [Double], laneCount: Int) -> [Double] {
        let segmentCount = max(times.count - 1, 0)
        var result = [Double](repeating: 0, count: segmentCount * 2 * laneCount)
        for i in 0 ..< segmentCount {
            let duration = times[i + 1] - times[i]
            for lane in 0 ..< laneCount {
                result[(2 * i) * laneCount + lane] = tangentLanes[i * laneCount + lane] * duration
                result[(2 * i + 1) * laneCount + lane] = tangentLanes[(i + 1) * laneCount + lane] * duration
            }
        }
        return result
    }

    /// Evaluates the cubic Hermite segment `a → b` with tangents `m0`, `m1` (per unit
    /// parameter) at parameter `v`, lanes `0 ..< count`. Exact at v = 0 and v = 1.
    @inline(__always)
    static func hermite(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>,
        _ m0: UnsafePointer<Double>, _ m1: UnsafePointer<Double>,
        at v: Double, count: Int, into output: UnsafeMutablePointer<Double>
    ) {
        if v == 1 {
            for i in 0 ..< count { output[i] = b[i] }
            return
        }
        let v2 = v * v, v3 = v2 * v
        let h10 = v3 - 2 * v2 + v
        let h01 = 3 * v2 - 2 * v3
        let h11 = v3 - v2
        // a + h01·(b − a) + …: the basis with h00 = 1 − h01 folded in, so that equal end values
        // stay exact and large ones do not overflow where the value does not (an overshooting
        // easing puts v outside [0, 1], where h00 and h01 are large and of opposite signs).
        for i in 0 ..< count {
            let direct = a[i] + (h01 * (b[i] - a[i]) + (h10 * m0[i] + h11 * m1[i]))
            output[i] = direct.isFinite ? direct : scaledLane(a[i], b[i], m0[i], m1[i], v, h01, h10, h11)
        }
    }

    /// One lane of `hermite` whose sum overflowed, on values and tangents scaled by 2^-4 and
    /// scaled back (exact), or where that overflows too, by 2^-600, which gives the sign of a
    /// value beyond the range (±infinity). Where the basis itself overflowed (an eased
    /// progress beyond about ±1e100, where its terms are infinities of opposite signs), the
    /// cubic in power form, each term carried as a significand and a power of two: a
    /// representable value comes out right (to the precision of its largest term), one
    /// beyond the range takes the sign of its leading term; never NaN.
    @inline(never)
    static func scaledLane(_ a: Double, _ b: Double, _ m0: Double, _ m1: Double, _ v: Double,
                           _ h01: Double, _ h10: Double, _ h11: Double) -> Double {
        @inline(__always) func sum(_ s: Double) -> Double {
            a * s + (h01 * (b * s - a * s) + (h10 * (m0 * s) + h11 * (m1 * s)))
        }
        let small = sum(0x1p-4) * 16
        if small.isFinite { return small }
        let tiny = sum(0x1p-600)
        if !tiny.isNaN { return tiny * 0x1p300 * 0x1p300 }
        // The basis overflowed: the cubic in power form, c0 + c1·w + c2·w² + c3·w³, each term
        // kept as a significand and a power of two, summed at the largest term's power and
        // scaled once at the end, so that no step overflows or underflows on the way (the
        // coefficients are formed on the lanes scaled by 2^-k, their largest in [1, 2), and w
        // is held finite: a progress near ±1.8e308 on a short segment makes it infinite).
        let largest = Swift.max(Swift.max(a.magnitude, b.magnitude), Swift.max(m0.magnitude, m1.magnitude))
        guard largest > 0 else { return 0 }
        let k = Int(largest.exponent)
        let w = Swift.max(-.greatestFiniteMagnitude, Swift.min(.greatestFiniteMagnitude, v))
        let sa = scaled(a, -k), sb = scaled(b, -k), sm0 = scaled(m0, -k), sm1 = scaled(m1, -k)
        let coefficients = [sa, sm0, 3 * (sb - sa) - 2 * sm0 - sm1, 2 * (sa - sb) + sm0 + sm1]
        let wSignificand = w < 0 ? -w.magnitude.significand : w.magnitude.significand
        let wExponent = w == 0 ? 0 : Int(w.magnitude.exponent)
        var terms: [(significand: Double, exponent: Int)] = []
        var power = 1.0
        for (i, c) in coefficients.enumerated() {
            if c != 0 {
                let significand = (c < 0 ? -c.magnitude.significand : c.magnitude.significand) * power
                terms.append((significand, Int(c.magnitude.exponent) + i * wExponent + k))
            }
            power *= wSignificand
        }
        guard let top = terms.map(\.exponent).max() else { return 0 }
        var sum = 0.0
        for term in terms { sum += scaled(term.significand, Swift.max(term.exponent - top, -2000)) }
        if sum == 0 { return 0 }
        if top > 1100 { return sum < 0 ? -.infinity : .infinity }
        return scaled(sum, Swift.max(top, -2000))
    }

    /// `x` × 2^`k` for |k| ≤ 2046, in two exact steps (``KeyframeSegments/halves(of:)``).
    @inline(__always)
    static func scaled(_ x: Double, _ k: Int) -> Double {
        let (first, second) = KeyframeSegments.halves(of: k)
        return x * first * second
    }

    /// dH/dv of a one-lane Hermite segment whose end values differ by `delta` (b − a), with
    /// tangents `m0`, `m1` (per unit parameter), at parameter `v`.
    @inline(__always)
    static func hermiteSlope(_ delta: Double, _ m0: Double, _ m1: Double, at v: Double) -> Double {
        let d01 = 6 * v * (1 - v)
        let d10 = (3 * v - 4) * v + 1
        let d11 = (3 * v - 2) * v
        return d01 * delta + (d10 * m0 + d11 * m1)
    }

    /// The speed |dH/dv| of the Hermite segment at parameter `v`.
    @inline(__always)
    static func speed(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>,
        _ m0: UnsafePointer<Double>, _ m1: UnsafePointer<Double>,
        at v: Double, count: Int
    ) -> Double {
        let v2 = v * v
        let d00 = 6 * v2 - 6 * v
        let d10 = 3 * v2 - 4 * v + 1
        let d11 = 3 * v2 - 2 * v
        var sum = 0.0
        for i in 0 ..< count {
            let d = d00 * (a[i] - b[i]) + d10 * m0[i] + d11 * m1[i]
            sum += d * d
        }
        return sum.squareRoot()
    }
}
