#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// The device: installed apps, the user's gestures, the system's decisions, and the trace of it all.
///
/// A system runs on a clock. On a ``VirtualClock`` everything is synchronous and deterministic: each
/// call returns after every callback it caused has been delivered, and the same calls give the same
/// ``trace`` byte for byte.
///
/// ```swift
/// let clock = VirtualClock()
/// let system = BackgroundSystem(clock: clock)
/// let app = try system.install(AppManifest(id: "com.example.statelab", displayName: "State Lab"))
/// try system.open(app)                 // launch: willFinish…, didFinish…, didBecomeActive
/// clock.advance(by: .seconds(5))
/// try system.pressHome()               // willResignActive, didEnterBackground, then suspended
/// #expect(app.applicationState == .suspended)
/// print(system.logLines())
/// ```
///
/// Every call that cannot happen in the app's current state throws ``LifecycleError`` and changes
/// nothing. State lives behind one lock; delegate methods and observers run on each app's own serial
/// executor after the lock is released.
public final class BackgroundSystem: Sendable {
    /// The clock that timestamps the trace and runs deadlines.
    public let clock: any BudgetClock
    /// The limits the system enforces.
    public let policy: BudgetPolicy

    struct State {
        var core: DeviceCore
        var handles: [AppID: Application] = [:]
        var installOrder: [AppID] = []
        var timers: [TimerKey: ScheduledWork] = [:]
    }

    struct TimerKey: Hashable {
        var app: AppID
        var timer: AppTimer
    }

    let state: LockedValue<State>

    /// How much of the trace the system keeps: the retention it was created with, with
    /// ``TraceRetention/automatic`` resolved for its clock.
    public let traceRetention: TraceRetention

    /// Creates a device with no apps under the default policy, ``BudgetPolicy/iOS13``.
    /// - Parameters:
    ///   - clock: The clock to run on; usually a ``VirtualClock``.
    ///   - traceRetention: How much of the trace to keep. ``TraceRetention/automatic`` by default:
    ///     everything on a ``VirtualClock``, the latest 10,000 entries on a real clock.
    public init(clock: any BudgetClock, traceRetention: TraceRetention = .automatic) {
        self.clock = clock
        self.policy = .iOS13
        self.traceRetention = traceRetention.resolved(for: clock)
        self.state = LockedValue(State(core: DeviceCore(policy: .iOS13, retention: self.traceRetention)))
        state.withLock { $0.core.owner = self }
    }

    /// Creates a device with no apps under a policy.
    /// - Parameters:
    ///   - policy: The limits to enforce.
    ///   - clock: The clock to run on; usually a ``VirtualClock``.
    ///   - traceRetention: How much of the trace to keep. ``TraceRetention/automatic`` by default:
    ///     everything on a ``VirtualClock``, the latest 10,000 entries on a real clock.
    /// - Throws: ``PolicyError`` when the policy has an unusable value; no system is created.
    public init(policy: BudgetPolicy, clock: any BudgetClock, traceRetention: TraceRetention = .automatic) throws(PolicyError) {
        try policy.validate()
        self.clock = clock
        self.policy = policy
        self.traceRetention = traceRetention.resolved(for: clock)
        self.state = LockedValue(State(core: DeviceCore(policy: policy, retention: self.traceRetention)))
        state.withLock { $0.core.owner = self }
    }

    // MARK: Apps

    /// Installs an app, not yet running.
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - delegate: The object that receives its lifecycle callbacks (retained).
    /// - Returns: The installed app.
    /// - Throws: ``InstallError`` for an invalid or duplicate bundle identifier; nothing is installed.
    @discardableResult
    public func install(_ manifest: AppManifest, delegate: (any ApplicationDelegate)? = nil) throws(InstallError) -> Application {
        let backend: AppExecutor.Backend
        #if canImport(Dispatch)
        backend = clock is VirtualClock ? .inline(InlineSerialExecutor())
            : .dispatch(DispatchQueue(label: "BackgroundBudget.app.\(manifest.id.rawValue)"))
        #else
        backend = .inline(InlineSerialExecutor())
        #endif
        let app = Application(manifest: manifest, delegate: delegate, system: self, queue: AppExecutor(backend: backend))
        try state.withLock { (state) throws(InstallError) in
            try state.core.install(manifest)
            state.handles[manifest.id] = app
            state.installOrder.append(manifest.id)
        }
        return app
    }

    /// The installed app with an identifier, or `nil`.
    public func application(_ id: AppID) -> Application? {
        state.withLock { $0.handles[id] }
    }

    /// Every installed app, in installation order.
    public var applications: [Application] {
        state.withLock { state in state.installOrder.compactMap { state.handles[$0] } }
    }

    /// The apps in the app switcher, most recently used first: every app the user opened and has not
    /// swiped away, whether it runs, is suspended, or was purged meanwhile.
    public var appSwitcher: [Application] {
        state.withLock { state in
            state.core.records.filter(\.inAppSwitcher)
                .sorted { $0.lastUsed > $1.lastUsed }
                .compactMap { state.handles[$0.manifest.id] }
        }
    }

