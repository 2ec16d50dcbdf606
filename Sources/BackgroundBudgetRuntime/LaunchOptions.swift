/// The options an app is launched with.
///
/// UIKit passes a dictionary keyed by `UIApplication.LaunchOptionsKey`; here the one fact the
/// lifecycle needs is typed: why the system launched the app, if it did.
import BackgroundBudgetCore

public struct LaunchOptions: Sendable, Hashable {
    /// Why the system launched the app into the background, or `nil` for a launch by the user.
    public var backgroundLaunchReason: LaunchReason?

    /// Creates launch options.
    /// - Parameter backgroundLaunchReason: The background launch reason, or `nil`.
    public init(backgroundLaunchReason: LaunchReason? = nil) {
        self.backgroundLaunchReason = backgroundLaunchReason
    }
}
