import BackgroundBudget
import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import BackgroundBudgetTestKit
import Testing

/// The explorer from a test: each broken invariant is a Swift Testing issue with the shrunk sequence.
@Suite struct ExplorerIssueTests {
    /// Counts the times the user opened the app since its last `applicationDidEnterBackground`.
    final class Counter: ApplicationDelegate {
        let openedSinceBackground = RunningTotal()
        func applicationDidBecomeActive(_ application: Application) { openedSinceBackground.add(1) }
        func applicationDidEnterBackground(_ application: Application) { openedSinceBackground.reset() }
    }

    static let scenario = #"{"apps": [{"id": "com.example.counter"}], "events": []}"#
    static let counter: AppID = "com.example.counter"

    /// Breaks when the user opens the app twice without it going to the background between.
    static let neverActiveTwice = ExplorerInvariant("neverActiveTwice") { seen in
        guard let delegate = seen.delegate(of: counter) as? Counter, delegate.openedSinceBackground.total >= 2 else { return nil }
        return "became active \(delegate.openedSinceBackground.total) times without going to the background"
    }

    static func explorer() throws -> Explorer {
        let target = try ExplorerTarget(json: scenario, delegates: [counter: { Counter() }])
        // The delegate outlives its process in the model, so a reboot (no callback) and a second open
        // would break the count too: left out, to find the interruption.
        let menu = try ExplorerMenu.standard(for: [counter]).weighted([("reboot", 0)])
        return try Explorer(target: target, invariants: [neverActiveTwice], menu: menu)
    }

    @Test func aBrokenInvariantIsRecordedAsAnIssueWithTheShrunkSequence() throws {
        let explorer = try Self.explorer()
        var reports: [ExplorerReport] = []
        withKnownIssue {
            reports = explorer.expectNoFailure(seeds: 1...2, sequences: 1_000, depth: 2)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("neverActiveTwice broke") && text.contains("1. open com.example.counter")
                && text.contains(#""do": "beginInterruption""#)
        }
        #expect(reports.count == 3)
        // An interruption dismissed makes the app active again without a trip to the background.
        let shrunk: [ExplorerEvent] = [.act(.open(Self.counter)), .act(.beginInterruption), .act(.dismissInterruption)]
        #expect(reports.prefix(2).allSatisfy { $0.failures.map(\.events) == [shrunk] })
        #expect(reports[2].failures.isEmpty)   // three events are needed: depth 2 is too shallow
    }

    @Test func noIssueWhenNothingBreaks() throws {
        let target = try ExplorerTarget(json: Self.scenario, delegates: [Self.counter: { Counter() }])
        let explorer = try Explorer(target: target)
        let reports = explorer.expectNoFailure(seeds: 1...1, sequences: 100, depth: 2)
        #expect(reports.allSatisfy { $0.failures.isEmpty && $0.recordIssues() })
    }
}

/// A thread-safe running total.
final class RunningTotal: Sendable {
    private let value = LockedValue(0)
    func add(_ amount: Int) { value.withLock { $0 += amount } }
    func reset() { value.withLock { $0 = 0 } }
    var total: Int { value.withLock { $0 } }
}
