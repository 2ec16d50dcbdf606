import BackgroundBudget

/// Draws a ``ScenarioRun`` as a self-contained SVG timeline: one lane per app with a coloured band
/// per state, marks for callbacks, exits and other decisions (hover for their names), a time axis
/// and a legend.
///
/// The width is fixed and the time scale fits the run, so an hour with five apps reads as well as
/// forty seconds with one. A state that lasts for some time is drawn at least ``minimumBandWidth``
/// wide; states that last no time at all (the `inactive` between `applicationWillResignActive` and
/// `applicationDidEnterBackground`) show in the hover text of the marks. Marks that fall on the
/// same pixel of a lane are drawn once, with every event in their hover text. Output depends only
/// on the run, so the same run always gives the same bytes. ``TimelineMark`` decides each event's mark.
struct TimelineRenderer {
    let run: ScenarioRun

    static let width = 1200.0
    static let plotLeft = 200.0
    static let plotRight = 1170.0
    static let laneHeight = 56.0
    static let bandTop = 22.0
    static let bandHeight = 20.0
    static let minimumBandWidth = 2.0
    /// Hover texts list at most this many events per mark.
    static let maxTitleLines = 24

    private struct Lane {
        var manifest: AppManifest
        var bands: [(state: ApplicationState, from: Int64, to: Int64, reason: String)] = []
        var marks: [MarkGroup] = []
        var markIndex: [MarkKey: Int] = [:]
        var state: ApplicationState = .notRunning
        var since: Int64 = 0
        var reason = "initial state"
        /// Background allowances: when each started, when it runs out, and when the app left the
        /// background (nil while it has not).
        var allowances: [(from: Int64, until: Int64, left: Int64?)] = []
    }

    private struct MarkKey: Hashable {
        var mark: TimelineMark
        var column: Int
    }

    private struct MarkGroup {
        var mark: TimelineMark
        var x: Double
        var lines: [String] = []
        var count = 0
    }

