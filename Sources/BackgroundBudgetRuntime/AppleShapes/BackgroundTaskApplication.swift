import BackgroundBudgetCore
import Foundation

#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// The part of `UIApplication` that background code uses, with UIKit's names and signatures, so that a
/// class written against it runs unchanged on a device (`UIApplication.shared`) and in the model
/// (an ``Application``).
///
/// Both conform: ``Application`` here, `UIApplication` in the package's UIKit extension (compiled only
/// where UIKit has `UIApplication`). The types that differ between the two are associated types with
/// UIKit's names: ``BackgroundTaskIdentifier`` (`UIBackgroundTaskIdentifier` or the model's
/// `BackgroundTaskIdentifier`), ``State`` (`UIApplication.State` or
/// ``ApplicationState``) and ``BackgroundRefreshStatus`` (`UIBackgroundRefreshStatus` or the model's).
/// Write the class generic over the application and give UIKit's as the default:
///
/// ```swift
/// @MainActor final class Uploader<App: BackgroundTaskApplication> {
///     private let application: App
///     private var task = App.BackgroundTaskIdentifier.invalid
///     init(application: App = UIApplication.shared) { self.application = application }
///
///     func applicationDidEnterBackground() {
///         task = application.beginBackgroundTask(withName: "upload") { [self] in
///             application.endBackgroundTask(task)
///             task = .invalid
///         }
///     }
/// }
/// ```
///
/// An app's code is `Uploader()` on a device; a test passes the model's app,
/// `Uploader(application: app)`, from a ``MainActorApplicationDelegate`` (the handlers are
/// `@MainActor`, as UIKit's are).
///
/// The protocol is `@MainActor`, as `UIApplication` is; the finite-task members are `nonisolated`, as
/// UIKit declares them ("This method can be safely called on a non-main thread"). Sources, one per
/// member: [beginBackgroundTask(withName:expirationHandler:)](https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)),
/// [endBackgroundTask(_:)](https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)),
/// [backgroundTimeRemaining](https://developer.apple.com/documentation/uikit/uiapplication/backgroundtimeremaining),
/// [applicationState](https://developer.apple.com/documentation/uikit/uiapplication/applicationstate),
/// [backgroundRefreshStatus](https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatus).
@MainActor
public protocol BackgroundTaskApplication: AnyObject, Sendable {
    /// The finite task's identifier: `UIBackgroundTaskIdentifier`, or the model's.
    associatedtype BackgroundTaskIdentifier: BackgroundTaskIdentifierShape
    /// The app's state: `UIApplication.State`, or the model's ``ApplicationState``.
    associatedtype State: ApplicationStateShape
    /// Whether Background App Refresh is on: `UIBackgroundRefreshStatus`, or the model's.
    associatedtype BackgroundRefreshStatus: BackgroundRefreshStatusShape

    /// Begins a finite background task; the handler is called on the main actor shortly before the
    /// background time runs out.
    /// - Parameters:
    ///   - taskName: A name for debugging.
    ///   - handler: Ends the task.
    /// - Returns: The identifier, or `.invalid`.
    nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier
    /// Ends a finite background task.
    /// - Parameter identifier: What ``beginBackgroundTask(withName:expirationHandler:)`` returned.
    nonisolated func endBackgroundTask(_ identifier: BackgroundTaskIdentifier)
    /// The background time left, in seconds; `.greatestFiniteMagnitude` in the foreground.
    nonisolated var backgroundTimeRemaining: TimeInterval { get }
    /// The app's state.
    var applicationState: State { get }
    /// Whether the app may run in the background for content updates.
    var backgroundRefreshStatus: BackgroundRefreshStatus { get }
}

/// What a finite task's identifier offers generic code: `UIBackgroundTaskIdentifier`'s `invalid`.
public protocol BackgroundTaskIdentifierShape: Hashable, Sendable {
    /// The identifier of no task (`UIBackgroundTaskIdentifier.invalid`).
    static var invalid: Self { get }
}

/// What an app state offers generic code: `UIApplication.State`'s three cases.
public protocol ApplicationStateShape: Hashable, Sendable {
    /// In the foreground, receiving events.
    static var active: Self { get }
    /// In the foreground, not receiving events.
    static var inactive: Self { get }
    /// In the background, executing code.
    static var background: Self { get }
}

/// What a Background App Refresh status offers generic code: `UIBackgroundRefreshStatus`'s cases.
public protocol BackgroundRefreshStatusShape: Hashable, Sendable {
    /// Background App Refresh is on for the app.
    static var available: Self { get }
    /// The user turned it off, or Low Power Mode is on.
    static var denied: Self { get }
    /// The device forbids it.
    static var restricted: Self { get }
}

extension BackgroundBudgetCore.BackgroundTaskIdentifier: BackgroundTaskIdentifierShape {}
extension ApplicationState: ApplicationStateShape {}
extension BackgroundBudgetCore.BackgroundRefreshStatus: BackgroundRefreshStatusShape {}

extension Application: BackgroundTaskApplication {}

extension BackgroundTaskApplication where Self: Application {
    /// Begins a finite background task with UIKit's signature: a `@MainActor` handler, called on the
    /// main actor, synchronously, as UIKit calls it ("blocking the app's suspension momentarily").
    /// The model calls expiration handlers on the app's queue. For an app with a
    /// ``MainActorApplicationDelegate`` (or any app whose clock the test drives from the main actor)
    /// that queue runs on the main actor and the handler is called there; otherwise the app's queue
    /// waits while the main queue runs the handler, so the instant is the same and the order too. The
    /// main queue must then be free to run it: a test's main actor is, between its own steps; a main
    /// thread blocked waiting for the app is not (the two would wait for each other).
    /// - Parameters:
    ///   - taskName: A name for the trace.
    ///   - handler: Called on the main actor, as ``Application/beginBackgroundTask(withName:expirationHandler:)``
    ///     says when.
    /// - Returns: The identifier, or `BackgroundTaskIdentifier.invalid`.
    public nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundBudgetCore.BackgroundTaskIdentifier {
        let onMain: (@Sendable () -> Void)? = handler.map { handler in { @Sendable in Self.callOnMainActor(handler) } }
        return (self as Application).beginBackgroundTask(withName: taskName, expirationHandler: onMain)
    }

    /// Calls a `@MainActor` handler on the main actor from the app's queue, and returns when it has
    /// returned: at once when the queue runs there, else through the main queue, the app's process
    /// context carried along (so calls the handler makes count as the app's own).
    private nonisolated static func callOnMainActor(_ handler: @escaping @MainActor @Sendable () -> Void) {
        #if canImport(Dispatch)
        guard !isOnMainQueue() else { return onMainActor(handler) }
        let context = ProcessContext.current
        DispatchQueue.main.sync {
            ProcessContext.$current.withValue(context) { MainActor.assumeIsolated(handler) }
        }
        #else
        onMainActor(handler)
        #endif
    }
}
