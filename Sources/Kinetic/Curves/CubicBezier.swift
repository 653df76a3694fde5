/// A cubic-bezier timing curve with CSS / Core Animation semantics.
///
/// The curve runs from (0, 0) through the control points (x1, y1) and (x2, y2) to (1, 1).
/// ``value(at:)`` takes linear progress `x` (the fraction of the duration elapsed), finds
/// the curve parameter `t` with `Bx(t) = x` and returns `By(t)`, the eased progress.
///
/// - Accuracy: within 1e-12 · max(1, |y1|, |y2|) of the exact value for every curve with
///   `x1`, `x2` in [0, 1], for every `x` in [0, 1], the triple root of (1, 0, 0, 1) and the
///   curves near it included (the tests check this against an independent Float80
///   reference). The factor is the bound on |y| over the curve: a double's rounding of y
///   grows with it; curves with y1, y2 in [−1, 1] are held to 1e-12 itself.
///   `value(at: 0) == 0` and `value(at: 1) == 1` exactly; a curve with `x1 == y1` and
///   `x2 == y2` (such as ``linear``) is the identity exactly. Within 2^-26 of either end
///   the value also has relative precision wherever it is a normal double (x there is
///   solved directly, not through the table), so a monotone curve (y1, y2 in [0, 1])
///   stays within [0, 1] and does not decrease down to the smallest x, in ``value(at:)``
///   and ``values(at:)`` alike (between two adjacent doubles the value can step back by
///   one ulp: only a correctly rounded evaluation could exclude that).
/// - Outside [0, 1] the curve continues along its end tangents, as Chromium and WebKit do;
///   where an end tangent is vertical the extrapolation is flat (slope 0).
/// - Cost: a new curve holds its control points and a few constants on the heap. Its first 64 evaluations (with its copies; each element of a batch call counts)
///   compute the one certified piece of the inverse t(x) they need, then take one Newton
///   step. The next builds the curve's solve table (all pieces, and a map that finds one with
///   no data-dependent branch), and from then on an evaluation allocates
///   nothing. The solve tables alive in the process are capped at 8 MB (about 2,700 curves):
///   past that, a curve keeps evaluating without its table (the same values; it tries again
///   every 64 evaluations), so tens of thousands of hot distinct curves cost their constants,
///   not 3 KB each. Both ways run the same arithmetic, so a value never depends on whether the
///   table exists. Batch calls of 16 x or more run the solve table's arithmetic vectorised,
///   to the same bits (smaller ones are ``value(at:)`` one x at a time); the batch call that
///   takes the curve's batch x past 8,192 builds its batch table and uses it. That table
///   evaluates y directly as a certified piecewise polynomial in 12,576 bytes (with the solve
///   table, within 16 KB per curve; a curve whose table would leave too much unresolved keeps
///   the vectorised solve). Copies share the solver and its tables, and so does every curve equal to one of
///   the named presets (``ease`` and the others). Tables are published once,
///   atomically: evaluation takes no lock. The measured set-up time and sizes are in the
///   README's table and `notebooks-data/benchmarks.csv`.
public struct CubicBezier: TimingCurve, Hashable, Sendable, CustomStringConvertible {
    /// The first control point's progress coordinate, in [0, 1].
    public let x1: Double
    /// The first control point's value coordinate; any finite value (beyond [0, 1] overshoots).
    public let y1: Double
    /// The second control point's progress coordinate, in [0, 1].
    public let x2: Double
    /// The second control point's value coordinate; any finite value.
    public let y2: Double

    /// The solver (shared by copies). Package-visible for KineticC's handles, which call it
    /// without reference counting. `nonisolated(unsafe)` because the solver is a
    /// `ManagedBuffer` (not `Sendable`): its header is immutable, and its slots (the tables,
    /// the evaluation count) are only read and written atomically.
    nonisolated(unsafe) package let table: BezierTable

    /// Creates the curve with control points (x1, y1) and (x2, y2).
    ///
    /// - Throws: ``ParameterError`` naming the value when any coordinate is NaN or
    ///   infinite, or when `x1` or `x2` is outside [0, 1].
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws {
        try ParameterError.requireFinite(x1, "x1")
        try ParameterError.requireFinite(y1, "y1")
        try ParameterError.requireFinite(x2, "x2")
        try ParameterError.requireFinite(y2, "y2")
        guard (0...1).contains(x1) else { throw ParameterError.outOfRange(parameter: "x1", value: x1, expected: "[0, 1]") }
        guard (0...1).contains(x2) else { throw ParameterError.outOfRange(parameter: "x2", value: x2, expected: "[0, 1]") }
        // A curve equal to a preset shares the preset's tables instead of building its own
        // (every preset ends at y2 = 1 with x1 in {0, 0.25, 0.42}: other curves skip the search).
        var shared: BezierTable?
        if y2 == 1 && (x1 == 0 || x1 == 0.25 || x1 == 0.42) {
            shared = Self.presets.first { p in
                p.curve.x1 == x1 && p.curve.y1 == y1 && p.curve.x2 == x2 && p.curve.y2 == y2
            }?.curve.table
        }
        self.init(unchecked: x1, y1, x2, y2, table: shared)
    }

