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
    ///
    /// An app that is not running has no process: work addressed to it from outside is refused (the
    /// context returned is ended), never run as code of a process that does not exist, nor kept for the
    /// next launch (the *App code and its process* article says why). The check is made under the
    /// system's lock, where launches and exits are decided: an exit after it ends the context it returns.
    var callerProcess: ProcessContext {
        if let context = ProcessContext.current, context.executor === queue { return context }
        guard let system else { return ProcessContext(executor: queue, epoch: queue.epoch) }
        return system.state.withLock { state in
            state.core.state(of: id) == .notRunning ? .noProcess(queue) : ProcessContext(executor: queue, epoch: queue.epoch)
        }
    }

    /// Whether the calling code is this app's code (of a live process or an ended one).
    var isCallerAppCode: Bool {
        ProcessContext.current?.executor === queue
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
