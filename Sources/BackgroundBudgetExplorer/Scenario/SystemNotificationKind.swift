import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// The names of system notifications in scenario files, and the value each takes.
enum SystemNotificationKind: String, CaseIterable {
    case orientation, locale, userDefaults, screenMode, screenConnection, accessoryConnection, ubiquityIdentity,
         significantTimeChange, batteryLevel, batteryState, proximity, protectedData

    /// Reads `notification` and, for kinds with a value, `value`.
    static func decode(_ event: ObjectReader) throws(ScenarioError) -> SystemNotification {
        let kind = try event.required("notification").oneOf(SystemNotificationKind.self)
        let value = event.optional("value")
        switch kind {
        case .orientation: return .orientation(try event.required("value").string())
        case .locale: return .locale(try event.required("value").string())
        case .batteryState: return .batteryState(try event.required("value").string())
        case .batteryLevel: return .batteryLevel(try event.required("value").number())
        case .screenConnection: return .screenConnection(try event.required("value").bool())
        case .accessoryConnection: return .accessoryConnection(try event.required("value").bool())
        case .proximity: return .proximity(try event.required("value").bool())
        case .protectedData: return .protectedData(try event.required("value").bool())
        case .userDefaults, .screenMode, .ubiquityIdentity, .significantTimeChange:
            // These carry no value.
            if let value { throw value.error(.unknownKey("value", accepted: ["notification"])) }
            switch kind {
            case .userDefaults: return .userDefaults
            case .screenMode: return .screenMode
            case .ubiquityIdentity: return .ubiquityIdentity
            default: return .significantTimeChange
            }
        }
    }
}
