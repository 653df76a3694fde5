import Kinetic

/// "Nice" axis ticks: evenly spaced values whose step is 1, 2 or 5 times a power of ten,
/// covering a data range, with exact decimal labels.
///
/// Every tick is `index × mantissa × 10^exponent` for consecutive integer indices, so the
/// labels are computed from integers (no floating-point noise such as `0.30000000000000004`)
/// and every label on an axis has the same number of decimals. The first tick is at or below
/// the range's lower bound and the last at or above its upper bound (unless that tick is
/// beyond the largest finite `Double`; see ``init(covering:_:maximumCount:)``).
///
/// ```swift
/// let ticks = try PlotAxisTicks(covering: 0, 1.07)   // 0, 0.2, 0.4, …, 1.2
/// ticks.labels                                      // ["0.0", "0.2", …, "1.2"]
/// ```
public struct PlotAxisTicks: Sendable, Hashable {
    /// The step's leading digit: 1, 2 or 5.
    public let mantissa: Int
    /// The step's power of ten: the step is `mantissa × 10^exponent`.
    public let exponent: Int
    /// The index of the first tick (tick value = index × step).
    public let firstIndex: Int
    /// The index of the last tick.
    public let lastIndex: Int

    /// The distance between neighbouring ticks, in data units.
    public var step: Double { Self.decimal(mantissa, exponent) }
    /// The number of ticks (at least 2).
    public var count: Int { lastIndex - firstIndex + 1 }
    /// The tick values, increasing, in data units.
    public var values: [Double] { (firstIndex...lastIndex).map { Self.decimal($0 * mantissa, exponent) } }
    /// The first tick value (the axis' lower end).
    public var lowerBound: Double { Self.decimal(firstIndex * mantissa, exponent) }
    /// The last tick value (the axis' upper end).
    public var upperBound: Double { Self.decimal(lastIndex * mantissa, exponent) }
    /// The tick labels, one per value: plain decimals with a common number of decimals
    /// (`0.0`, `0.5`, `1.0`), or `2.5e-8`-style when the step is below 10⁻⁶ or above 10⁷.
    /// Negative values use the minus sign `−` (U+2212).
    public var labels: [String] { (firstIndex...lastIndex).map { Self.label($0 * mantissa, exponent) } }

    /// Chooses the smallest nice step that covers `lower...upper` with at most
    /// `maximumCount` ticks.
    ///
    /// A zero-width range (`lower == upper`) is widened by 10 % of its magnitude on each side
    /// (to −1…1 around 0), so a constant series still gets a readable axis.
    ///
    /// Any finite range works, up to ±`Double.greatestFiniteMagnitude`: widths are
    /// computed on halves, so `upper − lower` never overflows. When the tick covering an end
    /// would exceed the largest finite `Double` (data beyond ±1e308 in the top decade), the
    /// ticks end at the last finite one, inside the data range.
    ///
    /// - Parameters:
    ///   - lower: the smallest data value, finite (any magnitude).
    ///   - upper: the largest data value, finite and ≥ `lower`.
    ///   - maximumCount: the most ticks wanted, in [3, 50]; the result has between 2 and
    ///     `maximumCount` ticks.
    /// - Throws: ``PlotError/invalidRange(axis:lower:upper:)`` for a non-finite or reversed
    ///   range, ``PlotError/invalidTickCount(_:)`` for a `maximumCount` outside [3, 50].
    public init(covering lower: Double, _ upper: Double, maximumCount: Int = 8) throws(PlotError) {
        guard lower.isFinite, upper.isFinite, lower <= upper else {
            throw .invalidRange(axis: "ticks", lower: lower, upper: upper)
        }
        guard (3...50).contains(maximumCount) else { throw .invalidTickCount(maximumCount) }
        // Widths are computed on halves (hi/2 − lo/2), which cannot overflow even for
        // ±1.7976931348623157e308, and scaling by 2 is exact.
        var lo = lower, hi = upper
        let magnitude = Swift.max(abs(lo), abs(hi))
        // A range too narrow for its magnitude (or empty) cannot be labelled distinctly.
        if hi / 2 - lo / 2 <= magnitude * 0.5e-9 {
            let middle = lo / 2 + hi / 2
            let half = middle == 0 ? 1 : abs(middle) * 0.1
            lo = Swift.max(middle - half, -.greatestFiniteMagnitude)
            hi = Swift.min(middle + half, .greatestFiniteMagnitude)
        }
        let halfSpan = hi / 2 - lo / 2
        guard halfSpan >= 0.5e-250 else { throw .invalidRange(axis: "ticks", lower: lower, upper: upper) }
        let raw = halfSpan / Double(maximumCount - 1) * 2
        let mantissas = [1, 2, 5]
        var mantissaIndex = 0
        // Walk up 1, 2, 5, 10, 20, 50, … from a decade below the raw step until the ticks fit
        // (a step ≥ raw always fits, so this ends within a few rounds).
        var exponent = log10Floor(raw) - 1
        while true {
            let m = mantissas[mantissaIndex]
            let step = Self.decimal(m, exponent)
            guard step.isFinite else { throw .invalidRange(axis: "ticks", lower: lower, upper: upper) }
            let first = (lo / step).rounded(.down), last = (hi / step).rounded(.up)
            if last - first + 1 <= Double(maximumCount) + 2 {
                var fi = Int(first), li = Int(last)
                // Correct for rounding in lo / step: the ends must really cover the data.
                while Self.decimal((fi + 1) * m, exponent) <= lo { fi += 1 }
                while Self.decimal(fi * m, exponent) > lo { fi -= 1 }
                while Self.decimal((li - 1) * m, exponent) >= hi { li -= 1 }
                while Self.decimal(li * m, exponent) < hi { li += 1 }
                // Near ±1.8e308 the covering tick may not be representable: end on the last
                // finite one instead.
                while !Self.decimal(fi * m, exponent).isFinite { fi += 1 }
                while !Self.decimal(li * m, exponent).isFinite { li -= 1 }
                if li - fi + 1 <= maximumCount && li > fi {
                    self.init(mantissa: m, exponent: exponent, firstIndex: fi, lastIndex: li)
                    return
                }
            }
            mantissaIndex += 1
            if mantissaIndex == mantissas.count { mantissaIndex = 0; exponent += 1 }
        }
    }