    /// The app in the foreground (active or inactive), if any.
    public var foregroundApplication: Application? {
        state.withLock { state in state.core.foreground.flatMap { state.handles[$0] } }
    }

    /// The system's own view of an app's state: it changes the moment the system decides, while
    /// ``Application/applicationState`` changes as the app receives each step.
    /// - Precondition: `app` was installed on this system.
    public func state(of app: Application) -> ApplicationState {
        requireInstalled(app)
        return state.withLock { $0.core.state(of: app.id) }
    }

    /// Traps when `app` was installed on another system: a programming error, like using an index of
    /// another collection.
    func requireInstalled(_ app: Application, file: StaticString = #file, line: UInt = #line) {
        precondition(app.system === self, "\(app.id) was not installed on this BackgroundSystem", file: file, line: line)
    }

    /// A snapshot of everything recorded so far.
    public var trace: Trace {
        state.withLock { $0.core.trace }
    }

    /// How many trace events have been recorded, kept or discarded; O(1), unlike ``trace``.
    package var recordedEventCount: Int {
        state.withLock { $0.core.trace.events.count + $0.core.trace.discardedCount }
    }

    /// The trace as `NSLog`-style lines, with each app's display name as its process name.
    /// - Parameter includesSystemEvents: Whether to print state changes and exits as well as callbacks.
    public func logLines(includesSystemEvents: Bool = true) -> String {
        let (trace, names) = state.withLock { state in
            (state.core.trace, Dictionary(uniqueKeysWithValues: state.core.records.map { ($0.manifest.id, $0.manifest.displayName) }))
        }
        return trace.logLines(LogLineStyle(processNames: names, includesSystemEvents: includesSystemEvents))
    }

    // MARK: The user

    /// The user taps the app's icon: a cold launch if it is not running, a return to the foreground if
    /// it runs in the background or is suspended, nothing if it is already in the foreground. Any other
    /// foreground app is sent to the background first.
    /// - Throws: ``LifecycleError`` (nothing changes).
    public func open(_ app: Application) throws(LifecycleError) {
        try run(app) { (core, now) throws(LifecycleError) in
            switch core.state(of: app.id) {
            case .notRunning: try core.apply(.launch, to: app.id, at: now)
            case .background, .suspended: try core.apply(.enterForeground, to: app.id, at: now)
            case .inactive, .active: []
            }
        }
    }

