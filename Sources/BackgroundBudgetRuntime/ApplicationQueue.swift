import BudgetTime
import BackgroundBudgetCore
import BudgetClock

#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// A serial queue an app made, like a `DispatchQueue(label:)` of its own: its work runs one item at a
/// time, beside the app's main queue, as code of the process that made it.
///
/// It belongs to that process, which keeps it until it ends: it stops starting work the moment the app is suspended and starts again
/// when the app runs, and when the process ends (an exit, a kill, a purge from memory) its queued work
/// is dropped (counted in the trace's `workDropped`) and anything submitted to it later is ignored. On a
/// ``VirtualClock`` it runs inline, deterministically, on the thread that submits or advances the
/// clock; on a real clock it is a serial `DispatchQueue` suspended with the app.
///
/// ```swift
/// func applicationDidEnterBackground(_ application: Application) {
///     let task = application.beginBackgroundTask(withName: "save")
///     let io = application.makeQueue(label: "com.example.io")
///     io.async { save() }
///     io.asyncAfter(.seconds(2)) { application.endBackgroundTask(task) }
/// }
/// ```
public final class ApplicationQueue: Sendable {
    /// The label the queue was made with.
    public let label: String
    /// The app that made it.
    public let application: Application
    let executor: AppExecutor

    init(label: String, application: Application, executor: AppExecutor) {
        self.label = label
        self.application = application
        self.executor = executor
    }

    /// Submits work: it runs after the work submitted before it, waits while the app is suspended, and
    /// is dropped if the process ends first. Code of an ended process submits nothing.
    /// - Parameter work: The work.
    public func async(_ work: @escaping @Sendable () -> Void) {
        guard !application.callerProcessEnded else { return }
        executor.enqueue(work)
        executor.drain()
    }

    /// Submits work after `delay` of the system's clock (`asyncAfter(deadline:)`): at the deadline it is
    /// queued like ``async(_:)``, so it waits while the app is suspended and never runs once the process
    /// has ended.
    /// - Parameters:
    ///   - delay: How long after now, on the system's clock.
    ///   - work: The work.
    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        guard let clock = application.processClock(on: executor) else { return }
        clock.schedule(at: clock.now + delay, work)
    }
}

extension Application {
    /// Makes a serial queue that belongs to the calling code's process, like `DispatchQueue(label:)`:
    /// suspended with the app, and ended with the process (see ``ApplicationQueue``).
    ///
    /// A queue made by code of a process that has already ended, or for an app no longer on a system,
    /// runs nothing.
    /// - Parameter label: A name for the queue (a dispatch queue's label on a real clock).
    /// - Returns: The queue.
    public func makeQueue(label: String) -> ApplicationQueue {
        let process = callerProcess
        let executor = AppExecutor(backend: AppExecutor.backend(label: "\(id.rawValue).\(label)", clock: system?.clock), owner: process)
        system?.state.withLock { state in
            // Under the system's lock, as suspensions are performed: the queue starts suspended if the
            // app is, and cannot miss a suspension or the end of the process. A queue of an ended
            // process is not registered: its owner's end already drops everything submitted to it.
            guard !process.isEnded else { return }
            state.closures[id, default: AppClosures()].queues.append(executor)
            if queue.state.withLock({ $0.suspended }) { executor.suspend() }
        }
        return ApplicationQueue(label: label, application: self, executor: executor)
    }

    /// Applies `body` to every queue the app's current process made, under the system's lock (the
    /// suspension, resumption and end of a process).
    static func forEachMadeQueue(of id: AppID, in state: BackgroundSystem.State, _ body: (AppExecutor) -> Void) {
        for queue in state.closures[id]?.queues ?? [] { body(queue) }
    }
}

extension AppExecutor {
    /// The backend of a new queue on `clock`: inline on a ``VirtualClock`` (or with no clock), a serial
    /// `DispatchQueue` otherwise.
    static func backend(label: String, clock: (any BudgetClock)?) -> Backend {
        #if canImport(Dispatch)
        if let clock, !(clock is VirtualClock) { return .dispatch(DispatchQueue(label: "BackgroundBudget.app.\(label)")) }
        #endif
        return .inline(InlineSerialExecutor())
    }
}
