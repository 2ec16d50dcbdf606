import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Foundation
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// What the gallery's entries share: one app, its scenario, the menu, and a run by hand.
enum Gallery {
    static let app: AppID = "com.example.gallery"
    static let scenario = #"{"apps": [{"id": "com.example.gallery"}], "events": []}"#

    /// The gallery's menu: the user opens the app and leaves it, answers a call, the system purges
    /// the suspended app, and time passes in steps of 1 s, 10 s and 40 s, with `extra` entries after.
    ///
    /// The waits are chosen so that shrinking always ends: a failure that breaks at a menu wait and
    /// also at half of it (a 60 s wait for a task killed at 30 s) makes the shrinker turn the wait
    /// into the half, off the menu, and back into the menu's wait, forever. Each gallery bug breaks
    /// at its shortest breaking wait (1 s, 10 s or 40 s) but not at half of it.
    static func menu(_ extra: [ExplorerMenu.Entry] = []) -> ExplorerMenu {
        let entries: [ExplorerMenu.Entry] = [
            .init(.act(.open(app)), weight: 4), .init(.act(.home), weight: 4), .init(.act(.purge(app))),
            .init(.act(.beginInterruption)), .init(.act(.answerInterruption)),
            .init(.wait(.seconds(1)), weight: 2), .init(.wait(.seconds(10)), weight: 2), .init(.wait(.seconds(40)), weight: 2),
        ] + extra
        do {
            return try ExplorerMenu(entries)
        } catch {
            preconditionFailure("the gallery's menu is valid: \(error)")
        }
    }

    /// The sequence most gallery bugs shrink to: open, Home, and 30 s in the background (the shrinker
    /// cuts the menu's 40 s wait down to the instant of the kill).
    static let openHomeWait30: [ExplorerEvent] = [.act(.open(app)), .act(.home), .wait(.seconds(30))]

    /// Installs `delegate` on a fresh system with the `.iOS13` policy, opens the app at 0 and runs
    /// `script`.
    /// - Returns: The app's trace, as JSON lines.
    static func trace(of delegate: any ApplicationDelegate,
                      _ script: (BackgroundSystem, Application, VirtualClock) throws -> Void) throws -> [String] {
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let application = try system.install(AppManifest(id: app), delegate: delegate)
        try system.open(application)
        try script(system, application, clock)
        return system.trace.events.filter { $0.app == app }.map(\.jsonLine)
    }

    /// Runs `work` on a thread of its own and waits for it at most `seconds` of real time, so that
    /// an exploration that never returned (a shrinker that loops) fails the test instead of hanging
    /// the suite. A backstop, not a timing under test: work that returns is waited for no longer.
    /// - Returns: The work's result, or `nil` when the time ran out (the thread is then left running).
    static func guarded<Result: Sendable>(seconds: Double, _ work: @escaping @Sendable () -> Result) -> Result? {
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<Result?>(nil)
        Thread {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }
}
