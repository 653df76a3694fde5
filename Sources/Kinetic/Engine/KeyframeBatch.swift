
/// Many scalar keyframe tracks that share one structure (the same key times and the same
/// segment shapes), evaluated together through a shared polynomial basis.
///
/// ## How it works
/// Every segment of every track is stored as the coefficients of a cubic in one parameter
/// `w`: `value = c0 + c1·w + c2·w² + c3·w³`, where `w` is the segment's local progress after
/// its easing (`w = easing(u)`, or `u` for an uneased segment). Because the tracks share their
/// key times and easings, one progress value gives every track the same segment and the same
/// `w`, so a frame costs one segment look-up and one easing solve for the whole batch, plus,
/// per track, a dot product of its segment's coefficients with the shared basis
/// `[1, w, w², w³]`:
/// - hold segments use `[c0]` (1 term), linear and eased ones `[c0, c1]` (2 terms), cubic
///   Hermite / Catmull-Rom ones all 4 terms; the kernel only reads the terms it needs.
/// - The coefficients are stored as planes (one contiguous array per term and segment), i.e.
///   per segment a column-major `count × terms` matrix, so the batch is one matrix-vector
///   product: native, a fused SIMD loop; BLAS, one `dgemv` (M = count, N = terms).
///
/// Where BLAS does **not** map: ``evaluate(progress:into:)`` (each track at its own progress)
/// gives every track its own segment and basis, which is a row-wise dot product with a
/// different vector per row, not a matrix-vector product; it runs natively only. Paced cubic
/// segments (`KeyframeCalculationMode.cubicPaced`) re-parametrise by arc length per track and
/// are rejected at construction.
///
/// ## Each track its own easing
/// Tracks may ease a segment each with a curve of their own (a design file whose every
/// property has its own easing, say; an uneased segment counts as the identity). Such a
/// segment keeps every track's control points, and a frame solves every track's eased
/// progress side by side in one vectorised pass, with no per-curve table (Halley steps from
/// w = u, then a Newton step, certified per track; the few tracks the certification leaves
/// over get a second pass with more steps, and those it leaves too (next to a vertical
/// tangent, at the triple root of (1, 0, 0, 1), with large y control values, or at progress
/// outside [0, 1]) the exact bracketed solve that ``CubicBezier`` falls back on). Values are within 1e-12 of
/// ``CubicBezier/value(at:)``, and a frame still allocates nothing. Such a segment is no
/// longer one matrix-vector product: it runs natively whatever the backend. The cost per
/// track is in the README's table and `notebooks-data/benchmarks.csv`.
///
/// Values agree with ``KeyframeTrack/value(at:)`` to within rounding (the Hermite segments
/// are evaluated in power form rather than Hermite-basis form: a few ulp of the segment's
/// magnitudes).
///
/// ## Finite in, finite out
/// Key values anywhere in the range of `Double` are accepted (±1e308 included): when a
/// coefficient would overflow (the difference of two key values near ±1e308, say), every
/// coefficient of the batch is stored scaled down by one power of two, exactly, and the
/// results are scaled back, in an extra pass over the output of such batches only. Before
/// writing, each evaluation bounds its results from the segment's largest coefficients and
/// the basis (a few scalar operations); where the bound leaves the range of `Double` (far
/// extrapolation, or an easing that overshoots a value near ±1.8e308), each lane is
/// computed and checked first, and a lane whose value is beyond the range throws
/// ``BatchStoreError/overflow(lane:quantity:)`` with nothing written (the staggered
/// ``evaluate(progress:into:)`` writes every lane first and then reports the first overflow,
/// as its documentation says). This is
/// conservative only where a single term of a segment's polynomial is already beyond the range.
///
/// A `KeyframeBatch` is a mutable reference type (it keeps cursors) and not thread-safe: use
/// it from one thread at a time. Memory is allocated in `init`, never per evaluation.
public final class KeyframeBatch {
    /// The shared key times (unitless progress in [0, 1]).
    public let keyTimes: [Double]
    /// The number of tracks (one output lane each).
    public let count: Int

