import BackgroundBudgetCore
import BackgroundBudgetRuntime
import Foundation

extension ScenarioApp {
    /// The app keys that an `infoPlist` sets, with the plist key each stands for. An app with
    /// `infoPlist` may not set them as well: the plist is their one source.
    static let keysSetByInfoPlist = [
        ("exitsOnSuspend", "UIApplicationExitsOnSuspend"), ("backgroundModes", "UIBackgroundModes"),
        ("permittedTaskIdentifiers", "BGTaskSchedulerPermittedIdentifiers"), ("scenes", "UIApplicationSceneManifest"),
    ]

    /// Reads an app object's manifest: from its `infoPlist` when it has one (with `displayName`
    /// overriding the plist's name, and `id`, if present, equal to its `CFBundleIdentifier`), or from
    /// its inline keys.
    /// - Parameters:
    ///   - object: The app object.
    ///   - scenarioFile: The scenario file's path; a relative `infoPlist` path resolves against its
    ///     folder, or against the current directory when it is `nil` or has no folder.
    static func manifest(from object: ObjectReader, scenarioFile: String?) throws(ScenarioError) -> AppManifest {
        let idReader = object.optional("id")
        let id = try idReader.map { reader throws(ScenarioError) in AppID(rawValue: try reader.string()) }
        let displayName = try object.optional("displayName")?.string()
        guard let plistReader = object.optional("infoPlist") else {
            guard let id else { throw object.reader.error(.missingOneOfKeys(["id", "infoPlist"])) }
            var manifest = AppManifest(
                id: id, displayName: displayName,
                exitsOnSuspend: try object.optional("exitsOnSuspend")?.bool() ?? false,
                backgroundModes: try object.optional("backgroundModes").map { reader throws(ScenarioError) in try modes(reader) } ?? [],
                permittedTaskIdentifiers: try object.optional("permittedTaskIdentifiers")?.array()
                    .map { reader throws(ScenarioError) in try reader.string() } ?? []
            )
            manifest.sceneManifest = try object.optional("scenes").map { reader throws(ScenarioError) in try scenes(reader) }
            return manifest
        }
        let path = try plistReader.string()
        // Refused before the file is read, so the message does not depend on the file.
        for (key, plistKey) in keysSetByInfoPlist {
            if let reader = object.optional(key) { throw reader.error(.conflictsWithInfoPlist(key, plistKey: plistKey)) }
        }
        var manifest: AppManifest
        do {
            manifest = try AppManifest(contentsOfInfoPlist: URL(fileURLWithPath: resolve(path, relativeTo: scenarioFile)))
        } catch {
            throw plistReader.error(.infoPlist(error))
        }
        if let id, let idReader, id != manifest.id {
            throw idReader.error(.idDiffersFromInfoPlist(id, bundleIdentifier: manifest.id))
        }
        if let displayName { manifest.displayName = displayName }
        return manifest
    }

    /// The path that errors about a decoded app's identifier name: `$.apps[1].id`, or
    /// `$.apps[1].infoPlist` when the identifier comes from the plist alone.
    static func identifierPath(of app: ScenarioReader) -> String {
        guard case .object(let members) = app.node.value, !members.contains(where: { $0.key == "id" }),
              members.contains(where: { $0.key == "infoPlist" }) else { return app.path.appending(key: "id").description }
        return app.path.appending(key: "infoPlist").description
    }

    /// `scenes`: `"single"` or `"multiple"`, a scene-based app (`UIApplicationSceneManifest`) that
    /// supports one window or several (`UIApplicationSupportsMultipleScenes`).
    private static func scenes(_ reader: ScenarioReader) throws(ScenarioError) -> SceneManifest {
        let value = try reader.string()
        switch value {
        case "single": return SceneManifest(supportsMultipleScenes: false)
        case "multiple": return SceneManifest(supportsMultipleScenes: true)
        default: throw reader.error(.unknownValue(value, accepted: ["single", "multiple"]))
        }
    }

    /// `backgroundModes`: an array of `UIBackgroundModes` strings.
    private static func modes(_ reader: ScenarioReader) throws(ScenarioError) -> BackgroundModes {
        var modes: BackgroundModes = []
        for element in try reader.array() {
            let value = try element.string()
            guard let mode = BackgroundModes(plistValue: value) else {
                throw element.error(.unknownValue(value, accepted: BackgroundModes.all.map(\.plistValue)))
            }
            modes.insert(mode)
        }
        return modes
    }

    /// An `infoPlist` path as given when it is absolute, else after the scenario file's folder:
    /// `Examples/scenarios/../InfoPlists/AudioPlayer.plist`. Left unnormalised, so errors show where
    /// the file was looked for.
    static func resolve(_ path: String, relativeTo scenarioFile: String?) -> String {
        guard !path.hasPrefix("/"), let scenarioFile, let slash = scenarioFile.lastIndex(of: "/") else { return path }
        return String(scenarioFile[...slash]) + path
    }
}
