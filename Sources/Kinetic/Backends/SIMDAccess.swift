/// Unaligned SIMD loads and stores on `Double` storage, for the native batch loops.
///
/// `SIMD4<Double>` is two SSE2 registers on baseline x86-64 (one AVX register where the
/// target has AVX) and lowers to plain vector moves; the loops that use these helpers process
/// 8 lanes per trip (two vectors) and finish the tail one lane at a time.
@inline(__always)
func load4(_ p: UnsafePointer<Double>, _ i: Int) -> SIMD4<Double> {
    UnsafeRawPointer(p + i).loadUnaligned(as: SIMD4<Double>.self)
}

@inline(__always)
func load4(_ p: UnsafeMutablePointer<Double>, _ i: Int) -> SIMD4<Double> {
    UnsafeRawPointer(p + i).loadUnaligned(as: SIMD4<Double>.self)
}

@inline(__always)
func store4(_ v: SIMD4<Double>, _ p: UnsafeMutablePointer<Double>, _ i: Int) {
    UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD4<Double>.self)
}

/// Throws ``ParameterError/countMismatch(parameter:expected:actual:)`` unless `actual == expected`.
@inline(__always)
func requireCount(_ actual: Int, _ expected: Int, _ name: String) throws(ParameterError) {
    guard actual == expected else {
        throw .countMismatch(parameter: name, expected: expected, actual: actual)
    }
}
