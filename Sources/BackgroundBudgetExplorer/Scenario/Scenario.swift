import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// A story to run on the virtual clock: the policy, the device, the apps and what each does in its
/// callbacks, and what happens when.
///
/// Scenarios usually come from a JSON file (the *Scenario format* article documents every key) and
/// run with the `bgbudget` tool; the same type runs them in-process, which is how the test suite
/// checks every example:
///
/// ```swift
/// let scenario = try Scenario(json: """
///     {"apps": [{"id": "com.example.news"}],
///      "events": [{"at": 0, "do": "open", "app": "com.example.news"},
///                 {"at": 4, "do": "home"}]}
///     """)
/// let run = try scenario.run()
/// print(run.logLines())
/// // … applicationDidEnterBackground: at 4 s, then (state: suspended, reason: noBackgroundWork)
/// ```
///
/// The same scenario always gives the same trace, byte for byte.
public struct Scenario: Sendable, Hashable {
    /// The longest time a scenario may name, in seconds (about 31 years): events, `end` and step
    /// durations stay far inside the clock's nanosecond range.
    public static let maxSeconds: Double = 1e9

    /// What the scenario teaches, in a sentence or two; printed above the timeline.
    public var description: String
    /// The limits the device enforces.
    public var policy: BudgetPolicy
    /// Device settings (none yet).
    public var device: ScenarioDevice
    /// The installed apps, in lane order.
    public var apps: [ScenarioApp]
    /// What happens, in time order; events at the same instant happen in this order.
    public var events: [ScenarioEvent]
    /// When the scenario stops: the clock runs to here after the last event. `nil` stops at the
    /// last event.
    public var end: BudgetInstant?

    /// Creates a scenario.
    /// - Parameters:
    ///   - description: What the scenario teaches.
    ///   - policy: The limits; ``/BackgroundBudgetCore/BudgetPolicy/iOS13`` by default.
    ///   - device: Device settings.
    ///   - apps: The installed apps.
    ///   - events: What happens, in time order.
    ///   - end: When the run stops; `nil` stops at the last event.
    public init(description: String = "", policy: BudgetPolicy = .iOS13, device: ScenarioDevice = ScenarioDevice(),
                apps: [ScenarioApp], events: [ScenarioEvent], end: BudgetInstant? = nil) {
        self.description = description
        self.policy = policy
        self.device = device
        self.apps = apps
        self.events = events
        self.end = end
    }

    /// The instant the run stops at (before any callback work runs past it).
    public var endInstant: BudgetInstant {
        end ?? events.last?.at ?? .zero
    }

    /// Checks everything that does not need a run: the policy, app identifiers (valid, unique),
    /// that every event names a declared app, that times are within range, never go backwards and
    /// do not pass `end`, and that steps which read a scene are in scene callbacks.
    /// - Throws: ``ScenarioError`` for the first problem, with the JSONPath of the value concerned.
    public func validate() throws(ScenarioError) {
        if let first = validationProblems(limit: 1).first { throw first }
    }

    /// Every problem ``validate()`` checks for, in order, at most `limit` of them.
    /// - Parameters:
    ///   - idPaths: The path to report each app's identifier at; `$.apps[i].id` by default.
    ///   - limit: The most problems to return.
    func validationProblems(idPaths: [String]? = nil, limit: Int) -> [ScenarioError] {
        var problems: [ScenarioError] = []
        func add(_ problem: ScenarioError) -> Bool {
            problems.append(problem)
            return problems.count >= limit
        }
        do {
            try policy.validate()
        } catch {
            if add(ScenarioError(.invalidPolicy(error), path: "$.policy")) { return problems }
        }
        var declared: Set<AppID> = []
        var firstPath: [AppID: String] = [:]
        for (app, path) in zip(apps, idPaths ?? apps.indices.map { "$.apps[\($0)].id" }) {
            declared.insert(app.manifest.id)
            if let why = app.manifest.id.validationProblem {
                if add(ScenarioError(.invalidBundleIdentifier(why), path: path)) { return problems }
            } else if let first = firstPath[app.manifest.id] {
                if add(ScenarioError(.duplicateApp(app.manifest.id, firstPath: first), path: path)) { return problems }
            } else {
                firstPath[app.manifest.id] = path
            }
        }
        let limitInstant = BudgetInstant(nanoseconds: Int64(Self.maxSeconds * 1e9))
        let range = "seconds from 0 to \(plainNumber(Self.maxSeconds))"
        if let end, end < .zero || end > limitInstant {
            if add(ScenarioError(.outOfRange(end.seconds, accepted: range), path: "$.end")) { return problems }
        }
        var previous = BudgetInstant.zero
        for (index, event) in events.enumerated() {
            let path = "$.events[\(index)]"
            var problem: ScenarioError?
            if event.at < .zero || event.at > limitInstant {
                problem = ScenarioError(.outOfRange(event.at.seconds, accepted: range), path: path + ".at", position: event.position)
            } else if event.at < previous {
                problem = ScenarioError(.timeGoesBackwards(seconds: event.at.seconds, previous: previous.seconds),
                                        path: path + ".at", position: event.position)
            } else if let end, event.at > end {
                problem = ScenarioError(.afterEnd(seconds: event.at.seconds, end: end.seconds), path: path + ".at", position: event.position)
            } else if let app = event.action.app, !declared.contains(app) {
                problem = ScenarioError(.unknownApp(app, declared: apps.map(\.manifest.id)), path: path + ".app", position: event.position)
            }
            if let problem, add(problem) { return problems }
            // A time out of order is reported once, not again at every later event.
            previous = max(previous, event.at)
        }
        for (index, app) in apps.enumerated() {
            for problem in app.behaviour.sceneStepProblems(sceneBased: app.manifest.sceneManifest != nil, at: "$.apps[\(index)].behaviour")
            where add(problem) { return problems }
        }
        return problems
    }

    /// Checks that every app's identifier is valid and unique, reporting each at its own path (an
    /// app read from an Info.plist is reported at its `infoPlist` key).
    /// - Returns: The identifiers.
    static func checkIdentifiers(of apps: [ScenarioApp], at paths: [String]) throws(ScenarioError) -> Set<AppID> {
        var firstPath: [AppID: String] = [:]
        for (app, path) in zip(apps, paths) {
            if let why = app.manifest.id.validationProblem { throw ScenarioError(.invalidBundleIdentifier(why), path: path) }
            if let first = firstPath[app.manifest.id] { throw ScenarioError(.duplicateApp(app.manifest.id, firstPath: first), path: path) }
            firstPath[app.manifest.id] = path
        }
        return Set(firstPath.keys)
    }
}
