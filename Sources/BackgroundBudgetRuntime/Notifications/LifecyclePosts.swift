import BackgroundBudgetCore

/// Which lifecycle notifications a delivery posts, and when: ``Application/perform(_:options:incarnation:)``
/// drives it step by step, on the app's queue, as app code.
///
/// - An app-delegate callback posts its `UIApplication` notification as soon as the delegate method
///   returns, inside the callback's time limit: Apple says the app posts it "around the same time" it
///   calls the method [S6], and gives no order, so delegate first is a model assumption — except
///   for `willTerminateNotification`, which Apple's reference puts after the method [S8].
/// - A scene callback posts its `UIScene` notification as soon as the scene delegate method returns
///   (each notification's reference says "UIKit also calls" the method, e.g.
///   developer.apple.com/documentation/uikit/uiscene/didactivatenotification; the order is a model
///   assumption).
/// - In a scene-based app the `UIApplication` foreground and background notifications are posted when
///   the app as a whole changes state (its state follows its most active scene [S4]): leaving active
///   posts `willResignActive` and reaching the foreground `willEnterForeground` at that instant, right
///   after the scene callback that caused it; reaching active posts `didBecomeActive` and reaching the
///   background `didEnterBackground` right after the scene callback that follows the change
///   (`sceneDidBecomeActive`, `sceneDidEnterBackground`). A model assumption: Apple documents that
///   these notifications exist in scene-based apps, not their instant.
struct LifecyclePosts {
    let application: Application
    let steps: [LifecycleStep]
    let sceneBased: Bool
    /// App-level notifications waiting for the scene callback that follows the state change.
    private var held: [AppCallback] = []

    init(application: Application, steps: [LifecycleStep]) {
        self.application = application
        self.steps = steps
        self.sceneBased = application.manifest.usesScenes
    }

    /// The `UIApplication` notification that goes with an app-delegate callback, if any.
    static func name(of callback: AppCallback) -> AppNotification.Name? {
        switch callback {
        case .willFinishLaunching: nil
        case .didFinishLaunching: Application.didFinishLaunchingNotification
        case .didBecomeActive: Application.didBecomeActiveNotification
        case .willResignActive: Application.willResignActiveNotification
        case .didEnterBackground: Application.didEnterBackgroundNotification
        case .willEnterForeground: Application.willEnterForegroundNotification
        case .willTerminate: Application.willTerminateNotification
        case .didReceiveMemoryWarning: Application.didReceiveMemoryWarningNotification
        }
    }

    /// The `UIScene` notification that goes with a scene callback.
    static func name(of callback: SceneCallback) -> AppNotification.Name {
        switch callback {
        case .willConnect: Scene.willConnectNotification
        case .willEnterForeground: Scene.willEnterForegroundNotification
        case .didBecomeActive: Scene.didActivateNotification
        case .willResignActive: Scene.willDeactivateNotification
        case .didEnterBackground: Scene.didEnterBackgroundNotification
        case .didDisconnect: Scene.didDisconnectNotification
        }
    }

    /// The app delegate's method for `callback` returned.
    func delegateReturned(_ callback: AppCallback) {
        guard let name = Self.name(of: callback) else { return }
        application.postFromSystem(AppNotification(name: name, object: application))
    }

    /// The scene delegate's method for `callback` returned: the scene's notification, then the
    /// app-level ones that waited for it.
    mutating func sceneDelegateReturned(_ callback: SceneCallback, scene: Scene) {
        application.postFromSystem(AppNotification(name: Self.name(of: callback), object: scene))
        guard let replaced = callback.replacedAppCallback, held.contains(replaced) else { return }
        held.removeAll { $0 == replaced }
        postAppLevel(replaced)
    }

    /// The app's visible state changed from `old` to `new` at step `index`: in a scene-based app, the
    /// app-level notifications of the change, now or after the scene callback that follows.
    mutating func entered(_ new: ApplicationState, from old: ApplicationState, at index: Int) {
        guard sceneBased, old != .notRunning, new != .notRunning else { return }
        for callback in Self.appLevelCallbacks(from: old, to: new) {
            if followingSceneCallback(replacing: callback, after: index) { held.append(callback) } else { postAppLevel(callback) }
        }
    }

    /// Posts what still waits (a delivery cut short by nothing but its own end).
    mutating func finish() {
        for callback in held { postAppLevel(callback) }
        held = []
    }

    private func postAppLevel(_ callback: AppCallback) {
        if let name = Self.name(of: callback) { application.postFromSystem(AppNotification(name: name, object: application)) }
        // The observers of `addObserver(for:using:)` hear the app-level change too.
        application.runLifecycleObservers(for: callback)
    }

    /// Whether a scene callback that replaces `callback` comes after step `index`, before the app's
    /// state changes again.
    private func followingSceneCallback(replacing callback: AppCallback, after index: Int) -> Bool {
        for step in steps[(index + 1)...] {
            switch step {
            case .enter: return false
            case .sceneCallback(let scene, _) where scene.replacedAppCallback == callback: return true
            default: continue
            }
        }
        return false
    }

    /// The app-delegate callbacks a change of the app's state stands for, in order.
    static func appLevelCallbacks(from old: ApplicationState, to new: ApplicationState) -> [AppCallback] {
        var callbacks: [AppCallback] = []
        if old == .active, new != .active { callbacks.append(.willResignActive) }
        if !old.isForeground, new.isForeground { callbacks.append(.willEnterForeground) }
        if old.isForeground, !new.isForeground { callbacks.append(.didEnterBackground) }
        if old != .active, new == .active { callbacks.append(.didBecomeActive) }
        return callbacks
    }
}

extension Application {
    /// Posts a notification of the system's on the app's center, as the app's code, and records in the
    /// trace how many observers ran (when any did).
    func postFromSystem(_ notification: AppNotification) {
        let ran = notificationCenter.deliver(notification)
        guard ran > 0 else { return }
        system?.decide(caller: self) { core, now in
            core.notificationObserved(notification.name.rawValue, observers: ran, app: id, at: now)
        }
    }

    /// Posts what a system notification the delegate observed goes with, if anything.
    func postObserved(_ notification: SystemNotification) {
        if case .backgroundRefreshStatus = notification {
            postFromSystem(AppNotification(name: Application.backgroundRefreshStatusDidChangeNotification, object: self))
        }
    }
}
