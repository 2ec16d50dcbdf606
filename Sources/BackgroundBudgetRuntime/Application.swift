import BackgroundBudgetCore
import BudgetClock
import BudgetLock

/// An installed app as the app itself sees it: its state, its delegate, and observers of its lifecycle.
///
/// You get one from ``BackgroundSystem/install(_:delegate:)-lo7l`` (or, for a
/// main-actor delegate, ``BackgroundSystem/install(_:delegate:)-(_,MainActorApplicationDelegate)``).
/// The system decides transitions; the app's view of them (``applicationState``, delegate calls,
/// observer calls) is updated on the app's own serial executor, step by step, so that inside
/// `applicationWillResignActive` the state still reads `.active`, as it does in UIKit.
///
/// ```swift
/// let app = try system.install(AppManifest(id: "com.example.news"))
/// let token = app.addObserver { callback in print(callback.selector) }
/// try system.open(app)          // application:willFinishLaunchingWithOptions: … applicationDidBecomeActive:
/// app.removeObserver(token)
/// ```
public final class Application: Sendable {
    /// The app's bundle identifier.
    public let id: AppID
    /// The app's Info.plist keys.
    public let manifest: AppManifest

    /// The app's own serial queue.
    let queue: AppExecutor
    /// The app's notification center (`NotificationCenter.default` for the app's code): the system
    /// posts the lifecycle notifications to it (see ``AppNotificationCenter``).
    public let notificationCenter: AppNotificationCenter
    /// The factories that make the delegates of each process, for an app installed with them.
    let launches = LaunchFactories()
    let side: LockedValue<SideState>
    /// The device the app is installed on; weak, because the system owns its apps.
    package weak let system: BackgroundSystem?

    struct SideState {
        var state: ApplicationState = .notRunning
        var delegate: (any ApplicationDelegate)?
        var observers: [Int: Observer] = [:]
        var nextObserver = 0
        /// Set from the start of a launch delivery until `didFinishLaunching` returns: task launch
        /// handlers may be registered.
        var finishingLaunch = false
        /// The scene delegate of a scene-based app.
        var sceneDelegate: (any SceneDelegate)?
        /// The connected scenes as the app sees them, in the order they connected.
        var scenes = SceneSet()
        /// Each session's state restoration activity, given when its scene last entered the background.
        var restorationActivities: [SceneID: UserActivity] = [:]
    }

    /// Whether the app is finishing launching (its launch delivery runs and `didFinishLaunching` has
    /// not returned).
    var isFinishingLaunching: Bool {
        side.withLock { $0.finishingLaunch }
    }

    struct Observer {
        var callbacks: Set<AppCallback>
        var block: @Sendable (AppCallback) -> Void
    }

    init(manifest: AppManifest, delegate: (any ApplicationDelegate)?, system: BackgroundSystem, queue: AppExecutor) {
        self.system = system
        self.queue = queue
        self.notificationCenter = AppNotificationCenter(queue: queue)
        self.id = manifest.id
        self.manifest = manifest
        self.side = LockedValue(SideState(delegate: delegate))
        queue.state.withLock { $0.application = self }
    }

    /// The app's state as the app sees it: it changes as each step is delivered on the app's executor.
    ///
    /// Read from outside a callback after the system has delivered everything (always, on a
    /// ``VirtualClock``), it matches the system's decision.
    public var applicationState: ApplicationState {
        side.withLock { $0.state }
    }

    /// The object that receives lifecycle callbacks on the app's queue; retained by the app. `nil`
    /// when the app has a ``mainActorDelegate`` instead; setting it replaces that one.
    public var delegate: (any ApplicationDelegate)? {
        get { side.withLock { $0.delegate is MainActorDelegateAdapter ? nil : $0.delegate } }
        set { setDelegate(newValue, mainActor: false) }
    }

    /// The main-actor object that receives lifecycle callbacks on the main actor (see
    /// ``MainActorApplicationDelegate``); retained by the app. `nil` when the app has a ``delegate``
    /// instead; setting it replaces that one, and makes all the app's work run on the main thread.
    public var mainActorDelegate: (any MainActorApplicationDelegate)? {
        get { side.withLock { ($0.delegate as? MainActorDelegateAdapter)?.base } }
        set { setDelegate(newValue.map(MainActorDelegateAdapter.init), mainActor: newValue != nil) }
    }

    /// Sets the object the shell delivers to, and where the app's queue runs its work.
    func setDelegate(_ delegate: (any ApplicationDelegate)?, mainActor: Bool) {
        side.withLock { $0.delegate = delegate }
        queue.setRunsOnMainActor(mainActor, for: "appDelegate")
    }

    /// The object that receives scene callbacks, for an app with an ``AppManifest/sceneManifest``;
    /// retained by the app. One delegate serves every scene. `nil` when the app has a
    /// ``mainActorSceneDelegate`` instead; setting it replaces that one.
    public var sceneDelegate: (any SceneDelegate)? {
        get { side.withLock { $0.sceneDelegate is MainActorSceneDelegateAdapter ? nil : $0.sceneDelegate } }
        set { setSceneDelegate(newValue, mainActor: false) }
    }

