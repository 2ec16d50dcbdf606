import BackgroundBudgetCore

#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// An ``ApplicationDelegate`` isolated to the main actor, as `UIApplicationDelegate` is: a class with
/// plain stored properties, whose callbacks the system delivers on the main actor.
///
/// ```swift
/// final class PodcastsDelegate: MainActorApplicationDelegate {   // @MainActor, inferred
///     var saves = 0
///     var upload: BackgroundTaskIdentifier?
///
///     func applicationDidEnterBackground(_ application: Application) {
///         saves += 1
///         upload = application.beginBackgroundTask(withName: "upload")
///     }
/// }
///
/// @MainActor @Test func savesOnceInTheBackground() throws {
///     let clock = VirtualClock()
///     let system = BackgroundSystem(clock: clock)
///     let delegate = PodcastsDelegate()
///     let app = try system.install(AppManifest(id: "com.example.podcasts"), delegate: delegate)
///     try system.open(app)
///     try system.pressHome()
///     #expect(delegate.saves == 1)
/// }
/// ```
///
/// The methods, their order and their defaults are those of ``ApplicationDelegate``; an app has one
/// delegate or the other (``Application/delegate`` or ``Application/mainActorDelegate``).
///
/// ## Where the callbacks run
///
/// The app's serial queue still decides *when* each callback runs (it is what is suspended with the
/// app); for an app with a main-actor delegate, every piece of work on that queue (callbacks and the
/// lifecycle observers that follow them, expiration handlers, launch handlers,
/// ``Application/async(_:)``) runs on the main actor, as an iOS app's code runs on its main thread:
/// - On a ``VirtualClock`` the queue runs inline on the thread that drives the clock, so drive the
///   system and the clock from the main actor: mark the test (or its suite) `@MainActor`. A callback
///   that the clock would deliver elsewhere stops the program with a message that says so
///   ("mark the test @MainActor"), rather than race with the main actor.
/// - On a real clock (``DispatchClock``) the app's queue hands each piece of work to the main queue
///   (where the main actor runs) and waits for it, as a busy main thread holds up an app. So the
///   program must let the main queue run: `async` code that awaits does (a test, an `async` main);
///   a synchronous command-line program runs `RunLoop.main.run()` once it has set things up and ends
///   with `exit(_:)`. While the main actor is blocked (in a semaphore wait, say) no callback is
///   delivered and the app's queue waits; never block the main actor waiting for one. Avoid
///   `dispatchMain()`: it ends the main thread, and the main queue is then drained by another
///   thread; the Swift 6 runtime (Linux, macOS 15, iOS 18) still takes that queue for the main
///   actor, but older Apple systems (macOS 13–14, iOS 16–17) decide by the thread alone, and the
///   first callback traps in `MainActor.assumeIsolated` (Swift's `Actor.cpp` before SE-0424's
///   `checkIsolated`).
///
/// ```swift
/// // main.swift of a command-line program (top-level code runs on the main actor)
/// let clock = DispatchClock()
/// let system = BackgroundSystem(clock: clock)
/// let app = try system.install(AppManifest(id: "com.example.podcasts"), delegate: PodcastsDelegate())
/// try system.open(app)
/// try system.pressHome()
/// RunLoop.main.run()   // the callbacks arrive from here on; a callback calls exit(0) when done
/// ```
///
/// Every app of a ``BackgroundSystem`` shares the one main actor, where each iOS app has a main thread
/// of its own: main-actor callbacks of different apps run one after another, never at once.
///
/// Handlers the app registers (an expiration handler, say) stay `@Sendable` closures: for such an app
/// they run on the main actor, so `MainActor.assumeIsolated { … }` inside one reaches the delegate's
/// state:
///
/// ```swift
/// upload = application.beginBackgroundTask(withName: "upload") { [self] in
///     MainActor.assumeIsolated { application.endBackgroundTask(upload) }
/// }
/// ```
///
/// ## Why a protocol of its own
///
/// Swift 6.2's isolated conformances (`extension Delegate: @MainActor ApplicationDelegate`) cannot be
/// used here: ``ApplicationDelegate`` is `Sendable`, because the system holds the delegate and calls it
/// from the app's queue, and the compiler refuses "main actor-isolated conformance … to
/// SendableMetatype-inheriting protocol". Without `Sendable`, the system could not hold the delegate
/// at all. A `@MainActor` protocol reads as UIKit does (`UIApplicationDelegate` is one), needs no
/// Swift 6.2 compiler, and tells the system, by type, where to deliver. Existing `Sendable` delegates
/// keep conforming to ``ApplicationDelegate`` unchanged.
///
/// Its methods repeat ``ApplicationDelegate``'s because one list cannot serve both: a protocol's
/// isolation covers every requirement, so a `@MainActor` protocol can neither inherit a nonisolated
/// one's requirements nor lend its own, and merging the two would change, for code written against
/// either, where its methods run. A test keeps the two lists, their defaults and the adapter that
/// forwards one to the other the same.
@MainActor
public protocol MainActorApplicationDelegate: AnyObject, Sendable {
    /// See ``ApplicationDelegate/application(_:willFinishLaunchingWithOptions:)``.
    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions)
    /// See ``ApplicationDelegate/application(_:didFinishLaunchingWithOptions:)``.
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions)
    /// See ``ApplicationDelegate/applicationDidBecomeActive(_:)``.
    func applicationDidBecomeActive(_ application: Application)
    /// See ``ApplicationDelegate/applicationWillResignActive(_:)``.
    func applicationWillResignActive(_ application: Application)
    /// See ``ApplicationDelegate/applicationDidEnterBackground(_:)``.
    func applicationDidEnterBackground(_ application: Application)
    /// See ``ApplicationDelegate/applicationWillEnterForeground(_:)``.
    func applicationWillEnterForeground(_ application: Application)
    /// See ``ApplicationDelegate/applicationWillTerminate(_:)``.
    func applicationWillTerminate(_ application: Application)
    /// See ``ApplicationDelegate/application(_:didReceive:)``.
    func application(_ application: Application, didReceive event: BackgroundEvent)
    /// See ``ApplicationDelegate/applicationDidReceiveMemoryWarning(_:)``.
    func applicationDidReceiveMemoryWarning(_ application: Application)
    /// See ``ApplicationDelegate/application(_:didObserve:)``.
    func application(_ application: Application, didObserve notification: SystemNotification)
    /// See ``ApplicationDelegate/application(_:performFetchWithCompletionHandler:)``.
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void)
}

