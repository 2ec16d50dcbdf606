import Foundation
import Testing
import TestSupport

/// The deployment targets `Package.swift` states (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1:
/// where `Duration` and `Clock` begin), checked on the source tree: no library target uses an API that
/// needs a newer system without an availability check in the same file.
///
/// Linux builds check no availability, so this is the guard. Verified by hand against the toolchain's
/// Swift interfaces (`/opt/swift/usr/lib/swift/linux/*.swiftmodule/*.swiftinterface`, Swift 6.3.1)
/// and Apple's documented availability, for what the libraries use:
/// - `Duration`, `ContinuousClock`, `Duration.components`, `.seconds(_:)`/`.milliseconds(_:)`: macOS 13,
///   iOS 16 — the minimums themselves.
/// - `AsyncStream.makeStream(of:bufferingPolicy:)`: back-deployed before macOS 14 / iOS 17 (to 10.15 / 13).
/// - `withCheckedThrowingContinuation(isolation:…)`, `withTaskCancellationHandler(…isolation:)`,
///   `TaskLocal.withValue` (async): back-deployed before macOS 15 / iOS 18; the synchronous
///   `withValue` is macOS 10.15 / iOS 13.
/// - `MainActor.assumeIsolated`, `preconditionIsolated`: macOS 10.15 / iOS 13 (always emitted into
///   the client); `DispatchQueue.getSpecific`, `DispatchSpecificKey`: every supported system.
/// - Foundation: `FileHandle.read(upToCount:)` (macOS 10.15.4 / iOS 13.4), `PropertyListDecoder`,
///   `JSONEncoder`/`JSONDecoder`, `FileManager`, `URL(fileURLWithPath:)`: older than the minimums.
/// - `os_unfair_lock` (the lock on Apple systems): macOS 10.12 / iOS 10.
/// - Language features with no runtime need: typed throws (no stored typed-throws function types,
///   whose metadata would need macOS 15), `consuming` parameters, `@MainActor` protocols. The package
///   uses no isolated conformance (`extension T: @MainActor P`, Swift 6.2), so nothing depends on
///   the newer runtime's isolation checks for them; main-actor delegates are a `@MainActor` protocol.
/// - `Synchronization.Mutex` (macOS 15 / iOS 18) appears only in the `BudgetBench` executable, behind
///   `#available`.
@Suite struct DeploymentTargetTests {
    /// APIs newer than the minimums, with the first releases that have them. A library file that
    /// names one must check availability (`@available` or `#available`) in the same file.
    static let newerAPIs: [(pattern: String, since: String)] = [
        ("import Synchronization", "macOS 15, iOS 18"),
        ("Mutex<", "macOS 15, iOS 18"), ("Mutex(", "macOS 15, iOS 18"), ("Atomic<", "macOS 15, iOS 18"),
        ("Int128", "macOS 15, iOS 18"), ("Duration(attoseconds:", "macOS 15, iOS 18"),
        ("withDiscardingTaskGroup", "macOS 14, iOS 17"), ("withThrowingDiscardingTaskGroup", "macOS 14, iOS 17"),
        ("withTaskExecutorPreference", "macOS 15, iOS 18"), ("TaskExecutor", "macOS 15, iOS 18"),
        ("RangeSet", "macOS 15, iOS 18"), ("String(validating:", "macOS 15, iOS 18"),
        ("import Observation", "macOS 14, iOS 17"), ("@Observable", "macOS 14, iOS 17"),
        ("Task.immediate", "macOS 26, iOS 26"), ("Task(name:", "macOS 26, iOS 26"),
        ("InlineArray", "macOS 26, iOS 26"), ("Span<", "macOS 26, iOS 26"), ("utf8Span", "macOS 26, iOS 26"),
        ("isolated deinit", "macOS 15.4, iOS 18.4"),
    ]

    static let libraries = ModuleBoundaryTests.modules

    @Test func packageSwiftStatesTheMinimums() throws {
        let manifest = try String(contentsOf: SampleFiles.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)]"))
    }

    @Test func theReadmeSaysTheSameMinimums() throws {
        let readme = try String(contentsOf: SampleFiles.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("iOS 16, macOS 13, tvOS 16, watchOS 9 and visionOS 1 or later"))
    }

    /// The newer APIs a source file names without an availability check anywhere in it (comments aside).
    static func unguardedUses(in text: String) -> [String] {
        let code = text.split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined(separator: "\n")
        guard !code.contains("@available(macOS"), !code.contains("#available(macOS") else { return [] }
        return newerAPIs.filter { names(code, $0.pattern) }.map { "\($0.pattern) (\($0.since))" }
    }

    /// Whether `code` contains `pattern` as a name of its own: `OpenTask(name:` is not `Task(name:`.
    static func names(_ code: String, _ pattern: String) -> Bool {
        var rest = code[...]
        while let range = rest.range(of: pattern) {
            let before = range.lowerBound > code.startIndex ? code[code.index(before: range.lowerBound)] : " "
            if !(before.isLetter || before.isNumber || before == "_") { return true }
            rest = code[range.upperBound...]
        }
        return false
    }

    @Test(arguments: libraries)
    func noLibraryUsesANewerAPIWithoutAnAvailabilityCheck(module: String) throws {
        let files = try ModuleBoundaryTests.sources(of: module)
        #expect(!files.isEmpty)
        for file in files {
            let uses = Self.unguardedUses(in: file.text)
            #expect(uses.isEmpty, "Sources/\(module)/\(file.path) uses \(uses) without an availability check")
        }
    }

    @Test func theScanCatchesAnUnguardedUseAndPassesAGuardedOne() {
        #expect(Self.unguardedUses(in: "import Synchronization\nlet lock = Mutex(0)") ==
                ["import Synchronization (macOS 15, iOS 18)", "Mutex( (macOS 15, iOS 18)"])
        #expect(Self.unguardedUses(in: "// Mutex( in a comment only") == [])
        #expect(Self.unguardedUses(in: "let task = OpenTask(name: name)") == [])
        #expect(Self.unguardedUses(in: "let task = Task(name: name) {}") == ["Task(name: (macOS 26, iOS 26)"])
        #expect(Self.unguardedUses(in: "guard #available(macOS 15, iOS 18, *) else { return }\nlet lock = Mutex(0)") == [])
    }
}
