/// Work an app runs off its main queue, as on a background thread.
import BudgetTime

extension Application {
    /// Runs `body` after `delay` of the system's clock off the app's main queue, as work on a
    /// background thread would (`DispatchQueue.global().asyncAfter`, an upload's completion on a
    /// `URLSession` delegate queue): never delayed by a busy main queue, but still code of the calling
    /// process.
    ///
    /// The work runs on a serial queue of the process's own (made on first use, like
    /// ``makeQueue(label:)``): it waits while the app is suspended, as every thread of a suspended app
    /// does, and never runs once the process has ended [S1][S3]. A long
    /// `applicationDidEnterBackground` on the main queue does not hold it back:
    ///
    /// ```swift
    /// let task = app.beginBackgroundTask(withName: "upload")
    /// app.runInBackground(after: .seconds(8)) { app.endBackgroundTask(task) }   // at +8 s, whatever the main queue does
    /// ```
    ///
    /// ``runLater(after:_:)`` is the main queue's `asyncAfter`: use it for work that must run between
    /// callbacks. One serial queue stands for the app's background threads (a model assumption: two
    /// pieces of work due at the same instant run one after the other, in the order they were
    /// scheduled). On a ``VirtualClock`` the body runs inline at its deadline, even inside a callback's
    /// ``simulateWork(for:)``. Code of an ended process, or code outside the app while it is not
    /// running, schedules nothing.
    /// - Parameters:
    ///   - delay: How long after now, on the system's clock; zero (the default) runs it as soon as the
    ///     queue can.
    ///   - body: The work.
    public func runInBackground(after delay: Duration = .zero, _ body: @escaping @Sendable () -> Void) {
        guard let executor = backgroundExecutor() else { return }
        guard delay > .zero else {
            executor.enqueue(body)
            executor.drain()
            return
        }
        guard let clock = processClock(on: executor) else { return }
        clock.schedule(at: clock.now + delay, body)
    }

    /// The calling process's background queue, made on first use and registered with its made queues
    /// (suspended, resumed and ended with the app); `nil` when there is no process to run it.
    private func backgroundExecutor() -> AppExecutor? {
        let process = callerProcess
        guard let system, !process.isEnded else { return nil }
        return system.state.withLock { state -> AppExecutor? in
            // Under the system's lock, as suspensions are performed (see `makeQueue(label:)`).
            guard !process.isEnded else { return nil }
            if let made = state.closures[id]?.backgroundQueue, made.owner?.epoch == process.epoch { return made }
            let backend = AppExecutor.backend(label: "\(id.rawValue).background", clock: system.clock)
            let executor = AppExecutor(backend: backend, owner: process)
            state.closures[id, default: AppClosures()].queues.append(executor)
            state.closures[id, default: AppClosures()].backgroundQueue = executor
            if queue.state.withLock({ $0.suspended }) { executor.suspend() }
            return executor
        }
    }
}
