import KineticPlatform

/// sin and cos of one argument with a single range reduction, for the spring closed form
/// (which needs both at the same phase, every sample).
///
/// The argument is reduced by the nearest multiple k of π/2 with a three-part Cody–Waite
/// split of π/2 (the first two parts have 33 significant bits, so k·part is exact for
/// |k| < 2^20); the remainder |r| ≤ π/4 goes through Taylor polynomials to r^15 (sin) and
/// r^16 (cos), whose truncation error is below 1e-16; the quadrant is applied by bit
/// operations, without branches. Beyond |x| = 1.6e6 rad the platform's sin and cos are used.
/// Error: a few ulp, far inside the 1e-12 the springs need.
@inlinable @inline(__always)
func sineCosine(_ x: Double) -> (sin: Double, cos: Double) {
    guard abs(x) < 1.6e6 else { return (sin(x), cos(x)) }
    let shifted = x * 0x1.45f306dc9c883p-1 + 0x1.8p52  // x·2/π, rounded to an integer in the low bits
    let quadrant = shifted.bitPattern
    let k = shifted - 0x1.8p52
    let r = ((x - k * 0x1.921fb54400000p+0) - k * 0x1.0b4611a600000p-34) - k * 0x1.3198a2e037073p-69
    let z = r * r
    let sinPoly = -1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362_880
        + z * (-1.0 / 39_916_800 + z * (1.0 / 6_227_020_800 + z * (-1.0 / 1_307_674_368_000))))))
    let s = r + r * z * sinPoly
    let cosPoly = 1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3_628_800
        + z * (1.0 / 479_001_600 + z * (-1.0 / 87_178_291_200 + z * (1.0 / 20_922_789_888_000))))))
    let c = 1 - 0.5 * z + z * z * cosPoly
    // Quadrant q = k mod 4: (sin, cos) = (s, c), (c, −s), (−s, −c), (−c, s).
    let swap = 0 &- (quadrant & 1)                      // all ones for odd quadrants
    let sinSign = (quadrant & 2) << 62                   // sign bit for q = 2, 3
    let cosSign = ((quadrant &+ 1) & 2) << 62            // sign bit for q = 1, 2
    let sb = s.bitPattern, cb = c.bitPattern
    let sinBits = ((sb & ~swap) | (cb & swap)) ^ sinSign
    let cosBits = ((cb & ~swap) | (sb & swap)) ^ cosSign
    return (Double(bitPattern: sinBits), Double(bitPattern: cosBits))
}
