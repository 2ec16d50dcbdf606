import BackgroundBudgetCore
import BackgroundBudgetRuntime
import BudgetClock
import BudgetLock
import BudgetTime

/// An ``/BackgroundBudget/ApplicationDelegate`` whose behaviour a test sets per callback, and which records every
/// callback it receives: what, when, and the state the app reported during it. It is a
/// `SceneDelegate` too: for a scene-based app set it as the app's ``/BackgroundBudget/Application/sceneDelegate`` and
/// script scene callbacks with ``onScene(_:perform:)``.
///
/// Every method of the protocol is covered: the eight lifecycle callbacks (``/BackgroundBudget/AppCallback``), system
/// events, notifications and background fetches. Set a handler with ``on(_:perform:)`` (or
/// ``onEvent(_:)``, ``onNotification(_:)``, ``onFetch(_:)``); the recording is made before the handler
/// runs, so the handler may cause further callbacks. Unscripted callbacks do what the protocol's
/// defaults do (a fetch completes with ``/BackgroundBudget/BackgroundFetchResult/noData``).
///
/// ```swift
/// let delegate = ScriptedDelegate(clock: clock)
/// delegate.on(.didEnterBackground) { app in app.beginBackgroundTask(withName: "upload") }
/// let app = try system.install(AppManifest(id: "news"), delegate: delegate)
/// try system.open(app)
/// try system.pressHome()
/// #expect(delegate.callbacks.last == .didEnterBackground)
/// #expect(delegate.times(of: .lifecycle(.didEnterBackground)) == [.zero])
/// ```
///
/// Thread-safe: handlers and records live behind a lock that is never held while a handler runs. It is
/// a `Sendable` delegate, called on the app's queue, and works unchanged in a `@MainActor` test; to test
/// a delegate written as a UIKit one (a `@MainActor` class), adopt `MainActorApplicationDelegate` in
/// the test instead.
public final class ScriptedDelegate: ApplicationDelegate {
    /// One recorded callback.
    ///
    /// ```swift
    /// let record = try #require(delegate.records.first)
    /// #expect(record.callback == .lifecycle(.willFinishLaunching) && record.state == .notRunning)
    /// ```
    public struct Record: Sendable, Hashable {
        /// What was received.
        public var callback: Callback
        /// The app's ``/BackgroundBudget/Application/applicationState`` as it read during the callback.
        public var state: ApplicationState
        /// The clock's time when it was received, if the delegate knows a clock.
        public var time: BudgetInstant?
        /// The launch options, for the two launch callbacks.
        public var launchOptions: LaunchOptions?
        /// The app that received it.
        public var app: AppID
    }

    /// A fetch handler: it receives the completion handler, which it may call now, later or never.
    public typealias FetchHandler = @Sendable (Application, @escaping @Sendable (BackgroundFetchResult) -> Void) -> Void

    struct Script {
        var lifecycle: [AppCallback: @Sendable (Application) -> Void] = [:]
        var any: (@Sendable (AppCallback, Application) -> Void)?
        var event: (@Sendable (Application, BackgroundEvent) -> Void)?
        var notification: (@Sendable (Application, SystemNotification) -> Void)?
        var fetch: FetchHandler?
        var scene: [SceneCallback: @Sendable (Scene) -> Void] = [:]
        var restoration: (@Sendable (Scene) -> UserActivity?)?
        var records: [Record] = []
    }

    private let clock: (any BudgetClock)?
    let script = LockedValue(Script())

    /// Creates a delegate with no handlers.
    /// - Parameter clock: The clock to stamp records with; by default the clock of the system the
    ///   receiving app is installed on.
    ///
    /// ```swift
    /// let delegate = ScriptedDelegate()
    /// ```
    public init(clock: (any BudgetClock)? = nil) {
        self.clock = clock
    }

    /// Creates a delegate that calls `script` for every lifecycle callback (as ``onAnyCallback(_:)``).
    /// - Parameters:
    ///   - clock: The clock to stamp records with; by default the receiving app's system's clock.
    ///   - script: Called with each lifecycle callback, after it is recorded.
    ///
    /// ```swift
    /// let delegate = ScriptedDelegate { callback, app in
    ///     if callback == .didEnterBackground { app.beginBackgroundTask(withName: "upload") }
    /// }
    /// ```
    public convenience init(clock: (any BudgetClock)? = nil, _ script: @escaping @Sendable (AppCallback, Application) -> Void) {
        self.init(clock: clock)
        onAnyCallback(script)
    }

