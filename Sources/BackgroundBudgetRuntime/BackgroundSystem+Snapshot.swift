/// Saving a running system's whole state and putting it back, for tools that explore many runs from
/// one state (the explorer restores a state instead of replaying the events that led to it).
import BackgroundBudgetCore
import BudgetClock
import BudgetLock

extension BackgroundSystem {
    /// A copy of the device's pure state with an empty trace: every app's record, the foreground app,
    /// memory, settings and conditions. Two systems with equal snapshots at the same instant decide
    /// alike from then on (the explorer prunes states it has already seen with it). Nothing changes.
    package var coreSnapshot: DeviceCore {
        state.withLock { $0.core.withoutTrace }
    }

    /// Starts keeping the ``RestorableCell``s app code makes from now on, so that ``saveState()`` can
    /// save them; until then ``saveState()`` returns `nil`. Call it before any app code runs.
    package func keepRestorableCells() {
        state.withLock { state in if state.cells == nil { state.cells = [] } }
    }

    /// A cell for state that app code keeps in its own closures (a task's "ended" flag), which
    /// ``saveState()`` saves and ``restore(_:)`` puts back when the system keeps cells.
    /// - Parameter initial: The cell's first value.
    /// - Returns: The cell.
    package func restorableCell<Value: Sendable>(_ initial: Value) -> RestorableCell<Value> {
        let cell = RestorableCell(initial)
        state.withLock { state in state.cells?.append(cell) }
        return cell
    }

    /// Everything that decides what the system does next, on a ``VirtualClock`` between two calls: the
    /// clock's pending work, the core and the shell's tables, each app's own view and queues, the task
    /// objects' handlers and the cells app code keeps. Closures are kept as they are: restored on this
    /// same system, they find the same apps and objects in their saved states.
    ///
    ///
    /// `nil` when the system cannot be saved whole: not on a ``VirtualClock``, cells not kept
    /// (``keepRestorableCells()``), a task asleep on the clock, a job of a Swift task held by an app's
    /// queue or timer, or work under way. Nothing changes.
    /// State app code keeps elsewhere (a delegate's own properties) is not saved: only a caller that
    /// knows the apps' code keeps none may rely on a restore.
    /// - Parameter discardingTrace: Whether to let go of the trace recorded so far first (counted as
    ///   discarded, as by a retention, so ``recordedEvents(after:)`` still counts right): for a caller
    ///   that has read it, so that restoring and recording does not copy it all again.
    package func saveState(discardingTrace: Bool = false) -> SystemSnapshot? {
        guard let virtual = clock as? VirtualClock, virtual.sleeperCount == 0 else { return nil }
        let saved = state.withLock { state in
            if discardingTrace { state.core.discardRecordedEvents() }
            return state
        }
        guard let cells = saved.cells, saved.released.isEmpty else { return nil }
        let apps = saved.installOrder.compactMap { saved.handles[$0] }
        var executors = apps.map(\.queue)
        var tasks: [ScheduledTask] = []
        for id in saved.installOrder {
            guard let closures = saved.closures[id] else { continue }
            executors += closures.queues
            tasks += closures.scheduledTasks.keys.sorted().compactMap { closures.scheduledTasks[$0] }
        }
        var queues: [(AppExecutor, AppExecutor.State, InlineSerialExecutor.State)] = []
        for executor in executors {
            guard case .inline(let inline) = executor.backend else { return nil }
            let backend = inline.state.withLock { $0 }
            let queueState = executor.state.withLock { $0 }
            // A Swift task's job, queued or timed, runs once: restored twice it would resume its task twice.
            guard !backend.draining, queueState.jobs == 0 else { return nil }
            queues.append((executor, queueState, backend))
        }
        return SystemSnapshot(system: ObjectIdentifier(self), clock: virtual.savedState, state: saved,
                              apps: apps.map { ($0, $0.side.withLock { $0 }) }, queues: queues,
                              processObjects: apps.map { ($0, $0.notificationCenter.entries.withLock { $0 }, $0.launches.state.withLock { $0 }) },
                              taskHandlers: tasks.map { ($0, $0.handler.withLock { $0 }) },
                              cells: cells.map { ($0, $0.savedValue) })
    }

