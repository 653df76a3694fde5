// KeyframeBatch segments whose easing differs from track to track: every track's eased
// progress comes from `BezierLanes` (one kernel call over the tracks), and the value from the
// track's segment polynomial at its own w.

extension KeyframeBatch {
    /// The lane scratch of segments with distinct easings (allocated with the batch, `count`
    /// of each): every track's eased progress `w` and certificate `ok`; for
    /// ``evaluate(progress:into:)``, each track's block and term count, the tracks waiting to
    /// be eased, and their control points and progress gathered into planes for the kernel.
    struct LaneScratch {
        let w: UnsafeMutablePointer<Double>
        let ok: UnsafeMutablePointer<UInt8>
        let blocks: UnsafeMutablePointer<Int32>
        let terms: UnsafeMutablePointer<UInt8>
        let pending: UnsafeMutablePointer<Int32>
        /// Five planes: x1, y1, x2, y2, u.
        let gathered: UnsafeMutablePointer<Double>
        let gatheredW: UnsafeMutablePointer<Double>
        /// For the lanes the kernel does not certify (`BezierLanes.resolveUncertified`).
        let uncertified: BezierLanes.Scratch
        let size: Int

        init(count n: Int) {
            size = max(n, 1)
            w = .allocate(capacity: size)
            ok = .allocate(capacity: size)
            blocks = .allocate(capacity: size)
            terms = .allocate(capacity: size)
            pending = .allocate(capacity: size)
            gathered = .allocate(capacity: 5 * size)
            gatheredW = .allocate(capacity: size)
            uncertified = BezierLanes.Scratch()
        }

        func deallocate() {
            w.deallocate(); ok.deallocate(); blocks.deallocate(); terms.deallocate(); pending.deallocate()
            gathered.deallocate(); gatheredW.deallocate(); uncertified.deallocate()
        }
    }

    /// Fills the scratch's `w` with every track's eased progress in segment `block` at local
    /// progress `u`, and returns the largest |w|.
    @discardableResult
    func easeDistinct(block: Int, u: Double) -> Double {
        guard let planes = distinctEasings[block], let lanes else { return 0 }
        let n = count
        BezierLanes.values(prepared: planes + 4 * n, stride: n, at: u, into: lanes.w, ok: lanes.ok, count: n)
        BezierLanes.resolveUncertified(w: lanes.w, ok: lanes.ok, count: n, x1: planes, y1: planes + n, x2: planes + 2 * n,
                                       y2: planes + 3 * n, u: nil, sharedU: u, scratch: lanes.uncertified)
        return BezierLanes.largestMagnitude(lanes.w, count: n)
    }

    /// Eases the `count` pending tracks of the scratch (each in a segment with distinct
    /// easings; their control points and local progress already gathered into the scratch's
    /// planes): one kernel call, then scattered back into `w`; for linear segments at w = 1
    /// the track moves to the end keyframe itself (the lerp is exact there).
    func easeStaggered(_ lanes: LaneScratch, count m: Int) {
        guard m > 0 else { return }
        let size = lanes.size
        let x1 = lanes.gathered, y1 = x1 + size, x2 = y1 + size, y2 = x2 + size, u = y2 + size
        BezierLanes.values(x1: x1, y1: y1, x2: x2, y2: y2, at: UnsafePointer(u), into: lanes.gatheredW,
                           ok: lanes.ok, count: m)
        BezierLanes.resolveUncertified(w: lanes.gatheredW, ok: lanes.ok, count: m, x1: x1, y1: y1, x2: x2, y2: y2,
                                       u: u, sharedU: 0, scratch: lanes.uncertified)
        for j in 0 ..< m {
            let t = Int(lanes.pending[j])
            let value = lanes.gatheredW[j]
            lanes.w[t] = value
            if value == 1 && lanes.terms[t] == 2 {
                lanes.blocks[t] &+= 1
                lanes.terms[t] = 1
            }
        }
    }

    /// Every track's value in segment `block` at local progress `u`, each eased by its own
    /// curve. Throws (writing nothing) when a value is beyond the range of `Double`.
    func evaluateDistinct(block: Int, terms: Int, u: Double, into o: UnsafeMutablePointer<Double>) throws {
        let largest = easeDistinct(block: block, u: u)
        if let lane = firstDistinctOverflow(block: block, terms: terms, largest: largest) {
            throw BatchStoreError.overflow(lane: lane, quantity: "value")
        }
        guard let w = lanes?.w else { return }
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

    /// The first track whose value in segment `block` (with the eased progress in the
    /// scratch's `w`, at most `largest` in magnitude) is beyond the range of `Double`, or nil:
    /// at once from the bound of `fits` when it holds, else track by track.
    func firstDistinctOverflow(block: Int, terms: Int, largest: Double) -> Int? {
        if fits(block: block, terms: terms, w: largest) { return nil }
        guard let w = lanes?.w else { return nil }
        let n = count, plane = 4 * n
        let end = coefficients + (block + 1) * plane
        let up = Double(sign: .plus, exponent: scaleExponent, significand: 1)
        return (0 ..< n).first { t in
            let v = terms == 2 && w[t] == 1 ? end[t] * up : value(block: block, terms: terms, w: w[t], track: t)
            return !v.isFinite
        }
    }
}
