extension Application {
    /// Runs `body` after `delay` of the system's clock, as work of the app's current process: if the
    /// process has ended by then (the app exited, was killed or was purged from memory), `body` does
    /// not run.
    ///
    /// This is how a policy test or a scenario models work an app started, such as an upload that
    /// finishes 12 s later and then ends its background task:
    ///
    /// ```swift
    /// let task = app.beginBackgroundTask(withName: "upload") { … }
    /// app.runLater(after: .seconds(12)) { app.endBackgroundTask(task) }
    /// ```
    ///
    /// The body runs on the clock's thread (inline during `VirtualClock.advance`), not on the app's
    /// queue. An app not installed in a system never runs it, and nor does code of a process that has
    /// already ended when it calls this.
    public func runLater(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        guard let clock = system?.clock, !callerProcessEnded else { return }
        // Work started by one incarnation of the app dies with it, and runs as that process's code.
        let context = ProcessContext(executor: queue, epoch: queue.epoch)
        clock.schedule(at: clock.now + delay) {
            guard !context.isEnded else { return }
            context.run(body)
        }
    }
}
