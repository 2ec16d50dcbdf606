import Testing
@testable import BackgroundBudgetExplorer
import BackgroundBudgetCore
import BudgetTime

/// A failure is an invariant breaking for an app: two apps that leak the same way are two failures,
/// each found from many seeds and each shrunk to one sequence.
@Suite struct ExplorerGroupTests {
    static let leaky: AppID = "com.example.leaky", notes: AppID = "com.example.notes"
    /// Two apps whose background tasks outlive a swipe from the app switcher.
    static let twoApps: ExplorerTarget = {
        let json = """
            {"apps": [{"id": "com.example.leaky", "behaviour": {"applicationDidEnterBackground": [
                          {"do": "beginTask", "name": "upload", "onExpiration": "ignore"}]}},
                      {"id": "com.example.notes", "behaviour": {"applicationDidEnterBackground": [
                          {"do": "beginTask", "name": "save", "work": 20, "onExpiration": "end"}]}}],
             "events": []}
            """
        do {
            return try ExplorerTarget(json: json)
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    static func explorer() throws -> Explorer {
        var explorer = try Explorer(target: twoApps, invariants: try ExplorerInvariant.named("noKillWithOpenTask:anyExit"))
        explorer.timeLimit = .seconds(60)
        explorer.shrinkBudget = 200_000
        return explorer
    }

    @Test func oneWalkKeepsTheFirstFailureOfAnInvariantForEachApp() throws {
        let report = try Self.explorer().randomWalks(seed: 5, sequences: 400, stopAtFirstFailure: false)
        #expect(Set(report.failures.map(\.invariant)) == ["noKillWithOpenTask"])
        #expect(Set(report.failures.compactMap(\.app)) == [Self.leaky, Self.notes], "\(report)")
        #expect(report.failures.count == 2)
    }

    @Test func findsFromManySeedsShrinkToOneSequenceForEachApp() throws {
        let explorer = try Self.explorer()
        var minima: [AppID: Set<[ExplorerEvent]>] = [:]
        for seed in 1...UInt64(12) {
            for failure in explorer.randomWalks(seed: seed, sequences: 400).failures {
                let app = try #require(failure.app)
                minima[app, default: []].insert(failure.events)
                // The failure is about the app its events name.
                #expect(failure.events.contains { $0.description.hasSuffix(app.rawValue) }, "\(failure)")
            }
        }
        #expect(minima.keys.count == 2, "\(minima)")
        for (app, found) in minima { #expect(found.count == 1, "\(app): \(found)") }
    }
}
