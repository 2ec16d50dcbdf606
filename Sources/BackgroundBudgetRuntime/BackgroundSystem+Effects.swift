import BackgroundBudgetCore
import BudgetTime

extension BackgroundSystem {
    /// The queues that received work or were resumed while effects were performed, in order of first
    /// appearance: drained once the lock is released.
    struct TouchedQueues {
        private(set) var queues: [AppExecutor] = []

        /// Notes a queue, once.
        mutating func note(_ queue: AppExecutor) {
            if !queues.contains(where: { $0 === queue }) { queues.append(queue) }
        }
    }

    /// Performs effects in the order the core returned them. Runs no app code: under the lock, queues
    /// only take work and timers are only scheduled; the work runs once the lock is released.
    /// - Returns: The queues to drain once the lock is released, in order of first appearance: the
    ///   main queues that received work, and every queue resumed (which may hold work).
    func perform(_ effects: [Effect], in state: inout State, at now: BudgetInstant) -> [AppExecutor] {
        var touched = TouchedQueues()
        for effect in effects { perform(effect, in: &state, at: now, touched: &touched) }
        return touched.queues
    }

    /// Performs one effect: each kind has its own function.
    private func perform(_ effect: Effect, in state: inout State, at now: BudgetInstant, touched: inout TouchedQueues) {
        switch effect {
        case .deliver(let delivery): deliver(delivery, in: state, touched: &touched)
        case .suspendQueue(let id): suspendQueue(of: id, in: state)
        case .expirationHandlers(let id, let incarnation, let tasks):
            enqueueExpirationHandlers(tasks, app: id, incarnation: incarnation, in: state, touched: &touched)
        case .refusedTaskHandler(let id, let incarnation):
            enqueueRefusedTaskHandler(app: id, incarnation: incarnation, in: &state, touched: &touched)
        case .arm(let id, let timer, let instant, let token): arm(timer, app: id, at: instant, token: token, in: &state)
        case .disarm(let id, let timer): disarm(timer, app: id, in: &state)
        case .resumeQueue(let id): resumeQueue(of: id, in: state, touched: &touched)
        case .deliverEvent(let id, let incarnation, let event):
            deliver(event, app: id, incarnation: incarnation, in: state, touched: &touched)
        case .memoryWarning(let id, let incarnation):
            deliverMemoryWarning(app: id, incarnation: incarnation, in: state, touched: &touched)
        case .deliverNotification(let id, let incarnation, let notification):
            deliver(notification, app: id, incarnation: incarnation, in: state, touched: &touched)
        case .performFetch(let id, let incarnation, let fetch):
            enqueueFetch(fetch, app: id, incarnation: incarnation, in: state, touched: &touched)
        case .runScheduledTask(let id, let incarnation, let ref):
            enqueueScheduledTask(ref, app: id, incarnation: incarnation, in: &state, touched: &touched)
        case .scheduledTaskExpiration(let id, let incarnation, let number):
            enqueueScheduledTaskExpiration(number, app: id, incarnation: incarnation, in: state, touched: &touched)
        case .keepAliveHandler(let id, let incarnation):
            enqueueKeepAliveHandler(app: id, incarnation: incarnation, in: state, touched: &touched)
        case .dropQueue(let id): dropQueue(of: id, in: &state, at: now)
        case .releaseExpirationHandler(let id, let task): releaseExpirationHandler(task, app: id, in: &state)
        case .releaseKeepAliveHandler(let id): releaseKeepAliveHandler(app: id, in: &state)
        case .releaseScheduledTask(let id, let number): releaseScheduledTask(number, app: id, in: &state)
        }
    }

    private func deliver(_ delivery: Delivery, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[delivery.app] else { return }
        let options: LaunchOptions = if case .launchInBackground(let reason) = delivery.event {
            LaunchOptions(backgroundLaunchReason: reason)
        } else {
            LaunchOptions()
        }
        app.queue.enqueue { [self] in
            app.perform(delivery.steps, options: options, incarnation: delivery.incarnation)
            if delivery.settles { settle(app.id, incarnation: delivery.incarnation) }
        }
        touched.note(app.queue)
    }

    private func suspendQueue(of id: AppID, in state: State) {
        guard let app = state.handles[id] else { return }
        // Suspension is immediate: the queue stops starting work now, and the app, which
        // runs no code, sees its state change without a delivery.
        app.setVisibleState(.suspended)
        app.queue.suspend()
        Application.forEachMadeQueue(of: id, in: state) { $0.suspend() }
    }

