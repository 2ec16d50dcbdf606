import BackgroundBudget

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
    /// do not pass `end`.
    /// - Throws: ``ScenarioError`` for the first problem, with the JSONPath of the value concerned.
    public func validate() throws(ScenarioError) {
        do {
            try policy.validate()
        } catch {
            throw ScenarioError(.invalidPolicy(error), path: "$.policy")
        }
        let declared = try Self.checkIdentifiers(of: apps, at: apps.indices.map { "$.apps[\($0)].id" })
        let limit = BudgetInstant(nanoseconds: Int64(Self.maxSeconds * 1e9))
        if let end, end < .zero || end > limit {
            throw ScenarioError(.outOfRange(end.seconds, accepted: "seconds from 0 to \(plainNumber(Self.maxSeconds))"), path: "$.end")
        }
        var previous = BudgetInstant.zero
        for (index, event) in events.enumerated() {
            let path = "$.events[\(index)]"
            if event.at < .zero || event.at > limit {
                throw ScenarioError(.outOfRange(event.at.seconds, accepted: "seconds from 0 to \(plainNumber(Self.maxSeconds))"),
                                    path: path + ".at", position: event.position)
            }
            if event.at < previous {
                throw ScenarioError(.timeGoesBackwards(seconds: event.at.seconds, previous: previous.seconds),
                                    path: path + ".at", position: event.position)
            }
            if let end, event.at > end {
                throw ScenarioError(.afterEnd(seconds: event.at.seconds, end: end.seconds), path: path + ".at", position: event.position)
            }
            if let app = event.action.app, !declared.contains(app) {
                throw ScenarioError(.unknownApp(app, declared: apps.map(\.manifest.id)), path: path + ".app", position: event.position)
            }
            previous = event.at
        }
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

/// Device settings for a scenario. Reserved: later versions add Background App Refresh, Low Power
/// Mode and memory settings here; a scenario file's `"device"` object must be empty for now.
public struct ScenarioDevice: Sendable, Hashable {
    /// Creates the default device.
    public init() {}
}

/// An app of a scenario: its Info.plist keys and what it does in its callbacks.
public struct ScenarioApp: Sendable, Hashable {
    /// The app's identity and Info.plist keys.
    public var manifest: AppManifest
    /// What the app does in each callback.
    public var behaviour: ScenarioBehaviour

    /// Creates a scenario app.
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - behaviour: What it does in each callback; nothing by default.
    public init(_ manifest: AppManifest, behaviour: ScenarioBehaviour = ScenarioBehaviour()) {
        self.manifest = manifest
        self.behaviour = behaviour
    }
}

/// Something that happens at an instant of a scenario.
public struct ScenarioEvent: Sendable, Hashable {
    /// When it happens. If an app's callback is still working at that instant (a `work` step), the
    /// event happens as soon as the callback returns, as a tap waits for a busy main thread.
    public var at: BudgetInstant
    /// What happens.
    public var action: ScenarioAction
    /// Where the event starts in the scenario file, if it came from one.
    public var position: SourcePosition?

    /// Creates an event.
    /// - Parameters:
    ///   - at: When it happens.
    ///   - action: What happens.
    ///   - position: Where it is in a scenario file, if anywhere.
    public init(at: BudgetInstant, _ action: ScenarioAction, position: SourcePosition? = nil) {
        self.at = at
        self.action = action
        self.position = position
    }

    /// Events are equal when they happen at the same instant and do the same; where they were
    /// written does not matter.
    public static func == (lhs: ScenarioEvent, rhs: ScenarioEvent) -> Bool {
        lhs.at == rhs.at && lhs.action == rhs.action
    }

    /// Hashes the instant and the action.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(at)
        hasher.combine(action)
    }
}
