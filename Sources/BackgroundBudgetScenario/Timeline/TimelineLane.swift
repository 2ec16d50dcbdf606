import BackgroundBudgetCore
import BudgetTime

/// One lane of the timeline as the renderer builds it from the trace: an app's state bands, marks,
/// allowances, spans and switch labels, or the Device lane's conditions.
struct TimelineLane {
    /// A stretch of time in one state.
    struct Band {
        var state: ApplicationState
        var from: Int64
        var to: Int64
        var reason: String
    }

    /// Marks of one kind that fall on one pixel column, drawn once with every event in the hover text.
    struct MarkGroup {
        var mark: TimelineMark
        var x: Double
        var lines: [String] = []
        var count = 0
    }

    private struct MarkKey: Hashable {
        var mark: TimelineMark
        var column: Int
    }

    /// Hover texts list at most this many events per mark.
    static let maxTitleLines = 24

    var manifest: AppManifest
    /// Whether this is the Device lane (``AppID/device``), drawn without states.
    var isDevice: Bool
    var bands: [Band] = []
    var marks: [MarkGroup] = []
    private var markIndex: [MarkKey: Int] = [:]
    private var state: ApplicationState = .notRunning
    private var since: Int64 = 0
    private var reason = "initial state"
    /// Background allowances: when each started, when it runs out, and when the app left the
    /// background (nil while it has not).
    var allowances: [(from: Int64, until: Int64, left: Int64?)] = []
    private var tracker = TimelineSpanTracker()
    /// The spans, once ``finish(at:)`` has run.
    var spans: [TimelineSpan] { tracker.spans }
    /// Visible labels of what the user did (`launch`, `Home`, `switched away`, …), at their x.
    var switchLabels: [(x: Double, text: String)] = []

    init(manifest: AppManifest) {
        self.manifest = manifest
        isDevice = manifest.id == .device
    }

    /// Adds one entry of the lane's app; marks and labels only for entries inside the window.
    mutating func record(_ event: TraceEvent, scale: TimelineScale) {
        let t = event.time.nanoseconds
        let mark = TimelineMark(event.kind)
        tracker.record(event)
        if case .allowanceStarted(let until) = event.kind {
            allowances.append((t, until.nanoseconds, nil))
        }
        if case .state(let state) = mark {
            if state != .background, let last = allowances.indices.last, allowances[last].left == nil {
                allowances[last].left = t
            }
            if t > since { bands.append(Band(state: self.state, from: since, to: t, reason: reason)) }
            self.state = state
            since = t
            reason = event.reason ?? ""
        }
        guard scale.contains(t) else { return }
        let x = scale.x(t)
        if let text = Self.switchLabel(event), switchLabels.last.map({ $0.text != text || $0.x != x }) ?? true {
            switchLabels.append((x, text))
        }
        let key = MarkKey(mark: mark, column: Int(x.rounded(.down)))
        let group = markIndex[key] ?? {
            marks.append(MarkGroup(mark: mark, x: x))
            markIndex[key] = marks.count - 1
            return marks.count - 1
        }()
        marks[group].count += 1
        if marks[group].lines.count < Self.maxTitleLines {
            marks[group].lines.append(Self.hoverLine(for: event))
        }
    }

    /// Ends the last band and the open spans at `end`.
    mutating func finish(at end: Int64) {
        if since < end { bands.append(Band(state: state, from: since, to: end, reason: reason)) }
        tracker.finish(at: end)
    }

    /// The visible label for something the user did, or `nil`.
    static func switchLabel(_ event: TraceEvent) -> String? {
        guard case .stateChange(_, let cause) = event.kind else { return nil }
        return switch cause {
        case .launch: "launch"
        case .pressHome: "Home"
        case .switchAway: "switched away"
        case .enterForeground: "opened"
        case .interruptionBegan: "call"
        case .interruptionDismissed: "call dismissed"
        case .interruptionAnswered: "call answered"
        case .killFromAppSwitcher: "swiped away"
        case .purge: "purged"
        case .openScene: "window opened"
        case .closeScene: "window closed"
        case .reclaimScene: "scene reclaimed"
        case .launchInBackground, .suspend, .wake, .terminate, .kill: nil
        }
    }

    /// `t=12.345s applicationDidEnterBackground (reason) code`, for hover texts.
    static func hoverLine(for event: TraceEvent) -> String {
        var text = "t=\(formatSeconds(event.time.nanoseconds))s \(event.eventName)"
        if let state = event.state { text += " → \(state)" }
        if let name = event.name, event.callback == nil { text += " \(name)" }
        if case .deviceChanged(let change) = event.kind { text += " \(change.value)" }
        if let reason = event.reason { text += " (\(reason)\(event.code.map { ", \($0)" } ?? ""))" }
        return text
    }
}

/// The horizontal scale of the timeline: the drawn stretch of time, from ``start`` to ``end`` in
/// nanoseconds, on the plot's width.
struct TimelineScale: Sendable {
    let start: Int64
    let end: Int64
    let left: Double
    let right: Double

    /// The x of an instant (outside the stretch too).
    func x(_ nanoseconds: Int64) -> Double {
        left + Double(nanoseconds - start) * (right - left) / Double(max(end - start, 1))
    }

    /// Whether an instant is in the drawn stretch.
    func contains(_ nanoseconds: Int64) -> Bool {
        (start...end).contains(nanoseconds)
    }

    /// `from...to` cut to the drawn stretch as x coordinates, or `nil` when it is outside.
    func clipped(_ from: Int64, _ to: Int64) -> (x0: Double, x1: Double)? {
        guard to >= start, from <= end, !(to == start && from < start) else { return nil }
        return (x(max(from, start)), x(min(to, end)))
    }
}