    private func resumeQueue(of id: AppID, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        // The system resumes the app, then runs its code [S3]: the app sees the background state
        // before anything held on its queues runs (the core traced the resume at once).
        app.setVisibleState(.background)
        app.queue.resume()
        touched.note(app.queue)
        Application.forEachMadeQueue(of: id, in: state) { queue in
            queue.resume()
            touched.note(queue)
        }
    }

    /// The process ended: its queues drop what they hold (the core records how much), and every
    /// closure and task object it gave goes, dropped outside the lock.
    private func dropQueue(of id: AppID, in state: inout State, at now: BudgetInstant) {
        guard let app = state.handles[id] else { return }
        let ended = app.queue.epoch
        // Everything the process leaves undone: queued work, pending timed work and sleeps (ProcessClock).
        var dropped = app.queue.terminate()
        Application.forEachMadeQueue(of: id, in: state) { dropped += $0.terminate() }
        // Recorded only: dropping work decides nothing more.
        _ = state.core.workDropped(count: dropped, app: id, at: now)
        // A new process has new memory: its observers and factory-made delegates go with this one.
        state.released += app.notificationCenter.takeObservers(ofProcess: ended) + app.takeProcessDelegates()
        if let closures = state.closures.removeValue(forKey: id) {
            for task in closures.scheduledTasks.values {
                if let handler = task.takeExpirationHandler() { state.released.append(handler) }
            }
            state.released.append(closures)
        }
    }

    private func arm(_ timer: AppTimer, app id: AppID, at instant: BudgetInstant, token: UInt64, in state: inout State) {
        let key = TimerKey(app: id, timer: timer)
        if let armed = state.timers.removeValue(forKey: key) { clock.cancel(armed) }
        state.timers[key] = clock.schedule(at: instant) { [weak self] in
            self?.timerFired(timer, app: id, token: token)
        }
    }

    private func disarm(_ timer: AppTimer, app id: AppID, in state: inout State) {
        if let armed = state.timers.removeValue(forKey: TimerKey(app: id, timer: timer)) { clock.cancel(armed) }
    }

    private func releaseExpirationHandler(_ task: BackgroundTaskIdentifier, app id: AppID, in state: inout State) {
        if let handler = state.closures[id]?.expirationHandlers.removeValue(forKey: task) { state.released.append(handler) }
    }

    private func releaseKeepAliveHandler(app id: AppID, in state: inout State) {
        guard let handler = state.closures[id]?.keepAliveHandler else { return }
        state.closures[id]?.keepAliveHandler = nil
        state.released.append(handler)
    }

    private func releaseScheduledTask(_ number: UInt64, app id: AppID, in state: inout State) {
        guard let task = state.closures[id]?.scheduledTasks.removeValue(forKey: number) else { return }
        // The handler usually captures the task: taking it breaks the cycle.
        if let handler = task.takeExpirationHandler() { state.released.append(handler) }
        state.released.append(task)
    }

    private func timerFired(_ timer: AppTimer, app: AppID, token: UInt64) {
        decide { core, now in
            core.timerFired(timer, app: app, token: token, at: now)
        }
    }

    /// Called on the app's queue once a delivery or handler batch that settles has run.
    func settle(_ app: AppID, incarnation: UInt64) {
        decide { core, now in core.settle(app, incarnation: incarnation, at: now) }
    }

    /// Called on the app's queues as a piece of its code starts: the incarnation it runs in, or `nil`
    /// when the app is not running.
    func appCodeStarted(_ app: Application) -> UInt64? {
        state.withLock { $0.core.appCodeStarted(app.id) }
    }

    /// Called on the app's queues after a piece of its code returned (it may now be suspended).
    func appCodeReturned(_ app: Application, incarnation: UInt64) {
        decide { core, now in core.appCodeReturned(app.id, incarnation: incarnation, at: now) }
    }

    /// Called on the app's queue as a callback starts and after it returns (the watchdog).
    func callbackStarted(_ callback: AppCallback, app: AppID, incarnation: UInt64) {
        decide { core, now in core.callbackStarted(callback, app: app, incarnation: incarnation, at: now) }
    }

    func callbackReturned(_ callback: AppCallback, app: AppID) {
        decide { core, now in core.callbackReturned(callback, app: app, at: now) }
    }
}
