import Kinetic

extension CubicBezier {
    /// Creates a curve from text: a preset name or four control-point coordinates.
    ///
    /// Accepted forms (spaces around numbers are ignored):
    /// - a preset name from `presets` (`linear`, `ease`, `ease-in`, `ease-out`,
    ///   `ease-in-out`), case-insensitive, also written with `_` or in camel case
    ///   (`easeInOut`);
    /// - `x1,y1,x2,y2`, e.g. `0.25,0.1,0.25,1`;
    /// - CSS syntax, `cubic-bezier(0.25, 0.1, 0.25, 1)`.
    ///
    /// - Throws: ``InputError/unknownCurve(_:)`` for text of neither form (including a
    ///   field that is not a number), and `ParameterError` from
    ///   `init(_:_:_:_:)` for non-finite coordinates or x1/x2 outside [0, 1].
    public init(parsing text: String) throws {
        let spec = trimmed(Substring(text))
        let key = spec.lowercased().filter { $0 != "-" && $0 != "_" }
        if let preset = Self.presets.first(where: { $0.name.filter { $0 != "-" } == key }) {
            self = preset.curve
            return
        }
        var body = spec
        if body.lowercased().hasPrefix("cubic-bezier(") && body.hasSuffix(")") {
            body = body.dropFirst("cubic-bezier(".count).dropLast()
        }
        let fields = csvFields(of: body).map(trimmed)
        guard fields.count == 4 else { throw InputError.unknownCurve(text) }
        var numbers: [Double] = []
        for field in fields {
            guard let value = Double(field) else { throw InputError.unknownCurve(text) }
            numbers.append(value)
        }
        try self.init(numbers[0], numbers[1], numbers[2], numbers[3])
    }
}
