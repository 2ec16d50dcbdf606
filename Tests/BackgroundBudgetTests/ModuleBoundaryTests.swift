import Foundation
import Testing
import TestSupport

/// The module rules the Architecture article states, checked on the source tree: what each module may
/// import, that policy numbers live in `BudgetPolicy`, and that source files stay small.
@Suite struct ModuleBoundaryTests {
    /// Every Swift file under `Sources/<module>`, as (path relative to the module's folder, text).
    static func sources(of module: String) throws -> [(path: String, text: String)] {
        let folder = SampleFiles.root.appendingPathComponent("Sources/\(module)")
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: folder.path) as [String]?)
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (path, try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// The modules a file imports, with any `@_exported`, `@testable` or kind (`struct`, `func`) dropped:
    /// `import struct BudgetClock.BudgetInstant` gives `BudgetClock`.
    static func imports(in text: String) -> Set<String> {
        var modules: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let target = words.count >= 3 ? words[2] : words[1]
            modules.insert(String(target.split(separator: ".")[0]))
        }
        return modules
    }

    /// Which modules each of ours may import (platform modules for system calls are listed too).
    static let allowedImports: [String: Set<String>] = [
        // Time as values: nothing at all.
        "BudgetTime": [],
        // The lock: only the platform's own primitive.
        "BudgetLock": ["Darwin", "Glibc", "Musl", "Android"],
        // The core is values only: its only import is the time module, for `BudgetInstant`.
        "BackgroundBudgetCore": ["BudgetTime"],
        // Its C shim only for Linux's timer slack (`prctl` is variadic, out of Swift's reach).
        "BudgetClock": ["BudgetTime", "BudgetLock", "CBudgetClockShims", "Dispatch", "Darwin", "Glibc", "Musl", "Android"],
        // The C library only for `signal()`, which a Dispatch signal source needs (ShutdownSignals).
        "JobBudgets": ["BudgetClock", "Dispatch", "Darwin", "Glibc", "Musl"],
        "SavedState": ["Foundation", "Darwin", "Glibc", "Musl"],
        // The shell runs the core on a clock; Foundation only to read Info.plists and dates.
        // `_Concurrency` with its scheduling SPI: an app's task executor takes its tasks' sleeps.
        "BackgroundBudgetRuntime": ["BackgroundBudgetCore", "BudgetClock", "Dispatch", "Foundation", "Darwin", "Glibc", "Musl", "_Concurrency"],
        // The umbrella re-exports; it uses nothing itself (see `theUmbrellaOnlyReExports`).
        "BackgroundBudget": ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "JobBudgets", "SavedState"],
        // The scenario vocabulary, its parser and the explorer sit on the shell; Foundation only to read
        // the Info.plists a scenario names.
        "BackgroundBudgetExplorer": ["BackgroundBudgetRuntime", "Foundation"],
        // Running and drawing scenarios and the `bgbudget` command line, on the explorer's vocabulary.
        "BackgroundBudgetScenario": ["BackgroundBudget", "BackgroundBudgetExplorer", "Foundation", "Darwin", "Glibc", "Musl"],
        // The test kit uses the explorer, never the command line or the SVG timeline.
        "BackgroundBudgetTestKit": ["BackgroundBudget", "BackgroundBudgetExplorer", "Testing"],
    ]

    /// Every module of the library, bottom up.
    static let modules = ["BudgetTime", "BudgetLock", "BudgetClock", "JobBudgets", "SavedState", "BackgroundBudgetCore",
                          "BackgroundBudgetRuntime", "BackgroundBudget", "BackgroundBudgetExplorer", "BackgroundBudgetScenario",
                          "BackgroundBudgetTestKit"]

    @Test func everyModuleHasItsRules() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: SampleFiles.root.appendingPathComponent("Sources").path)
        let libraries = Set(folders.filter { !["BudgetBench", "CBudgetClockShims", "StateStoreTorture", "bgbudget"].contains($0) })
        #expect(libraries == Set(Self.modules))
        #expect(Set(Self.allowedImports.keys) == Set(Self.modules))
    }

    @Test(arguments: modules)
    func aModuleImportsOnlyWhatItsArrowsAllow(module: String) throws {
        let allowed = try #require(Self.allowedImports[module])
        let files = try Self.sources(of: module)
        #expect(!files.isEmpty)
        for file in files {
            let extra = Self.imports(in: file.text).subtracting(allowed)
            #expect(extra.isEmpty, "Sources/\(module)/\(file.path) imports \(extra.sorted())")
        }
    }

    @Test func theManifestLinksOnlyWhatTheImportsAllow() throws {
        // The imports are checked above; this checks the arrows themselves, so that a module does not
        // link (and carry into every program) a module it never imports.
        let manifest = try String(contentsOf: SampleFiles.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map(String.init)
        for module in Self.modules {
            let line = try #require(lines.first { $0.contains(".target(name: \"\(module)\"") }, "no target \(module)")
            let list = line.split(separator: "[", maxSplits: 1).dropFirst().first?.split(separator: "]").first ?? ""
            let linked = Set(list.split(separator: ",").map { $0.filter { $0 != "\"" && $0 != " " } })
            let allowed = try #require(Self.allowedImports[module])
            #expect(linked.isSubset(of: allowed), "\(module) links \(linked.subtracting(allowed).sorted())")
        }
    }

    @Test func theUmbrellaOnlyReExports() throws {
        // `import BackgroundBudget` is for programs: the umbrella declares nothing, so no module of the
        // package needs it but the ones built for programs.
        for file in try Self.sources(of: "BackgroundBudget") {
            for line in file.text.split(separator: "\n") where !line.hasPrefix("//") {
                #expect(line.hasPrefix("@_exported import "), "Sources/BackgroundBudget/\(file.path): \(line)")
            }
        }
    }

    @Test func theCoreNamesNoClockObjectNoLockAndNoClosureType() throws {
        // Value types of the time module only; no object that runs work, no lock, no stored closure.
        let forbidden = ["VirtualClock", "DispatchClock", "LockedValue", "ScheduledWork", "@Sendable () ->", "@escaping"]
        for file in try Self.sources(of: "BackgroundBudgetCore") {
            let code = file.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for word in forbidden {
                #expect(!code.contains { $0.contains(word) }, "Sources/BackgroundBudgetCore/\(file.path) uses \(word)")
            }
        }
    }

    @Test func durationsOfTheModelAreWrittenOnlyInThePolicy() throws {
        // A literal duration in the model's code is a policy number outside `BudgetPolicy`.
        let literal = try Regex(#"\.(seconds|milliseconds|microseconds|minutes|hours)\(\s*[0-9]"#)
        for module in ["BackgroundBudgetCore", "BackgroundBudgetRuntime"] {
            for file in try Self.sources(of: module) where !file.path.hasPrefix("Policy/") {
                for line in file.text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let hasLiteral = line.contains(literal)
                    #expect(!hasLiteral, "Sources/\(module)/\(file.path): \(line)")
                }
            }
        }
    }

    @Test(arguments: modules)
    func sourceFilesStayUnderFourHundredLines(module: String) throws {
        for file in try Self.sources(of: module) {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 400, "Sources/\(module)/\(file.path) has \(lines) lines")
        }
    }

    @Test func theImportReaderSeesEveryForm() {
        #expect(Self.imports(in: "import Foundation\n@_exported import BudgetClock\nimport struct SavedState.StateStore\n")
                == ["Foundation", "BudgetClock", "SavedState"])
        #expect(Self.imports(in: "// import Foundation\nlet important = 1\n").isEmpty)
    }
}