    private init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, table: BezierTable? = nil) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.table = table ?? BezierTable.make(x1, y1, x2, y2)
    }

    /// `cubic-bezier(0, 0, 1, 1)`: the identity.
    public static let linear = CubicBezier(unchecked: 0, 0, 1, 1)
    /// CSS `ease`, Core Animation's default curve: (0.25, 0.1, 0.25, 1).
    public static let ease = CubicBezier(unchecked: 0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`, UIKit `.easeIn`: (0.42, 0, 1, 1).
    public static let easeIn = CubicBezier(unchecked: 0.42, 0, 1, 1)
    /// CSS `ease-out`, UIKit `.easeOut`: (0, 0, 0.58, 1).
    public static let easeOut = CubicBezier(unchecked: 0, 0, 0.58, 1)
    /// CSS `ease-in-out`, UIKit `.easeInOut`: (0.42, 0, 0.58, 1).
    public static let easeInOut = CubicBezier(unchecked: 0.42, 0, 0.58, 1)

    /// The named presets with their CSS names, in a fixed order.
    public static let presets: [(name: String, curve: CubicBezier)] = [
        ("linear", .linear), ("ease", .ease), ("ease-in", .easeIn),
        ("ease-out", .easeOut), ("ease-in-out", .easeInOut),
    ]

    /// The eased progress at linear progress `x` (unitless).
    ///
    /// Exact to 1e-12 · max(1, |y1|, |y2|) in [0, 1]; outside, extrapolated along the end
    /// tangents.
    /// NaN only for NaN input.
    public func value(at x: Double) -> Double {
        table.value(at: x)
    }

    /// The slope dy/dx of the curve at linear progress `x`.
    ///
    /// Outside [0, 1] this is the extrapolation's gradient. Where the tangent is vertical
    /// inside [0, 1] (dx/dt = 0 with dy/dt ≠ 0) the result is ±infinity; where both vanish
    /// the limit (the ratio of the first non-vanishing derivatives) is returned.
    public func slope(at x: Double) -> Double {
        table.slope(at: x)
    }

    /// The eased progress at each of `xs`.
    ///
    /// Until the curve has a batch table, element `i` is `value(at: xs[i])` bit for bit (calls of 16
    /// elements or more run the same arithmetic vectorised; smaller calls are always evaluated one
    /// element at a time, to those bits). The call that takes the curve's batch elements past 8,192
    /// (with its copies'; calls below 16 elements do not count) builds the table and uses it; from
    /// then on elements in [0, 1] come from it: within 1e-12 · max(1, |y1|, |y2|) of the exact value
    /// like ``value(at:)`` (the two agree to 2e-13 · max(1, |y1|, |y2|)), exactly 0 at 0 and 1 at 1. Elements within 2^-26 of either end, and outside
    /// [0, 1] (extrapolated), are always ``value(at:)``'s, bit for bit. So a result can change in its
    /// last bits, within those bounds, after the curve's earlier batch calls.
    public func values(at xs: [Double]) -> [Double] {
        [Double](unsafeUninitializedCapacity: xs.count) { out, count in
            xs.withUnsafeBufferPointer { table.values(at: $0, into: out) }
            count = xs.count
        }
    }

    /// Evaluates the curve at every element of `xs`, writing into `output`.
    ///
    /// `output` may be the same memory as `xs` (in place). The values are those of
    /// ``values(at:)``, bit for bit (see there for the batch table).
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` when the
    ///   buffers differ in length; nothing is written then.
    public func values(at xs: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) throws {
        guard xs.count == output.count else {
            throw ParameterError.countMismatch(parameter: "output", expected: xs.count, actual: output.count)
        }
        table.values(at: xs, into: output)
    }

    /// Replaces every element of `buffer` (linear progress) with its eased progress.
    public func evaluate(inPlace buffer: UnsafeMutableBufferPointer<Double>) {
        table.values(at: UnsafeBufferPointer(buffer), into: buffer)
    }

    public static func == (a: CubicBezier, b: CubicBezier) -> Bool {
        a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1)
        hasher.combine(y1)
        hasher.combine(x2)
        hasher.combine(y2)
    }

    public var description: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }
}