    // MARK: Scripting

    /// Runs `handler` each time the lifecycle callback is received (replacing an earlier handler).
    ///
    /// ```swift
    /// delegate.on(.willTerminate) { app in app.simulateWork(for: .seconds(3)) }
    /// ```
    public func on(_ callback: AppCallback, perform handler: @escaping @Sendable (Application) -> Void) {
        script.withLock { $0.lifecycle[callback] = handler }
    }

    /// Runs `handler` for every lifecycle callback, after the per-callback handler, if any.
    ///
    /// ```swift
    /// delegate.onAnyCallback { callback, app in if callback == .didEnterBackground { … } }
    /// ```
    public func onAnyCallback(_ handler: @escaping @Sendable (AppCallback, Application) -> Void) {
        script.withLock { $0.any = handler }
    }

    /// Runs `handler` for each system event (location, silent push, VoIP push, …).
    ///
    /// ```swift
    /// delegate.onEvent { app, event in if event == .voipPush { app.reportNewIncomingCall() } }
    /// ```
    public func onEvent(_ handler: @escaping @Sendable (Application, BackgroundEvent) -> Void) {
        script.withLock { $0.event = handler }
    }

    /// Runs `handler` for each system notification delivered.
    ///
    /// ```swift
    /// delegate.onNotification { app, _ in app.setMemoryFootprint(10_000_000) }
    /// ```
    public func onNotification(_ handler: @escaping @Sendable (Application, SystemNotification) -> Void) {
        script.withLock { $0.notification = handler }
    }

    /// Handles background fetches: `handler` gets the completion handler and decides when to call it.
    ///
    /// ```swift
    /// delegate.onFetch { app, complete in app.simulateWork(for: .seconds(2)); complete(.newData) }
    /// ```
    public func onFetch(_ handler: @escaping FetchHandler) {
        script.withLock { $0.fetch = handler }
    }

    /// Answers every fetch with `result` after `work` of simulated work, or never when `result` is `nil`.
    ///
    /// ```swift
    /// delegate.completeFetches(with: .newData, after: .seconds(2))
    /// ```
    public func completeFetches(with result: BackgroundFetchResult?, after work: Duration = .zero) {
        onFetch { app, complete in
            app.simulateWork(for: work)
            if let result { complete(result) }
        }
    }

    // MARK: What was received

    /// Every recorded callback, in order.
    ///
    /// ```swift
    /// #expect(delegate.records.map(\.state) == [.notRunning, .inactive, .active])
    /// ```
    public var records: [Record] { script.withLock { $0.records } }

    /// What was received, in order.
    ///
    /// ```swift
    /// #expect(delegate.received == [.lifecycle(.didEnterBackground), .event(.silentPush)])
    /// ```
    public var received: [Callback] { records.map(\.callback) }

    /// The lifecycle callbacks received, in order.
    ///
    /// ```swift
    /// #expect(delegate.callbacks == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive])
    /// ```
    public var callbacks: [AppCallback] {
        records.compactMap { if case .lifecycle(let callback) = $0.callback { callback } else { nil } }
    }

    /// The state the app reported during each lifecycle callback, in order.
    ///
    /// ```swift
    /// #expect(delegate.states == [.notRunning, .inactive, .active])
    /// ```
    public var states: [ApplicationState] {
        records.compactMap { if case .lifecycle = $0.callback { $0.state } else { nil } }
    }

    /// The system events received, in order.
    ///
    /// ```swift
    /// #expect(delegate.events == [.silentPush])
    /// ```
    public var events: [BackgroundEvent] {
        records.compactMap { if case .event(let event) = $0.callback { event } else { nil } }
    }

    /// The notifications received, in order.
    ///
    /// ```swift
    /// #expect(delegate.notifications == [.locale("fr_FR")])
    /// ```
    public var notifications: [SystemNotification] {
        records.compactMap { if case .notification(let notification) = $0.callback { notification } else { nil } }
    }

