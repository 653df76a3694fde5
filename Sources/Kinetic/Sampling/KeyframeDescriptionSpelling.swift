/// How a keyframe description spells names, curves and interpolations in its messages: the
/// way its JSON form writes them, so that an error quotes what the user wrote.

/// `text` as a JSON string literal: in double quotes, with `"`, `\` and control characters
/// escaped.
package func jsonQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

/// A curve as the description writes it: its preset name (quoted), or `[x1, y1, x2, y2]`.
package func curveJSONText(_ curve: CubicBezier) -> String {
    if let preset = CubicBezier.presets.first(where: { $0.curve == curve }) { return jsonQuoted(preset.name) }
    return "[" + [curve.x1, curve.y1, curve.x2, curve.y2].map(\.description).joined(separator: ", ") + "]"
}

/// An interpolation as the description writes it: `"hold"`, `"linear"`, `"catmull-rom"` or
/// its curve.
package func interpolationJSONText(_ interpolation: KeyframeInterpolation) -> String {
    switch interpolation {
    case .hold: return jsonQuoted("hold")
    case .linear: return jsonQuoted("linear")
    case .catmullRom: return jsonQuoted("catmull-rom")
    case .eased(let curve): return curveJSONText(curve)
    }
}
