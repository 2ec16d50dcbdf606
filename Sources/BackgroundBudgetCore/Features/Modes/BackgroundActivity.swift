import BudgetTime

/// Continuous work that keeps an app running in the background for as long as it lasts, if the app
/// declares the matching mode in `UIBackgroundModes`.
///
/// Sources: [S25]–[S30], [S38].
///
/// The activities grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum BackgroundActivity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Playing or recording audible content with an active audio session (mode `audio`) [S27][S28].
    case audioPlayback
    /// Standard location updates (mode `location`) [S30].
    case locationUpdates
    /// A Nearby Interaction session (mode `nearby-interaction`) [S26][S94].
    case nearbyInteraction
    /// A Push to Talk session (mode `push-to-talk`) [S38].
    case pushToTalk

    /// The mode the app must declare for this activity to keep it running.
    public var requiredMode: BackgroundModes {
        switch self {
        case .audioPlayback: .audio
        case .locationUpdates: .location
        case .nearbyInteraction: .nearbyInteraction
        case .pushToTalk: .pushToTalk
        }
    }

    /// The activity's trace name.
    public var description: String { rawValue }
}
