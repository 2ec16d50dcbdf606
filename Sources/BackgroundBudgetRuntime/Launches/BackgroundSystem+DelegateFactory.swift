import BackgroundBudgetCore
import BudgetLock

/// The factories of an app installed with ``BackgroundSystem/install(_:delegateFactory:sceneDelegateFactory:)``,
/// and the process whose delegates they made last.
final class LaunchFactories: Sendable {
    struct State: Sendable {
        var appDelegate: (@Sendable () -> any ApplicationDelegate)?
        var sceneDelegate: (@Sendable () -> any SceneDelegate)?
        /// The epoch of the process the current delegates were made for.
        var madeFor: UInt64?
        /// Whether the factories make main-actor delegates (the app's queue then runs on the main actor
        /// between processes too, so that the next launch's factories are called there).
        var mainActor = false
    }

    let state = LockedValue(State())

    /// Whether the app was installed with factories.
    var isSet: Bool { state.withLock { $0.appDelegate != nil } }
}

extension BackgroundSystem {
    /// Installs an app, not yet running, whose delegates are made afresh for each launch: as iOS
    /// builds a new process, whose `UIApplicationMain` instantiates the app delegate class (and UIKit
    /// the scene delegate class) again, each launch — the first, and every relaunch after the process
    /// ended — calls the factories before its first callback, and the objects go with the process when
    /// it ends. A relaunch thus starts from nothing but what the app saved (the `SavedState` module's store, files),
    /// as on a device.
    ///
    /// ```swift
    /// let app = try system.install(manifest, delegateFactory: { NewsDelegate() })
    /// ```
    ///
    /// ``install(_:delegate:)-lo7l`` instead keeps one object for every launch: state it caches in
    /// stored properties outlives the process, which no device does. A queue it made on the first
    /// launch, for one, belongs to that process and silently runs nothing once it has ended (the *App
    /// code and its process* article shows the trap).
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - delegateFactory: Makes the app delegate of each process; called on the app's queue, as the
    ///     launch's first app code.
    ///   - sceneDelegateFactory: For a scene-based app, makes the scene delegate of each process.
    /// - Returns: The installed app. Its ``Application/delegate`` is `nil` until the first launch,
    ///   and again once each process has ended.
    /// - Throws: ``InstallError`` for an invalid or duplicate bundle identifier; nothing is installed.
    @discardableResult
    public func install(_ manifest: AppManifest, delegateFactory: @escaping @Sendable () -> any ApplicationDelegate,
                        sceneDelegateFactory: (@Sendable () -> any SceneDelegate)? = nil) throws(InstallError) -> Application {
        let app = try install(manifest, delegate: nil)
        app.launches.state.withLock { $0 = LaunchFactories.State(appDelegate: delegateFactory, sceneDelegate: sceneDelegateFactory) }
        return app
    }

    /// Installs an app, not yet running, whose main-actor delegates are made afresh for each launch:
    /// ``install(_:delegateFactory:sceneDelegateFactory:)`` for a ``MainActorApplicationDelegate`` (and
    /// a ``MainActorSceneDelegate``). The factories run on the main actor, as the launch's first app
    /// code, and all the app's work runs there (see ``MainActorApplicationDelegate``): on a
    /// ``VirtualClock``, drive the system from the main actor (mark the test `@MainActor`).
    ///
    /// ```swift
    /// let app = try system.install(manifest, mainActorDelegateFactory: { NewsDelegate() })
    /// ```
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - mainActorDelegateFactory: Makes the main-actor app delegate of each process.
    ///   - mainActorSceneDelegateFactory: For a scene-based app, makes the main-actor scene delegate of
    ///     each process.
    /// - Returns: The installed app. Its ``Application/mainActorDelegate`` is `nil` until the first
    ///   launch, and again once each process has ended.
    /// - Throws: ``InstallError`` for an invalid or duplicate bundle identifier; nothing is installed.
    @MainActor @discardableResult
    public func install(_ manifest: AppManifest,
                        mainActorDelegateFactory: @escaping @MainActor @Sendable () -> any MainActorApplicationDelegate,
                        mainActorSceneDelegateFactory: (@MainActor @Sendable () -> any MainActorSceneDelegate)? = nil) throws(InstallError) -> Application {
        let app = try install(manifest, delegate: nil)
        let appDelegate: @Sendable () -> any ApplicationDelegate = {
            MainActorDelegateAdapter(madeOnMainActor(mainActorDelegateFactory))
        }
        var sceneDelegate: (@Sendable () -> any SceneDelegate)?
        if let makeScene = mainActorSceneDelegateFactory {
            sceneDelegate = { MainActorSceneDelegateAdapter(madeOnMainActor(makeScene)) }
        }
        app.launches.state.withLock { $0 = LaunchFactories.State(appDelegate: appDelegate, sceneDelegate: sceneDelegate, mainActor: true) }
        // The first launch's factories run on the main actor too.
        app.queue.setRunsOnMainActor(true, for: "appDelegate")
        return app
    }
}

/// What `factory` makes, called on the main actor (stopping with an explanation when the app's queue
/// is not on it, as ``onMainActor(_:file:line:)`` does).
private func madeOnMainActor<Made: Sendable>(_ factory: @MainActor @Sendable () -> Made) -> Made {
    var made: Made?
    onMainActor { made = factory() }
    guard let made else { preconditionFailure("onMainActor runs its body before it returns") }
    return made
}

extension Application {
    /// For an app installed with factories, makes the delegates of the process of `epoch` as its launch
    /// delivery (`steps` with `willFinishLaunching`) begins, unless they are made already. Runs the
    /// factories (app code) with no lock held.
    func makeDelegatesIfNeeded(forProcess epoch: UInt64, steps: [LifecycleStep]) {
        guard steps.contains(.callback(.willFinishLaunching)) else { return }
        let factories = launches.state.withLock { state -> LaunchFactories.State? in
            guard state.appDelegate != nil, state.madeFor != epoch else { return nil }
            state.madeFor = epoch
            return state
        }
        guard let factories, let makeAppDelegate = factories.appDelegate else { return }
        setDelegate(makeAppDelegate(), mainActor: factories.mainActor)
        if let makeSceneDelegate = factories.sceneDelegate { setSceneDelegate(makeSceneDelegate(), mainActor: factories.mainActor) }
    }

    /// For an app installed with factories, takes away the delegates of the process that ended, to be
    /// released outside the system's lock (a release may run the app's `deinit`).
    func takeProcessDelegates() -> [any Sendable] {
        guard launches.isSet else { return [] }
        let mainActor = launches.state.withLock { state in
            state.madeFor = nil
            return state.mainActor
        }
        // The stored objects, main-actor adapters included (their public getters hide them).
        let taken: [any Sendable] = side.withLock { [$0.delegate as (any Sendable)?, $0.sceneDelegate as (any Sendable)?] }.compactMap { $0 }
        setDelegate(nil, mainActor: mainActor)
        setSceneDelegate(nil, mainActor: mainActor)
        return taken
    }
}

extension AppExecutor {
    /// Counts a timer of ``ProcessClock`` in (`+1`) or out (`-1`), for the epoch it was scheduled in
    /// only: the end of that epoch already counted and cleared its timers.
    func countTimer(_ change: Int, epoch: UInt64, job: Bool = false) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            state.timers = max(0, state.timers + change)
            if job { state.jobs = max(0, state.jobs + change) }
        }
    }
}
