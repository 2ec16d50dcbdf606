import BudgetTime

/// `UIApplicationSceneManifest`: an app that has it adopts the scene-based life cycle.
///
/// ```swift
/// var manifest = AppManifest(id: "com.example.notes")
/// manifest.sceneManifest = SceneManifest(supportsMultipleScenes: true)
/// ```
public struct SceneManifest: Sendable, Hashable {
    /// `UIApplicationSupportsMultipleScenes`: the user may open more than one window of the app.
    public var supportsMultipleScenes: Bool

    /// Creates a scene manifest.
    /// - Parameter supportsMultipleScenes: `UIApplicationSupportsMultipleScenes`; `false` by default.
    public init(supportsMultipleScenes: Bool = false) {
        self.supportsMultipleScenes = supportsMultipleScenes
    }
}
