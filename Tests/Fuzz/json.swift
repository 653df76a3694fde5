// json.swift: libFuzzer harness for the JSON keyframe description reader (make fuzz;
// Tests/Fuzz/README.md). The input is the text of a description file, as `kinetic bake`
// and `kinetic plot track` read it.
//
// Rules checked beyond "no crash" (sanitizers: ASan, LeakSanitizer at exit):
// - reading either succeeds or throws KeyframeDescriptionError (typed throws: any other
//   outcome is a crash);
// - a description that was read writes back (jsonText) to text that reads back equal;
// - a valid description bakes at 60 Hz without trapping, when its frame count is small.
import Kinetic
import KineticExport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let description = try? KeyframeDescription(json: text, source: "fuzz.json") else { return 0 }
    let written: String
    do {
        written = try description.jsonText()
    } catch {
        fatalError("a valid description did not write back: \(error)")
    }
    do {
        let again = try KeyframeDescription(json: written, source: "written.json")
        precondition(again == description, "the written description reads back different:\n\(written)")
    } catch {
        fatalError("the written description does not read back: \(error)\n\(written)")
    }
    if description.duration * 60 <= 2_000 {
        _ = try? bake(description, rate: 60)
    }
    return 0
}