extension MainActorApplicationDelegate {
    /// Does nothing.
    public func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {}
    /// Does nothing.
    public func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {}
    /// Does nothing.
    public func applicationDidBecomeActive(_ application: Application) {}
    /// Does nothing.
    public func applicationWillResignActive(_ application: Application) {}
    /// Does nothing.
    public func applicationDidEnterBackground(_ application: Application) {}
    /// Does nothing.
    public func applicationWillEnterForeground(_ application: Application) {}
    /// Does nothing.
    public func applicationWillTerminate(_ application: Application) {}
    /// Does nothing.
    public func application(_ application: Application, didReceive event: BackgroundEvent) {}
    /// Does nothing.
    public func applicationDidReceiveMemoryWarning(_ application: Application) {}
    /// Does nothing.
    public func application(_ application: Application, didObserve notification: SystemNotification) {}
    /// Calls the completion handler with ``BackgroundFetchResult/noData`` at once.
    public func application(_ application: Application,
                            performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        completionHandler(.noData)
    }
}

/// The shell's view of a ``MainActorApplicationDelegate``: an ``ApplicationDelegate`` whose every
/// method runs the main-actor one through ``onMainActor(_:file:line:)``, so that the shell's delivery
/// paths need not know which kind of delegate an app has.
final class MainActorDelegateAdapter: ApplicationDelegate {
    let base: any MainActorApplicationDelegate

    init(_ base: any MainActorApplicationDelegate) {
        self.base = base
    }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
        onMainActor { base.application(application, willFinishLaunchingWithOptions: options) }
    }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        onMainActor { base.application(application, didFinishLaunchingWithOptions: options) }
    }
    func applicationDidBecomeActive(_ application: Application) {
        onMainActor { base.applicationDidBecomeActive(application) }
    }
    func applicationWillResignActive(_ application: Application) {
        onMainActor { base.applicationWillResignActive(application) }
    }
    func applicationDidEnterBackground(_ application: Application) {
        onMainActor { base.applicationDidEnterBackground(application) }
    }
    func applicationWillEnterForeground(_ application: Application) {
        onMainActor { base.applicationWillEnterForeground(application) }
    }
    func applicationWillTerminate(_ application: Application) {
        onMainActor { base.applicationWillTerminate(application) }
    }
    func application(_ application: Application, didReceive event: BackgroundEvent) {
        onMainActor { base.application(application, didReceive: event) }
    }
    func applicationDidReceiveMemoryWarning(_ application: Application) {
        onMainActor { base.applicationDidReceiveMemoryWarning(application) }
    }
    func application(_ application: Application, didObserve notification: SystemNotification) {
        onMainActor { base.application(application, didObserve: notification) }
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        onMainActor { base.application(application, performFetchWithCompletionHandler: completionHandler) }
    }
}

/// Calls a main-actor delegate's method from the app's queue: the one point where the shell enters
/// the main actor, for any kind of main-actor delegate (app or scene).
///
/// The app's queue already runs on the main queue when the app has a main-actor delegate (see
/// ``AppExecutor/setRunsOnMainActor(_:for:)``); this checks it, and stops the program with an explanation
/// when it is not so (a ``VirtualClock`` driven from another thread) instead of racing. The check is
/// made before the runtime's own, which on Linux fails inside libdispatch without saying why.
func onMainActor(_ body: @MainActor () -> Void, file: StaticString = #fileID, line: UInt = #line) {
    #if canImport(Dispatch)
    precondition(isOnMainQueue(), """
        A MainActorApplicationDelegate's callback is due, but the clock delivers it off the main actor: \
        on a VirtualClock, drive the system and the clock from the main actor (mark the test @MainActor); \
        on a DispatchClock, let the main thread run the main queue (RunLoop.main.run() or async code).
        """, file: file, line: line)
    #endif
    MainActor.assumeIsolated(body, file: file, line: line)
}

#if canImport(Dispatch)
/// Whether the calling code runs on the main queue, which is where the main actor runs: the main
/// thread, or, once a program has called `dispatchMain()` on Linux, whichever thread drains the queue.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: MainQueueMark.key) == true
}

/// A value set on the main queue, so that ``isOnMainQueue()`` can ask without trapping.
private enum MainQueueMark {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
#endif

extension BackgroundSystem {
    /// Installs an app, not yet running, whose delegate is isolated to the main actor: its callbacks,
    /// and all the app's work, run on the main actor (see ``MainActorApplicationDelegate``).
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - delegate: The object that receives its lifecycle callbacks (retained).
    /// - Returns: The installed app.
    /// - Throws: ``InstallError`` for an invalid or duplicate bundle identifier; nothing is installed.
    @MainActor @discardableResult
    public func install(_ manifest: AppManifest, delegate: any MainActorApplicationDelegate) throws(InstallError) -> Application {
        let app = try install(manifest, delegate: nil)
        app.mainActorDelegate = delegate
        return app
    }
}
