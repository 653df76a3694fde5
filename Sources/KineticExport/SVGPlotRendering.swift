import Kinetic

/// Lays out and writes one ``SVGPlot`` as SVG text. Internal: ``SVGPlot/render()`` is the
/// entry point.
struct SVGPlotRenderer {
    let plot: SVGPlot

    /// Series colours: the Okabe–Ito colour-blind-safe set (without its yellow, too light
    /// on white) plus a dark grey-brown. After eight series, colours repeat with dashes.
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D31"]
    static let dashes = ["", "7 4", "2 3", "9 3 2 3"]

    // Font sizes and the estimated advance of one character (sans-serif, as a fraction of
    // the font size), used to size margins and the legend.
    static let tickFont = 12.0, labelFont = 13.0, titleFont = 16.0, legendFont = 12.0
    static let charWidth = 0.62

    private struct Point { var x: Double; var y: Double }
    private struct Axis {
        var lower: Double
        var upper: Double
        var ticks: [(value: Double, label: String)]
    }

    func document() throws(PlotError) -> String {
        guard (200...10_000).contains(plot.width), (150...10_000).contains(plot.height) else {
            throw .invalidSize(width: plot.width, height: plot.height)
        }
        guard !plot.series.isEmpty else { throw .noSeries }
        var xMin = Double.infinity, xMax = -Double.infinity, yMin = Double.infinity, yMax = -Double.infinity
        for series in plot.series {
            guard !series.xs.isEmpty || !series.ys.isEmpty else { throw .emptySeries(name: series.name) }
            guard series.xs.count == series.ys.count else {
                throw .countMismatch(series: series.name, xs: series.xs.count, ys: series.ys.count)
            }
            var any = false
            for (x, y) in zip(series.xs, series.ys) where x.isFinite && y.isFinite {
                any = true
                xMin = min(xMin, x); xMax = max(xMax, x)
                yMin = min(yMin, y); yMax = max(yMax, y)
            }
            guard any else { throw .noFinitePoints(series: series.name) }
        }
        for reference in plot.yReferenceLines where reference.isFinite {
            yMin = min(yMin, reference); yMax = max(yMax, reference)
        }

        // Vertical layout is fixed by the texts; the y ticks then fix the left margin.
        let top = plot.title.isEmpty ? 20.0 : 50.0
        let bottom = 34.0 + (plot.xLabel.isEmpty ? 0 : 24)
        let plotHeight = plot.height - top - bottom
        let yAxis = try axis("y", given: plot.yRange, dataLower: yMin, dataUpper: yMax,
                             maximumCount: min(11, max(3, Int(plotHeight / 36))))
        let yLabelWidth = yAxis.ticks.map { textWidth($0.label, Self.tickFont) }.max() ?? 0
        let left = 14 + (plot.yLabel.isEmpty ? 0 : 24) + yLabelWidth + 10
        let legendNames = plot.series.map { shortened($0.name) }
        let legendWidth = 52 + (legendNames.map { textWidth($0, Self.legendFont) }.max() ?? 0)
        let right = 20 + legendWidth + 16
        let plotWidth = plot.width - left - right
        guard plotWidth >= 60, plotHeight >= 40 else { throw .invalidSize(width: plot.width, height: plot.height) }
        let xAxis = try axis("x", given: plot.xRange, dataLower: xMin, dataUpper: xMax,
                             maximumCount: min(11, max(3, Int(plotWidth / 64))))

        // Halves, so that huge finite ranges (±1e308) do not overflow; exact for the rest.
        func px(_ x: Double) -> Double { left + (x / 2 - xAxis.lower / 2) / (xAxis.upper / 2 - xAxis.lower / 2) * plotWidth }
        func py(_ y: Double) -> Double { top + plotHeight - (y / 2 - yAxis.lower / 2) / (yAxis.upper / 2 - yAxis.lower / 2) * plotHeight }
        let (l, t, w, h) = (svgNumber(left), svgNumber(top), svgNumber(plotWidth), svgNumber(plotHeight))
        let bottomEdge = svgNumber(top + plotHeight), rightEdge = svgNumber(left + plotWidth)

        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(svgNumber(plot.width))" height="\(svgNumber(plot.height))" \
            viewBox="0 0 \(svgNumber(plot.width)) \(svgNumber(plot.height))" role="img" \
            font-family="DejaVu Sans, Helvetica, Arial, sans-serif">

            """
        svg += "<title>\(xmlEscaped(plot.title.isEmpty ? plot.yLabel + " against " + plot.xLabel : plot.title))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += "<defs><clipPath id=\"plot-area\"><rect x=\"\(svgNumber(left - 3))\" y=\"\(svgNumber(top - 3))\" "
            + "width=\"\(svgNumber(plotWidth + 6))\" height=\"\(svgNumber(plotHeight + 6))\"/></clipPath></defs>\n"

        // Grid, axes, ticks and tick labels.
        svg += "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\" shape-rendering=\"crispEdges\">\n"
        for tick in xAxis.ticks {
            let x = svgNumber(px(tick.value))
            svg += "<line x1=\"\(x)\" y1=\"\(t)\" x2=\"\(x)\" y2=\"\(bottomEdge)\"/>\n"
        }
        for tick in yAxis.ticks {
            let y = svgNumber(py(tick.value))
            let zero = tick.value == 0 && tick.value != yAxis.lower
            svg += "<line x1=\"\(l)\" y1=\"\(y)\" x2=\"\(rightEdge)\" y2=\"\(y)\"\(zero ? " stroke=\"#b0b0b0\"" : "")/>\n"
        }
        svg += "</g>\n"
        for reference in plot.yReferenceLines where reference.isFinite && reference >= yAxis.lower && reference <= yAxis.upper {
            let y = svgNumber(py(reference))
            svg += "<line class=\"reference\" x1=\"\(l)\" y1=\"\(y)\" x2=\"\(rightEdge)\" y2=\"\(y)\" "
                + "stroke=\"#777777\" stroke-width=\"1\" stroke-dasharray=\"5 4\"/>\n"
        }
        svg += "<g class=\"axes\" stroke=\"#333333\" stroke-width=\"1\" shape-rendering=\"crispEdges\">\n"
        svg += "<rect x=\"\(l)\" y=\"\(t)\" width=\"\(w)\" height=\"\(h)\" fill=\"none\" stroke=\"#9a9a9a\"/>\n"
        svg += "<line x1=\"\(l)\" y1=\"\(bottomEdge)\" x2=\"\(rightEdge)\" y2=\"\(bottomEdge)\"/>\n"
        svg += "<line x1=\"\(l)\" y1=\"\(t)\" x2=\"\(l)\" y2=\"\(bottomEdge)\"/>\n"
        for tick in xAxis.ticks {
            let x = svgNumber(px(tick.value))
            svg += "<line x1=\"\(x)\" y1=\"\(bottomEdge)\" x2=\"\(x)\" y2=\"\(svgNumber(top + plotHeight + 5))\"/>\n"
        }
        for tick in yAxis.ticks {
            let y = svgNumber(py(tick.value))
            svg += "<line x1=\"\(svgNumber(left - 5))\" y1=\"\(y)\" x2=\"\(l)\" y2=\"\(y)\"/>\n"
        }
        svg += "</g>\n"
        svg += "<g class=\"tick-labels\" font-size=\"\(svgNumber(Self.tickFont))\" fill=\"#333333\">\n"
        for tick in xAxis.ticks {
            svg += "<text x=\"\(svgNumber(px(tick.value)))\" y=\"\(svgNumber(top + plotHeight + 19))\" "
                + "text-anchor=\"middle\">\(xmlEscaped(tick.label))</text>\n"
        }
        for tick in yAxis.ticks {
            svg += "<text x=\"\(svgNumber(left - 8))\" y=\"\(svgNumber(py(tick.value) + 4))\" "
                + "text-anchor=\"end\">\(xmlEscaped(tick.label))</text>\n"
        }
        svg += "</g>\n"

        // Title and axis labels.
        let centreX = svgNumber(left + plotWidth / 2)
        if !plot.title.isEmpty {
            svg += "<text class=\"title\" x=\"\(centreX)\" y=\"30\" text-anchor=\"middle\" font-size=\"\(svgNumber(Self.titleFont))\" "
                + "font-weight=\"bold\" fill=\"#111111\">\(xmlEscaped(plot.title))</text>\n"
        }
        if !plot.xLabel.isEmpty {
            svg += "<text class=\"x-label\" x=\"\(centreX)\" y=\"\(svgNumber(plot.height - 14))\" text-anchor=\"middle\" "
                + "font-size=\"\(svgNumber(Self.labelFont))\" fill=\"#111111\">\(xmlEscaped(plot.xLabel))</text>\n"
        }
        if !plot.yLabel.isEmpty {
            let cy = svgNumber(top + plotHeight / 2)
            svg += "<text class=\"y-label\" x=\"0\" y=\"0\" transform=\"translate(22 \(cy)) rotate(-90)\" text-anchor=\"middle\" "
                + "font-size=\"\(svgNumber(Self.labelFont))\" fill=\"#111111\">\(xmlEscaped(plot.yLabel))</text>\n"
        }

        // Series.
        svg += "<g class=\"data\" clip-path=\"url(#plot-area)\" fill=\"none\" stroke-width=\"2\" "
            + "stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
        // Each series' colour and dash, for the curves and the legend.
        let strokes = plot.series.indices.map { index in
            (colour: Self.palette[index % Self.palette.count],
             dash: Self.dashes[(index / Self.palette.count) % Self.dashes.count])
        }
        for (index, series) in plot.series.enumerated() {
            let (colour, dash) = strokes[index]
            let points = zip(series.xs, series.ys).map { (x, y) -> Point? in
                x.isFinite && y.isFinite ? Point(x: px(x), y: py(y)) : nil
            }
            svg += "<g class=\"series\" data-name=\"\(xmlEscaped(series.name))\" stroke=\"\(colour)\""
                + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + ">\n"
            if series.style != .markers {
                svg += "<path d=\"\(pathData(points, step: series.style == .step, plotWidth: plotWidth))\"/>\n"
            }
            if series.style == .markers || series.style == .lineAndMarkers {
                svg += "<g fill=\"\(colour)\" stroke=\"none\">"
                for point in points {
                    guard let point else { continue }
                    svg += "<circle cx=\"\(svgNumber(point.x))\" cy=\"\(svgNumber(point.y))\" r=\"3\"/>"
                }
                svg += "</g>\n"
            }
            svg += "</g>\n"
        }
        svg += "</g>\n"

        // Legend, right of the plot area.
        let legendX = left + plotWidth + 20
        let legendHeight = 12 + 20 * Double(plot.series.count)
        svg += "<g class=\"legend\" font-size=\"\(svgNumber(Self.legendFont))\">\n"
        svg += "<rect x=\"\(svgNumber(legendX))\" y=\"\(t)\" width=\"\(svgNumber(legendWidth))\" height=\"\(svgNumber(legendHeight))\" "
            + "fill=\"#ffffff\" stroke=\"#c8c8c8\" rx=\"3\"/>\n"
        for (index, series) in plot.series.enumerated() {
            let (colour, dash) = strokes[index]
            let y = top + 16 + 20 * Double(index)
            let x0 = legendX + 10, x1 = legendX + 36
            if series.style != .markers {
                svg += "<line x1=\"\(svgNumber(x0))\" y1=\"\(svgNumber(y))\" x2=\"\(svgNumber(x1))\" y2=\"\(svgNumber(y))\" "
                    + "stroke=\"\(colour)\" stroke-width=\"2.5\"" + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + "/>"
            }
            if series.style == .markers || series.style == .lineAndMarkers {
                svg += "<circle cx=\"\(svgNumber((x0 + x1) / 2))\" cy=\"\(svgNumber(y))\" r=\"3.5\" fill=\"\(colour)\"/>"
            }
            svg += "<text x=\"\(svgNumber(x1 + 8))\" y=\"\(svgNumber(y + 4))\" fill=\"#222222\">\(xmlEscaped(legendNames[index]))</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// The axis for one direction: the given range with the ticks inside it, or the data
    /// range widened to the enclosing nice ticks.
    private func axis(_ name: String, given: ClosedRange<Double>?, dataLower: Double, dataUpper: Double,
                      maximumCount: Int) throws(PlotError) -> Axis {
        if let given {
            guard given.lowerBound.isFinite, given.upperBound.isFinite, given.lowerBound < given.upperBound else {
                throw .invalidRange(axis: name, lower: given.lowerBound, upper: given.upperBound)
            }
            let ticks = try PlotAxisTicks(covering: given.lowerBound, given.upperBound, maximumCount: maximumCount + 2)
            let inside = zip(ticks.values, ticks.labels).filter { given.contains($0.0) }.map { (value: $0.0, label: $0.1) }
            return Axis(lower: given.lowerBound, upper: given.upperBound, ticks: inside)
        }
        let ticks: PlotAxisTicks
        do {
            ticks = try PlotAxisTicks(covering: dataLower, dataUpper, maximumCount: maximumCount)
        } catch {
            throw .invalidRange(axis: name, lower: dataLower, upper: dataUpper)
        }
        // The ticks cover the data, except next to ±1.8e308 where they end on the last finite one.
        return Axis(lower: Swift.min(ticks.lowerBound, dataLower), upper: Swift.max(ticks.upperBound, dataUpper),
                    ticks: zip(ticks.values, ticks.labels).map { (value: $0.0, label: $0.1) })
    }

    /// Path data through the points (`nil` = a gap). Consecutive points that land on the
    /// same hundredth of a pixel are written once; a long line series keeps, per pixel
    /// column, only its first, lowest, highest and last point, which draws the same picture.
    private func pathData(_ points: [Point?], step: Bool, plotWidth: Double) -> String {
        let reduced = !step && points.count > 4 * Int(plotWidth) ? decimated(points) : points
        var d = ""
        var previous: (x: String, y: String)?  // the previous point, formatted
        var lastText = ""
        for point in reduced {
            guard let point else { previous = nil; continue }
            let x = svgNumber(point.x), y = svgNumber(point.y)
            if let before = previous {
                if step {
                    if x != before.x { d += "H\(x)" }
                    if y != before.y { d += "V\(y)" }
                } else {
                    let text = "L\(x) \(y)"
                    if text != lastText { d += text }
                    lastText = text
                }
            } else {
                d += (d.isEmpty ? "" : " ") + "M\(x) \(y)"
                lastText = "L\(x) \(y)"
            }
            previous = (x, y)
        }
        return d
    }

    /// Keeps, for each run of points in the same pixel column, the first, lowest, highest
    /// and last (in their original order); gaps are kept.
    private func decimated(_ points: [Point?]) -> [Point?] {
        var result: [Point?] = []
        var bucket: [Point] = []
        var column = Int.min
        func flush() {
            guard !bucket.isEmpty else { return }
            var low = 0, high = 0
            for (i, p) in bucket.enumerated() {
                if p.y < bucket[low].y { low = i }
                if p.y > bucket[high].y { high = i }
            }
            // The four indices in order, each once (no collection built per column).
            let last = bucket.count - 1
            let (a, b) = (min(low, high), max(low, high))
            result.append(bucket[0])
            if a > 0 { result.append(bucket[a]) }
            if b > a { result.append(bucket[b]) }
            if last > b { result.append(bucket[last]) }
            bucket.removeAll(keepingCapacity: true)
        }
        for point in points {
            guard let point else { flush(); result.append(nil); column = Int.min; continue }
            let c = Int(min(max(point.x, -1e6), 1e6).rounded(.down))
            if c != column { flush(); column = c }
            bucket.append(point)
        }
        flush()
        return result
    }

    /// A series name as shown in the legend: at most 40 characters.
    private func shortened(_ name: String) -> String {
        name.count <= 40 ? name : String(name.prefix(39)) + "…"
    }

    /// The estimated width of `text` in pixels at `size`.
    private func textWidth(_ text: String, _ size: Double) -> Double {
        Double(text.count) * size * Self.charWidth
    }
}
