import BackgroundBudgetExplorer
import Foundation
import FuzzSupport
import BackgroundBudgetScenario
#if DEBUG || FUZZING
@testable import BackgroundBudgetScenario
#else
#endif

/// The checks for one input as the arguments of `bgbudget explore`: one argument per line.
enum ExploreArgumentsCheck {
    /// The longest usage message: the fixed words, two quoted arguments (each clipped) and the list
    /// of invariant names.
    static let longestMessage = 1_000

    /// The input's arguments: its lines, as UTF-8 (invalid bytes replaced).
    static func arguments(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every property of one input. The options are read without exploring (exploring is the
    /// explorer's tests' work), so each input takes microseconds.
    static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        #if DEBUG || FUZZING
        let arguments = arguments(bytes)
        switch ScenarioCommand.parseExplore(arguments) {
        case .success(let options):
            try require((1...10_000).contains(options.length), "--length \(options.length) outside 1...10000")
            try require(options.depth.map { (0...12).contains($0) } ?? true, "--depth \(String(describing: options.depth)) outside 0...12")
            try require(options.seeds.map { (0...100_000_000).contains($0) } ?? true, "--seeds \(String(describing: options.seeds)) out of range")
            try require((0...100_000_000).contains(options.sequences), "--sequences \(options.sequences) out of range")
            if let file = options.file {
                try require(arguments.contains(file) && (!file.hasPrefix("-") || file == "-"), "the file '\(file)' is not a plain argument")
            }
            if let out = options.out { try require(!out.isEmpty, "an empty --out") }
            if let report = options.report { try require(!report.isEmpty, "an empty --report") }
            try require(options.jobs.map { (1...256).contains($0) } ?? true, "--jobs \(String(describing: options.jobs)) outside 1...256")
            if let shard = options.shard {
                try require(shard.count >= 2 && shard.count <= 10_000 && (0..<shard.count).contains(shard.index), "a shard \(shard) out of range")
            }
            let names = Set(ExplorerInvariant.builtIn.map(\.name)).union(["dataSaved"])
            for invariant in options.invariants {
                try require(names.contains(invariant.name), "an invariant '\(invariant.name)' no name gives")
            }
        case .failure(let failed):
            let outcome = failed.outcome
            if outcome.status == .success {
                try require(arguments.contains { ScenarioCommand.split($0).0 == "--help" || $0 == "-h" }, "help without --help or -h")
                try require(outcome.standardOutput == ScenarioCommand.help(for: "explore"), "not the explore command's help")
                return
            }
            try require(outcome.status == .usage, "a parse failure with status \(outcome.status)")
            try require(outcome.standardOutput.isEmpty, "a usage error printed output")
            let message = outcome.standardError
            try require(message.hasPrefix("bgbudget: ") && message.hasSuffix("\nTry 'bgbudget --help'.\n"), "not a usage message: \(message)")
            try require(message.count <= longestMessage, "a usage message of \(message.count) characters")
        }
        #endif
    }
}

#if FUZZING
/// libFuzzer's per-input callback.
/// - Parameters:
///   - start: The input's bytes.
///   - count: Their number.
/// - Returns: 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExploreArgumentsInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzOneInput(start, count, check: ExploreArgumentsCheck.check)
}

/// The process's entry point in a fuzz build: libFuzzer's driver.
/// - Parameters:
///   - argc: The argument count.
///   - argv: The arguments.
/// - Returns: The exit status.
@_cdecl("FuzzExploreArguments_main")
public func fuzzExploreArgumentsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzExploreArgumentsInput)
}
#else
/// Replays files through the checks: `swift run FuzzExploreArguments Tests/Fuzz/Corpus/explore-arguments`.
@main enum FuzzExploreArgumentsReplay {
    static func main() {
        exit(replayCorpus(name: "FuzzExploreArguments", paths: CommandLine.arguments.dropFirst(), check: ExploreArgumentsCheck.check))
    }
}
#endif
