import Kinetic

// The tokens of the strict JSON parser: strings (with their escapes), numbers and the
// literals true, false and null.

extension JSONParser {
    // MARK: - Strings

    /// Reads a string; `index` is at its opening quote and ends after the closing one.
    /// - Throws: for a control character U+0000–U+001F, an unknown or short escape, a
    ///   lone surrogate, or a missing closing quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        var text: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let run = bytes[runStart..<index]
                index += 1
                // The input was valid UTF-8 and every escape adds a whole scalar. Without
                // escapes, `text` is empty and the string is the run itself.
                if text.isEmpty { return String(decoding: run, as: UTF8.self) }
                text.append(contentsOf: run)
                return String(decoding: text, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                text.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &text)
                runStart = index
            } else if b < 0x20 {
                let escape: String
                switch b {
                case 0x09: escape = "\\t"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                default: escape = "\\u" + hex4(UInt32(b))
                }
                throw error(at: index, "\(found(at: index)) inside a string (JSON needs control characters escaped, here as \(escape))")
            } else {
                index += 1
            }
        }
        let (line, column) = position(of: open)
        throw error(at: index, "expected '\"' to close the string opened at line \(line), column \(column), found the end of the text")
    }

    /// Reads one escape; `index` is at its backslash and ends after it. Appends the UTF-8 of
    /// the escaped scalar to `text`.
    private mutating func parseEscape(into text: inout [UInt8]) throws(JSONSyntaxError) {
        let start = index
        index += 1
        guard let letter = byte else {
            throw error(at: index, "expected an escape after '\\', found the end of the text")
        }
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexUnit()
            var value = unit
            if (0xD800...0xDBFF).contains(unit) {
                let second = index
                guard byte == UInt8(ascii: "\\"), second + 1 < bytes.count, bytes[second + 1] == UInt8(ascii: "u") else {
                    throw error(at: start, "lone surrogate \\u\(hex4(unit)) "
                                + "(a high surrogate \\uD800–\\uDBFF must be followed by a low one, \\uDC00–\\uDFFF)")
                }
                index += 2
                let low = try readHexUnit()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(at: start, "lone surrogate \\u\(hex4(unit)) "
                                + "(followed by \\u\(hex4(low)), not by a low surrogate \\uDC00–\\uDFFF)")
                }
                value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error(at: start, "lone surrogate \\u\(hex4(unit)) "
                            + "(a low surrogate \\uDC00–\\uDFFF must follow a high one, \\uD800–\\uDBFF)")
            }
            // Not a surrogate, so a valid scalar.
            UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { text.append($0) }
        default:
            throw error(at: start, "invalid escape: '\\' followed by \(found(at: index - 1)) "
                        + #"(JSON escapes are \" \\ \/ \b \f \n \r \t and \u with 4 hex digits)"#)
        }
    }

    /// Reads the 4 hex digits after `\u`.
    private mutating func readHexUnit() throws(JSONSyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch byte {
            case let b? where b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case let b? where b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a")) + 10
            case let b? where b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A")) + 10
            default:
                throw error(at: index, "expected 4 hex digits after '\\u', found \(found(at: index))")
            }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    // MARK: - Numbers

    /// Reads a number; `index` is at its `-` or first digit. The grammar is RFC 8259's
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// - Throws: for text outside that grammar, a letter or `.` right after the number, and
    ///   a magnitude that overflows a `Double` (beyond about 1.8e308).
    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if byte == UInt8(ascii: "-") { index += 1 }
        guard isDigit(byte) else {
            var message = "expected a digit after '-', found \(found(at: index))"
            if !isLetter(byte) { message += " (JSON numbers are digits after an optional '-')" }
            throw error(at: index, message)
        }
        if byte == UInt8(ascii: "0") {
            index += 1
            if isDigit(byte) {
                while isDigit(byte) { index += 1 }
                throw error(at: start, "leading zero in the number \(numberText(from: start)) (JSON allows none)")
            }
        } else {
            while isDigit(byte) { index += 1 }
        }
        if byte == UInt8(ascii: ".") {
            index += 1
            guard isDigit(byte) else {
                throw error(at: index, "expected a digit after the decimal point of \(numberText(from: start)), found \(found(at: index))")
            }
            while isDigit(byte) { index += 1 }
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { index += 1 }
            guard isDigit(byte) else {
                throw error(at: index, "expected a digit in the exponent of \(numberText(from: start)), found \(found(at: index))")
            }
            while isDigit(byte) { index += 1 }
        }
        if isLetter(byte) || byte == UInt8(ascii: ".") {
            throw error(at: index, "the number \(numberText(from: start)) is followed by \(found(at: index)) "
                        + "(JSON numbers are decimal, with at most one '.' and one exponent)")
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(at: start, "the number \(numberText(from: start)) is too large for a Double "
                        + "(magnitude above \(Double.greatestFiniteMagnitude))")
        }
        return value
    }

    /// The number text from `start` to `index`, quoted and cut to about 40 characters.
    private func numberText(from start: Int) -> String {
        let end = min(index, start + 40)
        return "'" + String(decoding: bytes[start..<end], as: UTF8.self) + (end < index ? "…" : "") + "'"
    }

    private func isDigit(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    private func isLetter(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")
    }

    // MARK: - Literals

    /// Reads `true`, `false` or `null`; anything else where a value should start is an
    /// error.
    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        for (word, value) in Self.literals where bytes[index...].starts(with: word.utf8) {
            let end = index + word.utf8.count
            // `trueish` is one unknown word, not `true` followed by garbage.
            if end < bytes.count, isLetter(bytes[end]) || isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "_") { break }
            index = end
            return value
        }
        throw error(at: index, "expected a value (\(Self.valueKinds)), found \(found(at: index))")
    }

    private static let literals: [(String, JSONValue)] = [("true", .bool(true)), ("false", .bool(false)), ("null", .null)]
}

/// `value` as 4 uppercase hex digits (`value` < 0x10000).
func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
