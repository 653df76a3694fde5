import KineticPlatform

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny seeded generator, shared by every test that
/// needs random inputs, so each run tests the same curves, springs and data and a failure
/// reproduces.
package struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1) with 53 random bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in [lo, hi).
    package mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * unit()
    }
    /// Log-uniform in [lo, hi) (lo > 0).
    package mutating func logUniform(_ lo: Double, _ hi: Double) -> Double {
        exp(uniform(log(lo), log(hi)))
    }
    /// True with probability p.
    package mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }
}
