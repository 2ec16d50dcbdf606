import BackgroundBudgetCore
import BackgroundBudgetExplorer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Moves a scenario file's relative paths (each app's `infoPlist`) from one folder to another, so
/// that a scenario written somewhere else (`bgbudget explore --out`) still finds its files.
///
/// A relative `infoPlist` resolves against the folder of the scenario file that holds it. When a
/// scenario read from `Examples/scenarios/app.json` is written to `/tmp/out/found.json`, each such
/// path is rewritten to reach the same file from `/tmp/out`: relative when both folders are known
/// (`../../work/Examples/InfoPlists/App.plist`), else absolute. Absolute paths, and everything else
/// in the text, are left exactly as they were.
enum ScenarioFileRebase {
    /// The text with every relative `infoPlist` path of `$.apps` rewritten for a file at `destination`.
    /// - Parameters:
    ///   - text: The scenario file's text.
    ///   - source: The path of the scenario file the relative paths resolve against now.
    ///   - destination: The path the text will be written to.
    /// - Returns: The rewritten text; the text as it is when it is not a scenario's JSON or has no
    ///   relative path to move.
    static func text(_ text: String, from source: String, to destination: String) -> String {
        let bytes = Array(text.utf8)
        guard let root = try? JSONParser.parse(bytes), case .object(let members) = root.value,
              let apps = members.last(where: { $0.key == "apps" }), case .array(let list) = apps.value.value else { return text }
        // The string values to replace, by their byte ranges, in order.
        var replacements: [(range: Range<Int>, text: String)] = []
        let from = folder(of: source), to = canonical(folder(of: destination))
        for app in list {
            guard case .object(let fields) = app.value, let field = fields.last(where: { $0.key == "infoPlist" }),
                  case .string(let path) = field.value.value, !path.isEmpty, !path.hasPrefix("/"),
                  let end = stringEnd(in: bytes, from: field.value.offset) else { continue }
            let target = canonical(join(from, path)) ?? absolute(join(from, path))
            let moved = to.map { relative(target, from: $0) } ?? target
            if moved != path { replacements.append((field.value.offset..<end, jsonString(moved))) }
        }
        guard !replacements.isEmpty else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 256)
        var position = 0
        for replacement in replacements {
            result += bytes[position..<replacement.range.lowerBound]
            result += Array(replacement.text.utf8)
            position = replacement.range.upperBound
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The folder a file is in: `Examples/scenarios` for `Examples/scenarios/a.json`, `.` for `a.json`.
    static func folder(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    /// The path of `path` from `folder`, when `path` is relative.
    private static func join(_ folder: String, _ path: String) -> String {
        folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// The canonical absolute path (symbolic links, `.` and `..` resolved), or `nil` when the
    /// path does not exist.
    static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// An absolute path: `path` after the current folder when it is relative.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let current = getcwd(nil, 0) else { return path }
        defer { free(current) }
        return join(String(cString: current), path)
    }

    /// The relative path from the absolute folder `folder` to the absolute path `target`, both
    /// canonical: `../InfoPlists/App.plist`.
    static func relative(_ target: String, from folder: String) -> String {
        let targetParts = target.split(separator: "/"), folderParts = folder.split(separator: "/")
        var common = 0
        while common < min(targetParts.count, folderParts.count), targetParts[common] == folderParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: folderParts.count - common)
        return (ups + targetParts[common...].map(String.init)).joined(separator: "/")
    }

    /// The offset just after the closing quote of the JSON string that starts at `start`.
    private static func stringEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.indices.contains(start), bytes[start] == UInt8(ascii: "\"") else { return nil }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }
}
