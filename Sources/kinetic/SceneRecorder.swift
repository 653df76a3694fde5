import Kinetic
import KineticExport
import KineticUI

/// Runs a demo scene on a manual clock at 60 frames per second and records, every frame,
/// the presentation values of every named view in the window and how fast they change: a
/// long CSV timeline (time, view, property, value, velocity) and an SVG filmstrip (the
/// views' frames drawn as rectangles every few frames).
@MainActor
final class SceneRecorder {
    static let frameRate = 60.0
    let window: Window
    let engine: AnimationEngine
    private(set) var frame = 0
    /// `velocity` is the value's rate in units per second (the engine's exact derivative), nil
    /// where the timeline gives none (`hidden`, and frames under a non-identity transform).
    private var rows: [(time: Double, view: String, property: String, value: Double, velocity: Double?)] = []
    private var panels: [(time: Double, boxes: [Box])] = []
    /// The boxes of the last recorded frame, for the filmstrip's closing panel.
    private var latest: (time: Double, boxes: [Box])?
    /// The releases of a gesture-driven scene: the time (s), the finger's position (points),
    /// the tracker's velocity (points per second), the projected resting position and
    /// whether it finished; printed by the demo.
    var releases: [(time: Double, position: Double, velocity: Double, projected: Double, finished: Bool)] = []
    /// Every `filmstripStride` frames a filmstrip panel is drawn.
    static let filmstripStride = 6

    struct Box {
        let name: String
        let frame: Rect
        let alpha: Double
        let color: Color?
    }

    init(size: Size = Size(width: 390, height: 844)) {
        engine = AnimationEngine()
        window = Window(size: size, engine: engine)
    }

    var time: Double { Double(frame) / Self.frameRate }

    /// Records the current frame, then advances one frame.
    func step() throws {
        record()
        frame += 1
        try engine.clock.advance(to: time)
    }

    /// Steps until `condition` holds (or `limit` frames pass), then records the final frame.
    func run(until condition: () -> Bool, limit: Int = 600) throws {
        var n = 0
        while !condition(), n < limit {
            try step()
            n += 1
        }
        record()
    }

    private func record() {
        if let last = rows.last, last.time == time { return }
        var boxes: [Box] = []
        visit(window, origin: Point(x: 0, y: 0), motion: Motion()) { view, frame, motion in
            guard let name = view.name, view !== window else { return }
            let p = view.presentation
            let v = motion.map { [$0.x, $0.y, $0.width, $0.height, $0.alpha] } ?? [nil, nil, nil, nil, nil]
            rows.append((time, name, "x", frame.origin.x, v[0]))
            rows.append((time, name, "y", frame.origin.y, v[1]))
            rows.append((time, name, "width", frame.size.width, v[2]))
            rows.append((time, name, "height", frame.size.height, v[3]))
            rows.append((time, name, "alpha", p.alpha, v[4]))
            rows.append((time, name, "hidden", view.isHidden ? 1 : 0, nil))
            if !view.isHidden { boxes.append(Box(name: name, frame: frame, alpha: p.alpha, color: p.backgroundColor)) }
        }
        latest = (time, boxes)
        if frame % Self.filmstripStride == 0 { panels.append((time, boxes)) }
    }

    /// The velocity of a view's frame in window coordinates (points per second) and of its
    /// alpha (per second); `x`, `y` of a container are the velocity of its bounds' origin in
    /// window coordinates, which its subviews' frames move with.
    struct Motion {
        var x = 0.0, y = 0.0, width = 0.0, height = 0.0, alpha = 0.0
    }

    /// Depth-first over the tree, with each view's presentation frame in window coordinates
    /// and its velocity (nil under a non-identity transform, whose bounding box is not
    /// differentiated here).
    private func visit(_ view: View, origin: Point, motion: Motion?, _ body: (View, Rect, Motion?) -> Void) {
        let values = view.presentation
        let f = values.frame
        let absolute = view === window ? Rect(x: 0, y: 0, width: f.size.width, height: f.size.height)
            : Rect(x: origin.x + f.origin.x, y: origin.y + f.origin.y, width: f.size.width, height: f.size.height)
        let bounds = view.presentationVelocity(of: .bounds)
        var own: Motion?
        if view === window {
            own = Motion()
        } else if let motion, values.transform == .identity {
            // frame = centre − size / 2, so its origin moves at the centre's rate minus half
            // the size's.
            let center = view.presentationVelocity(of: .center)
            own = Motion(x: motion.x + center[0] - bounds[2] / 2, y: motion.y + center[1] - bounds[3] / 2,
                         width: bounds[2], height: bounds[3], alpha: view.presentationVelocity(of: .alpha)[0])
        }
        body(view, absolute, own)
        let b = values.bounds
        // The subviews move with this view's origin, less its bounds' origin.
        let inner = own.map { Motion(x: $0.x - bounds[0], y: $0.y - bounds[1]) }
        for child in view.subviews {
            visit(child, origin: Point(x: absolute.origin.x - b.origin.x, y: absolute.origin.y - b.origin.y),
                  motion: inner, body)
        }
    }

