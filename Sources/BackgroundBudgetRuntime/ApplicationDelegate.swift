/// The methods the system calls as an app moves through its lifecycle, named as in
/// `UIApplicationDelegate`.
///
/// Every method has an empty default implementation; implement the ones you need. The system calls
/// them on the app's own serial executor, one at a time, in the documented order, and never
/// while it holds a lock, so a callback may call back into the ``Application`` or the
/// ``BackgroundSystem``.
///
/// ```swift
/// final class Delegate: ApplicationDelegate {
///     func applicationDidEnterBackground(_ application: Application) {
///         // save state; begin a background task if work remains
///     }
/// }
/// ```
///
/// A delegate of this protocol is `Sendable`: its state goes behind a lock (``LockedValue``) or in
/// `let`s. A `@MainActor` class with plain stored properties, as UIKit delegates are, adopts
/// ``MainActorApplicationDelegate`` instead, and the system calls it on the main actor.
import BackgroundBudgetCore

public protocol ApplicationDelegate: AnyObject, Sendable {
    /// The launch process has begun (`application(_:willFinishLaunchingWithOptions:)`).
    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions)
    /// The launch process is almost done (`application(_:didFinishLaunchingWithOptions:)`).
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions)
    /// The app has become active (`applicationDidBecomeActive(_:)`).
    func applicationDidBecomeActive(_ application: Application)
    /// The app is about to become inactive (`applicationWillResignActive(_:)`).
    func applicationWillResignActive(_ application: Application)
    /// The app is now in the background (`applicationDidEnterBackground(_:)`).
    func applicationDidEnterBackground(_ application: Application)
    /// The app is about to enter the foreground (`applicationWillEnterForeground(_:)`).
    func applicationWillEnterForeground(_ application: Application)
    /// The app is about to terminate (`applicationWillTerminate(_:)`).
    func applicationWillTerminate(_ application: Application)
    /// A system event reached the app: a location event, a silent push
    /// (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`), a VoIP push (PushKit;
    /// call ``Application/reportNewIncomingCall()`` before returning), a Bluetooth or accessory event,
    /// a finished Newsstand download. It runs in the window the system grants; begin a background task
    /// to take longer. For a silent push, ``Application/completeRemoteNotification(_:)`` is the
    /// completion handler: calling it ends the window early.
    func application(_ application: Application, didReceive event: BackgroundEvent)
    /// The device is short of memory (`applicationDidReceiveMemoryWarning(_:)`): lower
    /// ``Application/memoryFootprint`` now, or be terminated if suspended apps were not enough.
    func applicationDidReceiveMemoryWarning(_ application: Application)
    /// A system notification arrived (`UIDevice.orientationDidChangeNotification`,
    /// `NSLocale.currentLocaleDidChangeNotification`, …). While the app is suspended they are
    /// coalesced to the latest per kind and delivered first when it runs again.
    func application(_ application: Application, didObserve notification: SystemNotification)
    /// The system grants a background fetch (`application(_:performFetchWithCompletionHandler:)`):
    /// fetch, then call `completionHandler` with the result within ``BudgetPolicy/fetchRuntime``
    /// (30 s), from any thread, or the app is terminated (`0x2182bad4`).
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void)
}

extension ApplicationDelegate {
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
    /// Calls the completion handler with ``BackgroundFetchResult/noData`` at once, as an app with
    /// nothing to fetch should.
    public func application(_ application: Application,
                            performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        completionHandler(.noData)
    }
}

extension ApplicationDelegate {
    /// Calls the delegate method for `callback`.
    func deliver(_ callback: AppCallback, to application: Application, options: LaunchOptions) {
        switch callback {
        case .willFinishLaunching: self.application(application, willFinishLaunchingWithOptions: options)
        case .didFinishLaunching: self.application(application, didFinishLaunchingWithOptions: options)
        case .didBecomeActive: applicationDidBecomeActive(application)
        case .willResignActive: applicationWillResignActive(application)
        case .didEnterBackground: applicationDidEnterBackground(application)
        case .willEnterForeground: applicationWillEnterForeground(application)
        case .willTerminate: applicationWillTerminate(application)
        case .didReceiveMemoryWarning: applicationDidReceiveMemoryWarning(application)
        }
    }
}
