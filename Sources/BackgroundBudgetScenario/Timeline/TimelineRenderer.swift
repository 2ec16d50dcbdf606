import BackgroundBudgetCore
import BudgetTime

/// Draws a ``ScenarioRun`` as a self-contained SVG timeline: one lane per app with a coloured band
/// per state, marks for callbacks, exits and other decisions (hover for their names), labelled bars
/// for what keeps an app running (activities, finite tasks, fetches, scheduled tasks), labels for
/// what the user did, a Device lane with the device's conditions as labelled bars, a time axis and a
/// legend.
///
/// Nothing is drawn past the end of the run (or of the window drawn): the plot's right edge is that
/// end. Labels of what the user did that crowd each other are stacked on rows above the band, and
/// every kind of mark has a shape of its own and a legend entry, so a printed picture reads without
/// hover text.
///
/// The width is fixed and the time scale fits the run, or the ``TimelineWindow`` drawn, so an hour
/// with five apps reads as well as forty seconds with one. A state that lasts for some time is drawn
/// at least ``minimumBandWidth`` wide; states that last no time at all (the `inactive` between
/// `applicationWillResignActive` and `applicationDidEnterBackground`) show in the hover text of the
/// marks. Marks that fall on the same pixel of a lane are drawn once, with every event in their hover
/// text. ``TimelineLabelLayout`` places the labels. Output depends only on the run and the window, so the same input always gives the same bytes.
/// ``TimelineMark`` decides each event's mark, ``TimelineSpanTracker`` its bars.
struct TimelineRenderer {
    let run: ScenarioRun
    /// The stretch drawn; the whole run (and a little after its end) when `nil`.
    var window: TimelineWindow?

    static let width = 1200.0
    static let plotLeft = 200.0
    static let plotRight = 1170.0
    /// The height of an app lane without spans and with one row of labels; each row of spans adds
    /// ``spanRowHeight``, each further row of labels ``labelRowHeight``.
    static let laneHeight = 68.0
    static let labelRowHeight = 12.0
    /// The top of the state band in an app lane.
    static let bandTop = 32.0
    static let bandHeight = 20.0
    static let spanRowHeight = 14.0
    static let minimumBandWidth = 2.0

