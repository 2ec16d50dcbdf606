import BudgetTime

/// A lifecycle callback that the system delivers to an app's delegate.
///
/// These are the sceneless `UIApplicationDelegate` methods. ``selector`` is the Objective-C selector as
/// `NSStringFromSelector(_cmd)` prints it in a log line; ``eventName`` is the name used in JSON traces
/// (the selector without its final colon).
///
/// Source: Apple's callback orders ([S2][S3][S5]–[S9]).
///
/// The callbacks grow as the model does, so this is a struct with a static member per callback rather than an enum:
/// a new one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
public struct AppCallback: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The callbacks the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case willFinishLaunching
        case didFinishLaunching
        case didBecomeActive
        case willResignActive
        case didEnterBackground
        case willEnterForeground
        case willTerminate
        case didReceiveMemoryWarning
    }

    /// The callback, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The callback's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The callback with that name, or `nil` for one the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every callback the model knows, in declaration order.
    public static var allCases: [AppCallback] { Base.allCases.map(AppCallback.init) }

    /// `application(_:willFinishLaunchingWithOptions:)`.
    public static let willFinishLaunching = AppCallback(.willFinishLaunching)
    /// `application(_:didFinishLaunchingWithOptions:)`.
    public static let didFinishLaunching = AppCallback(.didFinishLaunching)
    /// `applicationDidBecomeActive(_:)`.
    public static let didBecomeActive = AppCallback(.didBecomeActive)
    /// `applicationWillResignActive(_:)`.
    public static let willResignActive = AppCallback(.willResignActive)
    /// `applicationDidEnterBackground(_:)`.
    public static let didEnterBackground = AppCallback(.didEnterBackground)
    /// `applicationWillEnterForeground(_:)`.
    public static let willEnterForeground = AppCallback(.willEnterForeground)
    /// `applicationWillTerminate(_:)`.
    public static let willTerminate = AppCallback(.willTerminate)
    /// `applicationDidReceiveMemoryWarning(_:)`: the device is short of memory; release what you can.
    public static let didReceiveMemoryWarning = AppCallback(.didReceiveMemoryWarning)

    /// The Objective-C selector, e.g. `"applicationDidEnterBackground:"`.
    public var selector: String {
        switch base {
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
