import Foundation
import Kinetic
import KineticExport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
import TestSupport
#endif

/// What an SVG document holds, read back with Foundation's XML parser.
final class SVGSummary: NSObject, XMLParserDelegate {
    var elementCounts: [String: Int] = [:]
    var seriesNames: [String] = []
    var seriesPaths: [String] = []
    var texts: [String] = []
    var rootName: String?
    private var textBuffer = ""
    private var inSeries = 0
    private var depth = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if rootName == nil { rootName = name }
        elementCounts[name, default: 0] += 1
        depth += 1
        if name == "g", attributes["class"] == "series" {
            seriesNames.append(attributes["data-name"] ?? "")
            inSeries = depth
        }
        if name == "path", inSeries > 0 { seriesPaths.append(attributes["d"] ?? "") }
        textBuffer = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { textBuffer += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" || name == "title" { texts.append(textBuffer) }
        if depth == inSeries { inSeries = 0 }
        depth -= 1
        textBuffer = ""
    }

    /// Parses `text`; fails the test (and returns nil) unless it is well-formed XML.
    static func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> SVGSummary? {
        let summary = SVGSummary()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = summary
        guard parser.parse() else {
            XCTFail("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")", file: file, line: line)
            return nil
        }
        XCTAssertEqual(summary.rootName, "svg", file: file, line: line)
        return summary
    }
}

/// ``SVGPlot`` and ``PlotAxisTicks`` in the library. The command-line side (`kinetic plot`,
/// `kinetic export`) and the Python side (plot.py, curves.ipynb) are in PlotCLITests.
final class PlotTests: XCTestCase {
    // MARK: - Library: SVG

    private func samplePlot() -> SVGPlot {
        let xs = (0...50).map { Double($0) / 50 }
        var plot = SVGPlot(title: "Curves & <things>", xLabel: "progress (fraction)", yLabel: "value (units)")
        plot.add("ease", xs: xs, ys: CubicBezier.ease.values(at: xs))
        plot.add("a<b & \"c\"", xs: xs, ys: xs.map { $0 * $0 }, style: .step)
        plot.add("dots", xs: [0, 0.5, 1], ys: [1, 0.5, 0], style: .markers)
        plot.add("both", xs: [0, 1], ys: [0.2, 0.8], style: .lineAndMarkers)
        return plot
    }

    func testLibrarySVGIsWellFormedWithLabelsLegendAndOnePathPerLineSeries() throws {
        let text = try samplePlot().render()
        let summary = try XCTUnwrap(SVGSummary.parse(text))
        XCTAssertEqual(summary.seriesNames, ["ease", "a<b & \"c\"", "dots", "both"])
        XCTAssertEqual(summary.seriesPaths.count, 3, "the markers-only series has no path")
        XCTAssertEqual(summary.elementCounts["circle"], 3 + 2 + 1 + 1, "a dot per marker point plus two legend dots")
        for expected in ["progress (fraction)", "value (units)", "Curves & <things>", "ease", "a<b & \"c\"", "dots", "both"] {
            XCTAssertTrue(summary.texts.contains(expected), "missing text '\(expected)' in \(summary.texts)")
        }
        // Ticks 0.0 … 1.0 on both axes, at steps of 0.2 (or 0.1).
        XCTAssertTrue(summary.texts.contains("0.0") && summary.texts.contains("1.0"), "\(summary.texts)")
        XCTAssertFalse(text.contains("<things>"), "text must be escaped")
        // A step series only moves horizontally and vertically.
        XCTAssertTrue(summary.seriesPaths[1].contains("H") && summary.seriesPaths[1].contains("V"))
        XCTAssertFalse(summary.seriesPaths[1].contains("L"))
    }

    func testRenderingIsDeterministic() throws {
        let a = try samplePlot().render()
        let b = try samplePlot().render()
        XCTAssertEqual(a, b)
        var changed = samplePlot()
        changed.series[0].ys[10] += 0.05
        XCTAssertNotEqual(try changed.render(), a)
    }

    func testNonFinitePointsAreSkippedAndBreakTheLine() throws {
        var plot = SVGPlot(xLabel: "x", yLabel: "y")
        plot.add("gappy", xs: [0, 1, 2, 3, 4, 5], ys: [0, 1, .nan, 3, .infinity, 5])
        let summary = try XCTUnwrap(SVGSummary.parse(plot.render()))
        let d = try XCTUnwrap(summary.seriesPaths.first)
        XCTAssertEqual(d.filter { $0 == "M" }.count, 3, d)   // 0–1, 3, 5
        XCTAssertFalse(d.contains("nan") || d.contains("inf"), d)
        // The y axis covers the finite values only (0 … 5).
        XCTAssertTrue(summary.texts.contains("5"), "\(summary.texts)")
        XCTAssertFalse(summary.texts.contains("10"), "\(summary.texts)")
    }

