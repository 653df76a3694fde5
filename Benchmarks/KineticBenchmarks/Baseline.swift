// The comparison solver for the cubic-bezier benchmarks: a browser-style solver that behaves
// like WebKit's UnitBezier and Chromium's gfx::CubicBezier as browsers use them. Written for
// this project from a description of that method (no browser code was copied):
//
// - construction: power-form coefficients of x(t) and y(t), an 11-entry table of x(t) at
//   t = 0, 0.1, …, 1, and the end gradients used to extrapolate outside [0, 1];
// - solve: find the table interval holding x by a linear scan, take the initial t by linear
//   interpolation inside it, then up to 4 Newton steps, stopping as soon as |x(t) − x| < 1e-7
//   (and giving up on Newton when |dx/dt| < 1e-7), then bisection of the table interval until
//   |x(t) − x| < 1e-7; the result is y(t).
//
// The stopping rule on |x(t) − x| is the browsers' own and is kept on purpose: it is what makes
// their error grow where dy/dx is large. Everything else is a plain, working solver (it agrees
// with Kinetic to well within 1e-3 on random curves and inputs).

/// A browser-style cubic-bezier timing function (see the file comment). Unit-less progress in,
/// eased progress out; x outside [0, 1] is extrapolated along the end tangents.
struct BrowserCubicBezier: Sendable {
    /// x(t) = ((ax·t + bx)·t + cx)·t, y(t) likewise.
    let ax, bx, cx: Double
    let ay, by, cy: Double
    /// dy/dx used for x < 0 and for x > 1.
    let startGradient, endGradient: Double
    /// x(t) at t = i / 10, i = 0 … 10 (stored inline, like the browsers' fixed array).
    let samples: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)

    static let sampleCount = 11
    static let epsilon = 1e-7
    static let newtonSteps = 4

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        let cx = 3 * x1
        let bx = 3 * (x2 - x1) - cx
        let ax = 1 - cx - bx
        let cy = 3 * y1
        let by = 3 * (y2 - y1) - cy
        let ay = 1 - cy - by
        self.ax = ax; self.bx = bx; self.cx = cx
        self.ay = ay; self.by = by; self.cy = cy

        // Tangent at each end; when a control point sits on its end point, use the other
        // control point; when both do, the curve is a straight line; vertical tangents
        // extrapolate flat.
        if x1 > 0 { startGradient = y1 / x1 }
        else if y1 == 0 && x2 > 0 { startGradient = y2 / x2 }
        else if y1 == 0 && y2 == 0 { startGradient = 1 }
        else { startGradient = 0 }
        if x2 < 1 { endGradient = (y2 - 1) / (x2 - 1) }
        else if y2 == 1 && x1 < 1 { endGradient = (y1 - 1) / (x1 - 1) }
        else if y2 == 1 && y1 == 1 { endGradient = 1 }
        else { endGradient = 0 }

        var table = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &table) { raw in
            let s = raw.bindMemory(to: Double.self)
            for i in 0..<Self.sampleCount {
                let t = Double(i) / Double(Self.sampleCount - 1)
                s[i] = ((ax * t + bx) * t + cx) * t
            }
        }
        samples = table
    }

    @inline(__always) func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func dxdt(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The eased progress at linear progress `x`.
    ///
    /// Not inlined into the benchmark loops, so that it is called like `CubicBezier.value(at:)`
    /// (which lives in another module) and like a browser's solver: one real call per x.
    @inline(never)
    func value(at x: Double) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        return y(parameter(for: x))
    }

    /// The curve parameter t in [0, 1] with |x(t) − x| < 1e-7 (for x in [0, 1]).
    @inline(__always)
    func parameter(for target: Double) -> Double {
        let eps = Self.epsilon
        let step = 1 / Double(Self.sampleCount - 1)
        // Bracket from the table: the first sample at or above the target.
        var lo = 0.0, hi = 1.0
        var t = target
        withUnsafeBytes(of: samples) { raw in
            let s = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            var i = 1
            while i < Self.sampleCount && !(target <= s[i]) { i += 1 }
            if i < Self.sampleCount {
                lo = Double(i - 1) * step
                hi = Double(i) * step
                let width = s[i] - s[i - 1]
                t = width > 0 ? lo + (hi - lo) * (target - s[i - 1]) / width : lo
            }
        }
        // Newton, unguarded (as in the browsers), stopping on the residual in x.
        for _ in 0..<Self.newtonSteps {
            let f = x(t) - target
            if abs(f) < eps { return t }
            let d = dxdt(t)
            if abs(d) < eps { break }
            t -= f / d
        }
        // Bisection of the table interval, starting from Newton's last iterate if it is inside.
        if !(t >= lo && t <= hi) { t = 0.5 * (lo + hi) }
        while lo < hi {
            let f = x(t) - target
            if abs(f) < eps { return t }
            if f < 0 { lo = t } else { hi = t }
            let mid = 0.5 * (lo + hi)
            if mid == t { break }  // the interval cannot shrink any further
            t = mid
        }
        return t
    }
}
