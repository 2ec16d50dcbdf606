import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// What a scenario app does in each lifecycle callback: the steps, in order, per callback.
///
/// A callback with no steps returns at once.
public struct ScenarioBehaviour: Sendable, Hashable {
    /// The steps for each callback.
    public var steps: [AppCallback: [ScenarioStep]]
    /// The steps the app takes for every system event it receives (`application:didReceive` in
    /// scenario files).
    public var onEvent: [ScenarioStep]

    /// How the app answers background fetches (`application:performFetchWithCompletionHandler`).
    public var fetch: ScenarioFetch?

    /// What each of a scene-based app's scenes hands back for state restoration
    /// (`stateRestorationActivity(for:)`, `stateRestorationActivity` in scenario files): the system asks
    /// as the scene enters the background and hands it back in the session when the scene reconnects
    /// [S76]; `nil` hands back nothing.
    public var restorationActivity: UserActivity?

    /// The steps the app takes each time it observes a notification (a behaviour key spelled as the
    /// notification's name, e.g. `UIApplicationWillResignActiveNotification`): observers the app adds
    /// to its ``/BackgroundBudget/AppNotificationCenter`` as each launch begins.
    public var observed: [AppNotification.Name: [ScenarioStep]] = [:]

    /// The steps a scene-based app's scenes take in the scene callbacks that replace no app-delegate
    /// callback: `scene:willConnectToSession:options` (``/BackgroundBudgetCore/SceneCallback/willConnect``, where the session
    /// carries the activity handed back for restoration) and `sceneDidDisconnect`, keys spelled as the
    /// trace spells the callback. The other scene callbacks take the steps of the callback they
    /// replace (``steps``). An app without scenes never runs them.
    public var sceneSteps: [SceneCallback: [ScenarioStep]] = [:]

    /// The scene callbacks with their own behaviour keys (``sceneSteps``).
    static let sceneOnlyCallbacks = SceneCallback.allCases.filter { $0.replacedAppCallback == nil }

    /// The behaviour key for ``onEvent``.
    static let onEventKey = "application:didReceive"
    /// The behaviour key for ``fetch``.
    static let fetchKey = "application:performFetchWithCompletionHandler"
    /// The behaviour key for ``restorationActivity``.
    static let restorationKey = "stateRestorationActivity"

    /// Creates a behaviour.
    /// - Parameters:
    ///   - steps: The steps for each callback; callbacks left out do nothing.
    ///   - onEvent: The steps for each system event.
    ///   - fetch: How the app answers background fetches; `nil` answers `noData` at once.
    ///   - restorationActivity: What each scene hands back for state restoration; `nil` for nothing.
    public init(_ steps: [AppCallback: [ScenarioStep]] = [:], onEvent: [ScenarioStep] = [], fetch: ScenarioFetch? = nil,
                restorationActivity: UserActivity? = nil) {
        self.steps = steps
        self.onEvent = onEvent
        self.fetch = fetch
        self.restorationActivity = restorationActivity
    }

    /// Reads a `stateRestorationActivity` value: `{"activityType": "…", "userInfo": {"key": "value"}}`,
    /// `userInfo` optional, with string values.
    static func decodeRestorationActivity(_ reader: ScenarioReader) throws(ScenarioError) -> UserActivity {
        let object = try reader.object(accepting: ["activityType", "userInfo"])
        var userInfo: [String: String] = [:]
        if let info = object.optional("userInfo") {
            guard case .object(let members) = info.node.value else {
                throw info.error(.wrongType(expected: "an object", found: info.node.typeName))
            }
            let entries = try info.object(accepting: members.map(\.key))
            for member in members { userInfo[member.key] = try entries.required(member.key).string() }
        }
        return UserActivity(activityType: try object.required("activityType").string(), userInfo: userInfo)
    }
}
