import BackgroundBudget

extension TimelineRenderer {
    /// Three rows: the state colours; the marks; the bars and the Device lane.
    func drawLegend(y: Double) -> String {
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
        let y2 = y + 22
        for (mark, label) in samples {
            // Each mark centred on the middle of the label's lower-case letters (y - 4).
            let bandY: Double = switch mark {
            case .exit: y2 - 10 - Self.bandHeight
            case .other: y2 + 10
            case .task: y2 + 4
            case .expiration: y2 - 10
            case .allowance: y2 - 6 - Self.bandHeight
            case .callback, .state: y2 + 2
            }
            if mark == .allowance {
                svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y2 - 6))\" width=\"12\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\"/>"
            } else if mark == .expiration {
                svg += "<rect x=\"\(svgNumber(x + 4.5))\" y=\"\(svgNumber(y2 - 11))\" width=\"3\" height=\"13\" "
                    + "fill=\"\(TimelineMark.expirationColour)\" stroke=\"#222222\" stroke-width=\"0.5\"/>"
            } else {
                svg += drawMark(TimelineLane.MarkGroup(mark: mark, x: x + 6, lines: [label], count: 1), bandY: bandY)
            }
            svg += "<text x=\"\(svgNumber(x + 16))\" y=\"\(svgNumber(y2))\">\(label)</text>\n"
            x += 30 + Double(label.count) * 7
        }
        svg += "<text x=\"\(svgNumber(x + 10))\" y=\"\(svgNumber(y2))\" fill=\"#777777\">(hover for names and times)</text>\n"
        // Bars on a third row.
        x = Self.plotLeft
        let y3 = y2 + 22
        for kind in TimelineSpan.Kind.allCases {
            let colours = kind.colours
            svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y3 - 10))\" width=\"18\" height=\"12\" rx=\"2\" "
                + "fill=\"\(colours.fill)\" stroke=\"\(colours.stroke)\" stroke-width=\"0.75\"/>"
                + "<text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(y3))\">\(kind.legend)</text>\n"
            x += 34 + Double(kind.legend.count) * 7
        }
        svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y3 - 10))\" width=\"18\" height=\"12\" fill=\"\(Self.deviceLaneFill)\" "
            + "stroke=\"#999999\" stroke-width=\"0.5\"/><text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(y3))\">Device lane</text>\n"
        x += 34 + 11 * 7
        svg += "<text x=\"\(svgNumber(x))\" y=\"\(svgNumber(y3))\" font-size=\"10\" fill=\"\(Self.switchLabelColour)\">Home</text>"
            + "<text x=\"\(svgNumber(x + 34))\" y=\"\(svgNumber(y3))\">what the user did</text>\n"
        return svg + "</g>\n"
    }
}
