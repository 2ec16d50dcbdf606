import Foundation
import Testing
@testable import BackgroundBudget
import TestSupport
@testable import BackgroundBudgetScenario
@testable import BackgroundBudgetExplorer

/// The explorer on the planted bug of Examples/scenarios/draft-loss.json: found, shrunk, replayed.
@Suite struct ExplorerTests {
    static let draftLoss: ExplorerTarget = {
        let url = SampleFiles.root.appendingPathComponent("Examples/scenarios/draft-loss.json")
        guard let data = try? Data(contentsOf: url), let target = try? ExplorerTarget(jsonBytes: Array(data)) else {
            preconditionFailure("Examples/scenarios/draft-loss.json must load")
        }
        return target
    }()
    static let notes: AppID = "com.example.notes"
    /// The draft is saved only in applicationWillTerminate: the planted bug.
    static let buggy = [ExplorerInvariant.dataSaved(by: [.willTerminate])] + ExplorerInvariant.builtIn
    /// Saved in applicationDidEnterBackground too: the fix.
    static let fixed = [ExplorerInvariant.dataSaved(by: [.didEnterBackground, .willTerminate])] + ExplorerInvariant.builtIn
    static let minimal: [ExplorerEvent] = [.act(.open(notes)), .act(.home), .act(.purge(notes))]

    @Test func thePlantedBugIsFoundFromAlmostEverySeedAndAlwaysShrinksToTheSameScenario() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy)
        let seeds = LongRun.cases(100, quick: 5)
        var found = 0
        var files: Set<String> = []
        for seed in 1...UInt64(seeds) {
            let report = explorer.randomWalks(seed: seed, sequences: 10_000)
            guard let failure = report.failures.first else { continue }
            found += 1
            #expect(failure.invariant == "dataSaved")
            #expect(failure.events == Self.minimal, "seed \(seed) shrank to \(failure.events)")
            files.insert(failure.scenarioFile)
        }
        #expect(found * 100 >= seeds * 99, "found from \(found) of \(seeds) seeds")
        #expect(files.count == 1)
    }

    @Test func theShrunkScenarioReplaysThroughBgbudgetRunWithTheSameFailure() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy)
        let failure = try #require(explorer.randomWalks(seed: 7, sequences: 10_000).failures.first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("counterexample.json").path
        try Data(failure.scenarioFile.utf8).write(to: URL(fileURLWithPath: path))

        let outcome = ScenarioCommand.run(["run", path])
        #expect(outcome.status == .success, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("(state: notRunning, reason: memoryPressure)"))
        #expect(!outcome.standardOutput.contains("applicationWillTerminate"))
        let run = try Scenario(json: failure.scenarioFile).run()
        let seen = ExplorerObservation(trace: run.trace, now: run.end)
        #expect(Self.buggy[0].violation(in: seen) == failure.message)
        #expect(Self.fixed[0].violation(in: seen) == nil)
    }

    @Test func theShrunkSequenceIsMinimal() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy)
        let failure = try #require(explorer.randomWalks(seed: 3, sequences: 10_000).failures.first)
        #expect(failure.foundLength >= failure.events.count)
        #expect(explorer.firstViolation(in: failure.events)?.invariant == "dataSaved")
        for index in failure.events.indices {
            var shorter = failure.events
            shorter.remove(at: index)
            #expect(explorer.firstViolation(in: shorter)?.invariant != "dataSaved", "still fails without event \(index + 1)")
        }
    }

    @Test func shrinkingDropsEventsMergesWaitsAndLowersTimes() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy)
        let long: [ExplorerEvent] = [.wait(.seconds(600)), .act(.setLowPowerMode(true)), .act(.open(Self.notes)), .wait(.seconds(60)),
                                     .wait(.seconds(10)), .act(.beginInterruption), .act(.answerInterruption), .wait(.seconds(600)),
                                     .act(.purge(Self.notes)), .act(.open(Self.notes))]
        let failure = explorer.shrink(long, invariant: "dataSaved")
        #expect(failure.events == Self.minimal)
        #expect(failure.foundLength == long.count)
        #expect(failure.failingEvent == 2)
        // A sequence that does not break the invariant is returned as it was, saying so.
        let clean = explorer.shrink([.act(.open(Self.notes))], invariant: "dataSaved")
        #expect(clean.events == [.act(.open(Self.notes))])
        #expect(clean.message == "the sequence no longer breaks dataSaved")
        #expect(explorer.shrink([], invariant: "dataSaved").description.hasPrefix("dataSaved broke at event 1 of 0, "))
        // The same input always shrinks to the same output.
        #expect(explorer.shrink(long, invariant: "dataSaved") == failure)
    }

    @Test func theSameSeedGivesTheSameReportByteForByte() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy)
        let walks = LongRun.cases(200, quick: 60)
        let first = explorer.randomWalks(seed: 42, sequences: walks, stopAtFirstFailure: false)
        let second = explorer.randomWalks(seed: 42, sequences: walks, stopAtFirstFailure: false)
        #expect(first.description == second.description)
        #expect(first.failures.map(\.scenarioFile) == second.failures.map(\.scenarioFile))
        #expect(first.sequencesTried == walks)
        #expect(first.failingSequences > 0)
        let other = explorer.randomWalks(seed: 43, sequences: walks, stopAtFirstFailure: false)
        #expect(other.description != first.description)
    }

    @Test func theFixedAppPassesRandomWalks() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.fixed)
        let report = explorer.randomWalks(seed: 1, sequences: LongRun.cases(100_000, quick: 200))
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.sequencesTried == LongRun.cases(100_000, quick: 200))
    }

    /// Every sequence of up to five events (two in `swift test`): the bug's minimal sequence has three.
    /// The six apps of the bug gallery carry the search to depth 6 (`BugGalleryExplorerTests`); one
    /// more level here would cost some minutes of CPU in a debug build, for the same code path.
    @Test func theFixedAppPassesTheExhaustiveSearch() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.fixed)
        let depth = LongRun.cases(5, quick: 2)
        let report = explorer.exhaustive(depth: depth)
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.statesSeen > depth)
        #expect(report.sequencesTried > report.statesSeen - 1)
    }

    @Test func theExhaustiveSearchFindsThePlantedBugAtDepthThree() throws {
        let menu = try ExplorerMenu([.init(.act(.open(Self.notes))), .init(.act(.home)), .init(.act(.purge(Self.notes))),
                                     .init(.act(.killFromAppSwitcher(Self.notes))), .init(.act(.beginInterruption)),
                                     .init(.act(.answerInterruption)), .init(.act(.setLowPowerMode(true))), .init(.wait(.seconds(10)))])
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.buggy, menu: menu)
        #expect(explorer.exhaustive(depth: 2).failures.isEmpty)
        let report = explorer.exhaustive(depth: 3)
        #expect(report.failures.map(\.events) == [Self.minimal])
        #expect(report.description == explorer.exhaustive(depth: 3).description)
    }

    @Test func statesThatDifferOnlyInWhenTheyHappenAreTheSameState() throws {
        let explorer = try Explorer(target: Self.draftLoss, invariants: Self.fixed)
        func fingerprint(_ events: [ExplorerEvent]) -> UInt64 {
            var session = explorer.session()
            for event in events {
                let performed = session.perform(event) != nil
                #expect(performed)
            }
            return session.fingerprint()
        }
        let open: [ExplorerEvent] = [.act(.open(Self.notes))]
        #expect(fingerprint(open) == fingerprint([.wait(.seconds(10))] + open))
        #expect(fingerprint(open) != fingerprint(open + [.act(.home)]))
        #expect(fingerprint([.act(.setLowPowerMode(true)), .act(.setLowPowerMode(false))]) == fingerprint([]))
    }

    /// What lets the exhaustive search try the next entry on the same run after a refused one: an event
    /// the lifecycle refuses leaves the state, the trace and the clock as they were. Checked in the
    /// states of random walks over the standard menu, every entry tried, on two targets.
    @Test func aRefusedEventChangesNothing() throws {
        var refusals = 0
        for target in [Self.draftLoss, ExplorerTarget.leakyUpload] {
            let explorer = try Explorer(target: target, invariants: Self.fixed)
            var random = SplitMix64(seed: 5)
            for _ in 0..<LongRun.cases(200, quick: 20) {
                var session = explorer.session()
                for _ in 0..<20 {
                    // The entries from a random one on, until one takes effect.
                    let entries = explorer.menu.entries
                    let first = Int(random.next(below: UInt64(entries.count)))
                    for offset in entries.indices {
                        let before = (session.fingerprint(), session.system.trace.events.count, session.clock.now, session.now)
                        guard session.perform(entries[(first + offset) % entries.count].event) == nil else { break }
                        refusals += 1
                        let after = (session.fingerprint(), session.system.trace.events.count, session.clock.now, session.now)
                        #expect(after == before, "\(entries[(first + offset) % entries.count].event)")
                    }
                    _ = session.violation()
                }
            }
        }
        #expect(refusals > 100)
    }
}

