/// Device settings for a scenario. Reserved: later versions add Background App Refresh, Low Power
/// Mode and memory settings here; a scenario file's `"device"` object must be empty for now.
public struct ScenarioDevice: Sendable, Hashable {
    /// Creates the default device.
    public init() {}
}
