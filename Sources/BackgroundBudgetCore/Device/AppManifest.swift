import BudgetTime

/// What the system knows about an installed app: the Info.plist keys that shape its lifecycle.
///
/// ```swift
/// let manifest = AppManifest(id: "com.example.statelab", displayName: "State Lab")
/// ```
public struct AppManifest: Sendable, Hashable {
    /// The bundle identifier (`CFBundleIdentifier`).
    public var id: AppID
    /// The name shown under the icon and in log lines (`CFBundleDisplayName`); defaults to the identifier.
    public var displayName: String
    /// `UIApplicationExitsOnSuspend`: the app terminates instead of running in the background or being
    /// suspended (unsupported by Apple from iOS 13, honoured here under every policy).
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`: the kinds of background work the app declares.
    public var backgroundModes: BackgroundModes
    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register.
    public var permittedTaskIdentifiers: [String]
    /// The app's memory footprint in bytes when it launches; it can change it as it runs
    /// (`Application.setMemoryFootprint(_:)`). 50 MB by default.
    public var memoryFootprint: Int = 50_000_000
    /// `UIApplicationSceneManifest`: the app adopts the scene-based life cycle (a scene delegate gets
    /// the foreground and background callbacks); `nil` for an app-delegate-only app.
    public var sceneManifest: SceneManifest?

    /// Whether the app adopts the scene-based life cycle (it has a ``sceneManifest``).
    public var usesScenes: Bool { sceneManifest != nil }

    /// Creates a manifest.
    /// - Parameters:
    ///   - id: The bundle identifier.
    ///   - displayName: The display name; `nil` uses the identifier.
    ///   - exitsOnSuspend: The `UIApplicationExitsOnSuspend` flag.
    ///   - backgroundModes: The `UIBackgroundModes` the app declares.
    ///   - permittedTaskIdentifiers: The `BGTaskSchedulerPermittedIdentifiers`.
    public init(
        id: AppID,
        displayName: String? = nil,
        exitsOnSuspend: Bool = false,
        backgroundModes: BackgroundModes = [],
        permittedTaskIdentifiers: [String] = []
    ) {
        self.id = id
        self.displayName = displayName ?? id.rawValue
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
    }
}
