import BudgetTime

/// The kinds of background work an app declares in `UIBackgroundModes`.
///
/// Declaring a mode is a promise, not a pass: the system keeps the app running only while it really
/// does that kind of work ([S25][S26]).
///
/// ```swift
/// let modes: BackgroundModes = [.audio, .fetch]
/// modes.plistValues                                    // ["audio", "fetch"]
/// try BackgroundModes(plistValues: ["location", "voip"]) // [.location, .voip]
/// ```
public struct BackgroundModes: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `audio`: playing or recording audible content with an active audio session [S27][S28].
    public static let audio = BackgroundModes(rawValue: 1 << 0)
    /// `location`: standard location updates keep the app running; significant changes and regions
    /// relaunch it [S29][S30].
    public static let location = BackgroundModes(rawValue: 1 << 1)
    /// `voip`: the legacy keep-alive handler and VoIP pushes [S33][S35].
    public static let voip = BackgroundModes(rawValue: 1 << 2)
    /// `external-accessory`: External Accessory events wake the app [S37].
    public static let externalAccessory = BackgroundModes(rawValue: 1 << 3)
    /// `bluetooth-central`: Core Bluetooth central events wake the app [S36].
    public static let bluetoothCentral = BackgroundModes(rawValue: 1 << 4)
    /// `bluetooth-peripheral`: Core Bluetooth peripheral events wake the app [S36].
    public static let bluetoothPeripheral = BackgroundModes(rawValue: 1 << 5)
    /// `fetch`: legacy background fetch and `BGAppRefreshTask` [S40][S45].
    public static let fetch = BackgroundModes(rawValue: 1 << 6)
    /// `remote-notification`: silent pushes wake the app [S63][S64].
    public static let remoteNotification = BackgroundModes(rawValue: 1 << 7)
    /// `processing`: `BGProcessingTask` [S47][S50].
    public static let processing = BackgroundModes(rawValue: 1 << 8)
    /// `nearby-interaction`: Nearby Interaction sessions continue in the background [S26][S94].
    public static let nearbyInteraction = BackgroundModes(rawValue: 1 << 9)
    /// `push-to-talk`: Push to Talk sessions [S38].
    public static let pushToTalk = BackgroundModes(rawValue: 1 << 10)
    /// `newsstand-content`: finished Newsstand downloads wake the app (legacy) [S39].
    public static let newsstandContent = BackgroundModes(rawValue: 1 << 11)

    /// Every mode with its `UIBackgroundModes` string, in Apple's documentation order.
    public static let all: [(mode: BackgroundModes, plistValue: String)] = [
        (.audio, "audio"), (.location, "location"), (.voip, "voip"), (.externalAccessory, "external-accessory"),
        (.bluetoothCentral, "bluetooth-central"), (.bluetoothPeripheral, "bluetooth-peripheral"), (.fetch, "fetch"),
        (.remoteNotification, "remote-notification"), (.processing, "processing"),
        (.nearbyInteraction, "nearby-interaction"), (.pushToTalk, "push-to-talk"), (.newsstandContent, "newsstand-content"),
    ]

    /// The `UIBackgroundModes` strings of the modes in the set, in ``all`` order.
    public var plistValues: [String] {
        Self.all.filter { contains($0.mode) }.map(\.plistValue)
    }

    /// The mode for one `UIBackgroundModes` string, or `nil` if there is none.
    public init?(plistValue: String) {
        guard let match = Self.all.first(where: { $0.plistValue == plistValue }) else { return nil }
        self = match.mode
    }

    /// The set of modes named by `UIBackgroundModes` strings.
    /// - Parameter plistValues: Strings such as `"audio"` or `"bluetooth-central"`.
    /// - Throws: ``UnknownBackgroundModeError`` for the first string that names no mode, with its index.
    public init(plistValues: [String]) throws(UnknownBackgroundModeError) {
        var modes: BackgroundModes = []
        for (index, value) in plistValues.enumerated() {
            guard let mode = BackgroundModes(plistValue: value) else {
                throw UnknownBackgroundModeError(value: value, index: index)
            }
            modes.insert(mode)
        }
        self = modes
    }

    /// `[audio, fetch]`.
    public var description: String { "[" + plistValues.joined(separator: ", ") + "]" }
}