    let specs: [SegmentSpec]
    /// Planes: `coefficients[(block · 4 + term) · count + track]`; blocks 0 ..< keys − 1 are the
    /// segments, block keys − 1 holds the last keyframe value (term 0 only).
    let coefficients: UnsafeMutablePointer<Double>
    /// The coefficients are stored × 2^−`scaleExponent` (0 unless one would overflow).
    let scaleExponent: Int
    /// Per block, the largest |coefficient| of each term over the tracks (as stored, scaled).
    private(set) var magnitudes: [Double] = []
    /// The shared segment cursor of ``evaluate(at:into:backend:)``.
    public private(set) var cursor = KeyframeCursor()
    /// Per-track segment cursors of ``evaluate(progress:into:)``.
    var cursors: [Int]
    /// Per segment, nil where every track eases it alike; else every track's easing control
    /// points, planes x1, y1, x2, y2 of `count` values each (solved by `BezierLanes`), then
    /// the curves' prepared planes (`BezierLanes.prepare`), for the solve at one shared
    /// progress.
    let distinctEasings: [UnsafeMutablePointer<Double>?]
    /// Planes per segment in `distinctEasings`: four of control points, then the prepared ones.
    static let distinctPlanes = 4 + BezierLanes.preparedPlanes
    /// Per segment, the terms of its polynomial: 2 for a linear segment, else 4 (read for
    /// the segments with distinct easings).
    let easedTerms: [UInt8]
    /// The scratch of segments with distinct easings (nil when there is none).
    let lanes: LaneScratch?

