import BudgetTime

extension TimelineRenderer {
    /// The colours of the Device lane: a pale background instead of state bands.
    static let deviceLaneFill = "#f6f3ea"
    /// The colour of switch labels.
    static let switchLabelColour = "#444444"

    /// The colour of the lines from stacked labels down to their instants.
    static let leaderColour = "#aaaaaa"

    func drawLane(_ lane: TimelineLane, layout: TimelineSpanLayout, labels: TimelineLabelLayout, top: Double, scale: TimelineScale) -> String {
        var svg = "<g class=\"lane\">\n"
        let height = Self.height(of: lane, rows: layout.rows, labelRows: labels.rows)
        // Each row of labels after the first moves the band and what is under it down.
        let shift = Double(labels.rows - 1) * Self.labelRowHeight
        let bandY = lane.isDevice ? top + 22 : top + Self.bandTop + shift
        let name = lane.manifest.displayName
        let nameY = lane.isDevice ? top + 22 : bandY + 11
        svg += "<text x=\"20\" y=\"\(svgNumber(nameY))\" font-weight=\"bold\" fill=\"#222222\">"
            + "\(xmlEscaped(Self.truncated(name, 24)))<title>\(xmlEscaped(name)) (\(xmlEscaped(lane.manifest.id.rawValue)))</title></text>\n"
        let subtitle = lane.isDevice ? "conditions" : (name != lane.manifest.id.rawValue ? lane.manifest.id.rawValue : nil)
        if let subtitle {
            svg += "<text x=\"20\" y=\"\(svgNumber(nameY + 14))\" font-size=\"10\" fill=\"#777777\">"
                + "\(xmlEscaped(Self.truncated(subtitle, 32)))</text>\n"
        }
        if labels.unplaced > 0 {
            svg += "<text class=\"unplaced-labels\" x=\"20\" y=\"\(svgNumber(nameY + 28))\" font-size=\"10\" fill=\"\(Self.switchLabelColour)\">"
                + "+\(labels.unplaced) user action\(labels.unplaced == 1 ? "" : "s") not labelled</text>\n"
        }
        if layout.unlabelled > 0 {
            let y = nameY + (labels.unplaced > 0 ? 40 : 28)
            svg += "<text class=\"unlabelled-spans\" x=\"20\" y=\"\(svgNumber(y))\" font-size=\"10\" fill=\"\(Self.switchLabelColour)\">"
                + "+\(layout.unlabelled) bar\(layout.unlabelled == 1 ? "" : "s") not labelled</text>\n"
        }
        svg += "<line x1=\"20\" y1=\"\(svgNumber(top + height))\" x2=\"\(svgNumber(Self.plotRight))\" "
            + "y2=\"\(svgNumber(top + height))\" stroke=\"#f0f0f0\"/>\n"
        if lane.isDevice {
            svg += "<rect class=\"device-lane\" x=\"\(svgNumber(Self.plotLeft))\" y=\"\(svgNumber(top + 4))\" "
                + "width=\"\(svgNumber(Self.plotRight - Self.plotLeft))\" height=\"\(svgNumber(height - 8))\" fill=\"\(Self.deviceLaneFill)\"/>\n"
        } else {
            svg += drawBands(lane, bandY: bandY, scale: scale)
        }
        svg += drawSpans(layout, top: lane.isDevice ? top + 18 : top + Self.laneHeight - 2 + shift)
        if !lane.isDevice { svg += drawSwitchLabels(labels, top: top, bandY: bandY) }
        for group in lane.marks {
            svg += drawMark(group, bandY: bandY, right: Self.plotRight)
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
            // A short band at the very end widens to the left, so that it stays inside the plot.
            let shown = max(width, Self.minimumBandWidth)
            let left = min(x0, scale.right - shown)
            svg += "<rect x=\"\(svgNumber(left))\" y=\"\(svgNumber(bandY))\" width=\"\(svgNumber(shown))\" "
                + "height=\"\(svgNumber(Self.bandHeight))\" fill=\"\(TimelineMark.colour(of: band.state))\">"
                + "<title>\(band.state) from t=\(formatSeconds(band.from))s for \(duration) s (\(xmlEscaped(band.reason)))</title></rect>\n"
        }
        // Allowances: a bar under the band from its start until it runs out or the app leaves the
        // background, whichever comes first.
        for allowance in lane.allowances {
            let end = min(allowance.until, allowance.left ?? allowance.until, run.end.nanoseconds)
            guard let (x0, x1) = scale.clipped(allowance.from, end) else { continue }
            let width = max(x1 - x0, Self.minimumBandWidth)
            svg += "<rect x=\"\(svgNumber(min(x0, scale.right - width)))\" y=\"\(svgNumber(bandY + Self.bandHeight + 1))\" "
                + "width=\"\(svgNumber(width))\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\">"
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

    /// What the user did, written above the lane's marks on the rows ``TimelineLabelLayout`` chose; a
    /// label on a lower row has a thin line down to the band at its instant, and every label a white
    /// outline, so that a line passing behind it does not cross its letters.
    private func drawSwitchLabels(_ labels: TimelineLabelLayout, top: Double, bandY: Double) -> String {
        var svg = ""
        for label in labels.placed {
            let y = top + 11 + Double(label.row) * Self.labelRowHeight
            if label.row > 0 {
                svg += "<line class=\"leader\" x1=\"\(svgNumber(label.x))\" y1=\"\(svgNumber(y + 2))\" x2=\"\(svgNumber(label.x))\" "
                    + "y2=\"\(svgNumber(bandY))\" stroke=\"\(Self.leaderColour)\" stroke-width=\"0.75\"/>\n"
            }
        }
        for label in labels.placed {
            let y = top + 11 + Double(label.row) * Self.labelRowHeight
            svg += "<text class=\"switch-label\" x=\"\(svgNumber(label.x))\" y=\"\(svgNumber(y))\" font-size=\"10\" "
                + "\(label.endsAtInstant ? "text-anchor=\"end\" " : "")stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\" "
                + "fill=\"\(Self.switchLabelColour)\">\(xmlEscaped(label.text))</text>\n"
        }
        return svg
    }

    /// How far a mark reaches to each side of its instant.
    static func halfWidth(of mark: TimelineMark) -> Double {
        switch mark {
        case .state: 0.5
        case .task: 1
        case .expiration: 1.5
        case .allowance: 2
        case .callback, .exit, .refused, .request: 4.5
        case .warning, .deviceChange: 5
        }
    }

    /// One mark, centred on its instant, or moved left just enough to stay left of `right`.
    func drawMark(_ group: TimelineLane.MarkGroup, bandY: Double, right: Double) -> String {
        var lines = group.lines
        if group.count > lines.count { lines.append("… and \(group.count - lines.count) more") }
        let title = "<title>\(xmlEscaped(lines.joined(separator: "\n")))</title>"
        let cx = min(group.x, right - Self.halfWidth(of: group.mark))
        // Marks about decisions sit in one row above the callbacks.
        let cy = bandY - 14
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
        case .refused:
            // A "no" sign: a ring with a slash.
            return "<path d=\"M\(svgNumber(cx - 3.5)) \(svgNumber(cy))a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0"
                + "M\(svgNumber(cx - 2.4)) \(svgNumber(cy + 2.4))L\(svgNumber(cx + 2.4)) \(svgNumber(cy - 2.4))\" "
                + "fill=\"#ffffff\" stroke=\"\(TimelineMark.refusedColour)\" stroke-width=\"1.5\">\(title)</path>\n"
        case .warning:
            return "<path d=\"M\(svgNumber(cx)) \(svgNumber(cy - 5))L\(svgNumber(cx + 5)) \(svgNumber(cy + 4))"
                + "L\(svgNumber(cx - 5)) \(svgNumber(cy + 4))Z\" fill=\"\(TimelineMark.warningColour)\" stroke=\"#222222\" "
                + "stroke-width=\"0.75\" stroke-linejoin=\"round\">\(title)</path>\n"
        case .request:
            return "<circle cx=\"\(svgNumber(cx))\" cy=\"\(svgNumber(cy))\" r=\"3.5\" fill=\"#ffffff\" "
                + "stroke=\"\(TimelineMark.requestColour)\" stroke-width=\"1.25\">\(title)</circle>\n"
        case .deviceChange:
            let colours = TimelineMark.deviceChangeColours
            return "<path d=\"M\(svgNumber(cx)) \(svgNumber(cy - 4.5))L\(svgNumber(cx + 4.5)) \(svgNumber(cy))"
                + "L\(svgNumber(cx)) \(svgNumber(cy + 4.5))L\(svgNumber(cx - 4.5)) \(svgNumber(cy))Z\" "
                + "fill=\"\(colours.fill)\" stroke=\"\(colours.stroke)\" stroke-width=\"1.25\">\(title)</path>\n"
        }
    }
}