    func testLongSeriesAreThinnedButKeepTheirExtremes() throws {
        let n = 200_000
        let xs = (0..<n).map { Double($0) / Double(n - 1) }
        // A spike of height 3 at one sample only must still be drawn.
        var ys = xs.map { sin(40 * $0) }
        ys[123_457] = 3
        var plot = SVGPlot(xLabel: "x", yLabel: "y")
        plot.add("wave", xs: xs, ys: ys)
        let text = try plot.render()
        let summary = try XCTUnwrap(SVGSummary.parse(text))
        let d = try XCTUnwrap(summary.seriesPaths.first)
        let segments = d.filter { $0 == "L" }.count
        XCTAssertLessThan(segments, 4 * 720)
        XCTAssertGreaterThan(segments, 400)
        XCTAssertLessThan(text.utf8.count, 200_000)
        // The spike reaches the top of the axis (ticks up to 3): its y pixel is the plot top.
        let ys0 = d.split(whereSeparator: { "MLHV".contains($0) }).compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        let top = try XCTUnwrap(ys0.min())
        XCTAssertEqual(top, 20, accuracy: 0.01, "the spike to 3 is the highest point, at the plot area's top edge")
    }

    func testBadInputGivesTypedErrorsNamingIt() throws {
        XCTAssertThrowsError(try SVGPlot(xLabel: "x", yLabel: "y").render()) { XCTAssertEqual($0 as? PlotError, .noSeries) }
        var empty = SVGPlot(xLabel: "x", yLabel: "y")
        empty.add("ok", xs: [0, 1], ys: [0, 1])
        empty.add("hollow", xs: [], ys: [])
        XCTAssertThrowsError(try empty.render()) { error in
            XCTAssertEqual(error as? PlotError, .emptySeries(name: "hollow"))
            XCTAssertTrue("\(error)".contains("'hollow'"))
        }
        var mismatch = SVGPlot(xLabel: "x", yLabel: "y")
        mismatch.add("short", xs: [0, 1, 2], ys: [0, 1])
        XCTAssertThrowsError(try mismatch.render()) { XCTAssertEqual($0 as? PlotError, .countMismatch(series: "short", xs: 3, ys: 2)) }
        var allNaN = SVGPlot(xLabel: "x", yLabel: "y")
        allNaN.add("void", xs: [0, .nan], ys: [.infinity, 1])
        XCTAssertThrowsError(try allNaN.render()) { XCTAssertEqual($0 as? PlotError, .noFinitePoints(series: "void")) }
        var sized = samplePlot()
        sized.width = 50
        XCTAssertThrowsError(try sized.render()) { XCTAssertEqual($0 as? PlotError, .invalidSize(width: 50, height: 440)) }
        var ranged = samplePlot()
        ranged.yRange = 1...1
        XCTAssertThrowsError(try ranged.render()) { XCTAssertEqual($0 as? PlotError, .invalidRange(axis: "y", lower: 1, upper: 1)) }
        let table = try CSVTable(columns: ["t", "v"], rows: [[0, 1]])
        XCTAssertThrowsError(try SVGPlot(table: table, x: "t", ys: ["w"])) {
            XCTAssertEqual($0 as? PlotError, .unknownColumn("w", available: ["t", "v"]))
        }
    }

    func testGivenRangesClipAndKeepOnlyTicksInside() throws {
        var plot = samplePlot()
        plot.xRange = 0.25...0.75
        plot.yRange = 10...20   // every point lies below: all clipped, the y ticks are 10 … 20
        let summary = try XCTUnwrap(SVGSummary.parse(plot.render()))
        XCTAssertTrue(summary.texts.contains("0.3") && summary.texts.contains("0.7"), "\(summary.texts)")
        XCTAssertFalse(summary.texts.contains("0.2") || summary.texts.contains("0.8"), "ticks outside the range: \(summary.texts)")
        XCTAssertTrue(summary.texts.contains("10") && summary.texts.contains("20"), "\(summary.texts)")
        XCTAssertEqual(summary.seriesPaths.count, 3)
    }