    private init(mantissa: Int, exponent: Int, firstIndex: Int, lastIndex: Int) {
        self.mantissa = mantissa
        self.exponent = exponent
        self.firstIndex = firstIndex
        self.lastIndex = lastIndex
    }

    /// `digits × 10^exponent`, correctly rounded for |exponent| ≤ 22 (one exact operation).
    static func decimal(_ digits: Int, _ exponent: Int) -> Double {
        if exponent >= 0 { return Double(digits) * power10(exponent) }
        return Double(digits) / power10(-exponent)
    }

    /// The text of `digits × 10^exponent`: plain decimal with `max(0, −exponent)` decimals
    /// when −6 ≤ exponent ≤ 7, else `d.ddde±x`.
    static func label(_ digits: Int, _ exponent: Int) -> String {
        if digits == 0 {
            return exponent < 0 && exponent >= -6 ? "0." + String(repeating: "0", count: -exponent) : "0"
        }
        let sign = digits < 0 ? "\u{2212}" : ""
        var text = String(digits.magnitude)
        if exponent >= 0 && exponent <= 7 {
            return sign + text + String(repeating: "0", count: exponent)
        }
        if exponent < 0 && exponent >= -6 {
            let decimals = -exponent
            if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
            let split = text.index(text.endIndex, offsetBy: -decimals)
            return sign + text[..<split] + "." + text[split...]
        }
        // Scientific: d.ddd × 10^(exponent + digitCount − 1), trailing zeros dropped.
        let scientificExponent = exponent + text.count - 1
        var fraction = text.dropFirst()
        while fraction.last == "0" { fraction = fraction.dropLast() }
        let head = String(text.first!) + (fraction.isEmpty ? "" : "." + fraction)
        return sign + head + "e" + (scientificExponent < 0 ? "-" : "") + String(scientificExponent.magnitude)
    }
}

/// 10^n for n ≥ 0 (exact up to 10^22).
private func power10(_ n: Int) -> Double {
    var result = 1.0
    var base = 10.0
    var n = n
    if n > 308 { return .infinity }
    while n > 0 {
        if n & 1 == 1 { result *= base }
        base *= base
        n >>= 1
    }
    return result
}

/// ⌊log10(x)⌋ for finite x > 0, without Foundation (counts decades).
private func log10Floor(_ x: Double) -> Int {
    guard x > 0, x.isFinite else { return 0 }
    var exponent = 0
    var value = x
    while value >= 10 { value /= 10; exponent += 1 }
    while value < 1 { value *= 10; exponent -= 1 }
    return exponent
}
