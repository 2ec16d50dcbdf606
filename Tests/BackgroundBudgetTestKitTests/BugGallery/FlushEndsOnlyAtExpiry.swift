import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// segmentio/analytics-ios#628: the library flushed its queued events when the app left the screen,
/// under a background task that only its expiration handler ended, so the app stayed running in the
/// background for the whole allowance after a flush of a second or two.
///
/// No kill follows (the handler does end the task), which is why it went unnoticed: the cost is
/// battery, and `backgroundTimeRemaining` read in the debugger gave it away. The fix ends the task as
/// soon as the flush is done. The rule it breaks is the gallery's own: a task is ended within 5 s
/// of the work it covers.
final class FlushEndsOnlyAtExpiry: ApplicationDelegate, ExplorerStateDescribing {
    /// The open flush: its task and when its work was done, if it was.
    struct Flush: Sendable {
        var task: BackgroundTaskIdentifier
        var doneAt: BudgetInstant?
    }

    let fixed: Bool
    let flush = LockedValue<Flush?>(nil)

    init(fixed: Bool) {
        self.fixed = fixed
    }

    var explorerStateDescription: String {
        flush.withLock { flush in flush.map { "flush \($0.task.rawValue), done: \($0.doneAt != nil)" } ?? "no flush" }
    }

    func applicationDidEnterBackground(_ application: Application) {
        let task = LockedValue(BackgroundTaskIdentifier.invalid)
        let finish = { @Sendable [flush] in
            let id = task.withLock { $0 }
            flush.withLock { if $0?.task == id { $0 = nil } }
            application.endBackgroundTask(id)
        }
        task.withLock { $0 = application.beginBackgroundTask(withName: "segment-flush") { finish() } }
        flush.withLock { $0 = Flush(task: task.withLock { $0 }) }
        application.runLater(after: .seconds(2)) { [fixed, flush] in   // the events are sent
            if fixed {
                finish()
            } else {
                let now = application.system?.clock.now
                flush.withLock { $0?.doneAt = now }
            }
        }
    }

    /// Breaks when a flush's task is still open more than 5 s after its work was done.
    static let endsWithItsWork = ExplorerInvariant("endsWithItsWork") { seen in
        guard let delegate = seen.delegate(of: Gallery.app) as? FlushEndsOnlyAtExpiry,
              let open = delegate.flush.withLock({ $0 }), let done = open.doneAt, seen.now - done > .seconds(5) else { return nil }
        return "background task \(open.task) still open \(seen.now - done) after its flush was done"
    }

    static let bug = GalleryBug(name: "segmentio/analytics-ios#628", make: { FlushEndsOnlyAtExpiry(fixed: $0) },
                                menu: Gallery.menu(), invariants: [endsWithItsWork] + ExplorerInvariant.builtIn,
                                invariant: "endsWithItsWork",
                                minimal: [.act(.open(Gallery.app)), .act(.home), .wait(.milliseconds(7_001))])
}

@Suite struct FlushEndsOnlyAtExpiryTests {
    /// The app's trace, before the fix or with it, for the steps both tests take.
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: FlushEndsOnlyAtExpiry(fixed: fixed)) { system, _, clock in
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheAppRunsInTheBackgroundUntilTheExpirationHandler() throws {
        let lines = try Self.lines(fixed: false)
        #expect(Array(lines.suffix(5)) == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"segment-flush"}"#,
            #"{"t":0.000,"app":"com.example.gallery","event":"allowanceStarted","until":30.000}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }

    @Test func withTheFixTheAppIsSuspendedAsSoonAsTheFlushIsDone() throws {
        let lines = try Self.lines(fixed: true)
        #expect(Array(lines.suffix(4)) == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"segment-flush"}"#,
            #"{"t":0.000,"app":"com.example.gallery","event":"allowanceStarted","until":30.000}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