    func testWriteIsAtomicAndLeavesTheOldFileOnFailure() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-plot-tests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sub/plot.svg").path
        try samplePlot().write(toFile: path, createDirectory: true)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), try samplePlot().render())
        XCTAssertThrowsError(try SVGPlot(xLabel: "x", yLabel: "y").write(toFile: path))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), try samplePlot().render())
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    // MARK: - Library: ticks

    func testTicksForKnownRanges() throws {
        let unit = try PlotAxisTicks(covering: 0, 1.07)
        XCTAssertEqual(unit.labels, ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2"])
        XCTAssertEqual(unit.values, [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2])
        let negative = try PlotAxisTicks(covering: -0.5, 0.75)
        XCTAssertEqual(negative.labels, ["\u{2212}0.6", "\u{2212}0.4", "\u{2212}0.2", "0.0", "0.2", "0.4", "0.6", "0.8"])
        let seconds = try PlotAxisTicks(covering: 0, 5.45, maximumCount: 7)
        XCTAssertEqual(seconds.labels, ["0", "1", "2", "3", "4", "5", "6"])
        let big = try PlotAxisTicks(covering: 0, 1e9, maximumCount: 6)
        XCTAssertEqual(big.labels, ["0", "2e8", "4e8", "6e8", "8e8", "1e9"])
        let tiny = try PlotAxisTicks(covering: 1e-7, 3e-7, maximumCount: 5)
        XCTAssertEqual(tiny.labels, ["1e-7", "1.5e-7", "2e-7", "2.5e-7", "3e-7"])
        let constant = try PlotAxisTicks(covering: 3, 3)
        XCTAssertLessThan(constant.lowerBound, 3)
        XCTAssertGreaterThan(constant.upperBound, 3)
        let zero = try PlotAxisTicks(covering: 0, 0)
        XCTAssertEqual(zero.lowerBound, -1)
        XCTAssertEqual(zero.upperBound, 1)
    }

    func testTicksAreNiceAndCoverRandomRanges() throws {
        var random = SeededRandom(seed: 0x5106)
        for _ in 0..<2000 {
            let scale = random.logUniform(1e-6, 1e9)
            let a = random.uniform(-1, 1) * scale, b = random.uniform(-1, 1) * scale
            let (lo, hi) = (min(a, b), max(a, b))
            let maximum = Int(random.uniform(3, 12))
            let ticks = try PlotAxisTicks(covering: lo, hi, maximumCount: maximum)
            let context = "\(lo) … \(hi), at most \(maximum)"
            XCTAssertTrue([1, 2, 5].contains(ticks.mantissa), context)
            XCTAssertTrue((2...maximum).contains(ticks.count), context)
            XCTAssertLessThanOrEqual(ticks.lowerBound, lo, context)
            XCTAssertGreaterThanOrEqual(ticks.upperBound, hi, context)
            // Tight: no whole step of slack at either end.
            XCTAssertGreaterThan(ticks.lowerBound, lo - ticks.step, context)
            XCTAssertLessThan(ticks.upperBound, hi + ticks.step, context)
            // The labels read back as the values (to the label's precision).
            for (value, label) in zip(ticks.values, ticks.labels) {
                let parsed = try XCTUnwrap(Double(label.replacingOccurrences(of: "\u{2212}", with: "-")), label)
                XCTAssertEqual(parsed, value, accuracy: ticks.step * 1e-9, "\(label) vs \(value), \(context)")
            }
            // Evenly spaced.
            let values = ticks.values
            for (p, q) in zip(values, values.dropFirst()) {
                XCTAssertEqual(q - p, ticks.step, accuracy: ticks.step * 1e-9, context)
            }
        }
    }

    func testTicksRejectBadRanges() {
        XCTAssertThrowsError(try PlotAxisTicks(covering: .nan, 1)) { error in
            guard case .invalidRange(let axis, let lower, let upper)? = error as? PlotError else { return XCTFail("\(error)") }
            XCTAssertEqual(axis, "ticks")
            XCTAssertTrue(lower.isNaN)
            XCTAssertEqual(upper, 1)
            XCTAssertTrue("\(error)".contains("nan"))
        }
        XCTAssertThrowsError(try PlotAxisTicks(covering: 2, 1)) { XCTAssertEqual($0 as? PlotError, .invalidRange(axis: "ticks", lower: 2, upper: 1)) }
        XCTAssertThrowsError(try PlotAxisTicks(covering: 0, .infinity))
        XCTAssertThrowsError(try PlotAxisTicks(covering: 0, 1, maximumCount: 2)) { XCTAssertEqual($0 as? PlotError, .invalidTickCount(2)) }
    }
}
