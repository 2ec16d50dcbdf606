import BackgroundBudgetCore
import BudgetLock
import BackgroundBudgetRuntime


/// A finite background task a scenario app begins: how long its work takes and what the app does when
/// the task's expiration handler runs.
///
/// ```json
/// {"do": "beginTask", "name": "upload", "work": 12, "onExpiration": "end"}
/// ```
///
/// The work runs off the app's queue (as an upload on a background thread would) and ends the task
/// when it is done; without `work` the task is never ended by its work. `onExpiration` is `end` (the
/// app ends the task in its expiration handler, as it should) or `ignore` (it does not, and the app
/// is terminated when the allowance runs out). A task is ended at most once either way, and work
/// still running when the app terminates dies with it.
public struct ScenarioTask: Sendable, Hashable {
    /// What the app does when the task's expiration handler runs.
    ///
    /// The set is closed, so this is a plain enum: a `switch` over it needs no `default`.
    public enum ExpirationResponse: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// End the task.
        case end
        /// Do nothing.
        case ignore

        /// The response's name.
        public var description: String { rawValue }
    }

    /// The name passed to `beginBackgroundTask`.
    public var name: String?
    /// How long the task's work takes; `nil` for work that never finishes by itself.
    public var work: Duration?
    /// What the expiration handler does.
    public var onExpiration: ExpirationResponse

    /// Creates a task description.
    /// - Parameters:
    ///   - name: The task's name.
    ///   - work: How long its work takes, or `nil`.
    ///   - onExpiration: What the expiration handler does; ``ExpirationResponse/end`` by default.
    public init(name: String? = nil, work: Duration? = nil, onExpiration: ExpirationResponse = .end) {
        self.name = name
        self.work = work
        self.onExpiration = onExpiration
    }

    /// The keys a task takes in scenario files.
    static let keys = ["name", "work", "onExpiration"]

    /// Reads a task's keys from a step or event.
    static func decode(_ reader: ObjectReader) throws(ScenarioError) -> ScenarioTask {
        ScenarioTask(name: try reader.optional("name")?.string(),
                     work: try reader.optional("work")?.seconds(),
                     onExpiration: try reader.optional("onExpiration")?.oneOf(ExpirationResponse.self) ?? .end)
    }

    /// Begins the task now and arranges for its work and expiration handler.
    func begin(in application: Application) {
        // A cell the explorer's snapshots save: restored, a task the snapshot saw open is open again.
        let initial = (id: BackgroundTaskIdentifier.invalid, ended: false)
        let state = application.system?.restorableCell(initial) ?? RestorableCell(initial)
        let endOnce: @Sendable () -> Void = {
            let id = state.withLock { state -> BackgroundTaskIdentifier? in
                guard !state.ended, state.id != .invalid else { return nil }
                state.ended = true
                return state.id
            }
            if let id { application.endBackgroundTask(id) }
        }
        let response = onExpiration
        let id = application.beginBackgroundTask(withName: name) {
            if response == .end { endOnce() }
        }
        state.withLock { $0.id = id }
        guard id != .invalid, let work else { return }
        // Work started by one incarnation of the app dies with it.
        application.runInBackground(after: work, endOnce)
    }
}
