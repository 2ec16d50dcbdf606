import BudgetTime
extension Application {
    /// Runs `body` after `delay` of the system's clock, on the app's main queue, as work of the app's
    /// current process: it waits while the app is suspended (it runs when the app next runs), and if
    /// the process has ended by then (the app exited, was killed or was purged from memory) it never
    /// runs. This is `DispatchQueue.main.asyncAfter` for the app.
    ///
    /// This is how a policy test or a scenario models work an app started, such as an upload that
    /// finishes 12 s later and then ends its background task:
    ///
    /// ```swift
    /// let task = app.beginBackgroundTask(withName: "upload") { … }
    /// app.runLater(after: .seconds(12)) { app.endBackgroundTask(task) }
    /// ```
    ///
    /// On a ``VirtualClock`` the body runs inline during `VirtualClock.advance`, at its deadline when
    /// the app's queue is idle, after the item the queue runs otherwise. An app not installed in a
    /// system never runs it, and nor does code of a process that has already ended when it calls this.
    public func runLater(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        guard let clock = processClock() else { return }
        clock.schedule(at: clock.now + delay, body)
    }

    /// The process the calling code belongs to when it is this app's code, the app's current process
    /// otherwise (a test, a scenario or another app acting on the app).
    var callerProcess: ProcessContext {
        if let context = ProcessContext.current, context.executor === queue { return context }
        return ProcessContext(executor: queue, epoch: queue.epoch)
    }

    /// The system's clock for the caller's process (see ``callerProcess``), whose work runs on `queue`
    /// (the main queue by default); `nil` when the app is not installed or that process has ended.
    func processClock(on queue: AppExecutor? = nil) -> ProcessClock? {
        guard let clock = system?.clock else { return nil }
        let process = callerProcess
        guard !process.isEnded else { return nil }
        return ProcessClock(base: clock, process: process, queue: queue ?? self.queue)
    }
}
