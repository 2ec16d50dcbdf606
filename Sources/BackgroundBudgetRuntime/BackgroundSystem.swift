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
import BackgroundBudgetCore
import BudgetClock
import BudgetLock
import BudgetTime

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
        /// The app closures and task objects the core names by identifier, per app.
        var closures: [AppID: AppClosures] = [:]
        /// Closures and objects let go of under the lock, dropped by ``decide(for:_:)`` after it is released (see ``takeReleased()``).
        var released: [any Sendable] = []
        /// The state cells of app code a snapshot saves, while snapshots are taken (`nil` otherwise; see BackgroundSystem+Snapshot.swift).
        var cells: [any RestorableCellProtocol]?

        /// Hands over what was let go of, for the caller to drop outside the lock: releasing a closure
        /// may run a `deinit` of the app's, which must never run under the system lock.
        mutating func takeReleased() -> [any Sendable] {
            defer { released = [] }
            return released
        }
    }

    struct TimerKey: Hashable {
        var app: AppID
        var timer: AppTimer
    }

    let state: LockedValue<State>
    /// On a ``DispatchClock``, the wall-clock date of the instant zero in seconds since 2001, measured
    /// the first time a date is converted (BackgroundSystem+Dates.swift).
    let wallClockOrigin = LockedValue<Double?>(nil)

    /// How much of the trace the system keeps: the retention it was created with, with
    /// ``TraceRetention/automatic`` resolved for its clock.
    public let traceRetention: TraceRetention
    /// On a ``VirtualClock``, the hold on the runtime's global-executor hooks that brings app code's
    /// own tasks into the model while the system lives (GlobalExecutorHooks.swift).
    let concurrencyRun: (any Sendable)?

    /// Creates a device with no apps under the default policy, ``BudgetPolicy/iOS13``.
    /// - Parameters:
    ///   - clock: The clock to run on; usually a ``VirtualClock``.
    ///   - traceRetention: How much of the trace to keep. ``TraceRetention/automatic`` by default:
    ///     everything on a ``VirtualClock``, the latest 10,000 entries on a real clock.
    public init(clock: any BudgetClock, traceRetention: TraceRetention = .automatic) {
        self.clock = clock
        self.concurrencyRun = Self.concurrencyRun(for: clock)
        self.policy = .iOS13
        self.traceRetention = traceRetention.resolved(for: clock)
        self.state = LockedValue(State(core: DeviceCore(policy: .iOS13, retention: self.traceRetention)))
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
        self.concurrencyRun = Self.concurrencyRun(for: clock)
        self.policy = policy
        self.traceRetention = traceRetention.resolved(for: clock)
        self.state = LockedValue(State(core: DeviceCore(policy: policy, retention: self.traceRetention)))
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
        let backend = AppExecutor.backend(label: manifest.id.rawValue, clock: clock)
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
                .sorted { $0.memory.lastUsed > $1.memory.lastUsed }
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

    /// The trace as `NSLog`-style lines, with each app's display name as its process name, stamped with
    /// the system's dates (trace time zero is ``logLineStart``, the date of the instant zero).
    /// - Parameter includesSystemEvents: Whether to print state changes and exits as well as callbacks.
    public func logLines(includesSystemEvents: Bool = true) -> String {
        let (trace, names) = state.withLock { state in
            (state.core.trace, Dictionary(uniqueKeysWithValues: state.core.records.map { ($0.manifest.id, $0.manifest.displayName) }))
        }
        return trace.logLines(LogLineStyle(start: logLineStart, processNames: names, includesSystemEvents: includesSystemEvents))
    }

    // MARK: The user

    /// The user taps the app's icon: a cold launch if it is not running, a return to the foreground if
    /// it runs in the background or is suspended, nothing if it is already in the foreground. Any other
    /// foreground app is sent to the background first.
    /// - Throws: ``LifecycleError`` (nothing changes).
    public func open(_ app: Application) throws(LifecycleError) {
        try decideEvent(for: app) { (core, now) throws(LifecycleError) in
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
        try decideEvent(for: nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.pressHome, at: now) }
    }

    /// A call or message alert covers the foreground app: it resigns active.
    /// - Throws: ``LifecycleError`` when no app is active.
    public func beginInterruption() throws(LifecycleError) {
        try decideEvent(for: nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionBegan, at: now) }
    }

    /// The user dismisses the alert: the interrupted app becomes active again.
    /// - Throws: ``LifecycleError`` when no app is interrupted.
    public func dismissInterruption() throws(LifecycleError) {
        try decideEvent(for: nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionDismissed, at: now) }
    }

    /// The user answers the alert: the interrupted app becomes active for a moment, then resigns and
    /// goes to the background while the phone or messages app takes the screen.
    /// - Throws: ``LifecycleError`` when no app is interrupted.
    public func answerInterruption() throws(LifecycleError) {
        try decideEvent(for: nil) { (core, now) throws(LifecycleError) in try core.applyToForeground(.interruptionAnswered, at: now) }
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

    /// Restarts the device. Every running process ends with no callback (exit reason
    /// ``TerminationReason/reboot``; no source describes callbacks at shutdown). The mark a user kill
    /// leaves survives, so such an app is still not relaunched in the background until the user opens
    /// it [S31][S86][S87]. Apps that declare `voip` are then relaunched into the background, as iOS does
    /// at boot [S34]. Location monitoring, pending task requests, the fetch plan and device settings
    /// are kept, as across any termination: the sources say nothing of them.
    public func reboot() {
        decide { core, now in core.reboot(at: now) }
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
        try decideEvent(for: app) { (core, now) throws(LifecycleError) in try core.apply(event, to: app.id, at: now) }
    }

    // MARK: Taking decisions

    /// Takes one decision. Under the lock it reads the clock, lets `body` change the core (and the
    /// shell's closure tables) and return the core's ``Decision`` (a value and its effects), starts queued
    /// continued-processing tasks there is now room for, and performs the effects, still under the lock
    /// so that queues see work in decision order. Then, outside the lock, it drops the closures and
    /// objects let go of (a release may run an app's `deinit`) and lets inline queues run the app's code
    /// (the queues that received work, and those resumed).
    ///
    /// Every public operation of the system and its apps goes through here.
    /// - Parameters:
    ///   - app: When given, it must be installed on this system.
    ///   - body: The decision. When it throws, the core has refused before changing anything, and no
    ///     effect is performed.
    /// - Returns: The value of the decision `body` returned.
    func decide<Value, Failure: Error>(
        for app: Application? = nil,
        _ body: (inout State, BudgetInstant) throws(Failure) -> Decision<Value>
    ) throws(Failure) -> Value {
        // Without a caller to fence, the decision is always taken.
        guard let value = try decide(for: app, caller: nil, body) else {
            preconditionFailure("a decision without a caller is never fenced")
        }
        return value
    }

    /// ``decide(for:_:)`` for a call made by `caller`'s code (an ``Application`` method): when that
    /// code belongs to a process of the app that has ended, the call has no effect and no trace entry,
    /// and `ended` is returned. The check is made under the lock, so a kill is either before the call
    /// (which is dropped) or after it.
    func decide<Value, Failure: Error>(
        caller: Application, ended: @autoclosure () -> Value,
        _ body: (inout State, BudgetInstant) throws(Failure) -> Decision<Value>
    ) throws(Failure) -> Value {
        if let value = try decide(for: nil, caller: caller, body) { return value }
        return ended()
    }

    /// ``decide(caller:ended:_:)`` for a call of an app's code that yields only effects.
    func decide(caller: Application, _ body: (inout DeviceCore, BudgetInstant) -> Decision<Void>) {
        decide(caller: caller, ended: ()) { (state: inout State, now: BudgetInstant) in body(&state.core, now) }
    }

    /// Takes one decision, or none (returning `nil`) when `caller`'s code runs in an ended process.
    private func decide<Value, Failure: Error>(
        for app: Application?, caller: Application?,
        _ body: (inout State, BudgetInstant) throws(Failure) -> Decision<Value>
    ) throws(Failure) -> Value? {
        let (value, touched, released) = try state.withLock {
            (state) throws(Failure) -> (Value?, [AppExecutor], [any Sendable]) in
            if let caller, caller.callerProcessEnded { return (nil, [], []) }
            // Read under the lock, so that decisions on a real clock are stamped in the order taken.
            let now = clock.now
            state.core.beginDecision()
            if let app {
                precondition(state.handles[app.id] === app, "\(app.id) was not installed on this BackgroundSystem")
            }
            var decision = try body(&state, now)
            // Queued continued-processing requests start as soon as there is room (free while none wait).
            if !state.core.continued.queue.isEmpty { decision.effects += state.core.startQueuedContinuedTasks(at: now).effects }
            return (decision.value, perform(decision.effects, in: &state, at: now), state.takeReleased())
        }
        withExtendedLifetime(released) {}   // dropped here, outside the lock
        for queue in touched { queue.drain() }
        return value
    }

    /// ``decide(for:_:)`` for a decision of the core alone that yields only effects.
    func decide(_ body: (inout DeviceCore, BudgetInstant) -> Decision<Void>) {
        decide { (state: inout State, now: BudgetInstant) in body(&state.core, now) }
    }

    /// ``decide(for:_:)`` for a lifecycle event, which the core may refuse with a ``LifecycleError``.
    func decideEvent(
        for app: Application?, _ body: (inout DeviceCore, BudgetInstant) throws(LifecycleError) -> Decision<Void>
    ) throws(LifecycleError) {
        try decide(for: app) { (state: inout State, now: BudgetInstant) throws(LifecycleError) in
            try body(&state.core, now)
        }
    }
}
