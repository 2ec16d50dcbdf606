import BudgetTime

/// How safe an app is from the memory killer: xnu's jetsam priority bands (`kern_memorystatus.h`,
/// [S72]); jetsam kills from the lowest band upward. Mapping suspended apps to the idle band is an
/// inference, not documented.
///
/// The bands grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum JetsamBand: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Suspended apps (`JETSAM_PRIORITY_IDLE`, 0).
    case idle = 0
    /// Apps running in the background (`JETSAM_PRIORITY_BACKGROUND`, 3).
    case background = 3
    /// The foreground app (`JETSAM_PRIORITY_FOREGROUND`, 10).
    case foreground = 10
    /// Background apps playing audio or talking to an accessory (`JETSAM_PRIORITY_AUDIO_AND_ACCESSORY`, 12).
    case audioAndAccessory = 12

    /// Orders bands by priority.
    public static func < (lhs: JetsamBand, rhs: JetsamBand) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The band's name.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .background: "background"
        case .foreground: "foreground"
        case .audioAndAccessory: "audioAndAccessory"
        }
    }
}
