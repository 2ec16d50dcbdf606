/// Swift concurrency in app code: a task executor per process, on the app's main queue.
///
/// A `Task` whose jobs run on ``Application/taskExecutor`` is frozen while the app is suspended and
/// never runs again once the process has ended. Start one with `task(priority:_:)`,
/// or with `Task(executorPreference: application.taskExecutor)`; child tasks (`async let`, task groups)
/// inherit the preference. See the *App code and its process* article for what is and is not covered.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Application {
    /// The task executor of the calling code's process (the app's current process, for code that is
    /// not the app's): its jobs run one at a time on the app's main queue, interleaved with its
    /// callbacks, wait while the app is suspended, and are dropped once that process has ended.
    ///
    /// ```swift
    /// Task(executorPreference: application.taskExecutor) { await sync() }
    /// ```
    public var taskExecutor: any TaskExecutor {
        let process = callerProcess
        guard let system, !process.isEnded else { return ProcessTaskExecutor(queue: queue, epoch: process.epoch) }
        return system.state.withLock { state in
            // One per process, made on first use and dropped with the process's other closures.
            if !process.isEnded, let made = state.closures[id]?.taskExecutor as? ProcessTaskExecutor, made.epoch == process.epoch {
                return made
            }
            let made = ProcessTaskExecutor(queue: queue, epoch: process.epoch)
            if !process.isEnded { state.closures[id, default: AppClosures()].taskExecutor = made }
            return made
        }
    }

    /// Starts a task that runs as the app's code, on ``taskExecutor``: `Task { … }` for an app.
    ///
    /// The task's code runs on the app's main queue, so it is frozen while the app is suspended and
    /// never runs after the process ends (the task then never completes), and it sees
    /// ``Application/current``. On a ``VirtualClock`` it runs inline: up to its first suspension before
    /// this call returns, when the app's queue is idle and not suspended.
    ///
    /// ```swift
    /// func applicationDidEnterBackground(_ application: Application) {
    ///     let id = application.beginBackgroundTask(withName: "sync")
    ///     application.task {
    ///         await upload()
    ///         application.endBackgroundTask(id)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority (the app's queue runs jobs in order, whatever their priority).
    ///   - operation: The task's code.
    /// - Returns: The task.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority? = nil, _ operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        let (executor, process) = (taskExecutor, callerProcess)
        return Task(executorPreference: executor, priority: priority) {
            await ProcessContext.$current.withValue(process) { await operation() }
        }
    }

    /// Starts a throwing task that runs as the app's code, on ``taskExecutor`` (see
    /// `task(priority:_:)`).
    /// - Parameters:
    ///   - priority: The task's priority (the app's queue runs jobs in order, whatever their priority).
    ///   - operation: The task's code.
    /// - Returns: The task.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority? = nil, _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let (executor, process) = (taskExecutor, callerProcess)
        return Task(executorPreference: executor, priority: priority) {
            try await ProcessContext.$current.withValue(process) { try await operation() }
        }
    }
}

extension Application {
    /// The system's clock for the app's code: `Task.sleep(for:clock:)` on it waits for the model's time
    /// and wakes only while the app's process runs (see ``ApplicationClock``).
    public var clock: ApplicationClock { ApplicationClock(application: self) }
}
