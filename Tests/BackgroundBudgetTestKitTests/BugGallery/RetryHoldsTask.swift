import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// google/gtm-session-fetcher#174: a fetch that failed and waited to retry kept its background task
/// until the retry timer fired, holding the app in the background past its allowance.
///
/// The fetcher begins a task for each fetch and ends it when the fetch is done. A fetch made without
/// a network fails after 1 s and is retried 60 s later. Before the fix the task stayed open through
/// the wait, so the app was terminated 30 s after it left the screen; the fix ends the task before
/// the retry timer starts and begins a new one when the retry runs.
final class RetryHoldsTask: ApplicationDelegate, ExplorerStateDescribing {
    let fixed: Bool
    /// The fetches in flight and the retries waiting, for the explorer's seen-set: two runs whose
    /// system states are alike differ when one fetch will fail and hold its task and the other not.
    let pending = LockedValue((online: 0, offline: 0, retries: 0))

    var explorerStateDescription: String {
        pending.withLock { "fetches: \($0.online) online, \($0.offline) offline; \($0.retries) retries waiting" }
    }

    init(fixed: Bool) {
        self.fixed = fixed
    }

    /// Uploads the user's last change when the app leaves the screen.
    func applicationDidEnterBackground(_ application: Application) {
        fetch(in: application, task: application.beginBackgroundTask(withName: "fetcher"))
    }

    private func fetch(in application: Application, task: BackgroundTaskIdentifier) {
        // The app learns whether it has a network as an app does from a path monitor.
        let online = application.system?.isNetworkAvailable ?? false
        pending.withLock { if online { $0.online += 1 } else { $0.offline += 1 } }
        application.runLater(after: .seconds(1)) { [fixed, pending] in
            pending.withLock { if online { $0.online -= 1 } else { $0.offline -= 1 } }
            if online {
                if task != .invalid { application.endBackgroundTask(task) }
                return
            }
            if fixed, task != .invalid { application.endBackgroundTask(task) }
            pending.withLock { $0.retries += 1 }
            application.runLater(after: .seconds(60)) {
                pending.withLock { $0.retries -= 1 }
                let retryTask = fixed ? application.beginBackgroundTask(withName: "fetcher") : task
                self.fetch(in: application, task: retryTask)
            }
        }
    }

    static let bug = GalleryBug(
        name: "google/gtm-session-fetcher#174", make: { RetryHoldsTask(fixed: $0) },
        menu: Gallery.menu([.init(.act(.setNetwork(false))), .init(.act(.setNetwork(true)))]),
        invariants: ExplorerInvariant.builtIn, invariant: "noKillWithOpenTask",
        // Turning the network off before or after opening the app commute: the shrinker puts them in
        // menu order, so every find shrinks to this one sequence.
        minimal: [.act(.open(Gallery.app)), .act(.setNetwork(false)), .act(.home), .wait(.seconds(30))])
}

@Suite struct RetryHoldsTaskTests {
    /// The app's trace, before the fix or with it: Home at 0, with or without a network, and 60 s.
    static func lines(fixed: Bool, online: Bool) throws -> [String] {
        try Gallery.trace(of: RetryHoldsTask(fixed: fixed)) { system, _, clock in
            system.setNetworkAvailable(online)
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheTaskIsHeldThroughTheRetryWaitAndTheAppIsKilled() throws {
        let lines = try Self.lines(fixed: false, online: false)
        #expect(Array(lines.suffix(6)) == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"fetcher"}"#,
            #"{"t":0.000,"app":"com.example.gallery","event":"allowanceStarted","until":30.000}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":30.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":30.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
            // The retry still waiting, which the end of the process drops.
            #"{"t":30.000,"app":"com.example.gallery","event":"workDropped","count":1}"#,
        ])
    }

    @Test func withTheFixTheTaskEndsBeforeTheRetryWaitAndTheAppIsSuspended() throws {
        let lines = try Self.lines(fixed: true, online: false)
        #expect(Array(lines.suffix(4)) == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"fetcher"}"#,
            #"{"t":0.000,"app":"com.example.gallery","event":"allowanceStarted","until":30.000}"#,
            #"{"t":1.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":1.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }

    @Test func withANetworkTheFetchEndsItsTaskEitherWay() throws {
        for fixed in [false, true] {
            let lines = try Self.lines(fixed: fixed, online: true)
            #expect(lines.last == #"{"t":1.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#)
        }
    }
}
