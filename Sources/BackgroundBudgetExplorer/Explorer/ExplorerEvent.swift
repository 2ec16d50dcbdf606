import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// One step of an explored sequence: time passing, or something the user or the system does.
///
/// A sequence of events becomes a scenario by giving each action the instant the waits before it
/// add up to (``ExplorerFailure/scenarioFile``).
///
/// The events grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum ExplorerEvent: Sendable, Hashable, CustomStringConvertible {
    /// Time passes: timers fire, allowances run out, fetch opportunities come.
    case wait(Duration)
    /// An action of the scenario vocabulary happens now.
    case act(ScenarioAction)
    /// Time passes up to the next thing the system or an app has armed on the clock: an allowance or
    /// a watchdog running out, a pending request's earliest date, a fetch opportunity, an app's own
    /// timer. Refused when nothing is armed. A sequence records it as the wait it took, so a bug hours
    /// out is reached in one event and the sequence replays the same.
    case advance

    /// The actions an explorer can write back into a scenario file; the others (tasks and
    /// submissions with their options, system notifications, continued-processing cancellations)
    /// belong in an app's behaviour or the scenario's own events.
    public var isExplorable: Bool {
        switch self {
        case .wait(let duration): return duration > .zero
        case .advance: return true
        case .act(let action): return Self.fields(of: action) != nil
        }
    }

    /// `wait 10 s`, `advance`, `open com.example.notes`, `setLowPowerMode enabled: true`.
    public var description: String {
        switch self {
        case .wait(let duration): return "wait \(plainNumber(duration.secondsDouble)) s"
        case .advance: return "advance"
        case .act(let action):
            let fields = Self.fields(of: action) ?? []
            let words = fields.map { $0.key == "app" ? $0.value : "\($0.key): \($0.value)" }
            return ([action.name] + words).joined(separator: " ")
        }
    }

    /// The event as a scenario file's event object at an instant.
    func json(at instant: BudgetInstant) -> String? {
        guard case .act(let action) = self, let fields = Self.fields(of: action) else { return nil }
        var members = ["\"at\": \(plainNumber(instant.seconds))", "\"do\": \"\(action.name)\""]
        for field in fields {
            let quoted = field.isText ? jsonString(field.value) : field.value
            members.append("\(jsonString(field.key)): \(quoted)")
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// One key of an action's scenario-file form.
    struct Field {
        let key: String
        let value: String
        let isText: Bool
    }

    /// An action's keys besides `at` and `do`, or `nil` if the explorer does not write it.
    static func fields(of action: ScenarioAction) -> [Field]? {
        func app(_ id: AppID) -> Field { Field(key: "app", value: id.rawValue, isText: true) }
        func flag(_ key: String, _ value: Bool) -> Field { Field(key: key, value: value ? "true" : "false", isText: false) }
        switch action {
        case .launch(let id), .open(let id), .switchTo(let id), .killFromAppSwitcher(let id), .purge(let id):
            return [app(id)]
        case .home, .beginInterruption, .dismissInterruption, .answerInterruption, .reclaimResources, .reboot:
            return []
        case .launchInBackground(let id, let reason):
            return [app(id), Field(key: "reason", value: reason.rawValue, isText: true)]
        case .terminate(let id, let reason):
            return [app(id), Field(key: "reason", value: reason.rawValue, isText: true)]
        case .deliver(let id, let event):
            guard let (kind, region) = eventKind(event) else { return nil }
            return [app(id), Field(key: "event", value: kind, isText: true)]
                + (region.map { [Field(key: "region", value: $0, isText: true)] } ?? [])
        case .setMemoryCapacity(let bytes):
            return [Field(key: "mb", value: plainNumber(Double(bytes) / 1e6), isText: false)]
        case .setFootprint(let id, let bytes):
            return [app(id), Field(key: "mb", value: plainNumber(Double(bytes) / 1e6), isText: false)]
        case .setBackgroundAppRefresh(let enabled, let id):
            return [flag("enabled", enabled)] + (id.map { [app($0)] } ?? [])
        case .setBackgroundAppRefreshRestricted(let restricted): return [flag("restricted", restricted)]
        case .setLowPowerMode(let enabled), .setNetwork(let enabled), .setExternalPower(let enabled),
             .setDeviceIdle(let enabled), .setSystemUnderLoad(let enabled), .setBackgroundGPU(let enabled),
             .setCriticallyLowBattery(let enabled):
            return [flag("enabled", enabled)]
        case .startActivity(let id, let activity), .stopActivity(let id, let activity):
            return [app(id), Field(key: "activity", value: activity.rawValue, isText: true)]
        case .openScene(let id): return [app(id)]
        case .closeScene(let id, let scene), .reclaimScene(let id, let scene):
            return [app(id), Field(key: "scene", value: scene.rawValue, isText: true)]
        case .beginTask, .post, .submitTask, .cancelContinuedTask:
            return nil
        }
    }

    /// The scenario file's `event` name for a background event, and its region.
    private static func eventKind(_ event: BackgroundEvent) -> (String, String?)? {
        switch event {
        case .significantLocationChange: ("significantLocationChange", nil)
        case .regionBoundary(let region): ("regionBoundary", region)
        case .silentPush: ("silentPush", nil)
        case .voipPush: ("voipPush", nil)
        case .bluetooth(.central): ("bluetoothCentral", nil)
        case .bluetooth(.peripheral): ("bluetoothPeripheral", nil)
        case .accessory: ("accessory", nil)
        case .newsstandDownload: ("newsstandDownload", nil)
        }
    }
}
