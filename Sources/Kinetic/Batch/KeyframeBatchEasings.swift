// KeyframeBatch segments whose easing differs from track to track: every track's eased
// progress comes from `BezierLanes`, four tracks at a time, and the value from the track's
// segment polynomial at its own w.

extension KeyframeBatch {
    /// Per-track scratch of ``evaluate(progress:into:)`` (allocated with the batch): each
    /// track's block, term count and basis w (its local progress until eased), and the
    /// tracks waiting to be eased.
    struct StaggeredScratch {
        let blocks: UnsafeMutablePointer<Int32>
        let terms: UnsafeMutablePointer<UInt8>
        let w: UnsafeMutablePointer<Double>
        let pending: UnsafeMutablePointer<Int32>

        init(count n: Int) {
            let size = max(n, 1)
            blocks = .allocate(capacity: size)
            terms = .allocate(capacity: size)
            w = .allocate(capacity: size)
            pending = .allocate(capacity: size)
        }

        func deallocate() {
            blocks.deallocate(); terms.deallocate(); w.deallocate(); pending.deallocate()
        }
    }

    /// Eases the `count` pending tracks of `scratch` (each in a segment with distinct easings,
    /// at its own local progress) four at a time, and for linear segments at w = 1 moves the
    /// track to the end keyframe itself (the lerp is exact there).
    func easeStaggered(_ scratch: StaggeredScratch, count m: Int) {
        let n = count
        var j = 0
        while j < m {
            // Four lanes; missing ones repeat the first.
            var x1 = SIMD4<Double>(), y1 = SIMD4<Double>(), x2 = SIMD4<Double>(), y2 = SIMD4<Double>()
            var u = SIMD4<Double>()
            for lane in 0 ..< 4 {
                let t = Int(scratch.pending[j + (j + lane < m ? lane : 0)])
                let block = Int(scratch.blocks[t])
                guard let planes = distinctEasings[block] else { continue }
                x1[lane] = planes[t]; y1[lane] = planes[n + t]; x2[lane] = planes[2 * n + t]; y2[lane] = planes[3 * n + t]
                u[lane] = scratch.w[t]
            }
            let (w, ok) = BezierLanes.values(x1: x1, y1: y1, x2: x2, y2: y2, at: u)
            for lane in 0 ..< min(4, m - j) {
                let t = Int(scratch.pending[j + lane])
                let block = Int(scratch.blocks[t])
                let value = ok[lane] ? w[lane] : fallback(block: block, track: t, at: u[lane])
                scratch.w[t] = value
                if scratch.terms[t] == 2 && value == 1 {
                    scratch.blocks[t] = Int32(truncatingIfNeeded: block + 1)
                    scratch.terms[t] = 1
                }
            }
            j &+= 4
        }
    }

    /// Fills `easedProgress` with every track's eased progress in segment `block` at local
    /// progress `u`, and returns the largest |w|.
    @discardableResult
    func easeDistinct(block: Int, u: Double) -> Double {
        guard let planes = distinctEasings[block], let w = easedProgress else { return 0 }
        let n = count
        let x1 = planes, y1 = planes + n, x2 = planes + 2 * n, y2 = planes + 3 * n
        let progress = SIMD4<Double>(repeating: u)
        var largest = SIMD4<Double>(repeating: 0)
        var i = 0
        while i &+ 4 <= n {
            let (values, ok) = BezierLanes.values(x1: load4(x1, i), y1: load4(y1, i), x2: load4(x2, i),
                                                  y2: load4(y2, i), at: progress)
            store4(values, w, i)
            if !all(ok) {
                for lane in 0 ..< 4 where !ok[lane] { w[i + lane] = fallback(block: block, track: i + lane, at: u) }
            }
            let size = BezierLanes.magnitude(load4(w, i))
            largest.replace(with: size, where: size .> largest)
            i &+= 4
        }
        var most = largest.max()
        while i < n {
            w[i] = easedValue(planes, block: block, track: i, at: u)
            most = max(most, w[i].magnitude)
            i &+= 1
        }
        return most
    }

