import BudgetTime

/// A silent push's completion handler (the `fetchCompletionHandler` of
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`), as an input.
///
/// Rules: a silent push gives a background app a window of up to ``BudgetPolicy/remoteNotificationWindow``
/// to handle it [S63]; calling the completion handler says the work is done, so the window ends
/// then, and the app is suspended as soon as nothing else holds it. The window is the app's one event
/// window: events delivered during it share it, and the completion ends it for them too. A push
/// delivered in the background whose completion handler is not called before the window ends
/// terminates the app with `0x2182bad4`, as a fetch not completed does [S63][S64].
extension DeviceCore {
    /// The app called its silent push's completion handler with a result: records
    /// ``TraceEvent/Kind/remoteNotificationCompleted(_:)``, ends the app's event window if one is open,
    /// and suspends the app if nothing else keeps it running (once its callback returns, if it is
    /// inside one).
    package mutating func remoteNotificationCompleted(_ result: BackgroundFetchResult, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].state.isExecuting else { return [] }
        record(.remoteNotificationCompleted(result), app, now)
        records[s].process.modify { $0.notifications.pushAwaitingCompletion = false }
        guard records[s].process.modify({ $0.modes.closeWindow() }) == true else { return [] }
        records[s].finishedWork = .eventWindowEnded
        return Decision([disarm(.eventWindow, for: app)] + suspendIfIdle(app, at: now, reason: .eventWindowEnded))
    }

    /// The event window ran out: a silent push delivered in the background and still not completed
    /// terminates the app (`0x2182bad4`) [S63][S64]; `nil` when there is none (the window's usual
    /// rule applies: the app is suspended if nothing else holds it). An app that came to the
    /// foreground meanwhile is not terminated.
    mutating func uncompletedPushWindowEnded(_ app: AppID, at now: BudgetInstant) -> [Effect]? {
        let s = slot(app)
        guard records[s].process.modify({ $0.notifications.takePushAwaitingCompletion() }) == true else { return nil }
        guard records[s].state == .background, !records[s].isTerminating else { return nil }
        return applyValid(.kill(.backgroundFetchNotCompleted), to: app, at: now, invariant: "a background app can be killed")
    }
}