    /// The user presses Home (or swipes up): the foreground app goes to the background.
    /// - Throws: ``LifecycleError`` with ``LifecycleError/Problem/noForegroundApp`` when no app is in
    ///   the foreground.
    public func pressHome() throws(LifecycleError) {
        try run(nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.pressHome, at: now) }
    }

    /// A call or message alert covers the foreground app: it resigns active.
    /// - Throws: ``LifecycleError`` when no app is active.
    public func beginInterruption() throws(LifecycleError) {
        try run(nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionBegan, at: now) }
    }

    /// The user dismisses the alert: the interrupted app becomes active again.
    /// - Throws: ``LifecycleError`` when no app is interrupted.
    public func dismissInterruption() throws(LifecycleError) {
        try run(nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionDismissed, at: now) }
    }

    /// The user answers the alert: the interrupted app becomes active for a moment, then resigns and
    /// goes to the background while the phone or messages app takes the screen.
    /// - Throws: ``LifecycleError`` when no app is interrupted.
    public func answerInterruption() throws(LifecycleError) {
        try run(nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionAnswered, at: now) }
    }

    /// The user swipes the app away in the app switcher: `applicationWillTerminate` if it runs in the
    /// background, silent if it is suspended, nothing if it is not running.
    /// - Throws: ``LifecycleError`` when the app is in the foreground.
    public func killFromAppSwitcher(_ app: Application) throws(LifecycleError) {
        try send(.killFromAppSwitcher, to: app)
    }

    // MARK: The system

    /// Launches the app straight into the background (no `applicationDidBecomeActive`).
    /// - Parameters:
    ///   - app: The app, which must not be running.
    ///   - reason: Why the system launches it; passed in ``LaunchOptions``.
    /// - Throws: ``LifecycleError`` when the app is running or exits on suspend.
    public func launchInBackground(_ app: Application, reason: LaunchReason) throws(LifecycleError) {
        try send(.launchInBackground(reason), to: app)
    }

    /// Reclaims a suspended app's memory, silently.
    /// - Throws: ``LifecycleError`` when the app is not suspended.
    public func purge(_ app: Application) throws(LifecycleError) {
        try send(.purge, to: app)
    }

    /// Terminates an app in the background in an orderly way (`applicationWillTerminate` when it is
    /// executing, silent when suspended).
    /// - Throws: ``LifecycleError`` when the app is in the foreground or not running.
    public func terminate(_ app: Application, reason: TerminationReason) throws(LifecycleError) {
        try send(.terminate(reason), to: app)
    }

    /// Applies any ``LifecycleEvent`` to an app, as ``Lifecycle/transition(from:on:exitsOnSuspend:)``
    /// describes it. An event that brings the app to the foreground sends the current foreground app away.
    /// - Throws: ``LifecycleError`` when the event cannot happen in the app's state (nothing changes).
    public func send(_ event: LifecycleEvent, to app: Application) throws(LifecycleError) {
        try run(app) { (core, now) throws(LifecycleError) in try core.apply(event, to: app.id, at: now) }
    }

    // MARK: Running decisions

    /// Takes a decision under the lock, performs its effects (still under the lock, so queues see work
    /// in decision order), then lets inline queues run the app code outside the lock.
    func run(
        _ app: Application?,
        _ body: (inout DeviceCore, BudgetInstant) throws(LifecycleError) -> [Effect]
    ) throws(LifecycleError) {
        let (touched, released) = try state.withLock { (state) throws(LifecycleError) -> ([Application], [@Sendable () -> Void]) in
            // Read under the lock, so that decisions on a real clock are stamped in the order taken.
            let now = clock.now
            if let app {
                precondition(state.handles[app.id] === app, "\(app.id) was not installed on this BackgroundSystem")
            }
            var effects = try body(&state.core, now)
            // Queued continued-processing requests start as soon as there is room (free while none wait).
            if !state.core.continuedQueue.isEmpty { effects += state.core.startQueuedContinuedTasks(at: now) }
            return (perform(effects, in: &state, at: now), state.core.takeReleasedClosures())
        }
        withExtendedLifetime(released) {}   // dropped here, outside the lock
        for app in touched { app.queue.drain() }
    }

    /// Like ``run(_:_:)`` for decisions that cannot fail.
    func decide(_ body: (inout DeviceCore, BudgetInstant) -> [Effect]) {
        let (touched, released) = state.withLock { state in
            let now = clock.now
            var effects = body(&state.core, now)
            if !state.core.continuedQueue.isEmpty { effects += state.core.startQueuedContinuedTasks(at: now) }
            return (perform(effects, in: &state, at: now), state.core.takeReleasedClosures())
        }
        withExtendedLifetime(released) {}   // dropped here, outside the lock
        for app in touched { app.queue.drain() }
    }

    /// Performs effects in order. Runs no app code: queues only take work, timers are only scheduled.
    /// - Returns: The apps whose queues received work, in order of first appearance.
    private func perform(_ effects: [Effect], in state: inout State, at now: BudgetInstant) -> [Application] {
        var touched: [Application] = []
        func note(_ app: Application) {
            if !touched.contains(where: { $0 === app }) { touched.append(app) }
        }
        for effect in effects {
            switch effect {
            case .deliver(let delivery):
                guard let app = state.handles[delivery.app] else { continue }
                let options: LaunchOptions = if case .launchInBackground(let reason) = delivery.event {
                    LaunchOptions(backgroundLaunchReason: reason)
                } else {
                    LaunchOptions()
                }
                if delivery.steps == [.enter(.suspended)] {
                    // Suspension is immediate: the queue stops starting work now, and the app, which
                    // runs no code, sees its state change without a delivery.
                    app.setVisibleState(.suspended)
                    app.queue.suspend()
                    continue
                }
                app.queue.enqueue { [self] in
                    app.perform(delivery.steps, options: options, incarnation: delivery.incarnation)
                    if delivery.settles { settle(app.id, incarnation: delivery.incarnation) }
                }
                note(app)
            case .expirationHandlers(let id, let incarnation, let handlers):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    for (_, handler) in handlers { handler?() }
                    settle(id, incarnation: incarnation)
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
                state.handles[id]?.queue.resume()
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
                        self?.decide { core, now in core.fetchCompleted(fetch, result: result, app: id, at: now) }
                    }
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .runScheduledTask(let id, let incarnation, let task):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    let handler = self.state.withLock { $0.core.launchHandler(for: task, incarnation: incarnation) }
                    if let handler {
                        handler(task)
                    } else {
                        decide { core, now in core.scheduledTaskUnhandled(task, at: now) }
                    }
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .scheduledTaskExpiration(let id, let incarnation, let task):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    task.takeExpirationHandler()?()
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .keepAliveHandler(let id, let incarnation, let handler):
                guard let app = state.handles[id] else { continue }
                app.queue.enqueue { [self] in
                    handler()
                    settle(id, incarnation: incarnation)
                }
                note(app)
            case .dropQueue(let id):
                guard let app = state.handles[id] else { continue }
                let dropped = app.queue.terminate()
                if dropped > 0 { state.core.record(.workDropped(count: dropped), id, now) }
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
        decide { core, _ in core.callbackReturned(callback, app: app) }
    }
}