    /// Track `t`'s eased progress in segment `block` (control points in `planes`) at `u`.
    func easedValue(_ planes: UnsafeMutablePointer<Double>, block: Int, track t: Int, at u: Double) -> Double {
        let n = count
        let (values, ok) = BezierLanes.values(
            x1: SIMD4(repeating: planes[t]), y1: SIMD4(repeating: planes[n + t]),
            x2: SIMD4(repeating: planes[2 * n + t]), y2: SIMD4(repeating: planes[3 * n + t]),
            at: SIMD4(repeating: u))
        return ok[0] ? values[0] : fallback(block: block, track: t, at: u)
    }

    /// A lane that `BezierLanes` does not certify: the exact solve (`BezierLanes.exactValue`).
    func fallback(block: Int, track t: Int, at u: Double) -> Double {
        guard let planes = distinctEasings[block] else { return u }
        let n = count
        return BezierLanes.exactValue(planes[t], planes[n + t], planes[2 * n + t], planes[3 * n + t], at: u)
    }

    /// Every track's value in segment `block` at local progress `u`, each eased by its own
    /// curve. Throws (writing nothing) when a value is beyond the range of `Double`.
    func evaluateDistinct(block: Int, terms: Int, u: Double, into o: UnsafeMutablePointer<Double>) throws {
        let largest = easeDistinct(block: block, u: u)
        if let lane = firstDistinctOverflow(block: block, terms: terms, largest: largest) {
            throw BatchStoreError.overflow(lane: lane, quantity: "value")
        }
        guard let w = easedProgress else { return }
        let n = count, plane = 4 * n
        let c0 = coefficients + block * plane, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n
        let end = c0 + plane  // the next block's term 0: the segment's end keyframe
        var i = 0
        if terms == 2 {
            let one = SIMD4<Double>(repeating: 1)
            while i &+ 4 <= n {
                let wi = load4(w, i)
                // The lerp is exact at w = 1: the end keyframe itself.
                let v = (load4(c0, i) + wi * load4(c1, i)).replacing(with: load4(end, i), where: wi .== one)
                store4(v, o, i)
                i &+= 4
            }
            while i < n {
                o[i] = w[i] == 1 ? end[i] : c0[i] + w[i] * c1[i]
                i &+= 1
            }
        } else {
            while i &+ 4 <= n {
                let wi = load4(w, i)
                store4(load4(c0, i) + wi * load4(c1, i) + (wi * wi) * load4(c2, i) + (wi * wi * wi) * load4(c3, i), o, i)
                i &+= 4
            }
            while i < n {
                o[i] = c0[i] + w[i] * c1[i] + (w[i] * w[i]) * c2[i] + (w[i] * w[i] * w[i]) * c3[i]
                i &+= 1
            }
        }
        if scaleExponent > 0 {
            let up = Double(sign: .plus, exponent: scaleExponent, significand: 1)
            for t in 0 ..< n { o[t] *= up }
        }
    }

    /// The first track whose value in segment `block` (with the eased progress in
    /// `easedProgress`, at most `largest` in magnitude) is beyond the range of `Double`, or nil:
    /// at once from the bound of `fits` when it holds, else track by track.
    func firstDistinctOverflow(block: Int, terms: Int, largest: Double) -> Int? {
        if fits(block: block, terms: terms, w: largest) { return nil }
        guard let w = easedProgress else { return nil }
        let n = count, plane = 4 * n
        let end = coefficients + (block + 1) * plane
        let up = Double(sign: .plus, exponent: scaleExponent, significand: 1)
        return (0 ..< n).first { t in
            let v = terms == 2 && w[t] == 1 ? end[t] * up : value(block: block, terms: terms, w: w[t], track: t)
            return !v.isFinite
        }
    }
}
