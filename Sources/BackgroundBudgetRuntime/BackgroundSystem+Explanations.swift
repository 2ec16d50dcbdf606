import BackgroundBudgetCore

extension BackgroundSystem {
    /// Why an app gets no background fetch now: every condition not met (no `fetch` mode, task
    /// scheduler identifiers, exits on suspend, interval `never`, each Background App Refresh switch
    /// that is off — restricted, the device's, Low Power Mode, the app's —, a user kill, on screen, a
    /// fetch running), and when the next opportunity is and how much recent results
    /// stretched the gap.
    /// - Parameter app: The app.
    /// - Precondition: `app` was installed on this system.
    public func explainBackgroundFetch(of app: Application) -> FetchExplanation {
        requireInstalled(app)
        let now = clock.now
        return state.withLock { $0.core.explainFetch(app.id, at: now) }
    }
}

extension BackgroundSystem {
    /// Why an app is in its state: what keeps it running, why it was last suspended, and what stands in
    /// the way of a background relaunch.
    /// - Parameter app: The app.
    /// - Precondition: `app` was installed on this system.
    public func explain(_ app: Application) -> Explanation {
        requireInstalled(app)
        let now = clock.now
        return state.withLock { $0.core.explain(app.id, at: now) }
    }
}
