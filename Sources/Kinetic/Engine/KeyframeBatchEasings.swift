// KeyframeBatch segments whose easing differs from track to track: every track's eased
// progress comes from `BezierLanes` (one kernel call over the tracks), and the value from the
// track's segment polynomial at its own w.

extension KeyframeBatch {
    /// The lane scratch of segments with distinct easings (allocated with the batch, `count`
    /// of each): every track's eased progress `w` and certificate `ok`; for
    /// ``evaluate(progress:into:)``, each track's segment this frame (−1 where it needs no
    /// easing), and the kernel's planes: each track's current curve (the control points of
    /// the segment in `curveSegments`, copied when the track enters it) and its local progress.
    struct LaneScratch {
        let w: UnsafeMutablePointer<Double>
        let ok: UnsafeMutablePointer<UInt8>
        /// Each track's segment with a distinct easing this frame, or −1.
        let blocks: UnsafeMutablePointer<Int32>
        /// The segment whose curve each track's lane in `curves` holds (−1: none yet, the
        /// lane holds the identity curve).
        let curveSegments: UnsafeMutablePointer<Int32>
        /// Five planes: x1, y1, x2, y2 (each track's current curve), u.
        let curves: UnsafeMutablePointer<Double>
        /// The kernel's eased progress of each track in `curves` at its u.
        let eased: UnsafeMutablePointer<Double>
        /// For the lanes the kernel does not certify (`BezierLanes.resolveUncertified`).
        let uncertified: BezierLanes.Scratch
        let size: Int

        init(count n: Int) {
            size = max(n, 1)
            w = .allocate(capacity: size)
            ok = .allocate(capacity: size)
            blocks = .allocate(capacity: size)
            curveSegments = .allocate(capacity: size)
            curves = .allocate(capacity: 5 * size)
            curveSegments.initialize(repeating: -1, count: size)
            for (plane, value) in [0.0, 0, 1, 1, 0].enumerated() {
                (curves + plane * size).initialize(repeating: value, count: size)
            }
            eased = .allocate(capacity: size)
            uncertified = BezierLanes.Scratch()
        }

        func deallocate() {
            w.deallocate(); ok.deallocate(); blocks.deallocate(); curveSegments.deallocate()
            curves.deallocate(); eased.deallocate(); uncertified.deallocate()
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

    /// Writes every track's value at its own `progress[t]` into `output[t]` (unscaled, as
    /// stored), and returns Σ (v − v) over them: 0 when every value is finite.
    ///
    /// One pass locates each track (its cursor tests the last frame's segment first). A track
    /// at a key, or in a segment that every track eases alike, is evaluated at once. A track
    /// in a segment with distinct easings gets its local progress in the kernel's `u` plane;
    /// its curve's control points are already in the kernel's planes unless it changed
    /// segment since the last frame (`curveSegments`). One kernel call then eases every lane
    /// (a lane evaluated at once has u = 0, which gives 0 at no risk), and a pass over the
    /// eased tracks evaluates their segment polynomials. The values are those of
    /// `basis(of:)` and `polynomial`, bit for bit: only the order of the work differs.
    func evaluateStaggered(_ progress: UnsafeBufferPointer<Double>, _ lanes: LaneScratch,
                           into output: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = count, plane = 4 * n, size = lanes.size
        let curves = lanes.curves, u = curves + 4 * size
        let blocks = lanes.blocks, curveSegments = lanes.curveSegments
        let coefficients = self.coefficients
        // The running sums are the closures' own locals: a captured `var` would live in
        // memory, and every track would wait on its store.
        let (directCheck, m) = keyTimes.withUnsafeBufferPointer { times in
            distinctEasings.withUnsafeBufferPointer { distinct in
                cursors.withUnsafeMutableBufferPointer { cursors in
                    var check = 0.0, m = 0
                    for t in 0 ..< n {
                        let location = KeyframeLookup.locate(progress[t], in: times, cursor: &cursors[t], useCursor: true)
                        if case .segment(let s, let fraction) = location, let planes = distinct[s] {
                            let segment = Int32(truncatingIfNeeded: s)
                            blocks[t] = segment
                            if curveSegments[t] != segment {
                                curveSegments[t] = segment
                                let g = curves + t
                                g[0] = planes[t]; g[size] = planes[n &+ t]
                                g[2 &* size] = planes[2 &* n &+ t]; g[3 &* size] = planes[3 &* n &+ t]
                            }
                            u[t] = fraction
                            m &+= 1
                            continue
                        }
                        let (block, terms, w, _) = basis(of: location)
                        let v = Self.polynomial(coefficients + block * plane + t, stride: n, terms: terms, w: w)
                        output[t] = v
                        check += v - v
                        blocks[t] = -1
                        u[t] = 0
                    }
                    return (check, m)
                }
            }
        }
        guard m > 0 else { return directCheck }
        let x1 = curves, y1 = x1 + size, x2 = y1 + size, y2 = x2 + size
        BezierLanes.values(x1: x1, y1: y1, x2: x2, y2: y2, at: UnsafePointer(u), into: lanes.eased,
                           ok: lanes.ok, count: n)
        BezierLanes.resolveUncertified(w: lanes.eased, ok: lanes.ok, count: n, x1: x1, y1: y1, x2: x2, y2: y2,
                                       u: u, sharedU: 0, scratch: lanes.uncertified)
        let out = output.baseAddress!, eased = lanes.eased
        return easedTerms.withUnsafeBufferPointer { terms in
            var check = directCheck
            for t in 0 ..< n {
                let s = Int(blocks[t])
                if s < 0 { continue }
                let w = eased[t], c = coefficients + (s &* plane &+ t)
                // The lerp is exact at w = 1: the end keyframe itself.
                let v = terms[s] == 2 && w == 1 ? c[plane] : Self.polynomial(c, stride: n, terms: Int(terms[s]), w: w)
                out[t] = v
                check += v - v
            }
            return check
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
