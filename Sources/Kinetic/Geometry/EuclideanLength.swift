/// The Euclidean length √(x² + y² + z² + w²) of up to four finite components, without the
/// overflow or underflow of the squares: the plain sum where it is safe (so the bits are
/// those of `(x * x + y * y + …).squareRoot()` there), else the components scaled by the
/// largest magnitude first. Finite for any finite components whose length is finite.
@inline(__always)
func euclideanLength(_ x: Double, _ y: Double, _ z: Double = 0, _ w: Double = 0) -> Double {
    let sum = x * x + y * y + z * z + w * w
    // Squares below about 2^-968 may have lost bits to underflow; above the greatest finite
    // value they overflowed.
    if sum.isFinite && sum >= 0x1p-968 { return sum.squareRoot() }
    let largest = Swift.max(Swift.max(x.magnitude, y.magnitude), Swift.max(z.magnitude, w.magnitude))
    guard largest > 0 && largest.isFinite else { return largest }
    let a = x / largest, b = y / largest, c = z / largest, d = w / largest
    return largest * (a * a + b * b + c * c + d * d).squareRoot()
}
