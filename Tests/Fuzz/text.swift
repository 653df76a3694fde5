// text.swift: libFuzzer harness for the other readers of user files and arguments (make fuzz;
// Tests/Fuzz/README.md): CSVTable(parsing:) (kinetic plot csv), NumberList.parse (kinetic
// sample bezier --x-values) and CubicBezier(parsing:) (every curve argument). The first
// byte picks the reader, the rest is the text.
//
// Rules checked beyond "no crash":
// - a CSV table that was read writes back (write(to:)) to text that reads back to the same
//   columns and bit-identical values (NaN compared as NaN);
// - NumberList without allowNonFinite returns finite numbers only, and every number it
//   returns is also returned with allowNonFinite;
// - a curve that was parsed has x1, x2 in [0, 1] and finite coordinates, and evaluates to a
//   finite value at 0, 0.5 and 1.
import Kinetic
import KineticExport

private func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    switch data[0] % 3 {
    case 0:
        guard let table = try? CSVTable(parsing: text, source: "fuzz.csv") else { return 0 }
        var written = ""
        table.write(to: &written)
        do {
            let again = try CSVTable(parsing: written, source: "written.csv")
            precondition(again.columns == table.columns, "CSV columns changed on a round trip:\n\(written)")
            precondition(again.values.count == table.values.count
                && zip(again.values, table.values).allSatisfy { same($0, $1) },
                "CSV values changed on a round trip:\n\(written)")
        } catch {
            fatalError("a CSV table that was read does not read back: \(error)\n\(written)")
        }
    case 1:
        let strict = try? NumberList.parse(text, source: "fuzz.txt")
        let lenient = try? NumberList.parse(text, source: "fuzz.txt", allowNonFinite: true)
        if let strict {
            precondition(strict.allSatisfy(\.isFinite), "NumberList returned a non-finite number")
            guard let lenient, lenient.count == strict.count, zip(lenient, strict).allSatisfy({ same($0, $1) }) else {
                fatalError("NumberList with allowNonFinite disagrees on finite input")
            }
        }
    default:
        guard let curve = try? CubicBezier(parsing: text) else { return 0 }
        precondition((0...1).contains(curve.x1) && (0...1).contains(curve.x2) && curve.y1.isFinite && curve.y2.isFinite,
                     "CubicBezier(parsing: \(text.debugDescription)) made \(curve)")
        for x in [0.0, 0.5, 1.0] {
            precondition(curve.value(at: x).isFinite, "\(curve) is not finite at \(x)")
        }
    }
    return 0
}
