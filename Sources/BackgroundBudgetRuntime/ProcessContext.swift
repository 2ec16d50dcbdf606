/// The process a piece of app code runs in: the app's main queue and the epoch the code was queued in.
///
/// ``AppExecutor`` binds it (as a task-local value, which synchronous code on the same thread and any
/// `Task` created there inherit) around every work item it runs — on the app's main queue and on the
/// queues the app made, whose work binds the process that made them — and
/// `task(priority:_:)` binds it for the task it starts. When the app's process ends, its queue's epoch moves on: code still running from
/// the ended process then finds its context ``isEnded``, and the shell drops every call it makes
/// (``Application/callerProcessEnded``), as a killed process on iOS runs no more code.
struct ProcessContext: Sendable {
    /// The queue of the app whose code runs; weak, so that the context does not keep it alive.
    weak let executor: AppExecutor?
    /// The queue's epoch when the code was queued: the process it belongs to.
    let epoch: UInt64

    /// The context of the code running on this thread or task, if it is app code.
    @TaskLocal static var current: ProcessContext?

    /// The app whose code this is (see ``Application/current``).
    var application: Application? { executor?.application }

    /// Whether the process this context belongs to has ended.
    var isEnded: Bool {
        guard let executor else { return true }
        return executor.epoch != epoch
    }

    /// The context of work addressed to an app that is not running, from outside its code: no process
    /// will ever run it (its epoch is one the queue never reaches), so it is refused.
    static func noProcess(_ executor: AppExecutor) -> ProcessContext {
        ProcessContext(executor: executor, epoch: .max)
    }

    /// Runs `body` as code of this process.
    func run<Value>(_ body: () throws -> Value) rethrows -> Value {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body` as no app's code: system work that the clock runs inline, inside app code.
    static func detached<Value>(_ body: () throws -> Value) rethrows -> Value {
        try $current.withValue(nil, operation: body)
    }
}
