import BudgetTime

/// The trace shows what ran, in the order it ran: the entries of a delivery's steps (its callbacks, the
/// state changes the app sees, and what entering a state decided) are held back when the system
/// decides the delivery, and recorded as the app's queue reaches them. A step that never runs (its
/// process ended first) never appears.
extension DeviceCore {
    /// Entries held back until the app's queue reaches a step: the entries up to and including a
    /// callback, recorded when it starts, or, with no callback, the entries after a delivery's last
    /// callback, recorded when that callback returns.
    package struct HeldSteps: Sendable, Hashable {
        /// The entries, in decision order; each is stamped again when recorded.
        package internal(set) var entries: [TraceEvent]
        /// The callback whose start records them; `nil` for the entries after a delivery's last callback.
        package private(set) var callback: CallbackKey?
    }

    /// An app-delegate or scene-delegate callback of a delivery.
    package enum CallbackKey: Sendable, Hashable {
        /// An app-delegate callback.
        case app(AppCallback)
        /// A scene-delegate callback for one scene.
        case scene(SceneCallback, SceneID)

        /// The key of a step, when it is a callback.
        init?(_ step: LifecycleStep) {
            switch step {
            case .callback(let callback): self = .app(callback)
            case .sceneCallback(let callback, let scene): self = .scene(callback, scene)
            case .enter, .exit, .notification, .sceneState: return nil
            }
        }
    }

    /// Starts a decision: entries recorded from now on go to the trace at once, unless the decision
    /// gives an app a delivery with callbacks (then what it records for that app follows the
    /// delivery's steps, as the work it queues runs after them). The shell calls it under its lock
    /// before each decision.
    package mutating func beginDecision() {
        holdsBehind = []
    }

    /// Runs `body` with every trace entry it records held back instead, and returns them.
    mutating func holdingEntries<Value>(_ body: (inout DeviceCore) -> Value) -> (Value, [TraceEvent]) {
        let outer = held
        held = []
        let value = body(&self)
        let entries = held ?? []
        held = outer
        return (value, entries)
    }

    /// Records the held entries the app's queue has now reached, stamped `now`: when `callback` starts,
    /// the entries up to it; when it returns (`callback` is `nil`), the entries after a delivery's last
    /// callback.
    mutating func recordHeldSteps(_ app: AppID, starting callback: CallbackKey?, at now: BudgetInstant) {
        let s = slot(app)
        guard let first = records[s].heldSteps.first, first.callback == callback else { return }
        records[s].process.modify { $0.heldSteps.removeFirst() }
        for var entry in first.entries {
            entry.time = now
            trace.append(entry, retention: retention)
        }
    }
}

extension DeviceCore.AppRecord {
    /// Holds an entry until the app's queue has run every step held so far.
    mutating func holdAfterSteps(_ entry: TraceEvent) {
        if case .some(nil) = heldSteps.lastCallback {
            process.modify { $0.heldSteps.appendToLast(entry) }
        } else {
            process.modify { $0.heldSteps.append(DeviceCore.HeldSteps(entries: [entry], callback: nil)) }
        }
    }
}
