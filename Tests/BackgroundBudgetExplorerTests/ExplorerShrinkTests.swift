import BudgetTime
import Foundation
import Testing
import TestSupport
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario
import BudgetClock
import BackgroundBudgetCore

/// Shrinking stops by construction: every step it takes makes the measure (events, total wait, menu
/// places) smaller, and a budget bounds the sequences it runs.
@Suite struct ExplorerShrinkTests {
    static let leaky: AppID = "com.example.leaky"
    /// An upload begun on the way to the background and never ended: killed 30 s after Home.
    static let leakyUpload = ExplorerTarget.leakyUpload
    /// The menu that hung the old shrinker: a 60 s wait breaks the rule, and so does half of it.
    static let menu: ExplorerMenu = {
        do {
            return try ExplorerMenu([.init(.act(.open(leaky))), .init(.act(.home)), .init(.wait(.seconds(1))),
                                     .init(.wait(.seconds(10))), .init(.wait(.seconds(60)))])
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    static func explorer() throws -> Explorer {
        var explorer = try Explorer(target: leakyUpload, invariants: [.noKillWithOpenTask], menu: menu)
        explorer.timeLimit = .seconds(60)
        return explorer
    }

    @Test func aFailureAtASixtySecondWaitAndAtHalfOfItShrinksAndStops() throws {
        let explorer = try Self.explorer()
        let found: [ExplorerEvent] = [.act(.open(Self.leaky)), .act(.home), .wait(.seconds(60))]
        let failure = explorer.shrink(found, invariant: "noKillWithOpenTask")
        // 60 s becomes 30 s (the allowance), and is not turned back into the menu's 60 s: that would
        // make the total wait longer.
        #expect(failure.events == [.act(.open(Self.leaky)), .act(.home), .wait(.seconds(30))])
        #expect(explorer.shrinkMeasure(of: failure.events) < explorer.shrinkMeasure(of: found))
        #expect(failure.message.contains("kill(backgroundTaskExpired)"))
        // From random walks with that menu too, every seed.
        for seed in 1...UInt64(LongRun.cases(100, quick: 10)) {
            let report = explorer.randomWalks(seed: seed, sequences: 1_000)
            #expect(report.stoppedAt == nil)
            #expect(report.failures.map(\.events) == [failure.events], "seed \(seed)")
        }
    }

    @Test func theMeasureIsLexicographicEventsThenWaitThenMenuPlace() throws {
        let explorer = try Self.explorer()
        let m = { explorer.shrinkMeasure(of: $0) }
        let open = ExplorerEvent.act(.open(Self.leaky)), home = ExplorerEvent.act(.home)
        #expect(m([open, home]) < m([open, home, .wait(.seconds(1))]))
        #expect(m([open, .wait(.seconds(30))]) < m([open, .wait(.seconds(60))]))
        #expect(m([open, .wait(.seconds(60))]) < m([home, .wait(.seconds(60))]))
        #expect(m([open, home, .wait(.seconds(30))])
                == Explorer.ShrinkMeasure(events: 3, totalWait: 30_000_000_000, menuPositions: 0 + 1 + 5, menuOrder: [0, 1, 5]))
        // The same events in another order: the one whose earlier events come earlier in the menu is smaller.
        #expect(m([open, home, .wait(.seconds(1))]) < m([home, open, .wait(.seconds(1))]))
        #expect(m([home, open, .wait(.seconds(1))]) < m([home, .wait(.seconds(1)), open]))
        #expect(!(m([open, home]) < m([open, home])))
    }

    /// Events that commute are put in menu order: a low-power switch found before or after the app
    /// opened, or after Home, shrinks to one sequence.
    @Test func eventsThatCommuteShrinkToMenuOrderWhicheverOrderTheyWereFoundIn() throws {
        let menu = try ExplorerMenu([.init(.act(.open(Self.leaky))), .init(.act(.home)), .init(.act(.setLowPowerMode(true))),
                                     .init(.wait(.seconds(40)))])
        // Breaks only when Low Power Mode is on at the kill: an invariant that needs both events.
        let needsLowPower = ExplorerInvariant("keptInLowPower") { seen in
            guard seen.system?.isLowPowerModeEnabled == true else { return nil }
            return seen.trace.events.contains { if case .exit = $0.kind { true } else { false } } ? "killed in Low Power Mode" : nil
        }
        var explorer = try Explorer(target: Self.leakyUpload, invariants: [needsLowPower], menu: menu)
        explorer.timeLimit = .seconds(60)
        let low = ExplorerEvent.act(.setLowPowerMode(true)), open = ExplorerEvent.act(.open(Self.leaky))
        let home = ExplorerEvent.act(.home), wait = ExplorerEvent.wait(.seconds(40))
        var shrunk: Set<[ExplorerEvent]> = []
        for found in [[low, open, home, wait], [open, low, home, wait], [open, home, low, wait], [open, home, wait, low]] {
            let failure = explorer.shrink(found, invariant: "keptInLowPower")
            #expect(explorer.firstViolation(in: failure.events)?.invariant == "keptInLowPower", "\(found)")
            shrunk.insert(failure.events)
        }
        #expect(shrunk == [[open, home, low, .wait(.seconds(30))]])
    }

    /// Random failing sequences over the standard menu, on the leaky upload and the draft loss: each
    /// shrinks within its budget to a sequence that still breaks the same invariant first, no larger
    /// by the measure, and 1-minimal.
    @Test(arguments: [false, true]) func randomFailingSequencesShrinkToSmallerMinimalOnes(draft: Bool) throws {
        var explorer = try draft
            ? Explorer(target: ExplorerTests.draftLoss, invariants: ExplorerTests.buggy)
            : Explorer(target: Self.leakyUpload, invariants: ExplorerInvariant.builtIn)
        explorer.timeLimit = .seconds(60)
        explorer.shrinkBudget = 200_000
        var random = SplitMix64(seed: draft ? 11 : 12)
        var checked = 0
        for _ in 0..<LongRun.cases(300, quick: 60) {
            // A random walk of up to 40 events, the refused ones left out.
            var session = explorer.session()
            var events: [ExplorerEvent] = []
            for _ in 0..<Int(random.next(below: 40) + 1) {
                if let done = session.perform(explorer.menu.pick(using: &random)) { events.append(done) }
            }
            guard let broken = explorer.firstViolation(in: events) else { continue }
            checked += 1
            let failure = explorer.shrink(events, invariant: broken.invariant)
            #expect(explorer.firstViolation(in: failure.events)?.invariant == broken.invariant)
            #expect(explorer.shrinkMeasure(of: failure.events) <= explorer.shrinkMeasure(of: Array(events.prefix(broken.index + 1))))
            #expect(failure.shrinkSteps <= 10_000)
            for index in failure.events.indices {
                var shorter = failure.events
                shorter.remove(at: index)
                #expect(explorer.firstViolation(in: shorter)?.invariant != broken.invariant, "\(failure.events) without \(index + 1)")
            }
        }
        #expect(checked >= 10, "only \(checked) random sequences failed")
    }

    @Test func aSmallBudgetStopsShrinkingWithTheSmallestFailureSoFar() throws {
        var explorer = try Self.explorer()
        explorer.shrinkBudget = 10
        let found: [ExplorerEvent] = [.wait(.seconds(10)), .act(.open(Self.leaky)), .wait(.seconds(1)), .act(.home), .wait(.seconds(60))]
        let failure = explorer.shrink(found, invariant: "noKillWithOpenTask")
        #expect(explorer.firstViolation(in: failure.events)?.invariant == "noKillWithOpenTask")
        #expect(failure.events.count <= found.count)
        #expect(failure.events.count > 3)   // ten events buy at most two candidates of five
    }
}

extension ExplorerTarget {
    /// An upload begun in `applicationDidEnterBackground` and never ended (the README's leaky upload).
    static let leakyUpload: ExplorerTarget = {
        let json = """
            {"apps": [{"id": "com.example.leaky",
                       "behaviour": {"applicationDidEnterBackground": [{"do": "beginTask", "name": "upload", "onExpiration": "ignore"}]}}],
             "events": []}
            """
        do {
            return try ExplorerTarget(json: json)
        } catch {
            preconditionFailure("\(error)")
        }
    }()
}
