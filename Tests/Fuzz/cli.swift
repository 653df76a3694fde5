// cli.swift: libFuzzer harness for the `kinetic` tool's argument and file handling (make fuzz;
// Tests/Fuzz/README.md).
//
// How it reaches the CLI without changing it: `kinetic` is an executable target, but SwiftPM
// compiles its sources with the entry point renamed (`kinetic_main`) so that tests can link
// them. `make fuzz` links this harness against those very object files of the sanitizer
// build (.build-asan) and imports the module with `@testable import kinetic`, so
// `KineticCommand.parseAsRoot` and each command's `run()` are driven in-process, with the
// CLI's own sources and no second copy of them.
//
// Input: the arguments, one per line, then an empty line, then the content of an input file
// that is written as in.json, in.csv and in.txt in the current directory (a fresh scratch
// folder, emptied after every input) for the arguments to name. Standard output goes to
// /dev/null.
//
// Kept out, so that the fuzzer cannot touch anything outside its folder or run for minutes on a
// legitimate request: arguments containing "/" (only relative paths into the scratch folder);
// `demo` (it writes the whole demo data set); `--force`. `run()` is skipped (arguments are
// still parsed) when a number in the arguments or the file lies in (2000, 1e9): such values
// may legitimately ask for millions of samples, beyond the per-input time limit, while larger
// ones must be refused by the size checks (and are run).
//
// Rules checked beyond "no crash": every outcome is a value or a thrown error (exit() and
// traps are crashes to libFuzzer), and every error has a non-empty one-line message (what the
// tool prints as `kinetic: error: <message>`).
@testable import kinetic
import ArgumentParser
import KineticPlatform

private let scratch: String = {
    var template = Array("/tmp/kinetic-fuzz-cli-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    let path = String(cString: dir)
    guard chdir(path) == 0 else { fatalError("chdir \(path) failed") }
    let null = open("/dev/null", O_WRONLY)
    _ = dup2(null, 1)
    atexit { removeScratch() }
    return path
}()

/// Removes the scratch folder at exit (it is emptied after every input).
private func removeScratch() {
    empty(scratch)
    rmdir(scratch)
}

/// Removes everything inside `path` (not `path` itself).
private func empty(_ path: String) {
    guard let dir = opendir(path) else { return }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    closedir(dir)
    for name in names {
        let full = path + "/" + name
        var info = stat()
        if lstat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            empty(full)
            rmdir(full)
        } else {
            unlink(full)
        }
    }
}

private func write(_ text: String, to name: String) {
    let fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// True when some number in `text` could ask for a long (but legal) run.
private func asksForMuch(_ text: Substring) -> Bool {
    for token in text.split(whereSeparator: { ",[]{}:\"= \t\r\n".contains($0) }) {
        if let v = Double(token), abs(v) > 2_000, abs(v) < 1e9 { return true }
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = scratch
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
    let arguments = (parts.first ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let file = parts.count > 1 ? String(parts[1]) : ""
    if arguments.contains(where: { $0.contains("/") || $0 == "demo" || $0.hasPrefix("--force") }) { return 0 }
    // Abbreviations ArgumentParser accepts for --force (none: it takes no unambiguous prefixes).
    defer { empty(scratch) }
    for name in ["in.json", "in.csv", "in.txt"] { write(file, to: name) }

    let command: any ParsableCommand
    do {
        command = try KineticCommand.parseAsRoot(arguments)
    } catch {
        check(error, arguments)
        return 0
    }
    if arguments.contains(where: { asksForMuch(Substring($0)) }) || asksForMuch(Substring(file)) { return 0 }
    var runnable = command
    do {
        try runnable.run()
    } catch {
        check(error, arguments)
    }
    return 0
}

/// The tool's own error line for `error` (what `KineticCommand.main` prints) must be non-empty
/// for a failure, as `kinetic` otherwise exits non-zero without a word.
private func check(_ error: any Error, _ arguments: [String]) {
    let code = KineticCommand.exitCode(for: error)
    if code == .success { return }
    let line = KineticCommand.firstLine(of: KineticCommand.message(for: error))
    precondition(!line.isEmpty, "kinetic \(arguments) fails with no message (\(error))")
}
