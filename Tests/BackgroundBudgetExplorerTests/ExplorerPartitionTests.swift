import Testing
@testable import BackgroundBudgetExplorer
import BackgroundBudgetCore

/// The pieces of an exhaustive search add up to the search in one piece, and failures are told apart
/// by the app they break for.
@Suite struct ExplorerPartitionTests {
    static let leaky: AppID = "com.example.leaky"

    /// A small menu, so that a search to depth 3 takes a fraction of a second.
    static let menu: ExplorerMenu = {
        do {
            return try ExplorerMenu([.init(.act(.open(leaky))), .init(.act(.home)), .init(.act(.purge(leaky))),
                                     .init(.act(.launchInBackground(leaky, reason: .backgroundFetch))),
                                     .init(.act(.setLowPowerMode(true))), .init(.wait(.seconds(10))), .init(.advance)])
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    @Test(arguments: [2, 3, 5]) func thePiecesOfAnExhaustiveSearchAddUpToTheWhole(pieces: Int) throws {
        let explorer = try Explorer(target: .leakyUpload, invariants: ExplorerInvariant.builtIn, menu: Self.menu)
        let whole = explorer.exhaustive(depth: 3)
        let parts = (0..<pieces).map { explorer.exhaustive(depth: 3, partition: ExplorerPartition(index: $0, count: pieces)) }
        let before = try #require(whole.beforeLastLevel)
        // Every piece does the levels before the last alike.
        #expect(parts.allSatisfy { $0.beforeLastLevel == before })
        #expect(before.sequencesTried > 0 && before.sequencesTried < whole.sequencesTried)
        // The last level is split: its sequences, events and failures add up; its states unite.
        #expect(parts.reduce(before.sequencesTried) { $0 + $1.sequencesTried - before.sequencesTried } == whole.sequencesTried)
        #expect(parts.reduce(before.eventsPerformed) { $0 + $1.eventsPerformed - before.eventsPerformed } == whole.eventsPerformed)
        #expect(parts.reduce(before.failingSequences) { $0 + $1.failingSequences - before.failingSequences } == whole.failingSequences)
        let united = parts.reduce(into: Set<UInt64>()) { $0.formUnion($1.lastLevelStates) }
        // The search in one piece keeps no list: its last level added what it saw past `before`.
        #expect(whole.lastLevelStates.isEmpty)
        #expect(parts.allSatisfy { !$0.lastLevelStates.isEmpty })
        #expect(before.statesSeen + united.count == whole.statesSeen)
        // Each piece's first failure of a group is at or after the whole's; the earliest is the whole's.
        let first = try #require(whole.failures.first)
        let earliest = parts.flatMap(\.failures).filter { $0.invariant == first.invariant && $0.app == first.app }
            .min { ($0.foundAt?.level ?? 0, $0.foundAt?.prefix ?? 0, $0.foundAt?.entry ?? 0) < ($1.foundAt?.level ?? 0, $1.foundAt?.prefix ?? 0, $1.foundAt?.entry ?? 0) }
        #expect(earliest?.events == first.events)
        #expect(earliest?.foundAt == first.foundAt)
    }

    @Test func aPartitionOwnsEveryPlaceOnce() {
        let parts = (0..<4).map { ExplorerPartition(index: $0, count: 4) }
        for place in 0..<40 { #expect(parts.filter { $0.owns(place) }.count == 1) }
        #expect(ExplorerPartition.whole.owns(17))
    }

    @Test func aFailureKnowsTheAppItBrokeFor() throws {
        let explorer = try Explorer(target: .leakyUpload, invariants: ExplorerInvariant.builtIn)
        let report = explorer.randomWalks(seed: 3, sequences: 100)
        let failure = try #require(report.failures.first)
        #expect(failure.invariant == "noKillWithOpenTask")
        #expect(failure.app == Self.leaky)
        #expect(failure.foundAt == nil)
        let searched = explorer.exhaustive(depth: 2)
        #expect(searched.failures.first?.app == Self.leaky)
        #expect(searched.failures.first?.foundAt != nil)
    }

    @Test func theAppOfAMessageIsTheFirstAndLongestNamed() {
        let apps: [AppID] = ["com.example.a", "com.example.ab", "com.example.b"]
        #expect(Explorer.app(mentionedIn: "com.example.b then com.example.a", among: apps) == "com.example.b")
        #expect(Explorer.app(mentionedIn: "com.example.ab lost it", among: apps) == "com.example.ab")
        #expect(Explorer.app(mentionedIn: "nobody", among: apps) == nil)
    }

    @Test func theFindOrderIsLevelThenPrefixThenEntry() {
        let order = { (level: Int, prefix: Int, entry: Int) in ExplorerFindOrder(level: level, prefix: prefix, entry: entry) }
        #expect(order(0, 9, 9) < order(1, 0, 0))
        #expect(order(1, 2, 9) < order(1, 3, 0))
        #expect(order(1, 2, 3) < order(1, 2, 4))
        #expect(!(order(1, 2, 3) < order(1, 2, 3)))
    }
}
