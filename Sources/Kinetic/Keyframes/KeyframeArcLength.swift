/// Arc-length parametrisation of cubic Hermite segments, for `cubicPaced` (internal).
///
/// Each segment keeps the cumulative arc length at `pieces + 1` evenly spaced parameters
/// (8-point Gauss–Legendre per piece). Evaluation maps a fraction of the segment's length
/// to the parameter by a table look-up and Newton steps on `s(v) − target`, with
/// `s(v)` = table entry + Gauss–Legendre over the rest of the piece. No allocation.
enum KeyframeArcLength {
    /// Table pieces per segment.
    static let pieces = 16
    /// Entries per segment in the table.
    static var stride: Int { pieces + 1 }

    /// 8-point Gauss–Legendre abscissae on [−1, 1] (positive half) and weights.
    static let nodes: (Double, Double, Double, Double) =
        (0.183_434_642_495_649_8, 0.525_532_409_916_329_0, 0.796_666_477_413_626_7, 0.960_289_856_497_536_3)
    static let weights: (Double, Double, Double, Double) =
        (0.362_683_783_378_362_0, 0.313_706_645_877_887_3, 0.222_381_034_453_374_5, 0.101_228_536_290_376_3)

    /// ∫ speed over [lower, upper] for one segment.
    @inline(__always)
    static func length(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>,
        _ m0: UnsafePointer<Double>, _ m1: UnsafePointer<Double>,
        from lower: Double, to upper: Double, count: Int
    ) -> Double {
        let half = (upper - lower) / 2, middle = (upper + lower) / 2
        func pair(_ x: Double, _ w: Double) -> Double {
            w * (KeyframeTangents.speed(a, b, m0, m1, at: middle - half * x, count: count)
                + KeyframeTangents.speed(a, b, m0, m1, at: middle + half * x, count: count))
        }
        let total = pair(nodes.0, weights.0) + pair(nodes.1, weights.1)
            + pair(nodes.2, weights.2) + pair(nodes.3, weights.3)
        return total * half
    }

    /// The cumulative-length table for every segment (`stride` entries each; the last
    /// entry of a segment is its total length).
    static func table(lanes: [Double], tangents: [Double], segmentCount: Int, laneCount: Int) -> [Double] {
        var table = [Double](repeating: 0, count: segmentCount * stride)
        lanes.withUnsafeBufferPointer { lanes in
            tangents.withUnsafeBufferPointer { tangents in
                for i in 0 ..< segmentCount {
                    let a = lanes.baseAddress! + i * laneCount, b = a + laneCount
                    let m0 = tangents.baseAddress! + 2 * i * laneCount, m1 = m0 + laneCount
                    var cumulative = 0.0
                    for j in 0 ..< pieces {
                        cumulative += length(
                            a, b, m0, m1, from: Double(j) / Double(pieces), to: Double(j + 1) / Double(pieces),
                            count: laneCount)
                        table[i * stride + j + 1] = cumulative
                    }
                }
            }
        }
        return table
    }

    /// The segment parameter at which the arc length from the start is `fraction` of the
    /// segment's length. Outside [0, 1] the parameter equals the fraction (the spline is
    /// followed by parameter beyond its ends).
    @inline(__always)
    static func parameter(
        forFraction fraction: Double, table: UnsafePointer<Double>,
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>,
        _ m0: UnsafePointer<Double>, _ m1: UnsafePointer<Double>, count: Int
    ) -> Double {
        guard fraction > 0 && fraction < 1 else { return fraction }
        let total = table[pieces]
        guard total > 0 else { return fraction }
        let target = fraction * total
        var j = 0
        while j < pieces - 1 && table[j + 1] <= target { j += 1 }
        let lower = Double(j) / Double(pieces), upper = Double(j + 1) / Double(pieces)
        let pieceLength = table[j + 1] - table[j]
        var v = pieceLength > 0 ? lower + (target - table[j]) / pieceLength / Double(pieces) : lower
        for _ in 0 ..< 4 {
            let s = table[j] + length(a, b, m0, m1, from: lower, to: v, count: count)
            let speed = KeyframeTangents.speed(a, b, m0, m1, at: v, count: count)
            guard speed > 0 else { break }
            let next = min(max(v - (s - target) / speed, lower), upper)
            if next == v { break }
            v = next
        }
        return v
    }
}