    /// The main-actor object that receives scene callbacks on the main actor (see
    /// ``MainActorSceneDelegate``); retained by the app. `nil` when the app has a ``sceneDelegate``
    /// instead; setting it replaces that one, and makes all the app's work run on the main actor.
    public var mainActorSceneDelegate: (any MainActorSceneDelegate)? {
        get { side.withLock { ($0.sceneDelegate as? MainActorSceneDelegateAdapter)?.base } }
        set { setSceneDelegate(newValue.map(MainActorSceneDelegateAdapter.init), mainActor: newValue != nil) }
    }

    /// Sets the object the shell delivers scene callbacks to, and where the app's queue runs its work.
    func setSceneDelegate(_ delegate: (any SceneDelegate)?, mainActor: Bool) {
        side.withLock { $0.sceneDelegate = delegate }
        queue.setRunsOnMainActor(mainActor, for: "sceneDelegate")
    }

    /// The app's connected scenes as the app sees them (`UIApplication.connectedScenes`), in the order
    /// they connected; they change as each step is delivered on the app's executor.
    public var connectedScenes: [Scene] {
        side.withLock { side in side.scenes.connected.map { makeScene($0.id, in: side) } }
    }

    private func makeScene(_ id: SceneID, in side: SideState) -> Scene {
        Scene(session: SceneSession(persistentIdentifier: id, stateRestorationActivity: side.restorationActivities[id]),
              activationState: side.scenes.scene(id)?.state ?? .unattached, application: self)
    }

    /// Registers a block called after each lifecycle callback is delivered to the delegate, as UIKit
    /// posts `UIApplication.didEnterBackgroundNotification` and its siblings; in a scene-based app, as
    /// the app as a whole changes state (see ``AppNotificationCenter`` for the app's own observers).
    ///
    /// - Parameters:
    ///   - callbacks: The callbacks to observe; all by default.
    ///   - block: Called on the app's executor with the callback that was delivered (on the main
    ///     actor, for an app with a ``mainActorDelegate``).
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(
        for callbacks: Set<AppCallback> = Set(AppCallback.allCases),
        using block: @escaping @Sendable (AppCallback) -> Void
    ) -> LifecycleObserver {
        side.withLock { side in
            let token = side.nextObserver
            side.nextObserver += 1
            side.observers[token] = Observer(callbacks: callbacks, block: block)
            return LifecycleObserver(app: id, token: token)
        }
    }

    /// Runs the observers of ``addObserver(for:using:)`` for `callback`: in a scene-based app, as the app
    /// as a whole changes state.
    func runLifecycleObservers(for callback: AppCallback) {
        let blocks = side.withLock { side in
            side.observers.sorted { $0.key < $1.key }.compactMap { $0.value.callbacks.contains(callback) ? $0.value.block : nil }
        }
        for block in blocks {
            guard !callerProcessEnded else { return }
            block(callback)
        }
    }

    /// Stops an observer. Removing one twice, or one of another app, does nothing.
    /// - Parameter observer: The token ``addObserver(for:using:)`` returned.
    public func removeObserver(_ observer: LifecycleObserver) {
        guard observer.app == id else { return }
        _ = side.withLock { $0.observers.removeValue(forKey: observer.token) }
    }

    /// The lifecycle callbacks as an asynchronous sequence, from now until the stream is dropped.
    ///
    /// ```swift
    /// for await callback in app.lifecycleEvents() where callback == .didEnterBackground { … }
    /// ```
    public func lifecycleEvents() -> AsyncStream<AppCallback> {
        let (stream, continuation) = AsyncStream<AppCallback>.makeStream()
        let token = addObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }

    /// Spends time in the calling code as real work would, for example inside a delegate callback:
    /// "this callback takes 7 s". On a ``VirtualClock`` the clock advances, so a watchdog due meanwhile
    /// fires; on a real clock the calling thread blocks.
    ///
    /// A killed process runs no more code: when the app's process ends during the work (a watchdog
    /// kill, say), the work stops there on a ``VirtualClock`` (the clock stays at the instant of the
    /// kill), and work asked for by code of an ended process takes no time at all.
    /// - Parameter duration: How long the work takes.
    public func simulateWork(for duration: Duration) {
        guard let clock = system?.clock, !callerProcessEnded else { return }
        guard let context = ProcessContext.current, context.executor === queue, let virtual = clock as? VirtualClock else {
            clock.simulateWork(for: duration)
            return
        }
        // Advance deadline by deadline, as system work (no app's code), until the end or the kill.
        let end = virtual.now.advanced(by: max(duration, .zero))
        while !context.isEnded {
            guard let next = virtual.nextDeadline, next < end else {
                ProcessContext.detached { _ = virtual.advance(to: end) }
                return
            }
            // A halted clock runs nothing: stop rather than spin.
            guard ProcessContext.detached({ virtual.advance(to: next) }) > 0 else { return }
        }
    }

