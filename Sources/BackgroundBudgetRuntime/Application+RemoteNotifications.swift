import BackgroundBudgetCore

extension Application {
    /// Calls the completion handler of the silent push being handled (the `fetchCompletionHandler` of
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`): the trace records
    /// `remoteNotificationCompleted` with the result, the push's event window ends at once, and a
    /// background app that nothing else holds is suspended (after the callback returns, if called
    /// inside ``ApplicationDelegate/application(_:didReceive:)``). Without it a push delivered in the
    /// background is not done when ``BudgetPolicy/remoteNotificationWindow`` runs out, and the app is
    /// terminated then with `0x2182bad4` [S63][S64].
    /// - Parameter result: What the push's work found; recorded in the trace.
    public func completeRemoteNotification(_ result: BackgroundFetchResult = .newData) {
        system?.decide { [id] core, now in core.remoteNotificationCompleted(result, app: id, at: now) }
    }
}
