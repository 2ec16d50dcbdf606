import BackgroundBudget

extension TimelineRenderer {
    /// The colours of the Device lane: a pale background instead of state bands.
    static let deviceLaneFill = "#f6f3ea"
    /// The colour of switch labels.
    static let switchLabelColour = "#444444"

    func drawLane(_ lane: TimelineLane, layout: TimelineSpanLayout, top: Double, scale: TimelineScale) -> String {
        var svg = "<g>\n"
        let height = Self.height(of: lane, rows: layout.rows)
        let bandY = lane.isDevice ? top + 22 : top + Self.bandTop
        let name = lane.manifest.displayName
        let nameY = lane.isDevice ? top + 22 : bandY + 11
        svg += "<text x=\"20\" y=\"\(svgNumber(nameY))\" font-weight=\"bold\" fill=\"#222222\">"
            + "\(xmlEscaped(Self.truncated(name, 24)))<title>\(xmlEscaped(name)) (\(xmlEscaped(lane.manifest.id.rawValue)))</title></text>\n"
        let subtitle = lane.isDevice ? "conditions" : (name != lane.manifest.id.rawValue ? lane.manifest.id.rawValue : nil)
        if let subtitle {
            svg += "<text x=\"20\" y=\"\(svgNumber(nameY + 14))\" font-size=\"10\" fill=\"#777777\">"
                + "\(xmlEscaped(Self.truncated(subtitle, 32)))</text>\n"
        }
        svg += "<line x1=\"20\" y1=\"\(svgNumber(top + height))\" x2=\"\(svgNumber(Self.plotRight))\" "
            + "y2=\"\(svgNumber(top + height))\" stroke=\"#f0f0f0\"/>\n"
        if lane.isDevice {
            svg += "<rect class=\"device-lane\" x=\"\(svgNumber(Self.plotLeft))\" y=\"\(svgNumber(top + 4))\" "
                + "width=\"\(svgNumber(Self.plotRight - Self.plotLeft))\" height=\"\(svgNumber(height - 8))\" fill=\"\(Self.deviceLaneFill)\"/>\n"
        } else {
            svg += drawBands(lane, bandY: bandY, scale: scale)
        }
        svg += drawSpans(layout, top: lane.isDevice ? top + 18 : top + Self.laneHeight - 2)
        if !lane.isDevice { svg += drawSwitchLabels(lane, top: top) }
        for group in lane.marks {
            svg += drawMark(group, bandY: bandY)
        }
        return svg + "</g>\n"
    }

    private func drawBands(_ lane: TimelineLane, bandY: Double, scale: TimelineScale) -> String {
        var svg = ""
        // Long bands first, then the short ones widened to stay visible, on top.
        let drawn = lane.bands.compactMap { band -> (band: TimelineLane.Band, x0: Double, width: Double)? in
            scale.clipped(band.from, band.to).map { (band, $0.x0, $0.x1 - $0.x0) }
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
            guard let (x0, x1) = scale.clipped(allowance.from, end) else { continue }
            svg += "<rect x=\"\(svgNumber(x0))\" y=\"\(svgNumber(bandY + Self.bandHeight + 1))\" "
                + "width=\"\(svgNumber(max(x1 - x0, Self.minimumBandWidth)))\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\">"
                + "<title>background allowance from t=\(formatSeconds(allowance.from))s, runs out at t=\(formatSeconds(allowance.until))s"
                + "\(allowance.left.map { $0 < allowance.until ? "; left the background at t=\(formatSeconds($0))s" : "" } ?? "")</title></rect>\n"
        }
        return svg
    }

    /// Each span as a bar with its label on it or after it; the hover text says when it started, how
    /// long it lasted and how it ended.
    private func drawSpans(_ layout: TimelineSpanLayout, top: Double) -> String {
        var svg = ""
        for item in layout.placed {
            let y = top + Double(item.row) * Self.spanRowHeight
            let colours = item.span.kind.colours
            let lasted = formatSeconds(item.span.to - item.span.from)
            let ending = item.span.ending.map { ", \($0)" } ?? ", still on when the run ended"
            svg += "<rect class=\"span \(item.span.kind)\" x=\"\(svgNumber(item.x0))\" y=\"\(svgNumber(y))\" "
                + "width=\"\(svgNumber(item.x1 - item.x0))\" height=\"12\" rx=\"2\" fill=\"\(colours.fill)\" stroke=\"\(colours.stroke)\" "
                + "stroke-width=\"0.75\"><title>\(xmlEscaped(item.span.label)) from t=\(formatSeconds(item.span.from))s for \(lasted) s"
                + "\(xmlEscaped(ending))</title></rect>"
            if let label = item.label {
                svg += "<text class=\"span-label\" x=\"\(svgNumber(label.x))\" y=\"\(svgNumber(y + 9.5))\" font-size=\"10\" "
                    + "fill=\"\(colours.stroke)\">\(xmlEscaped(item.span.label))</text>"
            }
            svg += "\n"
        }
        return svg
    }

    /// What the user did, written above the lane's marks; a label that would overlap the one before
    /// it is left out (the state band's hover text still has it).
    private func drawSwitchLabels(_ lane: TimelineLane, top: Double) -> String {
        var svg = ""
        var end = -Double.infinity
        for label in lane.switchLabels where label.x >= end + 4 {
            let width = Double(label.text.count) * TimelineSpanLayout.characterWidth
            // Near the right edge the label ends at its instant instead of starting there.
            let fits = label.x + width <= Self.width - 4
            svg += "<text class=\"switch-label\" x=\"\(svgNumber(label.x))\" y=\"\(svgNumber(top + 11))\" font-size=\"10\" "
                + "\(fits ? "" : "text-anchor=\"end\" ")fill=\"\(Self.switchLabelColour)\">\(xmlEscaped(label.text))</text>\n"
            end = fits ? label.x + width : label.x
        }
        return svg
    }

    func drawMark(_ group: TimelineLane.MarkGroup, bandY: Double) -> String {
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
}
