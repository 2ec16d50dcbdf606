import BackgroundBudgetRuntime
import BudgetClock
import BackgroundBudgetCore
import BackgroundBudgetExplorer
import BudgetTime

extension Scenario {
    /// Runs the scenario on a fresh ``/BudgetClock/VirtualClock`` and returns what happened.
    ///
    /// The clock moves to each event's time and the event happens; after the last event the clock
    /// runs to ``/BackgroundBudgetExplorer/Scenario/end``. Apps perform their ``/BackgroundBudgetExplorer/ScenarioBehaviour`` in each callback.
    /// - Parameter limits: How much work the run may do before it is stopped;
    ///   ``/BackgroundBudgetExplorer/ScenarioRunLimits/standard(for:)`` by default (a million trace events and more, scaled to
    ///   the number of events).
    /// - Returns: The complete trace, with the apps and the instant the run stopped.
    /// - Throws: ``/BackgroundBudgetExplorer/ScenarioError`` when the scenario is invalid (``/BackgroundBudgetExplorer/Scenario/validate()``), or when the
    ///   lifecycle refuses an event (``/BackgroundBudgetExplorer/ScenarioError/Problem/eventRefused(_:)``, with the event's
    ///   path), the user cancels a task that does not exist (``/BackgroundBudgetExplorer/ScenarioError/Problem/taskNotFound(_:)``),
    ///   or the run passes one of its `limits` (``/BackgroundBudgetExplorer/ScenarioError/Problem/runLimitExceeded(_:limit:seconds:)``,
    ///   at the event being performed, the event the clock was moving to (`$.events[3].at`), or `$.end`):
    ///   the run stops there and no trace is returned.
    public func run(limits: ScenarioRunLimits? = nil) throws(ScenarioError) -> ScenarioRun {
        try validate()
        let limits = limits ?? .standard(for: self)
        let clock = VirtualClock()
        let system: BackgroundSystem
        do {
            system = try BackgroundSystem(policy: policy, clock: clock)
        } catch {
            throw ScenarioError(.invalidPolicy(error), path: "$.policy")
        }
        let watch = RunWatch(limits: limits, system: system)
        clock.installRunGuard { watch.mayContinue() }
        defer { clock.removeRunGuard() }   // the guard holds the system, which holds the clock
        var installed: [AppID: Application] = [:]
        for (index, app) in apps.enumerated() {
            do {
                let delegate = ScenarioDelegate(app.behaviour)
                let application = try system.install(app.manifest, delegate: delegate)
                if app.manifest.usesScenes { application.sceneDelegate = delegate }
                installed[app.manifest.id] = application
            } catch {
                // validate() has checked the identifiers; kept for a system that grows new rules.
                throw ScenarioError(.invalidBundleIdentifier(error.description), path: "$.apps[\(index)].id")
            }
        }
        let stage = ScenarioStage(system: system, apps: installed)
        for (index, event) in events.enumerated() {
            clock.advance(to: event.at)
            try watch.check(clock, path: "$.events[\(index)].at", position: event.position)
            do {
                try event.action.perform(in: stage)
            } catch {
                throw ScenarioError(error.problem, path: "$.events[\(index)]", position: event.position)
            }
            try watch.check(clock, path: "$.events[\(index)]", position: event.position)
        }
        clock.advance(to: endInstant)
        try watch.check(clock, path: end == nil ? "$.events[\(max(events.count - 1, 0))]" : "$.end", position: end == nil ? events.last?.position : nil)
        return ScenarioRun(trace: system.trace, apps: apps.map(\.manifest), end: clock.now, description: description)
    }
}

/// The outcome of ``BackgroundBudgetExplorer/Scenario/run(limits:)``: the complete trace, and what its renderers need to know.
///
/// ```swift
/// let run = try Scenario(json: text).run()
/// print(run.rendered(as: .log))
/// try run.rendered(as: .svg).write(…)   // a timeline to open in a browser
/// ```
public struct ScenarioRun: Sendable, Hashable {
    /// Everything that happened, in order.
    public var trace: Trace
    /// The apps, in the scenario's order (the timeline's lanes, the log's process names).
    public var apps: [AppManifest]
    /// The instant the run stopped: the scenario's end, or later if a callback worked past it.
    public var end: BudgetInstant
    /// The scenario's description.
    public var description: String

    /// Creates a run result, for rendering a trace recorded elsewhere.
    /// - Parameters:
    ///   - trace: The trace.
    ///   - apps: The apps, in lane order.
    ///   - end: The instant the timeline ends.
    ///   - description: A caption for the timeline.
    public init(trace: Trace, apps: [AppManifest], end: BudgetInstant, description: String = "") {
        self.trace = trace
        self.apps = apps
        self.end = end
        self.description = description
    }

    /// The output formats of a run.
    ///
    /// The set is closed, so this is a plain enum: a `switch` over it needs no `default`.
    public enum Format: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `NSLog`-style lines with each app's display name (``/BackgroundBudgetCore/Trace/logLines(_:)``).
        case log
        /// JSON Lines (``/BackgroundBudgetCore/Trace/jsonLines()``), as <doc:/BackgroundBudgetCore/TraceFormat> documents.
        case jsonl
        /// A self-contained SVG timeline of the whole run: one lane per app, a band per state, marks
        /// for callbacks, labelled bars for activities, tasks and fetches, and a Device lane with the
        /// device's conditions (``ScenarioRun/timeline(from:to:)`` draws a window).
        case svg

        /// The format's name.
        public var description: String { rawValue }
    }

    /// The SVG timeline of a window of the run: from `from` (the start when `nil`) to `to` (the end when
    /// `nil`), as `bgbudget run FILE --format svg --from 6h --to 9h` draws it.
    ///
    /// ```swift
    /// let morning = try run.timeline(from: .seconds(6 * 3600), to: .seconds(9 * 3600))
    /// ```
    /// - Throws: ``TimelineWindowError`` when a bound is after the run's end or the window is empty.
    public func timeline(from: BudgetInstant? = nil, to: BudgetInstant? = nil) throws(TimelineWindowError) -> String {
        let window = from == nil && to == nil ? nil : try TimelineWindow(from: from, to: to, runEnd: end)
        return TimelineRenderer(run: self, window: window).render()
    }

    /// The trace rendered in a format; every format ends with a newline and is deterministic.
    /// - Parameter format: The format.
    public func rendered(as format: Format) -> String {
        switch format {
        case .log:
            let names = Dictionary(apps.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
            return trace.logLines(LogLineStyle(processNames: names))
        case .jsonl:
            return trace.jsonLines()
        case .svg:
            return TimelineRenderer(run: self, window: nil).render()
        }
    }
}
