/// Effects that hand the app's code to its queue: each takes what it needs from the shell's tables
/// under the lock (bookkeeping only), and the queue runs the code once the lock is released.
import BackgroundBudgetCore

extension BackgroundSystem {
    func enqueueExpirationHandlers(_ tasks: [BackgroundTaskIdentifier], app id: AppID, incarnation: UInt64,
                                   in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        let table = state.closures[id]?.expirationHandlers ?? [:]
        let handlers = tasks.map { table[$0] }
        app.queue.enqueue { [self] in
            // Timed together, as a callback is: see ``BudgetPolicy/expirationHandlerLimit``.
            decide { core, now in core.expirationHandlersStarted(id, incarnation: incarnation, at: now) }
            for handler in handlers { handler?() }
            decide { core, now in core.expirationHandlersReturned(id, incarnation: incarnation, at: now) }
        }
        touched.note(app.queue)
    }

    func enqueueRefusedTaskHandler(app id: AppID, incarnation: UInt64, in state: inout State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        let handler = state.closures[id]?.refusedTaskHandlers.isEmpty == false
            ? state.closures[id]?.refusedTaskHandlers.removeFirst() : nil
        app.queue.enqueue { [self] in
            decide { core, now in core.refusedTaskHandlerStarted(id, incarnation: incarnation, at: now) }
            handler?()
            decide { core, now in core.expirationHandlersReturned(id, incarnation: incarnation, at: now) }
        }
        touched.note(app.queue)
    }

    func deliver(_ event: BackgroundEvent, app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        app.queue.enqueue { [self] in
            app.receive(event)
            decide { core, now in core.eventHandled(event, app: id, incarnation: incarnation, at: now) }
        }
        touched.note(app.queue)
    }

    func deliverMemoryWarning(app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        app.queue.enqueue { [self] in
            app.perform([.callback(.didReceiveMemoryWarning)], options: LaunchOptions(), incarnation: incarnation)
            decide { core, now in core.memoryWarningHandled(app: id, incarnation: incarnation, at: now) }
        }
        touched.note(app.queue)
    }

    func deliver(_ notification: SystemNotification, app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        app.queue.enqueue { [self] in
            app.receive(notification)
            settle(id, incarnation: incarnation)
        }
        touched.note(app.queue)
    }

    func enqueueFetch(_ fetch: UInt64, app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
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
        touched.note(app.queue)
    }

    func enqueueScheduledTask(_ ref: ScheduledTaskRef, app id: AppID, incarnation: UInt64, in state: inout State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
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
        touched.note(app.queue)
    }

    func enqueueScheduledTaskExpiration(_ number: UInt64, app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        let task = state.closures[id]?.scheduledTasks[number]
        app.queue.enqueue { [self] in
            task?.takeExpirationHandler()?()
            settle(id, incarnation: incarnation)
        }
        touched.note(app.queue)
    }

    func enqueueKeepAliveHandler(app id: AppID, incarnation: UInt64, in state: State, touched: inout TouchedQueues) {
        guard let app = state.handles[id] else { return }
        let handler = state.closures[id]?.keepAliveHandler
        app.queue.enqueue { [self] in
            handler?()
            decide { core, now in core.keepAliveHandlerReturned(id, incarnation: incarnation, at: now) }
        }
        touched.note(app.queue)
    }
}
