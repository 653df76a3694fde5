/// An unevaluated sum hi + lo of two doubles (about 106 bits), for the few places where
/// Kinetic needs a residual more exact than double rounding allows: solving x(t) = x
/// where x'(t) is tiny (near the triple root of cubic-bezier(1, ·, 0, ·)).
///
/// The error-free transformations are Knuth's TwoSum and the fused multiply-add product
/// error (`addingProduct` is a correctly rounded fma on every platform Swift supports).
struct DoubleDouble {
    var hi: Double
    var lo: Double

    @inline(__always) init(_ hi: Double, _ lo: Double = 0) {
        self.hi = hi
        self.lo = lo
    }

    /// a + b exactly, as a normalised pair.
    @inline(__always) static func twoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let bb = s - a
        let e = (a - (s - bb)) + (b - bb)
        return DoubleDouble(s, e)
    }

    /// a × b exactly.
    @inline(__always) static func twoProduct(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        return DoubleDouble(p, (-p).addingProduct(a, b))
    }

    @inline(__always) static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let s = twoSum(a.hi, b.hi)
        let lo = s.lo + a.lo + b.lo
        return twoSum(s.hi, lo)
    }

    @inline(__always) static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let p = twoProduct(a.hi, b.hi)
        let lo = p.lo + (a.hi * b.lo + a.lo * b.hi)
        return twoSum(p.hi, lo)
    }

    @inline(__always) static func * (a: DoubleDouble, b: Double) -> DoubleDouble {
        a * DoubleDouble(b)
    }

    /// The double nearest hi + lo.
    @inline(__always) var value: Double { hi + lo }
}