    /// Puts back a state ``saveState()`` returned on this system: afterwards the system does what it
    /// would have done then. What was let go of is dropped after each lock is released.
    /// - Parameter snapshot: A state saved on this system.
    /// - Precondition: `snapshot` was saved on this system.
    package func restore(_ snapshot: SystemSnapshot) {
        precondition(snapshot.system == ObjectIdentifier(self), "a snapshot is restored on the system it was saved on")
        guard let virtual = clock as? VirtualClock else { preconditionFailure("a snapshot is saved on a VirtualClock only") }
        virtual.restore(snapshot.clock)
        let dropped = state.withLock { state -> State in
            defer { state = snapshot.state }
            return state
        }
        withExtendedLifetime(dropped) {}
        for (app, side) in snapshot.apps {
            let old = app.side.withLock { current -> Application.SideState in
                defer { current = side }
                return current
            }
            withExtendedLifetime(old) {}
        }
        // The observers and factory-made delegates of each app's process (Notifications/, Launches/).
        for (app, entries, launches) in snapshot.processObjects {
            let old = (app.notificationCenter.entries.withLock { current in defer { current = entries }; return current },
                       app.launches.state.withLock { current in defer { current = launches }; return current })
            withExtendedLifetime(old) {}
        }
        for (executor, state, backend) in snapshot.queues {
            executor.state.withLock { $0 = state }
            guard case .inline(let inline) = executor.backend else { continue }
            let old = inline.state.withLock { current -> InlineSerialExecutor.State in
                defer { current = backend }
                return current
            }
            withExtendedLifetime(old) {}
        }
        for (task, handler) in snapshot.taskHandlers {
            let old = task.handler.withLock { current -> (@Sendable () -> Void)? in
                defer { current = handler }
                return current
            }
            withExtendedLifetime(old) {}
        }
        for (cell, value) in snapshot.cells { cell.restore(value) }
    }
}

/// A system's whole state as ``BackgroundSystem/saveState()`` saved it, to restore on the same system.
package struct SystemSnapshot {
    /// The system it was saved on.
    let system: ObjectIdentifier
    let clock: VirtualClock.State
    let state: BackgroundSystem.State
    let apps: [(Application, Application.SideState)]
    let queues: [(AppExecutor, AppExecutor.State, InlineSerialExecutor.State)]
    let processObjects: [(Application, AppNotificationCenter.Entries, LaunchFactories.State)]
    let taskHandlers: [(ScheduledTask, (@Sendable () -> Void)?)]
    let cells: [(any RestorableCellProtocol, any Sendable)]
}

/// A cell whose value ``BackgroundSystem/saveState()`` saves and ``BackgroundSystem/restore(_:)`` puts back.
package protocol RestorableCellProtocol: AnyObject, Sendable {
    /// The value now.
    var savedValue: any Sendable { get }
    /// Sets the value to one ``savedValue`` returned.
    func restore(_ value: any Sendable)
}

/// State app code keeps in its closures, behind a lock, saved with the system's state
/// (``BackgroundSystem/restorableCell(_:)``).
package final class RestorableCell<Value: Sendable>: RestorableCellProtocol {
    private let value: LockedValue<Value>

    /// A cell no system saves (``BackgroundSystem/restorableCell(_:)`` makes one it saves).
    package init(_ initial: Value) {
        value = LockedValue(initial)
    }

    /// Runs `body` with the lock held and exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        value.withLock(body)
    }

    package var savedValue: any Sendable {
        value.withLock { $0 }
    }

    package func restore(_ saved: any Sendable) {
        guard let saved = saved as? Value else { preconditionFailure("a cell restored with a value of another type") }
        value.withLock { $0 = saved }
    }
}
