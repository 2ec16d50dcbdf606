import BudgetTime

/// One app's allowance for finite background tasks: the time spent in the background, and the
/// numbers handed out (they keep counting across launches). The open tasks and the timers they call
/// for are the process's (``Running``).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them (records the trace, arms the timers and
/// returns the effects) in DeviceCore+FiniteTasks.swift.
package struct FiniteTaskState: Sendable {
    /// The number the next task gets.
    var nextNumber: UInt64 = 1
    /// When the current background period began, while the app is in the background.
    var backgroundSince: BudgetInstant?
    /// Allowance spent in earlier background periods that has not been reset.
    var spentBefore: Duration = .zero
    /// Whether the allowance has been announced in the trace for this background period.
    var allowanceAnnounced = false
    /// Whether tasks were used in this background period (for the suspension reason).
    var usedThisPeriod = false

    /// No allowance spent, no number handed out.
    package init() {}

    // MARK: Allowance

    /// The allowance used so far: earlier periods' plus the current background period's [S17].
    package func used(at now: BudgetInstant) -> Duration {
        spentBefore + (backgroundSince.map { now - $0 } ?? .zero)
    }

    /// What is left of `allowance` in the background, never below zero.
    package func remaining(of allowance: Duration, at now: BudgetInstant) -> Duration {
        max(.zero, allowance - used(at: now))
    }

    /// A new process: the previous process's allowance is forgotten.
    mutating func processLaunched() {
        spentBefore = .zero
    }

    /// The app entered the background: a new period begins, not yet announced, with no task used.
    mutating func backgroundPeriodBegan(at now: BudgetInstant) {
        backgroundSince = now
        allowanceAnnounced = false
        usedThisPeriod = false
    }

    /// The app returned to the foreground: by default the allowance starts afresh [S17]; otherwise the
    /// period's time is added to what was spent before.
    mutating func returnedToForeground(at now: BudgetInstant, resetsAllowance: Bool) {
        if let since = backgroundSince {
            spentBefore = resetsAllowance ? .zero : spentBefore + (now - since)
            backgroundSince = nil
        } else if resetsAllowance {
            spentBefore = .zero
        }
    }

    /// The app was suspended or its process ended: the period's time counts as spent.
    mutating func backgroundPeriodEnded(at now: BudgetInstant) {
        if let since = backgroundSince {
            spentBefore += now - since
            backgroundSince = nil
        }
    }

    /// When the allowance runs out: only in the background, with `tasks` open, during a period.
    func allowanceExpiry(in state: ApplicationState, tasks: Running, allowance: Duration) -> BudgetInstant? {
        guard state == .background, !tasks.open.isEmpty, let since = backgroundSince else { return nil }
        return since + (allowance - spentBefore)
    }

    /// Marks the allowance announced for this period (which counts as using tasks); `false` when it
    /// already was.
    mutating func announceAllowance() -> Bool {
        guard !allowanceAnnounced else { return false }
        allowanceAnnounced = true
        usedThisPeriod = true
        return true
    }

    /// The timers the open `tasks` call for in `state`: in the background, the expiry and (while a
    /// handler is uncalled) the warning `warningLead` before it [S14][S21]; in the foreground, the
    /// overrun of the oldest unreported task (kept once armed, so tasks do not churn the clock).
    func wantedTimers(in state: ApplicationState, tasks: Running, allowance: Duration, warningLead: Duration,
                      at now: BudgetInstant) -> ArmedTimers {
        var wanted = ArmedTimers()
        if let expiry = allowanceExpiry(in: state, tasks: tasks, allowance: allowance) {
            wanted.expiry = expiry
            if tasks.unwarned > 0 { wanted.warning = max(now, expiry - warningLead) }
        } else if state.isForeground, !tasks.open.isEmpty {
            if let armed = tasks.armed.overrun {
                wanted.overrun = armed
            } else if let oldest = tasks.open.values.lazy.filter({ !$0.overrunReported }).map(\.begunAt).min() {
                wanted.overrun = max(now, oldest + allowance)
            }
        }
        return wanted
    }

    // MARK: Numbers

    /// Hands out the next task number (numbers increase in begin order, across launches).
    mutating func takeNumber() -> UInt64 {
        defer { nextNumber += 1 }
        return nextNumber
    }
}

extension FiniteTaskState {
    /// The finite tasks of the running process (``DeviceCore/RunningProcess/finiteTasks``): its open
    /// tasks and the timers they call for, which end with it (the allowance spent stays until
    /// relaunch).
    package struct Running: Sendable {
        /// Open finite tasks by identifier number (numbers increase in begin order).
        package internal(set) var open: [UInt64: OpenTask] = [:]
        /// Open tasks whose expiration handler has not been called.
        var unwarned = 0
        /// The instants of the armed allowance and overrun timers (to avoid re-arming unchanged ones).
        package internal(set) var armed = ArmedTimers()
        /// While a batch of expiration handlers runs on the app's queue: when it must have returned
        /// (``BudgetPolicy/expirationHandlerLimit`` after it started); the watchdog kills the app then.
        var handlersDeadline: BudgetInstant?

        /// No task open.
        package init() {}

        /// Opens the task numbered `number`.
        package mutating func begin(_ number: UInt64, name: String?, at now: BudgetInstant) {
            open[number] = OpenTask(name: name, begunAt: now)
            unwarned += 1
        }

        /// Ends the task with this number; the problem when there is none open (ended before, or never
        /// begun: `nextNumber` is the number the next task would get).
        package mutating func end(_ number: UInt64, nextNumber: UInt64) -> BackgroundTaskEndProblem? {
            guard let task = open.removeValue(forKey: number) else {
                return number < nextNumber ? .alreadyEnded : .unknownTask
            }
            if !task.handlerCalled { unwarned -= 1 }
            return nil
        }

        /// Marks every uncalled expiration handler called and returns the tasks' numbers in begin order.
        mutating func takeUncalledHandlers() -> [UInt64] {
            let numbers = open.compactMap { $0.value.handlerCalled ? nil : $0.key }.sorted()
            for number in numbers {
                open[number]?.handlerCalled = true
                unwarned -= 1
            }
            return numbers
        }

        /// Marks every task open at least `allowance` and not yet reported as reported, and returns
        /// their numbers in begin order.
        mutating func takeOverruns(allowance: Duration, at now: BudgetInstant) -> [UInt64] {
            let due = open.compactMap { entry in
                !entry.value.overrunReported && now - entry.value.begunAt >= allowance ? entry.key : nil
            }.sorted()
            for number in due { open[number]?.overrunReported = true }
            return due
        }
    }
}
