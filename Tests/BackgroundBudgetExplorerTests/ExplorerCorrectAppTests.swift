import BudgetTime
import Foundation
import Testing
import TestSupport
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario
import BudgetClock

/// The built-in invariants flag no correct app: an uploader that ends its task from the expiration
/// handler, a photos app whose processing task outlives its runtime and is completed from the
/// expiration handler (as Apple's sample does), and a notes app that saves on its way to the background; every
/// device and user event of the standard menu, 10,000 walks in the long suite.
@Suite struct ExplorerCorrectAppTests {
    static let correct = """
        {"apps": [
          {"id": "com.example.uploader",
           "behaviour": {"applicationDidEnterBackground": [{"do": "beginTask", "name": "upload", "work": 60, "onExpiration": "end"}]}},
          {"id": "com.example.photos", "backgroundModes": ["processing"],
           "permittedTaskIdentifiers": ["com.example.photos.index"],
           "behaviour": {"application:didFinishLaunchingWithOptions": [
              {"do": "registerTask", "identifier": "com.example.photos.index", "result": "success", "work": 1200, "progress": 12},
              {"do": "submitTask", "identifier": "com.example.photos.index", "kind": "processing", "power": true}]}},
          {"id": "com.example.notes"}
         ],
         "events": []}
        """
    static let walks = LongRun.cases(10_000, quick: 100)

    static func explorer(_ invariants: [ExplorerInvariant]) throws -> Explorer {
        var explorer = try Explorer(target: ExplorerTarget(json: correct), invariants: invariants)
        explorer.timeLimit = .seconds(600)
        return explorer
    }

    static let savesOnTheWayOut = ExplorerInvariant.dataSaved(by: [.didEnterBackground, .willTerminate])

    @Test(arguments: ExplorerInvariant.builtIn.map(\.name) + ["dataSaved"])
    func aCorrectAppBreaksNoBuiltInInvariant(name: String) throws {
        let invariant = name == "dataSaved" ? Self.savesOnTheWayOut : try #require(ExplorerInvariant.named(name).first)
        let report = try Self.explorer([invariant]).randomWalks(seed: 2_024, sequences: Self.walks, stopAtFirstFailure: false)
        #expect(report.sequencesTried == Self.walks)
        #expect(report.failingSequences == 0, "\(report)")
        #expect(report.eventsPerformed > Self.walks * 15)
    }

    @Test func countingExitsTheAppCannotPreventFlagsTheSameAppWhenAsked() throws {
        // A swipe from the app switcher during the upload: not a leak, but what `:anyExit` asks about.
        let invariants = try ExplorerInvariant.named("noKillWithOpenTask:anyExit")
        let report = try Self.explorer(invariants).randomWalks(seed: 2_024, sequences: 1_000)
        let failure = try #require(report.failures.first)
        let exit = try #require(failure.message.firstRange(of: "ended (")).upperBound
        let cause = String(failure.message[exit...].prefix { $0 != ")" })
        #expect(["killFromAppSwitcher", "purge", "kill(reboot)", "terminate(system", "terminate(memoryPressure", "terminate(userKill"].contains(cause), "\(failure)")
    }

    @Test func theHandWrittenFingerprintTellsStatesApartExactlyAsReflectionDoes() throws {
        let explorer = try Self.explorer(ExplorerInvariant.builtIn)
        var random = SplitMix64(seed: 5)
        var byHand: [UInt64: UInt64] = [:]
        var byReflection: [UInt64: UInt64] = [:]
        for _ in 0..<LongRun.cases(400, quick: 20) {
            var session = explorer.session()
            for _ in 0..<20 {
                guard session.perform(explorer.menu.pick(using: &random)) != nil else { continue }
                let hand = session.fingerprint(), reflected = session.reflectedFingerprint()
                #expect(byHand.updateValue(reflected, forKey: hand) ?? reflected == reflected)
                #expect(byReflection.updateValue(hand, forKey: reflected) ?? hand == hand)
            }
        }
        #expect(byHand.count > 100)
        #expect(byHand.count == byReflection.count)
    }
}