    /// Builds the batch from scalar tracks that share key times and segment shapes.
    ///
    /// - Parameter tracks: at least one track; all with equal `keyTimes` and equal segment
    ///   shapes (hold; linear, eased or not; cubic). Values, tangents and easing curves may
    ///   differ (see "Each track its own easing").
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` for no tracks;
    ///   ``BatchStoreError/structureMismatch(track:)`` when a track's key times or segment
    ///   shapes differ from the first track's;
    ///   ``BatchStoreError/unsupportedInterpolation(track:)`` for paced cubic segments;
    ///   ``BatchStoreError/overflow(lane:quantity:)`` (lane = the track) when a track's cubic
    ///   tangent is beyond the range of `Double` (differences of key values near ±1e308, which
    ///   the track itself keeps scaled).
    public init(tracks: [KeyframeTrack<Double>]) throws {
        guard let first = tracks.first else {
            throw ParameterError.countMismatch(parameter: "tracks", expected: 1, actual: 0)
        }
        let times = first.storage.times, specs = first.storage.specs
        for (i, track) in tracks.enumerated() {
            let s = track.storage
            guard s.times == times, s.specs.count == specs.count,
                  zip(s.specs, specs).allSatisfy({ $0.shape == $1.shape })
            else { throw BatchStoreError.structureMismatch(track: i) }
            if s.specs.contains(where: { $0.shape == .pacedHermite }) {
                throw BatchStoreError.unsupportedInterpolation(track: i)
            }
        }
        keyTimes = times
        self.specs = specs
        let n = tracks.count, keys = times.count
        count = n
        cursors = [Int](repeating: 0, count: n)
        // The largest key value or tangent: the coefficients are sums of at most 9 of them
        // (3·(b − a) − 2·m0 − m1), so below 2e307 none overflows unscaled.
        var largest = 0.0
        for (t, track) in tracks.enumerated() {
            for value in track.storage.lanes { largest = max(largest, value.magnitude) }
            for (i, m) in track.storage.unscaledTangents.enumerated() {
                guard m.isFinite else { throw BatchStoreError.overflow(lane: t, quantity: "tangent of segment \(i / 2)") }
                largest = max(largest, m.magnitude)
            }
        }
        // (Allocated after the last check that throws: deinit does not run for a failed init.)
        // Segments whose easing differs between tracks keep every track's control points
        // (an uneased segment is the identity curve (0, 0, 1, 1)).
        distinctEasings = specs.indices.map { s in
            let easing = specs[s].easing
            guard specs[s].shape != .hold, tracks.contains(where: { $0.storage.specs[s].easing != easing }) else { return nil }
            let planes = UnsafeMutablePointer<Double>.allocate(capacity: Self.distinctPlanes * n)
            for (t, track) in tracks.enumerated() {
                let curve = track.storage.specs[s].easing ?? .linear
                planes[t] = curve.x1; planes[n + t] = curve.y1; planes[2 * n + t] = curve.x2; planes[3 * n + t] = curve.y2
            }
            BezierLanes.prepare(x1: planes, y1: planes + n, x2: planes + 2 * n, y2: planes + 3 * n,
                                into: planes + 4 * n, stride: n, count: n)
            return planes
        }
        easedTerms = specs.map { $0.shape == .linear ? 2 : 4 }
        let hasDistinct = distinctEasings.contains { $0 != nil }
        lanes = hasDistinct ? LaneScratch(count: n) : nil
        let k = 9 * largest <= 0x1p1020 ? 0 : max(0, largest.exponent - 1015)
        scaleExponent = k
        let down = Double(sign: .plus, exponent: -k, significand: 1)
        let size = keys * 4 * n
        coefficients = .allocate(capacity: size)
        coefficients.initialize(repeating: 0, count: size)
        for (t, track) in tracks.enumerated() {
            let lanes = track.storage.lanes.map { $0 * down }, tangents = track.storage.unscaledTangents.map { $0 * down }
            for s in 0 ..< keys - 1 {
                let a = lanes[s], b = lanes[s + 1]
                var c = (a, 0.0, 0.0, 0.0)
                switch specs[s].shape {
                case .hold: break
                case .linear: c.1 = b - a
                case .hermite, .pacedHermite:
                    let m0 = tangents[2 * s], m1 = tangents[2 * s + 1]
                    c = (a, m0, 3 * (b - a) - 2 * m0 - m1, 2 * (a - b) + m0 + m1)
                }
                set(block: s, t, c)
            }
            set(block: keys - 1, t, (lanes[keys - 1], 0, 0, 0))
        }
        var magnitudes = [Double](repeating: 0, count: 4 * keys)
        for block in 0 ..< keys {
            for term in 0 ..< 4 {
                let plane = coefficients + (block * 4 + term) * n
                for track in 0 ..< n { magnitudes[4 * block + term] = max(magnitudes[4 * block + term], plane[track].magnitude) }
            }
        }
        self.magnitudes = magnitudes
    }

    deinit {
        coefficients.deallocate()
        for planes in distinctEasings { planes?.deallocate() }
        lanes?.deallocate()
    }

    private func set(block: Int, _ track: Int, _ c: (Double, Double, Double, Double)) {
        let base = coefficients + block * 4 * count + track
        base[0] = c.0
        base[count] = c.1
        base[2 * count] = c.2
        base[3 * count] = c.3
    }

    /// The segment block, the number of basis terms and the basis at `progress`; for a
    /// segment whose easing differs between tracks (`distinct`), w is the local progress,
    /// which each track then eases with its own curve.
    @inline(__always)
    func basis(at progress: Double, cursor: inout Int) -> (block: Int, terms: Int, w: Double, distinct: Bool) {
        let location = keyTimes.withUnsafeBufferPointer {
            KeyframeLookup.locate(progress, in: $0, cursor: &cursor, useCursor: true)
        }
        return basis(of: location)
    }

    /// ``basis(at:cursor:)`` for a located progress.
    @inline(__always)
    func basis(of location: KeyframeLocation) -> (block: Int, terms: Int, w: Double, distinct: Bool) {
        switch location {
        case .key(let k): return (k, 1, 0, false)
        case .segment(let s, let u):
            let spec = specs[s]
            // Per-track easings: w is each track's own (see `easeDistinct`); u here.
            if distinctEasings[s] != nil { return (s, spec.shape == .linear ? 2 : 4, u, true) }
            switch spec.shape {
            case .hold: return u < 1 ? (s, 1, 0, false) : (s + 1, 1, 0, false)
            case .linear:
                let f = spec.easing.map { $0.value(at: u) } ?? u
                // The track's lerp is exact at f = 1: the end keyframe itself.
                return f == 1 ? (s + 1, 1, 0, false) : (s, 2, f, false)
            case .hermite, .pacedHermite:
                return (s, 4, spec.easing.map { $0.value(at: u) } ?? u, false)
            }
        }
    }

    /// Writes every track's value at one shared `progress` into `output[track]`.
    ///
    /// - Parameters:
    ///   - progress: unitless progress (see ``KeyframeTrack`` for values outside [0, 1]).
    ///   - output: `count` values.
    ///   - backend: `.native` (fused loop), `.blas` (`dgemv`) or `.automatic`.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if
    ///   `output.count != count`, ``BackendError/unavailable(_:)`` for `.blas` in a build
    ///   without BLAS; ``BatchStoreError/overflow(lane:quantity:)`` (quantity "value") for the
    ///   first track whose value is beyond the range of `Double`; nothing is written then.
    public func evaluate(at progress: Double, into output: UnsafeMutableBufferPointer<Double>,
                         backend: Backend = .automatic) throws {
        try requireCount(output.count, count, "output")
        let resolved = try backend.resolved(.keyframes, lanes: count)
        guard count > 0, let o = output.baseAddress else { return }
        let (block, terms, w, distinct) = basis(at: progress, cursor: &cursor.segment)
        if distinct {
            try evaluateDistinct(block: block, terms: terms, u: w, into: o)
            return
        }
        guard fits(block: block, terms: terms, w: w) else {
            if let lane = firstOverflow(block: block, terms: terms, w: w) { throw BatchStoreError.overflow(lane: lane, quantity: "value") }
            for t in 0 ..< count { o[t] = value(block: block, terms: terms, w: w, track: t) }
            return
        }
        Self.evaluate(coefficients + block * 4 * count, stride: count, terms: terms, w: w,
                      into: o, count: count, backend: resolved)
        if scaleExponent > 0 {
            let up = Double(sign: .plus, exponent: scaleExponent, significand: 1)
            for t in 0 ..< count { o[t] *= up }
        }
    }

    /// Checks that every track's value at `progress` is within the range of `Double`, as
    /// ``evaluate(at:into:backend:)`` does before writing; writes nothing (the shared cursor
    /// moves to the segment of `progress`).
    /// - Throws: ``BatchStoreError/overflow(lane:quantity:)`` for the first track beyond it.
    func checkRepresentable(at progress: Double) throws(BatchStoreError) {
        guard count > 0 else { return }
        let (block, terms, w, distinct) = basis(at: progress, cursor: &cursor.segment)
        if distinct {
            let largest = easeDistinct(block: block, u: w)
            if let lane = firstDistinctOverflow(block: block, terms: terms, largest: largest) {
                throw .overflow(lane: lane, quantity: "value")
            }
            return
        }
        if fits(block: block, terms: terms, w: w) { return }
        if let lane = firstOverflow(block: block, terms: terms, w: w) { throw .overflow(lane: lane, quantity: "value") }
    }

    /// Whether every track's value in `block` at basis `w` is surely within the range of
    /// `Double`: the bound Σ max|c_j|·|w|^j (times the batch scale, with a margin for
    /// rounding) is. A few scalar operations per evaluation.
    @inline(__always)
    func fits(block: Int, terms: Int, w: Double) -> Bool {
        let m = 4 * block
        var bound = magnitudes[m], power = 1.0
        for j in 1 ..< max(terms, 1) {
            power *= w.magnitude
            bound += magnitudes[m + j] * power
        }
        return bound * (1 + 0x1p-48) <= Double(sign: .plus, exponent: -scaleExponent, significand: 1) * .greatestFiniteMagnitude
    }

    /// One track's segment polynomial at basis `w`: its coefficients at `c`, `stride` apart,
    /// the first `terms` of them (as stored, scaled).
    @inline(__always)
    static func polynomial(_ c: UnsafeMutablePointer<Double>, stride n: Int, terms: Int, w: Double) -> Double {
        switch terms {
        case 1: return c[0]
        case 2: return c[0] + w * c[n]
        default: return c[0] + w * c[n] + (w * w) * c[2 * n] + (w * w * w) * c[3 * n]
        }
    }

    /// Track `t`'s value in `block` at basis `w`, as the kernels compute it, scaled back.
    @inline(__always)
    func value(block: Int, terms: Int, w: Double, track t: Int) -> Double {
        let scaled = Self.polynomial(coefficients + block * 4 * count + t, stride: count, terms: terms, w: w)
        return scaleExponent == 0 ? scaled : scaled * Double(sign: .plus, exponent: scaleExponent, significand: 1)
    }

    /// The first track whose value in `block` at `w` is not finite (beyond the range of
    /// `Double`, or a term of its polynomial is), or nil.
    func firstOverflow(block: Int, terms: Int, w: Double) -> Int? {
        (0 ..< count).first { !value(block: block, terms: terms, w: w, track: $0).isFinite }
    }

    /// `out = Σ_{k < terms} w^k · plane_k` over `count` lanes (planes `stride` apart);
    /// `backend` is already resolved (`.native` or `.blas`).
    @inline(__always)
    static func evaluate(_ c: UnsafeMutablePointer<Double>, stride: Int, terms: Int, w: Double,
                         into o: UnsafeMutablePointer<Double>, count n: Int, backend: Backend) {
        // `.automatic` runs native: as for every other kernel on the reference machine, the
        // fused loop beats `dgemv` (StoreBenchmarks.swift, 100k eased tracks; figures in
        // notebooks-data/benchmarks.csv: the 2-term case is memory-bound and dgemv with N = 2
        // columns does not stream as well).
        if backend == .blas {
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 4) { x in
                let x = x.baseAddress!
                x[0] = 1; x[1] = w; x[2] = w * w; x[3] = w * w * w
                BLAS.columnMajorMatrixVector(rows: n, columns: terms, c, lda: stride, x, o)
            }
            return
        }
        switch terms {
        case 1: o.update(from: c, count: n)
        case 2: Batch.sharedNative(c, c + stride, w, o, n)
        default: cubicNative(c, stride, w, o, n)
        }
    }

    @inline(__always)
    static func cubicNative(_ c: UnsafeMutablePointer<Double>, _ stride: Int, _ w: Double,
                            _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let w2 = w * w, w3 = w2 * w
        let c0 = c, c1 = c + stride, c2 = c1 + stride, c3 = c2 + stride
        let v1 = SIMD4<Double>(repeating: w), v2 = SIMD4<Double>(repeating: w2), v3 = SIMD4<Double>(repeating: w3)
        var i = 0
        while i &+ 4 <= n {
            store4(load4(c0, i) + v1 * load4(c1, i) + v2 * load4(c2, i) + v3 * load4(c3, i), o, i)
            i &+= 4
        }
        while i < n {
            o[i] = c0[i] + w * c1[i] + w2 * c2[i] + w3 * c3[i]
            i &+= 1
        }
    }

    /// Writes each track's value at its own progress: `output[t]` = track `t` at
    /// `progress[t]` (staggered tracks). Each track keeps its own segment cursor, which walks
    /// forward (or back) from frame to frame; in a segment whose tracks have their own easings,
    /// the track's curve stays in the solver's planes until the track changes segment (the
    /// values never depend on the frames before). Native only: a different basis per track does
    /// not map onto a BLAS matrix-vector product.
    ///
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if `progress` or
    ///   `output` does not hold `count` values; nothing is written then.
    ///   ``BatchStoreError/overflow(lane:quantity:)`` (quantity "value") naming the first
    ///   track whose value is beyond the range of `Double`; `output` then holds every track's
    ///   value, ±infinity (or NaN) for the ones beyond the range.
    public func evaluate(progress: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) throws {
        try requireCount(progress.count, count, "progress")
        try requireCount(output.count, count, "output")
        let n = count, plane = 4 * n
        // (v − v) is 0 for finite v and NaN otherwise: one add per lane flags any overflow.
        var check = 0.0
        if let lanes {
            // Tracks in segments with their own easings are eased in one kernel call (each
            // track's curve stays in the kernel's planes between frames), then evaluated;
            // every other track is evaluated at once (`evaluateStaggered`).
            check = evaluateStaggered(progress, lanes, into: output)
        } else {
            cursors.withUnsafeMutableBufferPointer { cursors in
                for t in 0 ..< n {
                    let (block, terms, w, _) = basis(at: progress[t], cursor: &cursors[t])
                    let v = Self.polynomial(coefficients + block * plane + t, stride: n, terms: terms, w: w)
                    output[t] = v
                    check += v - v
                }
            }
        }
        if scaleExponent > 0 {
            let up = Double(sign: .plus, exponent: scaleExponent, significand: 1)
            for t in 0 ..< n {
                output[t] *= up
                check += output[t] - output[t]
            }
        }
        if check != 0, let lane = (0 ..< n).first(where: { !output[$0].isFinite }) {
            throw BatchStoreError.overflow(lane: lane, quantity: "value")
        }
    }
}