    /// The launch options of each `willFinishLaunchingWithOptions`, in order.
    ///
    /// ```swift
    /// #expect(delegate.launchOptions.map(\.backgroundLaunchReason) == [nil])
    /// ```
    public var launchOptions: [LaunchOptions] {
        records.compactMap { $0.callback == .lifecycle(.willFinishLaunching) ? $0.launchOptions : nil }
    }

    /// When each receipt of `callback` happened (records without a time are left out).
    ///
    /// ```swift
    /// #expect(delegate.times(of: .fetch) == [.seconds(900)])
    /// ```
    public func times(of callback: Callback) -> [BudgetInstant] {
        records.compactMap { $0.callback == callback ? $0.time : nil }
    }

    /// The records of one kind of callback, in order.
    ///
    /// ```swift
    /// #expect(delegate.records(of: .fetch).map(\.state) == [.background])
    /// ```
    public func records(of callback: Callback) -> [Record] {
        records.filter { $0.callback == callback }
    }

    /// The records of one kind of method (every event, every notification, …), in order.
    ///
    /// ```swift
    /// #expect(delegate.records(ofKind: .notification).allSatisfy { $0.state == .background })
    /// ```
    public func records(ofKind kind: Callback.Kind) -> [Record] {
        records.filter { $0.callback.kind == kind }
    }

    /// Forgets what was recorded so far (handlers stay).
    ///
    /// ```swift
    /// delegate.clearRecords()
    /// ```
    public func clearRecords() {
        script.withLock { $0.records.removeAll() }
    }

    // MARK: ApplicationDelegate

    func note(_ callback: Callback, _ application: Application, options: LaunchOptions? = nil) {
        let time = (clock ?? application.system?.clock)?.now
        let record = Record(callback: callback, state: application.applicationState, time: time,
                            launchOptions: options, app: application.id)
        script.withLock { $0.records.append(record) }
    }

    private func lifecycle(_ callback: AppCallback, _ application: Application, options: LaunchOptions? = nil) {
        note(.lifecycle(callback), application, options: options)
        let (handler, any) = script.withLock { ($0.lifecycle[callback], $0.any) }
        handler?(application)   // outside the lock
        any?(callback, application)
    }

    /// Records the callback and runs its handler.
    public func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
        lifecycle(.willFinishLaunching, application, options: options)
    }
    /// Records the callback and runs its handler.
    public func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        lifecycle(.didFinishLaunching, application, options: options)
    }
    /// Records the callback and runs its handler.
    public func applicationDidBecomeActive(_ application: Application) { lifecycle(.didBecomeActive, application) }
    /// Records the callback and runs its handler.
    public func applicationWillResignActive(_ application: Application) { lifecycle(.willResignActive, application) }
    /// Records the callback and runs its handler.
    public func applicationDidEnterBackground(_ application: Application) { lifecycle(.didEnterBackground, application) }
    /// Records the callback and runs its handler.
    public func applicationWillEnterForeground(_ application: Application) { lifecycle(.willEnterForeground, application) }
    /// Records the callback and runs its handler.
    public func applicationWillTerminate(_ application: Application) { lifecycle(.willTerminate, application) }
    /// Records the callback and runs its handler.
    public func applicationDidReceiveMemoryWarning(_ application: Application) {
        lifecycle(.didReceiveMemoryWarning, application)
    }

    /// Records the event and runs the event handler.
    public func application(_ application: Application, didReceive event: BackgroundEvent) {
        note(.event(event), application)
        script.withLock { $0.event }?(application, event)
    }

    /// Records the notification and runs the notification handler.
    public func application(_ application: Application, didObserve notification: SystemNotification) {
        note(.notification(notification), application)
        script.withLock { $0.notification }?(application, notification)
    }

    /// Records the fetch and runs the fetch handler, or completes with ``/BackgroundBudget/BackgroundFetchResult/noData``.
    public func application(_ application: Application,
                            performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        note(.fetch, application)
        if let handler = script.withLock({ $0.fetch }) {
            handler(application, completionHandler)
        } else {
            completionHandler(.noData)
        }
    }
}
