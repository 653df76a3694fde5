import KineticPlatform

/// Progress of a long command (`export`, `bake`), on standard error and only when standard
/// error is a terminal: piped, redirected or in a CI log, the command prints nothing extra.
///
/// One line, rewritten in place (`\r` and erase-to-end-of-line), e.g.
/// `export [2/5] spring-damping-ratio`; ``finish()`` erases it, so the command's own report
/// (and CSV on standard output) is never mixed with it.
struct Progress {
    /// The command's name, first on the line.
    let label: String
    /// Number of steps; 0 when unknown (then no "[i/n]" is shown).
    let total: Int
    /// Whether anything is written: standard error is a terminal.
    let isShown: Bool

    init(_ label: String, total: Int = 0, isShown: Bool = isatty(2) == 1) {
        self.label = label
        self.total = total
        self.isShown = isShown
    }

    /// Shows step `index` (1-based) of ``total``, described by `what`.
    func step(_ index: Int, _ what: String) {
        guard isShown else { return }
        let count = total > 0 ? " [\(index)/\(total)]" : ""
        writeStandardError("\r\u{1B}[K\(label)\(count) \(what)")
    }

    /// Erases the progress line.
    func finish() {
        guard isShown else { return }
        writeStandardError("\r\u{1B}[K")
    }
}