    /// Writes `<directory>/<name>.csv` and `<directory>/<name>.svg`; returns their paths.
    func write(name: String, title: String, into directory: String) throws -> (csv: String, svg: String) {
        // The filmstrip ends on the final frame, whatever the stride.
        record()
        if let latest, panels.last?.time != latest.time { panels.append(latest) }
        let csv = "\(directory)/\(name).csv"
        var text = "time,view,property,value,velocity\n"
        for r in rows {
            text += "\(CSVTable.format(r.time)),\(r.view),\(r.property),\(CSVTable.format(r.value)),"
                + "\(r.velocity.map(CSVTable.format) ?? "")\n"
        }
        try writeText(text, to: csv, createDirectory: true)
        let svg = "\(directory)/\(name).svg"
        try writeText(filmstrip(title: title), to: svg, createDirectory: true)
        return (csv, svg)
    }

    private func filmstrip(title: String) -> String {
        let scale = 0.18
        let w = window.bounds.size.width * scale, h = window.bounds.size.height * scale
        let gap = 10.0, top = 34.0, perRow = 10
        let rowCount = (panels.count + perRow - 1) / perRow
        let width = max(gap + Double(min(panels.count, perRow)) * (w + gap), 2 * gap + 8.2 * Double(title.count))
        let height = top + Double(rowCount) * (h + 28) + 4
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgNumber(width))\" height=\"\(svgNumber(height))\" "
        s += "viewBox=\"0 0 \(svgNumber(width)) \(svgNumber(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(svgNumber(gap))\" y=\"22\" font-size=\"15\" fill=\"#222\">\(xmlEscaped(title))</text>\n"
        for (k, panel) in panels.enumerated() {
            let x0 = gap + Double(k % perRow) * (w + gap), y0 = top + Double(k / perRow) * (h + 28)
            s += "<g transform=\"translate(\(svgNumber(x0)),\(svgNumber(y0)))\">\n"
            s += "<rect width=\"\(svgNumber(w))\" height=\"\(svgNumber(h))\" fill=\"#f4f4f4\" stroke=\"#888\"/>\n"
            s += "<clipPath id=\"c\(k)\"><rect width=\"\(svgNumber(w))\" height=\"\(svgNumber(h))\"/></clipPath><g clip-path=\"url(#c\(k))\">\n"
            for box in panel.boxes {
                let c = box.color ?? Color(red: 1, green: 1, blue: 1, alpha: 0)
                let fill = "rgb(\(Int(c.red * 255)),\(Int(c.green * 255)),\(Int(c.blue * 255)))"
                s += "<rect x=\"\(svgNumber(box.frame.origin.x * scale))\" y=\"\(svgNumber(box.frame.origin.y * scale))\" "
                s += "width=\"\(svgNumber(max(box.frame.size.width * scale, 0)))\" height=\"\(svgNumber(max(box.frame.size.height * scale, 0)))\" "
                s += "fill=\"\(fill)\" fill-opacity=\"\(svgNumber(c.alpha * box.alpha))\" stroke=\"#333\" stroke-opacity=\"\(svgNumber(box.alpha))\" "
                s += "stroke-width=\"0.6\"><title>\(xmlEscaped(box.name))</title></rect>\n"
            }
            s += "</g>\n<text x=\"\(svgNumber(w / 2))\" y=\"\(svgNumber(h + 15))\" font-size=\"10\" text-anchor=\"middle\" fill=\"#444\">"
            s += "\(svgNumber((panel.time * 1000).rounded())) ms</text>\n</g>\n"
        }
        return s + "</svg>\n"
    }
}