/// A scenario's own events are the setup every explored sequence starts from, and stay in the
/// counterexample, before the explored events.
@Suite struct ExplorerSetupTests {
    static let withSetup = """
        {"description": "Notes, opened by the setup.",
         "apps": [{"id": "com.example.notes", "displayName": "Notes"}],
         "events": [{"at": 0, "do": "setMemoryCapacity", "mb": 4000}, {"at": 0, "do": "open", "app": "com.example.notes"}],
         "end": 5}
        """

    @Test func theSetupRunsFirstAndIsWrittenBeforeTheExploredEvents() throws {
        let explorer = try Explorer(target: ExplorerTarget(json: Self.withSetup), invariants: [.dataSaved(by: [.willTerminate])])
        let failure = try #require(explorer.randomWalks(seed: 1, sequences: 1_000).failures.first)
        #expect(failure.events == [.act(.home), .act(.purge("com.example.notes"))])
        #expect(failure.scenarioFile.contains("""
              "events": [
                {"at": 0, "do": "setMemoryCapacity", "mb": 4000},
                {"at": 0, "do": "open", "app": "com.example.notes"},
                {"at": 5, "do": "home"},
                {"at": 5, "do": "purge", "app": "com.example.notes"}
              ],
              "end": 5
            """))
        let run = try Scenario(json: failure.scenarioFile).run()
        #expect(ExplorerInvariant.dataSaved(by: [.willTerminate]).violation(in: ExplorerObservation(trace: run.trace, now: run.end))
                == failure.message)
    }

    @Test func aSetupThatIsRefusedOrADelegateForAnUnknownAppIsATypedError() {
        let refused = #"{"apps": [{"id": "com.example.notes"}], "events": [{"at": 0, "do": "home"}]}"#
        #expect(throws: ScenarioError.self) { try Explorer(target: ExplorerTarget(json: refused)) }
        #expect(throws: ScenarioError.self) {
            try ExplorerTarget(json: Self.withSetup, delegates: ["com.example.other": { ExplorerSetupTests.Nothing() }])
        }
    }

    final class Nothing: ApplicationDelegate {}
}
