import BudgetClock

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
    /// suspended (IOS-FACTS §7; unsupported by Apple from iOS 13, honoured here under every policy).
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`: the kinds of background work the app declares.
    public var backgroundModes: BackgroundModes
    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register.
    public var permittedTaskIdentifiers: [String]
    /// The app's memory footprint in bytes when it launches; it can change it as it runs
    /// (``Application/setMemoryFootprint(_:)``). 50 MB by default.
    public var memoryFootprint: Int = 50_000_000

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

/// A manifest the system refused to install. Nothing was installed.
public struct InstallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        /// The bundle identifier is not valid; the string says why.
        case invalidBundleIdentifier(String)
        /// An app with this identifier is already installed.
        case alreadyInstalled
    }

    /// The identifier of the manifest that was refused.
    public var app: AppID
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(app: AppID, problem: Problem) {
        self.app = app
        self.problem = problem
    }

    /// A sentence naming the key and what was wrong with it.
    public var description: String {
        switch problem {
        case .invalidBundleIdentifier(let why):
            "CFBundleIdentifier \"\(app.rawValue)\" \(why)"
        case .alreadyInstalled:
            "an app with CFBundleIdentifier \"\(app.rawValue)\" is already installed"
        }
    }
}

extension AppManifest {
    /// The wildcard entries of ``permittedTaskIdentifiers`` that permit continued-processing tasks:
    /// those ending in `.*` whose prefix starts with the bundle identifier, such as
    /// `com.example.photos.export.*` for `com.example.photos` [S47].
    package var continuedProcessingPatterns: [String] {
        permittedTaskIdentifiers.filter { entry in
            entry.hasSuffix(".*") && (entry.dropLast(1)).hasPrefix(id.rawValue + ".")
        }
    }

    /// The wildcard entry a continued-processing identifier matches, if any: the identifier is the
    /// entry's prefix followed by at least one character, with no `*` of its own.
    package func continuedProcessingPattern(matching identifier: String) -> String? {
        guard !identifier.contains("*") else { return nil }
        return continuedProcessingPatterns.first { entry in
            let prefix = entry.dropLast(1)
            return identifier.count > prefix.count && identifier.hasPrefix(prefix)
        }
    }
}
