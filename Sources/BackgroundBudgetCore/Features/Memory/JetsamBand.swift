import BudgetTime

/// How safe an app is from the memory killer: xnu's jetsam priority bands (`kern_memorystatus.h`,
/// [S72]); jetsam kills from the lowest band upward. Mapping suspended apps to the idle band is an
/// inference, not documented.
///
/// The bands grow as the model does, so this is a struct with a static member per band rather than an enum: a new
/// one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
public struct JetsamBand: RawRepresentable, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The bands the model knows, for the package's own exhaustive switches.
    package enum Base: Int, Sendable, Hashable, CaseIterable {
        case idle = 0
        case background = 3
        case foreground = 10
        case audioAndAccessory = 12
    }

    /// The band, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The band's raw value.
    public var rawValue: Int { base.rawValue }

    /// The band with that raw value, or `nil` for one the model does not know.
    public init?(rawValue: Int) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every band the model knows, in declaration order.
    public static var allCases: [JetsamBand] { Base.allCases.map(JetsamBand.init) }

    /// Suspended apps (`JETSAM_PRIORITY_IDLE`, 0).
    public static let idle = JetsamBand(.idle)
    /// Apps running in the background (`JETSAM_PRIORITY_BACKGROUND`, 3).
    public static let background = JetsamBand(.background)
    /// The foreground app (`JETSAM_PRIORITY_FOREGROUND`, 10).
    public static let foreground = JetsamBand(.foreground)
    /// Background apps playing audio or talking to an accessory (`JETSAM_PRIORITY_AUDIO_AND_ACCESSORY`, 12).
    public static let audioAndAccessory = JetsamBand(.audioAndAccessory)

    /// Orders bands by priority.
    public static func < (lhs: JetsamBand, rhs: JetsamBand) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The band's name.
    public var description: String {
        switch base {
        case .idle: "idle"
        case .background: "background"
        case .foreground: "foreground"
        case .audioAndAccessory: "audioAndAccessory"
        }
    }
}
