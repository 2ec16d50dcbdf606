import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// An app of a scenario: its Info.plist keys and what it does in its callbacks.
public struct ScenarioApp: Sendable, Hashable {
    /// The app's identity and Info.plist keys.
    public var manifest: AppManifest
    /// What the app does in each callback.
    public var behaviour: ScenarioBehaviour

    /// Creates a scenario app.
    /// - Parameters:
    ///   - manifest: The app's Info.plist keys.
    ///   - behaviour: What it does in each callback; nothing by default.
    public init(_ manifest: AppManifest, behaviour: ScenarioBehaviour = ScenarioBehaviour()) {
        self.manifest = manifest
        self.behaviour = behaviour
    }
}
