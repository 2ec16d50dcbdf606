/// The app's closures and task objects the shell keeps for one process, keyed by the identifiers the
/// core's effects name. The core holds none of them: it decides with values and says, by effect, when
/// one is no longer needed (``Effect/releaseExpirationHandler(_:_:)``,
/// ``Effect/releaseKeepAliveHandler(_:)``, ``Effect/releaseScheduledTask(_:task:)``; the whole table
/// with ``Effect/dropQueue(_:)`` when the process ends). What is let go of goes to
/// `State.released` and is dropped after the lock is released.
import BackgroundBudgetCore

struct AppClosures: Sendable {
    /// Finite tasks' expiration handlers, by identifier (tasks begun without one have no entry).
    var expirationHandlers: [BackgroundTaskIdentifier: @Sendable () -> Void] = [:]
    /// Expiration handlers of begins the system refused, oldest first, each waiting for its
    /// ``Effect/refusedTaskHandler(_:incarnation:)``.
    var refusedTaskHandlers: [@Sendable () -> Void] = []
    /// `BGTaskScheduler` launch handlers, by the identifier (or wildcard entry) they were registered for.
    var launchHandlers: [String: @Sendable (ScheduledTask) -> Void] = [:]
    /// The legacy VoIP keep-alive handler, while one is installed.
    var keepAliveHandler: (@Sendable () -> Void)?
    /// The running `BGTaskScheduler` task objects handed to the app, by task number.
    var scheduledTasks: [UInt64: ScheduledTask] = [:]
    /// The queues the process made (``Application/makeQueue(label:)``): suspended, resumed and ended
    /// with the app's main queue. Kept until the process ends, as a dispatch queue with work queued is
    /// kept alive by its work, even after the app let go of it.
    var queues: [AppExecutor] = []
    /// The process's background queue (``Application/runInBackground(after:_:)``), made on first use;
    /// also among ``queues``.
    var backgroundQueue: AppExecutor?
    /// The process's task executor (``Application/taskExecutor``), made on first use; typed `Sendable`
    /// because `TaskExecutor` is younger than the package's deployment targets.
    var taskExecutor: (any Sendable)?
}
