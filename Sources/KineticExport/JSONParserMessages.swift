// The strict JSON parser's error messages: line and column of a byte offset, and a short
// description of what was found there, with a hint for the usual non-JSON habits
// (comments, single quotes, NaN, a leading '+', …).

extension JSONParser {
    /// A syntax error at byte offset `offset`.
    func error(at offset: Int, _ message: String) -> JSONSyntaxError {
        let (line, column) = position(of: offset)
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    /// The 1-based line and column (in Unicode scalars) of byte offset `offset`; a line
    /// ends at LF, CR LF or a lone CR. Linear in `offset`; used only for messages.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b == 0x0D {
                // CR LF is one line end, counted at the LF.
                if i + 1 >= bytes.count || bytes[i + 1] != 0x0A {
                    line += 1
                    column = 1
                }
            } else if b & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new scalar.
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    /// What is at `offset`, for "found …": `the end of the text`, a word such as `'NaN'`, a
    /// character such as `','`, or a code point such as `U+00A0 (no-break space)`, with a
    /// hint when it is a common non-JSON habit.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let scalar = scalar(at: offset)
        if isWordByte(bytes[offset]) {
            var end = offset
            while end < bytes.count, end - offset < 24, isWordByte(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[offset..<end], as: UTF8.self)
            let more = end < bytes.count && isWordByte(bytes[end]) ? "…" : ""
            var text = "'\(word)\(more)'"
            if ["nan", "infinity", "inf"].contains(word.lowercased()) {
                text += " (JSON has no NaN or Infinity)"
            } else if ["True", "False", "Null", "TRUE", "FALSE", "NULL", "None", "undefined"].contains(word) {
                text += " (JSON literals are true, false and null)"
            }
            return text
        }
        let names: [UInt32: String] = [
            0x00: "NUL", 0x08: "backspace", 0x09: "tab", 0x0A: "line feed", 0x0B: "vertical tab",
            0x0C: "form feed", 0x0D: "carriage return", 0x20: "space", 0x85: "next line",
            0xA0: "no-break space", 0x2028: "line separator", 0x2029: "paragraph separator",
            0xFEFF: "byte order mark",
        ]
        let value = scalar.value
        let isInvisible = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x20
            || scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
        if isInvisible {
            var text = "U+\(hex4(value))"
            if let name = names[value] { text += " (\(name))" }
            if scalar.properties.isWhitespace || value == 0xFEFF, ![0x20, 0x09, 0x0A, 0x0D].contains(value) {
                text += " (JSON whitespace is only space, tab, LF and CR)"
            }
            return text
        }
        var text = "'\(Character(scalar))'"
        switch scalar {
        case "/", "#": text += " (JSON has no comments)"
        case "'": text += " (JSON strings are in double quotes)"
        case "+": text += " (JSON numbers have no '+' sign)"
        case ".": text += " (JSON numbers have a digit before the decimal point)"
        default: break
        }
        return text
    }

    /// The Unicode scalar starting at byte offset `offset` (which must be a scalar's first
    /// byte; the text is valid UTF-8).
    private func scalar(at offset: Int) -> Unicode.Scalar {
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let end = min(offset + length, bytes.count)
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    /// ASCII letters, digits and `_`: the bytes of a bare word such as `NaN` or `0x10`.
    private func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
            || b == UInt8(ascii: "_")
    }
}
