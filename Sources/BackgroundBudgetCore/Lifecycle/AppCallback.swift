import BudgetTime

/// A lifecycle callback that the system delivers to an app's delegate.
///
/// These are the sceneless `UIApplicationDelegate` methods. ``selector`` is the Objective-C selector as
/// `NSStringFromSelector(_cmd)` prints it in a log line; ``eventName`` is the name used in JSON traces
/// (the selector without its final colon).
///
/// Source: Apple's callback orders ([S2][S3][S5]–[S9]).
///
/// The callbacks grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum AppCallback: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `application(_:willFinishLaunchingWithOptions:)`.
    case willFinishLaunching
    /// `application(_:didFinishLaunchingWithOptions:)`.
    case didFinishLaunching
    /// `applicationDidBecomeActive(_:)`.
    case didBecomeActive
    /// `applicationWillResignActive(_:)`.
    case willResignActive
    /// `applicationDidEnterBackground(_:)`.
    case didEnterBackground
    /// `applicationWillEnterForeground(_:)`.
    case willEnterForeground
    /// `applicationWillTerminate(_:)`.
    case willTerminate
    /// `applicationDidReceiveMemoryWarning(_:)`: the device is short of memory; release what you can.
    case didReceiveMemoryWarning

    /// The Objective-C selector, e.g. `"applicationDidEnterBackground:"`.
    public var selector: String {
        switch self {
        case .willFinishLaunching: "application:willFinishLaunchingWithOptions:"
        case .didFinishLaunching: "application:didFinishLaunchingWithOptions:"
        case .didBecomeActive: "applicationDidBecomeActive:"
        case .willResignActive: "applicationWillResignActive:"
        case .didEnterBackground: "applicationDidEnterBackground:"
        case .willEnterForeground: "applicationWillEnterForeground:"
        case .willTerminate: "applicationWillTerminate:"
        case .didReceiveMemoryWarning: "applicationDidReceiveMemoryWarning:"
        }
    }

    /// The trace event name: the selector without its final colon, e.g. `"applicationDidEnterBackground"`.
    public var eventName: String { String(selector.dropLast()) }

    /// The callback with a given trace event name, or `nil`.
    /// - Parameter eventName: A name such as `"applicationWillResignActive"`.
    public init?(eventName: String) {
        guard let match = Self.allCases.first(where: { $0.eventName == eventName }) else { return nil }
        self = match
    }

    /// The trace event name.
    public var description: String { eventName }
}
