/// A running task handed to the launch handler (`BGTask`): set ``expirationHandler`` and call
/// ``setTaskCompleted(success:)`` when the work is done.
///
/// The task holds the app in the background until it completes. A refresh task that has not completed
/// after ``BudgetPolicy/fetchRuntime`` terminates the app (`0x2182bad4`); a processing task expires when
/// the device stops being idle, a required condition is lost, or the cap is reached; a
/// continued-processing task has no time limit and expires when the user cancels it or the system
/// reclaims resources. An expired processing or continued-processing task is marked completed
/// unsuccessfully ``BudgetPolicy/expirationWarningLead`` later if the app has not completed it; a
/// task of any kind that expires with no ``expirationHandler`` set is marked so at once [S49]. When
/// a task ends, its expiration handler is dropped, so a handler that captures the task does not keep
/// it alive.
import BackgroundBudgetCore
import BudgetLock
import BudgetTime

public final class ScheduledTask: Sendable {
    /// The task's identifier.
    public let identifier: String
    /// The kind of request that started it.
    public let kind: TaskRequest.Kind
    let app: AppID
    let number: UInt64
    /// The app's process (its incarnation) the task was given to: calls made after it ended do nothing.
    let incarnation: UInt64
    let handler = LockedValue<(@Sendable () -> Void)?>(nil)
    weak let system: BackgroundSystem?

    init(identifier: String, kind: TaskRequest.Kind, app: AppID, number: UInt64, incarnation: UInt64, system: BackgroundSystem?) {
        self.identifier = identifier
        self.kind = kind
        self.app = app
        self.number = number
        self.incarnation = incarnation
        self.system = system
    }

    /// Called once, on the app's queue, when the system expires the task; cleared after it is
    /// called [S49]. Complete the task in it. A task that expires while no handler is set is marked
    /// completed unsuccessfully at that instant (`taskCompleted` with reason `expiredUnfinished`),
    /// with no grace [S49].
    ///
    /// Its type is `BGTask`'s, `(() -> Void)?` (not `@Sendable`), so that ``LaunchedBackgroundTask``
    /// fits both; the model keeps it in an `UncheckedHandler` and calls it only on the app's queue.
    public var expirationHandler: (() -> Void)? {
        get { handler.withLock { $0 }.map { handler in { handler() } } }
        set {
            let sendable: (@Sendable () -> Void)? = newValue.map { UncheckedHandler<Void>(call: $0).callable }
            handler.withLock { $0 = sendable }
            // The core is told by value; it reads the latest setting under the system's lock, so
            // racing setters leave it agreeing with the handler kept here.
            system?.decide { [app, number, handler] core, _ in
                core.scheduledTaskHandlerSet(app: app, task: number, set: handler.withLock { $0 != nil })
            }
        }
    }

    /// Takes the expiration handler, leaving none.
    func takeExpirationHandler() -> (@Sendable () -> Void)? {
        handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
    }

    /// Ends the task (`setTaskCompleted(success:)`); the app is suspended once nothing else holds it.
    /// A second call, or a call after the task ended, is recorded as `taskCompletionIgnored`.
    /// - Parameter success: Whether the work succeeded.
    public func setTaskCompleted(success: Bool) {
        decide { [app, number, identifier] core, now in
            core.scheduledTaskCompleted(app: app, task: number, identifier: identifier, success: success, at: now)
        }
    }

    /// Reports how far the work has come, as a continued-processing task's `progress` does: the
    /// system shows it to the user, and when it must reclaim resources it expires the running
    /// continued-processing task with the least progress first [S54]. Recorded in the trace as
    /// `taskProgress`; ignored once the task has ended.
    ///
    /// Negative counts are taken as zero; a total of zero means the amount of work is not known yet
    /// (no progress), and a completed count above the total means done.
    /// - Parameters:
    ///   - completedUnitCount: Units done.
    ///   - totalUnitCount: Units in all.
    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        let (completed, total) = (max(0, completedUnitCount), max(0, totalUnitCount))
        decide { [app, number] core, now in
            core.scheduledTaskProgress(app: app, task: number, completed: completed, total: total, at: now)
        }
    }

    /// Changes what the system shows the user for a continued-processing task
    /// (`updateTitle(_:subtitle:)`); ignored once the task has ended.
    /// - Parameters:
    ///   - title: The new title.
    ///   - subtitle: The new subtitle.
    public func updateTitle(_ title: String, subtitle: String) {
        decide { [app, number] core, _ in core.scheduledTaskTitle(app: app, task: number, title: title, subtitle: subtitle) }
    }

    /// Takes a decision for the task's process: when it has ended (the task object outlived it, or
    /// its code still runs after a kill), the call has no effect and no trace entry.
    private func decide(_ body: (inout DeviceCore, BudgetInstant) -> Decision<Void>) {
        system?.decide { [app, incarnation] core, now in core.isLive(app, incarnation: incarnation) ? body(&core, now) : [] }
    }
}
