import BudgetTime

/// Continuous work that keeps an app running in the background for as long as it lasts, if the app
/// declares the matching mode in `UIBackgroundModes`.
///
/// Sources: [S25]–[S30], [S38].
///
/// The activities grow as the model does, so this is a struct with a static member per activity rather than an
/// enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
public struct BackgroundActivity: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The activities the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case audioPlayback
        case locationUpdates
        case nearbyInteraction
        case pushToTalk
    }

    /// The activity, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The activity's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The activity with that name, or `nil` for one the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every activity the model knows, in declaration order.
    public static var allCases: [BackgroundActivity] { Base.allCases.map(BackgroundActivity.init) }

    /// Playing or recording audible content with an active audio session (mode `audio`) [S27][S28].
    public static let audioPlayback = BackgroundActivity(.audioPlayback)
    /// Standard location updates (mode `location`) [S30].
    public static let locationUpdates = BackgroundActivity(.locationUpdates)
    /// A Nearby Interaction session (mode `nearby-interaction`) [S26][S94].
    public static let nearbyInteraction = BackgroundActivity(.nearbyInteraction)
    /// A Push to Talk session (mode `push-to-talk`) [S38].
    public static let pushToTalk = BackgroundActivity(.pushToTalk)

    /// The mode the app must declare for this activity to keep it running.
    public var requiredMode: BackgroundModes {
        switch base {
        case .audioPlayback: .audio
        case .locationUpdates: .location
        case .nearbyInteraction: .nearbyInteraction
        case .pushToTalk: .pushToTalk
        }
    }

    /// The activity's trace name.
    public var description: String { rawValue }
}
