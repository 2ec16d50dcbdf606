import Foundation
import FuzzSupport
#if DEBUG || FUZZING
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
#else
import BackgroundBudget
#endif

/// The checks for one input as an app's Info.plist.
enum InfoPlistCheck {
    static let file = "fuzz.plist"
    /// The keys an error may name (with an index for an array element).
    static let keys: Set<String> = ["CFBundleIdentifier", "CFBundleDisplayName", "CFBundleName", "UIBackgroundModes",
                                    "UIApplicationExitsOnSuspend", "BGTaskSchedulerPermittedIdentifiers",
                                    "UIApplicationSceneManifest", "UIApplicationSceneManifest.UIApplicationSupportsMultipleScenes"]

    /// Whether `pattern` occurs in `bytes`.
    static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first else { return true }
        var index = bytes.startIndex
        while let start = bytes[index...].firstIndex(of: first) {
            if bytes[start...].starts(with: pattern) { return true }
            index = start + 1
        }
        return false
    }

    /// Every property of one input: a valid manifest that survives being written back as XML and as a
    /// binary plist, or an ``InfoPlistError`` naming the file and, if any, a manifest key.
    static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let manifest: AppManifest
        do {
            manifest = try AppManifest(plistData: Data(bytes), file: file)
        } catch {
            try require(error.file == file, "the error names \(error.file ?? "no file"), not \(file)")
            try require(!error.message.isEmpty, "an empty message")
            if let key = error.key {
                // A value nested too deep is reported under whichever root key holds it; any other error
                // names a key the manifest reads.
                if case .nestedTooDeep = error.problem {
                    // (Only checkable for ASCII keys in files that are not UTF-16.)
                    let checkable = key.utf8.allSatisfy { $0 < 0x80 } && !bytes.starts(with: [0xFE, 0xFF]) && !bytes.starts(with: [0xFF, 0xFE])
                    try require(!checkable || contains(bytes, Array(key.utf8)), "the error names the key \(key), which is not in the input")
                } else {
                    try require(keys.contains(String(key.prefix { $0 != "[" })), "the error names the key \(key)")
                }
            }
            if case .unreadable = error.problem { throw PropertyFailure("unreadable for bytes in memory: \(error)") }
            _ = error.description
            return
        }
        #if DEBUG || FUZZING
        try require(manifest.id.validationProblem == nil, "a manifest with an invalid identifier \(manifest.id)")
        #endif
        try require(!manifest.displayName.isEmpty, "a manifest with an empty display name")
        var plist: [String: Any] = [
            "CFBundleIdentifier": manifest.id.rawValue,
            "CFBundleDisplayName": manifest.displayName,
            "UIBackgroundModes": manifest.backgroundModes.plistValues,
            "UIApplicationExitsOnSuspend": manifest.exitsOnSuspend,
            "BGTaskSchedulerPermittedIdentifiers": manifest.permittedTaskIdentifiers,
        ]
        if let scenes = manifest.sceneManifest {
            plist["UIApplicationSceneManifest"] = ["UIApplicationSupportsMultipleScenes": scenes.supportsMultipleScenes]
        }
        let strings = [manifest.id.rawValue, manifest.displayName] + manifest.permittedTaskIdentifiers
        // XML 1.0 cannot carry most control characters, and its parsers turn "\r\n" into "\n".
        let xmlSafe = strings.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" } }
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] where format == .binary || xmlSafe {
            let data: Data
            do {
                data = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
            } catch {
                throw PropertyFailure("Foundation cannot write the manifest as \(format): \(error)")
            }
            let again: AppManifest
            do {
                again = try AppManifest(plistData: data, file: file)
            } catch {
                throw PropertyFailure("the manifest written as \(format) does not load: \(error)")
            }
            try require(again == manifest, "\(manifest) became \(again) written as \(format)")
        }
    }
}

#if FUZZING
/// libFuzzer's per-input callback.
/// - Parameters:
///   - start: The input's bytes.
///   - count: Their number.
/// - Returns: 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfoPlistInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzOneInput(start, count, check: InfoPlistCheck.check)
}

/// The process's entry point in a fuzz build: libFuzzer's driver.
/// - Parameters:
///   - argc: The argument count.
///   - argv: The arguments.
/// - Returns: The exit status.
@_cdecl("FuzzInfoPlist_main")
public func fuzzInfoPlistMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzInfoPlistInput)
}
#else
/// Replays files through the checks: `swift run FuzzInfoPlist Tests/Fuzz/Corpus/infoplist`.
///
/// `swift run FuzzInfoPlist --write-seeds DIR FILE…` writes each plist in the other format (XML as
/// binary, binary as XML) into `DIR`, for the seed corpus.
@main enum FuzzInfoPlistReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count >= 3 {
            do {
                try writeSeeds(to: URL(fileURLWithPath: arguments[1]), from: arguments.dropFirst(2).map { URL(fileURLWithPath: $0) })
            } catch {
                FileHandle.standardError.write(Data("cannot write the seeds: \(error)\n".utf8))
                exit(1)
            }
            exit(0)
        }
        exit(replayCorpus(name: "FuzzInfoPlist", paths: arguments, check: InfoPlistCheck.check))
    }

    /// Converts each plist to the other format.
    static func writeSeeds(to directory: URL, from files: [URL]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in files {
            var format = PropertyListSerialization.PropertyListFormat.xml
            let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: &format)
            let other: PropertyListSerialization.PropertyListFormat = format == .binary ? .xml : .binary
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: other, options: 0)
            let name = file.deletingPathExtension().lastPathComponent + (other == .binary ? "-binary" : "-xml") + ".plist"
            try data.write(to: directory.appendingPathComponent(name))
        }
    }
}
#endif
