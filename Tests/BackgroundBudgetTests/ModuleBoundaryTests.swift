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
            let code = line.components(separatedBy: "//")[0]   // `import A // a comment` gives A
            var words = code.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let target = words.count >= 3 ? words[2] : words[1]
            modules.insert(String(target.split(separator: ".")[0]))
        }
        return modules
    }

    /// Which modules each of ours may import (platform modules for system calls are listed too). A module
    /// imports, file by file, every module whose names it uses: only the umbrella re-exports
    /// (`onlyTheUmbrellaReExports`), so an arrow here is an import somewhere in the module.
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
        "JobBudgets": ["BudgetClock", "BudgetTime", "BudgetLock", "Dispatch", "Darwin", "Glibc", "Musl"],
        "SavedState": ["Foundation", "Darwin", "Glibc", "Musl"],
        // The shell runs the core on a clock; Foundation only to read Info.plists and dates.
        // `_Concurrency` with its scheduling SPI: an app's task executor takes its tasks' sleeps.
        // UIKit and BackgroundTasks only where Apple's SDK has them, for their types' conformances to
        // the seams (AppleShapes).
        "BackgroundBudgetRuntime": ["BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock", "Dispatch", "Foundation",
                                    "Darwin", "Glibc", "Musl", "_Concurrency", "UIKit", "BackgroundTasks"],
        // The umbrella re-exports; it uses nothing itself (see `theUmbrellaOnlyReExports`).
        "BackgroundBudget": ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock",
                             "JobBudgets", "SavedState"],
        // The scenario vocabulary, its parser and the explorer sit on the shell; Foundation only to read
        // the Info.plists a scenario names.
        "BackgroundBudgetExplorer": ["BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock", "BudgetTime", "BudgetLock",
                                     "Foundation"],
        // Running and drawing scenarios and the `bgbudget` command line, on the explorer's vocabulary;
        // not the umbrella: no job budgets, no saved state.
        "BackgroundBudgetScenario": ["BackgroundBudgetExplorer", "BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock",
                                     "BudgetTime", "BudgetLock", "Foundation", "Darwin", "Glibc", "Musl"],
        // The test kit uses the explorer, never the command line or the SVG timeline, nor the umbrella.
        "BackgroundBudgetTestKit": ["BackgroundBudgetExplorer", "BackgroundBudgetRuntime", "BackgroundBudgetCore", "BudgetClock",
                                    "BudgetTime", "BudgetLock", "Testing"],
    ]

    /// Every module of the library, bottom up.
    static let modules = ["BudgetTime", "BudgetLock", "BudgetClock", "JobBudgets", "SavedState", "BackgroundBudgetCore",
                          "BackgroundBudgetRuntime", "BackgroundBudget", "BackgroundBudgetExplorer", "BackgroundBudgetScenario",
                          "BackgroundBudgetTestKit"]

    @Test func everyModuleHasItsRules() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: SampleFiles.root.appendingPathComponent("Sources").path)
        let libraries = Set(folders.filter { !$0.hasPrefix(".") && !["BudgetBench", "CBudgetClockShims", "StateStoreTorture", "bgbudget"].contains($0) })
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

    /// The dependencies of `target` in Package.swift (a `.target`, `.testTarget` or `.executableTarget`),
    /// read from its `dependencies: [...]` list, which may span lines.
    static func manifestDependencies(of target: String, kind: String = "target") throws -> Set<String> {
        let manifest = try String(contentsOf: SampleFiles.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let name = try #require(manifest.range(of: ".\(kind)(name: \"\(target)\""), "no \(kind) \(target) in Package.swift")
        let rest = manifest[name.upperBound...]
        guard rest.hasPrefix(", dependencies: [") else { return [] }
        let list = rest.dropFirst(", dependencies: [".count).prefix { $0 != "]" }
        return Set(list.split(separator: ",").map { $0.filter { $0 != "\"" && !$0.isWhitespace } }.filter { !$0.isEmpty })
    }

    /// The names of every target of `kind` (`testTarget`, `executableTarget`) in Package.swift.
    static func manifestTargets(_ kind: String) throws -> Set<String> {
        let manifest = try String(contentsOf: SampleFiles.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try Regex("\\.\(kind)\\(\\s*name: \"([A-Za-z]+)\"")
        return Set(manifest.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
    }

    @Test func theManifestLinksExactlyWhatTheImportsUse() throws {
        // The imports are checked above; this checks the arrows themselves: a module links every module
        // of ours that one of its files imports (no name arrives through another module's link), and
        // links no module that none of its files imports (and so carries into every program).
        let ours = Set(Self.modules + ["CBudgetClockShims"])
        for module in Self.modules {
            let linked = try Self.manifestDependencies(of: module)
            let imported = try Self.sources(of: module).reduce(into: Set<String>()) { $0.formUnion(Self.imports(in: $1.text)) }
            let allowed = try #require(Self.allowedImports[module])
            #expect(linked.isSubset(of: allowed), "\(module) links \(linked.subtracting(allowed).sorted())")
            #expect(linked == imported.intersection(ours), "\(module) links \(linked.sorted()) but imports \(imported.intersection(ours).sorted())")
        }
    }

    @Test func onlyTheUmbrellaReExports() throws {
        // `@_exported` hides an arrow: a file that uses a name of module A while importing only B compiles
        // because B re-exports A. Every module but the umbrella imports what it uses itself.
        for module in Self.modules where module != "BackgroundBudget" {
            for file in try Self.sources(of: module) {
                let reExports = file.text.split(separator: "\n").filter { $0.hasPrefix("@_exported") }
                #expect(reExports.isEmpty, "Sources/\(module)/\(file.path) re-exports: \(reExports)")
            }
        }
    }

    // MARK: Test targets

    /// The test target of the package's programs (examples, fuzz harnesses): the only one that is not a module's.
    static let programTests = "ProgramTests"

    /// Every Swift file under `Tests/<target>`, as (path relative to that folder, text).
    static func testSources(of target: String) throws -> [(path: String, text: String)] {
        let folder = SampleFiles.root.appendingPathComponent("Tests/\(target)")
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: folder.path) as [String]?)
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (path, try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8))
        }
    }

    @Test func everyLibraryModuleHasOneTestTargetNamedAfterIt() throws {
        let testTargets = try Self.manifestTargets("testTarget")
        #expect(testTargets == Set(Self.modules.map { $0 + "Tests" } + [Self.programTests]))
        let folders = try FileManager.default.contentsOfDirectory(atPath: SampleFiles.root.appendingPathComponent("Tests").path)
        #expect(Set(folders.filter { $0.hasSuffix("Tests") }) == testTargets)
    }

    @Test(arguments: modules.map { $0 + "Tests" } + [programTests])
    func aTestTargetLinksWhatItsFilesImport(target: String) throws {
        // A test file imports only what its target links (no module arrives through another's link),
        // and a module's test target links the module it is named after and imports it.
        let linked = try Self.manifestDependencies(of: target, kind: "testTarget")
        let files = try Self.testSources(of: target)
        #expect(!files.isEmpty)
        let platform: Set<String> = ["Foundation", "FoundationXML", "Testing", "Dispatch", "Darwin", "Glibc", "Musl", "Android",
                                     "UIKit", "BackgroundTasks"]
        var importedByAny: Set<String> = []
        for file in files {
            let imported = Self.imports(in: file.text).subtracting(platform)
            importedByAny.formUnion(imported)
            #expect(imported.isSubset(of: linked), "Tests/\(target)/\(file.path) imports \(imported.subtracting(linked).sorted()), not linked")
        }
        if target != Self.programTests {
            let module = String(target.dropLast("Tests".count))
            #expect(linked.contains(module) && importedByAny.contains(module), "\(target) does not link and import \(module)")
        }
    }

    @Test(arguments: modules.map { $0 + "Tests" })
    func aModulesTestTargetBuildsNoProgramItDoesNotRun(target: String) throws {
        // Examples, fuzz harnesses and the benchmark are the program tests' to build; a module's test
        // target links an executable only to run it: the command line its module provides (bgbudget,
        // for the scenario module's tests) or the child process its crash test kills (StateStoreTorture).
        let runs: [String: Set<String>] = ["BackgroundBudgetScenarioTests": ["bgbudget"], "SavedStateTests": ["StateStoreTorture"]]
        let executables = try Self.manifestTargets("executableTarget")
        #expect(executables.contains("BudgetBench") && executables.contains("StateLab"))
        let linked = try Self.manifestDependencies(of: target, kind: "testTarget").intersection(executables)
        #expect(linked == runs[target, default: []], "\(target) links the programs \(linked.sorted())")
    }

    @Test func theUmbrellaOnlyReExports() throws {
        // `import BackgroundBudget` is for programs: the umbrella declares nothing, so no module of the
        // package needs it but the ones built for programs (`UmbrellaTests` checks what it brings).
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
        #expect(Self.imports(in: "import JobBudgets   // with a comment\n") == ["JobBudgets"])
    }
}