    func render() -> String {
        let axis = window.map { TimelineAxis(start: $0.from.nanoseconds, end: $0.to.nanoseconds) } ?? TimelineAxis(end: run.end)
        let scale = TimelineScale(start: axis.domainStart, end: axis.domainEnd, left: Self.plotLeft, right: Self.plotRight)

        var lanes = run.apps.map { TimelineLane(manifest: $0) }
        var laneOf = Dictionary(run.apps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var eventsDrawn = 0
        for event in run.trace.events {
            let index: Int
            if let known = laneOf[event.app] {
                index = known
            } else {
                index = lanes.count
                laneOf[event.app] = index
                lanes.append(TimelineLane(manifest: AppManifest(id: event.app, displayName: event.app == .device ? "Device" : nil)))
            }
            lanes[index].record(event, scale: scale)
            if scale.contains(event.time.nanoseconds) { eventsDrawn += 1 }
        }
        for index in lanes.indices { lanes[index].finish(at: run.end.nanoseconds) }
        let layouts = lanes.map { TimelineSpanLayout($0.spans, scale: scale) }
        let labelLayouts = lanes.map { TimelineLabelLayout($0.isDevice ? [] : $0.switchLabels, right: Self.plotRight) }

        let captionLines = Self.wrap(run.description, width: 150, maxLines: 4)
        let lanesTop = 58.0 + Double(captionLines.count) * 17
        var laneTops: [Double] = []
        var y = lanesTop
        for index in lanes.indices {
            laneTops.append(y)
            y += Self.height(of: lanes[index], rows: layouts[index].rows, labelRows: labelLayouts[index].rows)
        }
        let axisY = y + 6
        let legendY = axisY + 64
        let legend = drawLegend(y: legendY, showsEnd: scale.contains(run.end.nanoseconds))
        let height = legend.bottom + 16

        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(svgNumber(Self.width))" height="\(svgNumber(height))" \
        viewBox="0 0 \(svgNumber(Self.width)) \(svgNumber(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <title>BackgroundBudget scenario timeline</title>
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="20" y="30" font-size="18" font-weight="bold" fill="#222222">Scenario timeline</text>
        <text x="\(svgNumber(Self.plotRight))" y="30" text-anchor="end" fill="#555555">\(xmlEscaped(header(lanes, eventsDrawn)))</text>

        """
        for (line, text) in captionLines.enumerated() {
            svg += "<text x=\"20\" y=\"\(svgNumber(52 + Double(line) * 17))\" fill=\"#333333\">\(xmlEscaped(text))</text>\n"
        }

        // Grid lines behind the lanes.
        let ticks = axis.ticks
        svg += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n"
        for tick in ticks {
            svg += "<line x1=\"\(svgNumber(scale.x(tick)))\" y1=\"\(svgNumber(lanesTop))\" x2=\"\(svgNumber(scale.x(tick)))\" y2=\"\(svgNumber(axisY))\"/>\n"
        }
        svg += "</g>\n"

        for index in lanes.indices {
            svg += drawLane(lanes[index], layout: layouts[index], labels: labelLayouts[index], top: laneTops[index], scale: scale)
        }

        // The end of the run, then the axis.
        if scale.contains(run.end.nanoseconds) {
            let endX = svgNumber(scale.x(run.end.nanoseconds))
            svg += "<line x1=\"\(endX)\" y1=\"\(svgNumber(lanesTop - 4))\" x2=\"\(endX)\" y2=\"\(svgNumber(axisY))\" "
                + "stroke=\"#444444\" stroke-width=\"1\" stroke-dasharray=\"4 3\"><title>end of the run, "
                + "t=\(formatSeconds(run.end.nanoseconds))s</title></line>\n"
        }
        svg += "<g fill=\"#333333\" stroke=\"#333333\">\n"
        svg += "<line x1=\"\(svgNumber(Self.plotLeft))\" y1=\"\(svgNumber(axisY))\" x2=\"\(svgNumber(Self.plotRight))\" "
            + "y2=\"\(svgNumber(axisY))\" stroke-width=\"1\"/>\n"
        for tick in ticks {
            let tx = svgNumber(scale.x(tick))
            svg += "<line x1=\"\(tx)\" y1=\"\(svgNumber(axisY))\" x2=\"\(tx)\" y2=\"\(svgNumber(axisY + 5))\" stroke-width=\"1\"/>"
            svg += "<text x=\"\(tx)\" y=\"\(svgNumber(axisY + 18))\" text-anchor=\"middle\" stroke=\"none\">\(axis.label(tick))</text>\n"
        }
        svg += "<text x=\"\(svgNumber((Self.plotLeft + Self.plotRight) / 2))\" y=\"\(svgNumber(axisY + 36))\" "
            + "text-anchor=\"middle\" stroke=\"none\" fill=\"#555555\">time since the scenario started</text>\n</g>\n"

        svg += legend.svg
        return svg + "</svg>\n"
    }

    /// `3 apps and the device, 120 trace events, ends at 120.000 s`, or for a window
    /// `3 apps, 40 of 120 trace events, t=60.000 s to 90.000 s of a run that ends at 120.000 s`.
    private func header(_ lanes: [TimelineLane], _ eventsDrawn: Int) -> String {
        let apps = lanes.filter { !$0.isDevice }.count
        let device = lanes.contains { $0.isDevice } ? " and the device" : ""
        let appText = "\(apps) app\(apps == 1 ? "" : "s")\(device)"
        let end = formatSeconds(run.end.nanoseconds)
        guard let window else { return "\(appText), \(run.trace.events.count) trace events, ends at \(end) s" }
        return "\(appText), \(eventsDrawn) of \(run.trace.events.count) trace events, "
            + "t=\(formatSeconds(window.from.nanoseconds)) s to \(formatSeconds(window.to.nanoseconds)) s of a run that ends at \(end) s"
    }

    /// The height of a lane with `rows` rows of spans and `labelRows` rows of labels.
    static func height(of lane: TimelineLane, rows: Int, labelRows: Int) -> Double {
        lane.isDevice ? 34 + Double(max(rows, 1)) * spanRowHeight
            : laneHeight + Double(max(labelRows, 1) - 1) * labelRowHeight + Double(rows) * spanRowHeight
    }

    static func truncated(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }

    /// Splits text into lines of at most `width` characters at spaces.
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = truncated(lines[maxLines - 1] + " …", width)
        }
        return lines.map { truncated($0, width) }
    }
}
