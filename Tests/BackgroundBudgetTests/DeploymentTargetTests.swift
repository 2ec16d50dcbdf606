import Foundation
import Testing
import TestSupport

/// The deployment targets `Package.swift` states (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1:
/// where `Duration` and `Clock` begin), checked on the source tree: no target uses an API that
/// needs a newer system without an availability check around the use.
///
/// Linux builds check no availability, so this is the guard until the macOS and iOS builds of
/// `.github/workflows/apple.yml` (the real check) run. It scans every target the package builds —
/// libraries, executables, examples, tests, test support and fuzz harnesses — and a use counts as
/// checked only inside a declaration or block whose `@available`/`#available` names both macOS and iOS
/// (or after a `guard #available` in the same block). It cannot see runtime metadata needs (typed
/// throws function types, `@isolated(any)`) or back-deployed behaviour; only a Darwin compile can. Verified by hand against the toolchain's
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
    /// APIs newer than the minimums, with the first releases that have them. A file that names one
    /// must check availability (`@available` or `#available`, naming macOS and iOS) around the use.
    static let newerAPIs: [(pattern: String, since: String)] = [
        ("Mutex<", "macOS 15, iOS 18"), ("Mutex(", "macOS 15, iOS 18"), ("Atomic<", "macOS 15, iOS 18"),
        ("Int128", "macOS 15, iOS 18"), ("UInt128", "macOS 15, iOS 18"), ("Duration(attoseconds:", "macOS 15, iOS 18"),
        ("withDiscardingTaskGroup", "macOS 14, iOS 17"), ("withThrowingDiscardingTaskGroup", "macOS 14, iOS 17"),
        ("withTaskExecutorPreference", "macOS 15, iOS 18"), ("TaskExecutor", "macOS 15, iOS 18"),
        ("Task(executorPreference:", "macOS 15, iOS 18"), ("ExecutorJob", "macOS 14, iOS 17"),
        ("runSynchronously(on:", "macOS 15, iOS 18"), ("DispatchSerialQueue", "macOS 14, iOS 17"),
        ("RangeSet", "macOS 15, iOS 18"), ("String(validating:", "macOS 15, iOS 18"),
        ("@Observable", "macOS 14, iOS 17"),
        ("Task.immediate", "macOS 26, iOS 26"), ("Task(name:", "macOS 26, iOS 26"),
        ("InlineArray", "macOS 26, iOS 26"), ("Span<", "macOS 26, iOS 26"), ("utf8Span", "macOS 26, iOS 26"),
        ("isolated deinit", "macOS 15.4, iOS 18.4"),
        // The package's own: `Application.task(priority:_:)` needs the Swift 6.0 runtime's task
        // executors. (Imports are not uses: `import Synchronization` compiles for macOS 13.)
        ("app.task {", "macOS 15, iOS 18"), ("application.task {", "macOS 15, iOS 18"),
        (".task(priority:", "macOS 15, iOS 18"),
    ]

    /// Every folder of Swift files the package builds, as `Package.swift` lays them out.
    static let folders = ["Sources", "Tests", "Examples"]

    @Test func packageSwiftStatesTheMinimums() throws {
        let manifest = try String(contentsOf: SampleFiles.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)]"))
    }

    @Test func theReadmeSaysTheSameMinimums() throws {
        let readme = try String(contentsOf: SampleFiles.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("iOS 16, macOS 13, tvOS 16, watchOS 9 and visionOS 1 or later"))
    }

    /// The code of a Swift file without its comments and the contents of its string literals, so that
    /// a name in a comment or a string is not a use; lengths and line breaks are kept.
    static func code(of text: String) -> String {
        var out = ""
        var chars = Array(text)[...]
        var inString = false, multiline = false
        while let c = chars.first {
            if !inString, chars.starts(with: "//") {
                while let d = chars.first, d != "\n" { out.append(" "); chars.removeFirst() }
                continue
            }
            if chars.starts(with: "\"\"\"") {
                if !inString || multiline { inString.toggle(); multiline = inString }
                out += "\"\"\""; chars.removeFirst(3); continue
            }
            if inString, c == "\\", chars.count > 1 { out += "  "; chars.removeFirst(2); continue }
            if c == "\"", !multiline { inString.toggle(); out.append(c); chars.removeFirst(); continue }
            if inString, c == "\n", !multiline { inString = false }
            out.append(inString && c != "\n" ? " " : c)
            chars.removeFirst()
        }
        return out
    }

    /// Whether an availability check names both macOS and iOS: one naming macOS alone leaves iOS
    /// unchecked.
    static func checksBoth(_ text: some StringProtocol) -> Bool {
        for marker in ["@available(", "#available("] {
            var rest = text[...]
            while let range = rest.range(of: marker) {
                let arguments = rest[range.upperBound...].prefix { $0 != ")" }
                if arguments.contains("macOS"), arguments.contains("iOS") { return true }
                rest = rest[range.upperBound...]
            }
        }
        return false
    }

    /// Whether the use at `offset` of `code` is inside a checked declaration or block: one whose
    /// header (the text from the previous `{`, `}` or `;` to its `{`, attributes included) checks
    /// both systems, or a block with a `guard #available` before the use.
    static func isChecked(_ code: [Character], at offset: Int) -> Bool {
        // The use's own declaration: `@available(…) final class E: TaskExecutor {`.
        var statement = offset - 1
        while statement >= 0, !"{};".contains(code[statement]) { statement -= 1 }
        if checksBoth(String(code[(statement + 1)..<offset])) { return true }
        var depth = 0
        var index = offset - 1
        var blockStart = offset
        while index >= 0 {
            switch code[index] {
            case "}": depth += 1
            case "{" where depth > 0: depth -= 1
            case "{":
                // An enclosing block: what it holds before the use (a `guard #available`), and its header.
                let inside = String(code[(index + 1)..<blockStart])
                if inside.contains("guard #available"), checksBoth(inside) { return true }
                var start = index - 1
                while start >= 0, !"{};".contains(code[start]) { start -= 1 }
                if checksBoth(String(code[(start + 1)..<index])) { return true }
                blockStart = index
            default: break
            }
            index -= 1
        }
        // Top level: a `guard #available` before the use.
        return String(code[0..<blockStart]).contains("guard #available") && checksBoth(String(code[0..<blockStart]))
    }

    /// The newer APIs a source file names outside any availability check that covers macOS and iOS.
    static func unguardedUses(in text: String) -> [String] {
        // Most files name none of the APIs: the C library's `strstr` says so before any parsing
        // (Foundation's `contains` takes seconds over the whole tree on Linux).
        guard text.withCString({ text in newerAPIs.contains { strstr(text, $0.pattern) != nil } }) else { return [] }
        let code = Array(Self.code(of: text))
        let string = String(code)
        return newerAPIs.compactMap { api in
            var rest = string[...]
            while let range = rest.range(of: api.pattern) {
                let before = range.lowerBound > string.startIndex ? string[string.index(before: range.lowerBound)] : " "
                let first = api.pattern.first!
                let standsAlone = !(first.isLetter || first == "_") || !(before.isLetter || before.isNumber || before == "_")
                if standsAlone, !isChecked(code, at: string.distance(from: string.startIndex, to: range.lowerBound)) {
                    return "\(api.pattern) (\(api.since))"
                }
                rest = string[range.upperBound...]
            }
            return nil
        }
    }

    /// Every Swift file the package builds, as (path from the root, text): the separate package
    /// in `Examples/ServiceLifecycleWorker` has its own manifest and is left out.
    static func everySwiftFile() throws -> [(path: String, text: String)] {
        try folders.flatMap { folder in
            let url = SampleFiles.root.appendingPathComponent(folder)
            let paths = try FileManager.default.subpathsOfDirectory(atPath: url.path)
            return try paths.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("ServiceLifecycleWorker/") }.sorted().map { path in
                ("\(folder)/\(path)", try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8))
            }
        }
    }

    @Test func noTargetUsesANewerAPIWithoutAnAvailabilityCheck() throws {
        let files = try Self.everySwiftFile()
        #expect(files.count > 400)
        #expect(files.contains { $0.path.hasPrefix("Tests/") } && files.contains { $0.path.hasPrefix("Examples/") })
        for file in files {
            let uses = Self.unguardedUses(in: file.text)
            #expect(uses.isEmpty, "\(file.path) uses \(uses) without an availability check naming macOS and iOS")
        }
    }

    @Test func theScanCatchesAnUnguardedUseAndPassesAGuardedOne() {
        #expect(Self.unguardedUses(in: "import Synchronization\nlet lock = Mutex(0)") == ["Mutex( (macOS 15, iOS 18)"])
        #expect(Self.unguardedUses(in: "@available(macOS 15, iOS 18, *)\nfinal class E: TaskExecutor {}") == [])
        #expect(Self.unguardedUses(in: "// Mutex( in a comment only") == [])
        #expect(Self.unguardedUses(in: "let text = \"Mutex(0)\"") == [])
        #expect(Self.unguardedUses(in: "let x = 1 // Mutex( after code") == [])
        #expect(Self.unguardedUses(in: "let task = OpenTask(name: name)") == [])
        #expect(Self.unguardedUses(in: "let task = Task(name: name) {}") == ["Task(name: (macOS 26, iOS 26)"])
        #expect(Self.unguardedUses(in: "let wide: UInt128 = 0") == ["UInt128 (macOS 15, iOS 18)"])
        #expect(Self.unguardedUses(in: "func f() {\n    guard #available(macOS 15, iOS 18, *) else { return }\n    let lock = Mutex(0)\n}") == [])
    }

    @Test func aCheckCoversItsDeclarationAndNothingElse() {
        let guarded = """
            @available(macOS 15.0, iOS 18.0, *)
            @Test func usesATask() {
                app.task { }
            }
            """
        #expect(Self.unguardedUses(in: guarded) == [])
        // The check on one function does not cover its neighbour (the file-wide exemption it replaces did).
        #expect(Self.unguardedUses(in: guarded + "\n@Test func another() {\n    app.task { }\n}") ==
                ["app.task { (macOS 15, iOS 18)"])
        // A check naming macOS alone leaves iOS unchecked.
        #expect(Self.unguardedUses(in: "@available(macOS 15, *)\nfunc f() {\n    app.task { }\n}") ==
                ["app.task { (macOS 15, iOS 18)"])
        #expect(Self.unguardedUses(in: "if #available(macOS 15, iOS 18, *) {\n    app.task { }\n}") == [])
    }
}
