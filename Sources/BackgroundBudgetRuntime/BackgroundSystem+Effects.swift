extension BackgroundSystem {
    /// Performs effects in order. Runs no app code: queues only take work, timers are only scheduled.
    /// - Returns: The queues to drain once the lock is released, in order of first appearance: the
    ///   main queues that received work, and every queue resumed (which may hold work).
    func perform(_ effects: [Effect], in state: inout State, at now: BudgetInstant) -> [AppExecutor] {
        var touched: [AppExecutor] = []
        func note(_ queue: AppExecutor) {
            if !touched.contains(where: { $0 === queue }) { touched.append(queue) }
        }
        func note(_ app: Application) { note(app.queue) }
        for effect in effects {
            switch effect {
            case .deliver(let delivery):
                guard let app = state.handles[delivery.app] else { continue }
                let options: LaunchOptions = if case .launchInBackground(let reason) = delivery.event {
                    LaunchOptions(backgroundLaunchReason: reason)
                } else {
                    LaunchOptions()
                }
                app.queue.enqueue { [self] in
                    app.perform(delivery.steps, options: options, incarnation: delivery.incarnation)
                    if delivery.settles { settle(app.id, incarnation: delivery.incarnation) }
                }
                note(app)
            case .suspendQueue(let id):
                guard let app = state.handles[id] else { continue }
                // Suspension is immediate: the queue stops starting work now, and the app, which
                // runs no code, sees its state change without a delivery.
                app.setVisibleState(.suspended)
                app.queue.suspend()
                Application.forEachMadeQueue(of: id, in: state) { $0.suspend() }
            case .expirationHandlers(let id, let incarnation, let tasks):
                guard let app = state.handles[id] else { continue }
                let table = state.closures[id]?.expirationHandlers ?? [:]
                let handlers = tasks.map { table[$0] }
                app.queue.enqueue { [self] in
                    // Timed together, as a callback is: see ``BudgetPolicy/expirationHandlerLimit``.
                    decide { core, now in core.expirationHandlersStarted(id, incarnation: incarnation, at: now) }
                    for handler in handlers { handler?() }
                    decide { core, now in core.expirationHandlersReturned(id, incarnation: incarnation, at: now) }
                }
                note(app)
            case .refusedTaskHandler(let id, let incarnation):
                guard let app = state.handles[id] else { continue }
                let handler = state.closures[id]?.refusedTaskHandlers.isEmpty == false
                    ? state.closures[id]?.refusedTaskHandlers.removeFirst() : nil
                app.queue.enqueue { [self] in
                    decide { core, now in core.refusedTaskHandlerStarted(id, incarnation: incarnation, at: now) }
                    handler?()
                    decide { core, now in core.expirationHandlersReturned(id, incarnation: incarnation, at: now) }
                }
                note(app)
            case .arm(let id, let timer, let instant, let token):
                let key = TimerKey(app: id, timer: timer)
                if let armed = state.timers.removeValue(forKey: key) { clock.cancel(armed) }
                state.timers[key] = clock.schedule(at: instant) { [weak self] in
                    self?.timerFired(timer, app: id, token: token)
                }
            case .disarm(let id, let timer):
                if let armed = state.timers.removeValue(forKey: TimerKey(app: id, timer: timer)) { clock.cancel(armed) }
            case .resumeQueue(let id):
                guard let app = state.handles[id] else { continue }
                app.queue.resume()
                note(app)
                Application.forEachMadeQueue(of: id, in: state) { queue in
                    queue.resume()
                    note(queue)
                }
            case .deliverEvent(let id, let incarnation, let event):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    app.receive(event)
                    decide { core, now in core.eventHandled(event, app: id, incarnation: incarnation, at: now) }
                }
                note(app)
            case .memoryWarning(let id, let incarnation):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    app.perform([.callback(.didReceiveMemoryWarning)], options: LaunchOptions(), incarnation: incarnation)
                    decide { core, now in core.memoryWarningHandled(app: id, incarnation: incarnation, at: now) }
                }
                note(app)
            case .deliverNotification(let id, let incarnation, let notification):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    app.receive(notification)
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .performFetch(let id, let incarnation, let fetch):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    app.performFetch { [weak self] result in
                        // A completion called after the process ended (kept, or from code still running
                        // after the kill) has no effect and no trace entry.
                        self?.decide { core, now in
                            core.isLive(id, incarnation: incarnation) ? core.fetchCompleted(fetch, result: result, app: id, at: now) : []
                        }
                    }
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .runScheduledTask(let id, let incarnation, let ref):
                guard let app = state.handles[id] else { continue }
                let task = ScheduledTask(identifier: ref.identifier, kind: ref.kind, app: id, number: ref.number, incarnation: incarnation, system: self)
                state.closures[id, default: AppClosures()].scheduledTasks[ref.number] = task
                app.queue.enqueue { [self] in
                    let handler = self.state.withLock { state in
                        state.core.launchHandlerKey(app: id, task: ref.number, incarnation: incarnation)
                            .flatMap { state.closures[id]?.launchHandlers[$0] }
                    }
                    if let handler {
                        handler(task)   // outside the lock
                    } else {
                        decide { core, now in core.scheduledTaskUnhandled(app: id, task: ref.number, at: now) }
                    }
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .scheduledTaskExpiration(let id, let incarnation, let number):
                guard let app = state.handles[id] else { continue }
                let task = state.closures[id]?.scheduledTasks[number]
                app.queue.enqueue { [self] in
                    task?.takeExpirationHandler()?()
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .keepAliveHandler(let id, let incarnation):
                guard let app = state.handles[id] else { continue }
                let handler = state.closures[id]?.keepAliveHandler
                app.queue.enqueue { [self] in
                    handler?()
                    decide { core, now in core.keepAliveHandlerReturned(id, incarnation: incarnation, at: now) }
                }
                note(app)
            case .dropQueue(let id):
                guard let app = state.handles[id] else { continue }
                // The process's queues (its main queue and those it made) drop what they hold.
                var dropped = app.queue.terminate()
                Application.forEachMadeQueue(of: id, in: state) { dropped += $0.terminate() }
                if dropped > 0 { state.core.record(.workDropped(count: dropped), id, now) }
                // The process ended: every closure and task object it gave goes, outside the lock.
                if let closures = state.closures.removeValue(forKey: id) {
                    for task in closures.scheduledTasks.values {
                        if let handler = task.takeExpirationHandler() { state.released.append(handler) }
                    }
                    state.released.append(closures)
                }
            case .releaseExpirationHandler(let id, let task):
                if let handler = state.closures[id]?.expirationHandlers.removeValue(forKey: task) { state.released.append(handler) }
            case .releaseKeepAliveHandler(let id):
                if let handler = state.closures[id]?.keepAliveHandler {
                    state.closures[id]?.keepAliveHandler = nil
                    state.released.append(handler)
                }
            case .releaseScheduledTask(let id, let number):
                guard let task = state.closures[id]?.scheduledTasks.removeValue(forKey: number) else { continue }
                // The handler usually captures the task: taking it breaks the cycle.
                if let handler = task.takeExpirationHandler() { state.released.append(handler) }
                state.released.append(task)
            }
        }
        return touched
    }

    private func timerFired(_ timer: AppTimer, app: AppID, token: UInt64) {
        decide { core, now in
            core.timerFired(timer, app: app, token: token, at: now)
        }
    }

    /// Called on the app's queue once a delivery or handler batch that settles has run.
    private func settle(_ app: AppID, incarnation: UInt64) {
        decide { core, now in core.settle(app, incarnation: incarnation, at: now) }
    }

    /// Called on the app's queue as a callback starts and after it returns (the watchdog).
    func callbackStarted(_ callback: AppCallback, app: AppID, incarnation: UInt64) {
        decide { core, now in core.callbackStarted(callback, app: app, incarnation: incarnation, at: now) }
    }

    func callbackReturned(_ callback: AppCallback, app: AppID) {
        decide { core, now in core.callbackReturned(callback, app: app, at: now) }
    }
}
