/// A notification an app's ``AppNotificationCenter`` carries (`Notification`): its name and the object
/// it is about — the ``Application`` for `UIApplication` notifications, the ``Scene`` for `UIScene`
/// ones, `nil` for `NSProcessInfoPowerStateDidChangeNotification`.
///
/// ```swift
/// application.notificationCenter.addObserver(forName: Application.didEnterBackgroundNotification,
///                                            object: nil, queue: nil) { notification in
///     save()
/// }
/// ```
public struct AppNotification: Sendable, CustomStringConvertible {
    /// A notification's name (`Notification.Name`): the Objective-C constant's string, e.g.
    /// `"UIApplicationDidEnterBackgroundNotification"`.
    public struct Name: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name's string.
        public let rawValue: String

        /// Creates a name; an app may post notifications of its own names.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a name.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The name's string.
        public var description: String { rawValue }
    }

    /// The notification's name.
    public var name: Name
    /// What the notification is about: the ``Application``, a ``Scene``, or `nil`.
    public var object: (any Sendable)?

    /// Creates a notification.
    public init(name: Name, object: (any Sendable)? = nil) {
        self.name = name
        self.object = object
    }

    /// The name.
    public var description: String { name.rawValue }

    /// Whether the notification is about `object` (an observer's filter): the same ``Application``, a
    /// ``Scene`` of the same session, or an object of another class that is identical (`===`).
    func isAbout(_ filter: any Sendable) -> Bool {
        switch (object, filter) {
        case (let scene as Scene, let other as Scene): scene.id == other.id
        // A value of any other type is boxed afresh by `as AnyObject`, so it is never identical.
        case (let mine?, let other): (mine as AnyObject) === (other as AnyObject)
        case (nil, _): false
        }
    }
}

extension Application {
    /// `UIApplication.didFinishLaunchingNotification`: posted right after
    /// `application(_:didFinishLaunchingWithOptions:)` returns.
    public static let didFinishLaunchingNotification = AppNotification.Name("UIApplicationDidFinishLaunchingNotification")
    /// `UIApplication.didBecomeActiveNotification`: after `applicationDidBecomeActive(_:)`; in a
    /// scene-based app, after the `sceneDidBecomeActive(_:)` that makes the app active.
    public static let didBecomeActiveNotification = AppNotification.Name("UIApplicationDidBecomeActiveNotification")
    /// `UIApplication.willResignActiveNotification`: after `applicationWillResignActive(_:)`; in a
    /// scene-based app, once the app's last active scene has resigned.
    public static let willResignActiveNotification = AppNotification.Name("UIApplicationWillResignActiveNotification")
    /// `UIApplication.didEnterBackgroundNotification`: after `applicationDidEnterBackground(_:)`; in a
    /// scene-based app, after the `sceneDidEnterBackground(_:)` of the scene whose departure puts the
    /// app in the background.
    public static let didEnterBackgroundNotification = AppNotification.Name("UIApplicationDidEnterBackgroundNotification")
    /// `UIApplication.willEnterForegroundNotification`: after `applicationWillEnterForeground(_:)`; in a
    /// scene-based app, once a scene's `sceneWillEnterForeground(_:)` has brought the app to the
    /// foreground (at launch too).
    public static let willEnterForegroundNotification = AppNotification.Name("UIApplicationWillEnterForegroundNotification")
    /// `UIApplication.willTerminateNotification`: after `applicationWillTerminate(_:)`.
    public static let willTerminateNotification = AppNotification.Name("UIApplicationWillTerminateNotification")
    /// `UIApplication.didReceiveMemoryWarningNotification`: after `applicationDidReceiveMemoryWarning(_:)`.
    public static let didReceiveMemoryWarningNotification = AppNotification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    /// `UIApplication.backgroundRefreshStatusDidChangeNotification`: after the delegate observes the
    /// change (``ApplicationDelegate/application(_:didObserve:)``); read ``backgroundRefreshStatus``.
    public static let backgroundRefreshStatusDidChangeNotification =
        AppNotification.Name("UIApplicationBackgroundRefreshStatusDidChangeNotification")
}

extension Scene {
    /// `UIScene.willConnectNotification`: after `scene(_:willConnectTo:options:)`.
    public static let willConnectNotification = AppNotification.Name("UISceneWillConnectNotification")
    /// `UIScene.didDisconnectNotification`: after `sceneDidDisconnect(_:)`.
    public static let didDisconnectNotification = AppNotification.Name("UISceneDidDisconnectNotification")
    /// `UIScene.didActivateNotification`: after `sceneDidBecomeActive(_:)`.
    public static let didActivateNotification = AppNotification.Name("UISceneDidActivateNotification")
    /// `UIScene.willDeactivateNotification`: after `sceneWillResignActive(_:)`.
    public static let willDeactivateNotification = AppNotification.Name("UISceneWillDeactivateNotification")
    /// `UIScene.willEnterForegroundNotification`: after `sceneWillEnterForeground(_:)`.
    public static let willEnterForegroundNotification = AppNotification.Name("UISceneWillEnterForegroundNotification")
    /// `UIScene.didEnterBackgroundNotification`: after `sceneDidEnterBackground(_:)`.
    public static let didEnterBackgroundNotification = AppNotification.Name("UISceneDidEnterBackgroundNotification")
}

extension AppNotification.Name {
    /// `NSProcessInfoPowerStateDidChangeNotification` (`Notification.Name.NSProcessInfoPowerStateDidChange`):
    /// Low Power Mode was turned on or off; read ``Application/isLowPowerModeEnabled``.
    public static let processInfoPowerStateDidChange = AppNotification.Name("NSProcessInfoPowerStateDidChangeNotification")
}