    /// Whether the calling code belongs to a process of this app that has ended (see
    /// ``ProcessContext``): every call it makes is then dropped, without effect or trace. Code that is
    /// not the app's own (a test, a scenario, another app) never is.
    var callerProcessEnded: Bool {
        guard let context = ProcessContext.current, context.executor === queue else { return false }
        return context.isEnded
    }

    /// Sets the state the app reports without going through its queue: for suspension, which the app
    /// does not see happen (its queue is suspended at once).
    func setVisibleState(_ state: ApplicationState) {
        side.withLock { $0.state = state }
    }

    /// Hands a system event to the delegate, on the app's queue.
    func receive(_ event: BackgroundEvent) {
        let delegate = side.withLock { $0.delegate }
        delegate?.application(self, didReceive: event)
    }

    /// Performs steps in order on the app's queue: updates the visible state, calls the delegate (with
    /// the watchdog armed for callbacks that have a time limit), then observers. Stops if the app is
    /// terminated meanwhile. No lock is held while user code runs.
    func perform(_ steps: [LifecycleStep], options: LaunchOptions, incarnation: UInt64) {
        let epoch = queue.epoch
        makeDelegatesIfNeeded(forProcess: epoch, steps: steps)
        var posts = LifecyclePosts(application: self, steps: steps)
        defer { if queue.epoch == epoch { posts.finish() } }
        let launching = steps.contains(.callback(.didFinishLaunching))
        if launching { side.withLock { $0.finishingLaunch = true } }
        defer { if launching { side.withLock { $0.finishingLaunch = false } } }
        for (index, step) in steps.enumerated() {
            guard queue.epoch == epoch else { return }
            switch step {
            case .enter(let state):
                let old = side.withLock { side in
                    defer { side.state = state }
                    if state == .notRunning { side.scenes = SceneSet() }
                    return side.state
                }
                posts.entered(state, from: old, at: index)
            case .callback(let callback):
                let (delegate, blocks) = side.withLock { side in
                    (side.delegate, side.observers.sorted { $0.key < $1.key }
                        .compactMap { $0.value.callbacks.contains(callback) ? $0.value.block : nil })
                }
                system?.callbackStarted(callback, app: id, incarnation: incarnation)
                delegate?.deliver(callback, to: self, options: options)
                if callback == .didFinishLaunching { side.withLock { $0.finishingLaunch = false } }
                guard queue.epoch == epoch else { return }
                posts.delegateReturned(callback)
                guard queue.epoch == epoch else { return }
                system?.callbackReturned(callback, app: id)
                for block in blocks { block(callback) }
            case .notification(let notification):
                let delegate = side.withLock { $0.delegate }
                delegate?.application(self, didObserve: notification)
                guard queue.epoch == epoch else { return }
                postObserved(notification)
            case .sceneCallback(let callback, let scene):
                // Delivered as the app delegate's callbacks are: the watchdog around the call, no lock held.
                let (delegate, value) = side.withLock { side in
                    // A connecting scene is among the connected scenes, unattached, while it connects.
                    if callback == .willConnect, side.scenes.scene(scene) == nil { side.scenes.append(.init(id: scene, state: .unattached)) }
                    return (side.sceneDelegate, makeScene(scene, in: side))
                }
                system?.sceneCallbackStarted(callback, scene: scene, app: id, incarnation: incarnation)
                delegate?.deliver(callback, to: value)
                guard queue.epoch == epoch else { return }
                posts.sceneDelegateReturned(callback, scene: value)
                guard queue.epoch == epoch else { return }
                if callback == .didEnterBackground, let delegate {
                    // UIKit asks for the restoration activity as the scene enters the background [S76].
                    let activity = delegate.stateRestorationActivity(for: value)
                    side.withLock { $0.restorationActivities[scene] = activity }
                }
                guard queue.epoch == epoch else { return }
                system?.sceneCallbackReturned(callback, scene: scene, app: id)
            case .sceneState(let state, let scene):
                side.withLock { side in
                    if side.scenes.scene(scene) != nil {
                        if state == .unattached { side.scenes.remove(scene) } else { side.scenes.setState(state, of: scene) }
                    } else if state != .unattached {
                        side.scenes.append(.init(id: scene, state: state))
                    }
                }
            case .exit:
                break
            }
        }
    }

    /// Calls the delegate's fetch method, on the app's queue.
    func performFetch(_ completion: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        let delegate = side.withLock { $0.delegate }
        delegate?.application(self, performFetchWithCompletionHandler: completion)
        if delegate == nil { completion(.noData) }
    }

    /// Hands a notification to the delegate, on the app's queue.
    func receive(_ notification: SystemNotification) {
        let delegate = side.withLock { $0.delegate }
        delegate?.application(self, didObserve: notification)
        postObserved(notification)
    }
}
