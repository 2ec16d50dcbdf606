import BackgroundBudgetCore
import BudgetTime

extension BackgroundSystem {
    /// Takes a decision that may turn Low Power Mode on or off and, when it does, posts
    /// `NSProcessInfoPowerStateDidChangeNotification` to every app in memory whose process observes it.
    ///
    /// Apple posts it "when the power state of a device changes", on a global dispatch queue
    /// (Foundation's reference; the *Energy Efficiency Guide for iOS Apps*). The model runs the observers
    /// as the app's code on its main queue, after what the same decision delivered (the
    /// `backgroundRefreshStatusDidChangeNotification` that Low Power Mode's Background App Refresh
    /// switch causes comes first): a suspended app's observers run when it next runs, and never if its
    /// process ends first (a model assumption). Apps with no such observer get nothing queued.
    func changingPowerState(_ body: (inout DeviceCore, BudgetInstant) -> Decision<Void>) {
        let observing = decide { (state: inout State, now: BudgetInstant) -> Decision<[PowerStateObserver]> in
            let before = state.core.settings.lowPowerMode
            let decision = body(&state.core, now)
            guard state.core.settings.lowPowerMode != before else { return Decision([], effects: decision.effects) }
            let apps = state.installOrder.compactMap { id -> PowerStateObserver? in
                guard let app = state.handles[id], state.core.state(of: id) != .notRunning else { return nil }
                // Read under the system's lock, where processes end: the epoch is the running process's.
                let epoch = app.queue.epoch
                guard app.notificationCenter.hasObservers(of: .processInfoPowerStateDidChange, process: epoch) else { return nil }
                return PowerStateObserver(app: app, process: epoch)
            }
            return Decision(apps, effects: decision.effects)
        }
        for observer in observing {
            let app = observer.app
            // For that process only: dropped, and counted, if it ends before the queue reaches it.
            app.queue.enqueue({ app.postFromSystem(AppNotification(name: .processInfoPowerStateDidChange)) }, for: observer.process)
            app.queue.drain()
        }
    }

    /// An app in memory that observes the power state, and the process that does.
    struct PowerStateObserver: Sendable {
        let app: Application
        let process: UInt64
    }
}