    func render() -> String {
        let axis = TimelineAxis(end: run.end)
        let scale = (Self.plotRight - Self.plotLeft) / Double(axis.domainEnd)
        func x(_ nanoseconds: Int64) -> Double { Self.plotLeft + Double(nanoseconds) * scale }

        var lanes = run.apps.map { Lane(manifest: $0) }
        var laneOf = Dictionary(run.apps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for event in run.trace.events {
            let index: Int
            if let known = laneOf[event.app] {
                index = known
            } else {
                index = lanes.count
                laneOf[event.app] = index
                lanes.append(Lane(manifest: AppManifest(id: event.app, displayName: event.app == .device ? "Device" : nil)))
            }
            let t = event.time.nanoseconds
            let mark = TimelineMark(event.kind)
            if case .allowanceStarted(let until) = event.kind {
                lanes[index].allowances.append((t, until.nanoseconds, nil))
            }
            if case .state(let state) = mark {
                if state != .background, let last = lanes[index].allowances.indices.last, lanes[index].allowances[last].left == nil {
                    lanes[index].allowances[last].left = t
                }
                if t > lanes[index].since {
                    lanes[index].bands.append((lanes[index].state, lanes[index].since, t, lanes[index].reason))
                }
                lanes[index].state = state
                lanes[index].since = t
                lanes[index].reason = event.reason ?? ""
            }
            let groupKey = MarkKey(mark: mark, column: Int(x(t).rounded(.down)))
            let group = lanes[index].markIndex[groupKey] ?? {
                lanes[index].marks.append(MarkGroup(mark: mark, x: x(t)))
                lanes[index].markIndex[groupKey] = lanes[index].marks.count - 1
                return lanes[index].marks.count - 1
            }()
            lanes[index].marks[group].count += 1
            if lanes[index].marks[group].lines.count < Self.maxTitleLines {
                lanes[index].marks[group].lines.append(Self.hoverLine(for: event))
            }
        }
        for index in lanes.indices where lanes[index].since < axis.domainEnd {
            lanes[index].bands.append((lanes[index].state, lanes[index].since, axis.domainEnd, lanes[index].reason))
        }

        let captionLines = Self.wrap(run.description, width: 150, maxLines: 4)
        let lanesTop = 58.0 + Double(captionLines.count) * 17
        let axisY = lanesTop + Double(lanes.count) * Self.laneHeight + 6
        let legendY = axisY + 64
        let height = legendY + 48

        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(svgNumber(Self.width))" height="\(svgNumber(height))" \
        viewBox="0 0 \(svgNumber(Self.width)) \(svgNumber(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <title>BackgroundBudget scenario timeline</title>
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="20" y="30" font-size="18" font-weight="bold" fill="#222222">Scenario timeline</text>
        <text x="\(svgNumber(Self.plotRight))" y="30" text-anchor="end" fill="#555555">\
        \(lanes.count) app\(lanes.count == 1 ? "" : "s"), \(run.trace.events.count) trace events, ends at \
        \(formatSeconds(run.end.nanoseconds)) s</text>

        """
        for (line, text) in captionLines.enumerated() {
            svg += "<text x=\"20\" y=\"\(svgNumber(52 + Double(line) * 17))\" fill=\"#333333\">\(xmlEscaped(text))</text>\n"
        }

        // Grid lines behind the lanes.
        let ticks = axis.ticks
        svg += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n"
        for tick in ticks {
            svg += "<line x1=\"\(svgNumber(x(tick)))\" y1=\"\(svgNumber(lanesTop))\" x2=\"\(svgNumber(x(tick)))\" y2=\"\(svgNumber(axisY))\"/>\n"
        }
        svg += "</g>\n"

        for (index, lane) in lanes.enumerated() {
            svg += drawLane(lane, top: lanesTop + Double(index) * Self.laneHeight, x: x)
        }

        // The end of the run, then the axis.
        let endX = svgNumber(x(run.end.nanoseconds))
        svg += "<line x1=\"\(endX)\" y1=\"\(svgNumber(lanesTop - 4))\" x2=\"\(endX)\" y2=\"\(svgNumber(axisY))\" "
            + "stroke=\"#444444\" stroke-width=\"1\" stroke-dasharray=\"4 3\"><title>end of the run, "
            + "t=\(formatSeconds(run.end.nanoseconds))s</title></line>\n"
        svg += "<g fill=\"#333333\" stroke=\"#333333\">\n"
        svg += "<line x1=\"\(svgNumber(Self.plotLeft))\" y1=\"\(svgNumber(axisY))\" x2=\"\(svgNumber(Self.plotRight))\" "
            + "y2=\"\(svgNumber(axisY))\" stroke-width=\"1\"/>\n"
        for tick in ticks {
            let tx = svgNumber(x(tick))
            svg += "<line x1=\"\(tx)\" y1=\"\(svgNumber(axisY))\" x2=\"\(tx)\" y2=\"\(svgNumber(axisY + 5))\" stroke-width=\"1\"/>"
            svg += "<text x=\"\(tx)\" y=\"\(svgNumber(axisY + 18))\" text-anchor=\"middle\" stroke=\"none\">\(axis.label(tick))</text>\n"
        }
        svg += "<text x=\"\(svgNumber((Self.plotLeft + Self.plotRight) / 2))\" y=\"\(svgNumber(axisY + 36))\" "
            + "text-anchor=\"middle\" stroke=\"none\" fill=\"#555555\">time since the scenario started</text>\n</g>\n"

        svg += drawLegend(y: legendY)
        return svg + "</svg>\n"
    }

    private func drawLane(_ lane: Lane, top: Double, x: (Int64) -> Double) -> String {
        var svg = "<g>\n"
        let bandY = top + Self.bandTop
        let name = lane.manifest.displayName
        svg += "<text x=\"20\" y=\"\(svgNumber(bandY + 11))\" font-weight=\"bold\" fill=\"#222222\">"
            + "\(xmlEscaped(Self.truncated(name, 24)))<title>\(xmlEscaped(name)) (\(xmlEscaped(lane.manifest.id.rawValue)))</title></text>\n"
        if name != lane.manifest.id.rawValue {
            svg += "<text x=\"20\" y=\"\(svgNumber(bandY + 25))\" font-size=\"10\" fill=\"#777777\">"
                + "\(xmlEscaped(Self.truncated(lane.manifest.id.rawValue, 32)))</text>\n"
        }
        svg += "<line x1=\"20\" y1=\"\(svgNumber(top + Self.laneHeight))\" x2=\"\(svgNumber(Self.plotRight))\" "
            + "y2=\"\(svgNumber(top + Self.laneHeight))\" stroke=\"#f0f0f0\"/>\n"
        // Long bands first, then the short ones widened to stay visible, on top.
        let drawn = lane.bands.map { band -> (band: (state: ApplicationState, from: Int64, to: Int64, reason: String), x0: Double, width: Double) in
            let x0 = x(band.from)
            return (band, x0, x(band.to) - x0)
        }
        for (band, x0, width) in drawn.filter({ $0.width >= Self.minimumBandWidth }) + drawn.filter({ $0.width < Self.minimumBandWidth }) {
            let duration = formatSeconds(band.to - band.from)
            svg += "<rect x=\"\(svgNumber(x0))\" y=\"\(svgNumber(bandY))\" width=\"\(svgNumber(max(width, Self.minimumBandWidth)))\" "
                + "height=\"\(svgNumber(Self.bandHeight))\" fill=\"\(TimelineMark.colour(of: band.state))\">"
                + "<title>\(band.state) from t=\(formatSeconds(band.from))s for \(duration) s (\(xmlEscaped(band.reason)))</title></rect>\n"
        }
        // Allowances: a bar under the band from its start until it runs out or the app leaves the
        // background, whichever comes first.
        for allowance in lane.allowances {
            let end = min(allowance.until, allowance.left ?? allowance.until, run.end.nanoseconds)
            let x0 = x(allowance.from)
            svg += "<rect x=\"\(svgNumber(x0))\" y=\"\(svgNumber(bandY + Self.bandHeight + 1))\" "
                + "width=\"\(svgNumber(max(x(end) - x0, Self.minimumBandWidth)))\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\">"
                + "<title>background allowance from t=\(formatSeconds(allowance.from))s, runs out at t=\(formatSeconds(allowance.until))s"
                + "\(allowance.left.map { $0 < allowance.until ? "; left the background at t=\(formatSeconds($0))s" : "" } ?? "")</title></rect>\n"
        }
        for group in lane.marks {
            svg += drawMark(group, bandY: bandY)
        }
        return svg + "</g>\n"
    }

    private func drawMark(_ group: MarkGroup, bandY: Double) -> String {
        var lines = group.lines
        if group.count > lines.count { lines.append("… and \(group.count - lines.count) more") }
        let title = "<title>\(xmlEscaped(lines.joined(separator: "\n")))</title>"
        let cx = group.x
        switch group.mark {
        case .state:
            // State changes are the bands themselves; a thin tick makes changes at one instant findable.
            return "<rect x=\"\(svgNumber(cx - 0.5))\" y=\"\(svgNumber(bandY))\" width=\"1\" height=\"\(svgNumber(Self.bandHeight))\" "
                + "fill=\"#ffffff\" fill-opacity=\"0.6\">\(title)</rect>\n"
        case .callback:
            let tip = bandY - 2, base = bandY - 11
            return "<path d=\"M\(svgNumber(cx - 4)) \(svgNumber(base))L\(svgNumber(cx + 4)) \(svgNumber(base))"
                + "L\(svgNumber(cx)) \(svgNumber(tip))Z\" fill=\"\(TimelineMark.callbackColour)\">\(title)</path>\n"
        case .exit:
            // Below the band, so that the band stays readable where exits are dense.
            let cy = bandY + Self.bandHeight + 6
            return "<path d=\"M\(svgNumber(cx - 4)) \(svgNumber(cy - 4))L\(svgNumber(cx + 4)) \(svgNumber(cy + 4))"
                + "M\(svgNumber(cx - 4)) \(svgNumber(cy + 4))L\(svgNumber(cx + 4)) \(svgNumber(cy - 4))\" "
                + "stroke=\"\(TimelineMark.exitColour)\" stroke-width=\"2.5\" stroke-linecap=\"round\">\(title)</path>\n"
        case .task:
            return "<rect x=\"\(svgNumber(cx - 1))\" y=\"\(svgNumber(bandY - 9))\" width=\"2\" height=\"7\" "
                + "fill=\"\(TimelineMark.taskColour)\">\(title)</rect>\n"
        case .expiration:
            return "<rect x=\"\(svgNumber(cx - 1.5))\" y=\"\(svgNumber(bandY - 4))\" width=\"3\" height=\"\(svgNumber(Self.bandHeight + 8))\" "
                + "fill=\"\(TimelineMark.expirationColour)\" stroke=\"#222222\" stroke-width=\"0.5\">\(title)</rect>\n"
        case .allowance:
            // The bar is drawn with the lane; this invisible mark carries the hover text.
            return "<rect x=\"\(svgNumber(cx - 2))\" y=\"\(svgNumber(bandY + Self.bandHeight))\" width=\"4\" height=\"5\" "
                + "fill-opacity=\"0\">\(title)</rect>\n"
        case .other:
            let cy = bandY - 14
            return "<path d=\"M\(svgNumber(cx)) \(svgNumber(cy - 5))L\(svgNumber(cx + 5)) \(svgNumber(cy))"
                + "L\(svgNumber(cx)) \(svgNumber(cy + 5))L\(svgNumber(cx - 5)) \(svgNumber(cy))Z\" "
                + "fill=\"\(TimelineMark.otherColour)\">\(title)</path>\n"
        }
    }

    private func drawLegend(y: Double) -> String {
        var svg = "<g font-size=\"12\" fill=\"#333333\">\n"
        var x = Self.plotLeft
        for state in ApplicationState.allCases {
            svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y - 10))\" width=\"18\" height=\"12\" "
                + "fill=\"\(TimelineMark.colour(of: state))\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
                + "<text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(y))\">\(state)</text>\n"
            x += 34 + Double(state.rawValue.count) * 7
        }
        let samples: [(TimelineMark, String)] = [
            (.callback, "callback"), (.task, "task, activity, event"), (.expiration, "expiration handler"),
            (.allowance, "allowance"), (.exit, "exit"), (.other, "other decision"),
        ]
        // Marks on a second row, under the states.
        x = Self.plotLeft
        let y = y + 22
        for (mark, label) in samples {
            // Each mark centred on the middle of the label's lower-case letters (y - 4).
            let bandY: Double = switch mark {
            case .exit: y - 10 - Self.bandHeight
            case .other: y + 10
            case .task: y + 4
            case .expiration: y - 10
            case .allowance: y - 6 - Self.bandHeight
            case .callback, .state: y + 2
            }
            if mark == .allowance {
                svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y - 6))\" width=\"12\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\"/>"
            } else if mark == .expiration {
                svg += "<rect x=\"\(svgNumber(x + 4.5))\" y=\"\(svgNumber(y - 11))\" width=\"3\" height=\"13\" "
                    + "fill=\"\(TimelineMark.expirationColour)\" stroke=\"#222222\" stroke-width=\"0.5\"/>"
            } else {
                svg += drawMark(MarkGroup(mark: mark, x: x + 6, lines: [label], count: 1), bandY: bandY)
            }
            svg += "<text x=\"\(svgNumber(x + 16))\" y=\"\(svgNumber(y))\">\(label)</text>\n"
            x += 30 + Double(label.count) * 7
        }
        svg += "<text x=\"\(svgNumber(x + 10))\" y=\"\(svgNumber(y))\" fill=\"#777777\">(hover for names and times)</text>\n"
        return svg + "</g>\n"
    }

    /// `t=12.345s applicationDidEnterBackground (reason) code`, for hover texts.
    private static func hoverLine(for event: TraceEvent) -> String {
        var text = "t=\(formatSeconds(event.time.nanoseconds))s \(event.eventName)"
        if let state = event.state { text += " → \(state)" }
        if let reason = event.reason { text += " (\(reason)\(event.code.map { ", \($0)" } ?? ""))" }
        return text
    }

    private static func truncated(_ text: String, _ length: Int) -> String {
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
