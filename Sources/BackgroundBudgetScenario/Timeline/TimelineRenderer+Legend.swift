import BackgroundBudgetCore

extension TimelineRenderer {
    /// The legend: the state colours; every kind of mark (``TimelineMark/legendEntries``); the bars,
    /// the Device lane, the labels of what the user did and the end of the run. Entries flow left to
    /// right and wrap before the plot's right edge.
    /// - Parameters:
    ///   - y: The baseline of the first line.
    ///   - showsEnd: Whether the picture draws the end of the run, which then has an entry too.
    /// - Returns: The SVG and the y of its last line.
    func drawLegend(y: Double, showsEnd: Bool) -> (svg: String, bottom: Double) {
        var svg = "<g class=\"legend\" font-size=\"12\" fill=\"#333333\">\n"
        var flow = LegendFlow(y: y)
        for state in ApplicationState.allCases {
            let x = flow.place(width: 24 + Double(state.rawValue.count) * 7)
            svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(flow.y - 10))\" width=\"18\" height=\"12\" "
                + "fill=\"\(TimelineMark.colour(of: state))\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
                + "<text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(flow.y))\">\(state)</text>\n"
        }
        flow.newLine()
        for (mark, label) in TimelineMark.legendEntries {
            let x = flow.place(width: 16 + Double(label.count) * 7)
            let y2 = flow.y
            switch mark {
            case .allowance:
                svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y2 - 6))\" width=\"12\" height=\"3\" fill=\"\(TimelineMark.allowanceColour)\"/>"
            case .expiration:
                svg += "<rect x=\"\(svgNumber(x + 4.5))\" y=\"\(svgNumber(y2 - 11))\" width=\"3\" height=\"13\" "
                    + "fill=\"\(TimelineMark.expirationColour)\" stroke=\"#222222\" stroke-width=\"0.5\"/>"
            case .state:
                // A change between two states, on a piece of band.
                svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y2 - 11))\" width=\"6\" height=\"13\" fill=\"\(TimelineMark.colour(of: .active))\"/>"
                    + "<rect x=\"\(svgNumber(x + 6))\" y=\"\(svgNumber(y2 - 11))\" width=\"6\" height=\"13\" fill=\"\(TimelineMark.colour(of: .background))\"/>"
                    + "<rect x=\"\(svgNumber(x + 5.5))\" y=\"\(svgNumber(y2 - 11))\" width=\"1\" height=\"13\" fill=\"#ffffff\" fill-opacity=\"0.6\"/>"
            default:
                // Each mark centred on the middle of the label's lower-case letters (y - 4).
                let bandY: Double = switch mark {
                case .exit: y2 - 10 - Self.bandHeight
                case .task: y2 + 4
                case .refused, .warning, .request, .deviceChange: y2 + 10
                default: y2 + 2
                }
                svg += drawMark(TimelineLane.MarkGroup(mark: mark, x: x + 6, lines: [label], count: 1), bandY: bandY, right: .infinity)
            }
            svg += "<text x=\"\(svgNumber(x + 16))\" y=\"\(svgNumber(y2))\">\(xmlEscaped(label))</text>\n"
        }
        flow.newLine()
        for kind in TimelineSpan.Kind.allCases {
            let colours = kind.colours
            let x = flow.place(width: 24 + Double(kind.legend.count) * 7)
            svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(flow.y - 10))\" width=\"18\" height=\"12\" rx=\"2\" "
                + "fill=\"\(colours.fill)\" stroke=\"\(colours.stroke)\" stroke-width=\"0.75\"/>"
                + "<text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(flow.y))\">\(kind.legend)</text>\n"
        }
        var x = flow.place(width: 24 + 11 * 7)
        svg += "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(flow.y - 10))\" width=\"18\" height=\"12\" fill=\"\(Self.deviceLaneFill)\" "
            + "stroke=\"#999999\" stroke-width=\"0.5\"/><text x=\"\(svgNumber(x + 24))\" y=\"\(svgNumber(flow.y))\">Device lane</text>\n"
        x = flow.place(width: 34 + 17 * 7)
        svg += "<text x=\"\(svgNumber(x))\" y=\"\(svgNumber(flow.y))\" font-size=\"10\" fill=\"\(Self.switchLabelColour)\">Home</text>"
            + "<text x=\"\(svgNumber(x + 34))\" y=\"\(svgNumber(flow.y))\">what the user did</text>\n"
        if showsEnd {
            x = flow.place(width: 16 + 14 * 7)
            svg += "<line x1=\"\(svgNumber(x + 6))\" y1=\"\(svgNumber(flow.y - 12))\" x2=\"\(svgNumber(x + 6))\" y2=\"\(svgNumber(flow.y + 3))\" "
                + "stroke=\"#444444\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/><text x=\"\(svgNumber(x + 16))\" y=\"\(svgNumber(flow.y))\">end of the run</text>\n"
        }
        x = flow.place(width: 27 * 7)
        svg += "<text x=\"\(svgNumber(x))\" y=\"\(svgNumber(flow.y))\" fill=\"#777777\">(hover for names and times)</text>\n"
        return (svg + "</g>\n", flow.y)
    }
}

/// Places legend entries left to right from the plot's left edge, starting a new line before an
/// entry would pass the plot's right edge.
private struct LegendFlow {
    static let lineHeight = 22.0
    static let spacing = 16.0
    private(set) var y: Double
    private var x = TimelineRenderer.plotLeft
    private var lineHasEntries = false

    init(y: Double) {
        self.y = y
    }

    /// Where an entry `width` wide starts.
    mutating func place(width: Double) -> Double {
        if lineHasEntries, x + width > TimelineRenderer.plotRight { newLine() }
        let start = x
        x += width + Self.spacing
        lineHasEntries = true
        return start
    }

    /// Ends the line, if anything is on it.
    mutating func newLine() {
        guard lineHasEntries else { return }
        y += Self.lineHeight
        x = TimelineRenderer.plotLeft
        lineHasEntries = false
    }
}
