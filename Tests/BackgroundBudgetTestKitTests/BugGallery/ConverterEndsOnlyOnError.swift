import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// wikimedia/wikipedia-ios#3548: a background converter of saved articles ended its background task
/// when a conversion went wrong, but not when it ran out of articles, the ordinary way to finish.
///
/// The app converts the articles the user saved, one every 2 s, after it leaves the screen. Before
/// the fix, the loop that takes the next article simply stopped when there was none, and the task
/// stayed open until the system terminated the app; the fix ends the task there too.
final class ConverterEndsOnlyOnError: ApplicationDelegate, ExplorerStateDescribing {
    let fixed: Bool
    /// Articles waiting to be converted; the user saves two each time they open the app.
    let queue = LockedValue(0)

    init(fixed: Bool) {
        self.fixed = fixed
    }

    var explorerStateDescription: String {
        "\(queue.withLock { $0 }) articles to convert"
    }

    func applicationDidBecomeActive(_ application: Application) {
        queue.withLock { $0 += 2 }
    }

    func applicationDidEnterBackground(_ application: Application) {
        let task = application.beginBackgroundTask(withName: "MobileviewToMobileHTMLConverter")
        convertNext(in: application, task: task)
    }

    private func convertNext(in application: Application, task: BackgroundTaskIdentifier) {
        let article = queue.withLock { queue -> Bool in
            guard queue > 0 else { return false }
            queue -= 1
            return true
        }
        guard article else {
            // No article left: the fix ends the task here; before it, only a failed conversion did.
            if fixed { application.endBackgroundTask(task) }
            return
        }
        application.runLater(after: .seconds(2)) { self.convertNext(in: application, task: task) }
    }

    static let bug = GalleryBug(name: "wikimedia/wikipedia-ios#3548", make: { ConverterEndsOnlyOnError(fixed: $0) },
                                menu: Gallery.menu(), invariants: ExplorerInvariant.builtIn,
                                invariant: "noKillWithOpenTask", minimal: Gallery.openHomeWait30)
}

@Suite struct ConverterEndsOnlyOnErrorTests {
    /// The app's trace, before the fix or with it, for the steps both tests take.
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: ConverterEndsOnlyOnError(fixed: fixed)) { system, _, clock in
            clock.advance(by: .seconds(10))
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheTaskOutlivesTheLastArticleAndTheAppIsKilled() throws {
        let lines = try Self.lines(fixed: false)
        #expect(Array(lines.suffix(5)) == [
            #"{"t":10.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"MobileviewToMobileHTMLConverter"}"#,
            #"{"t":10.000,"app":"com.example.gallery","event":"allowanceStarted","until":40.000}"#,
            #"{"t":35.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":40.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":40.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
        ])
    }

    @Test func withTheFixTheTaskEndsWhenTheLastArticleIsConverted() throws {
        let lines = try Self.lines(fixed: true)
        #expect(Array(lines.suffix(4)) == [
            #"{"t":10.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"MobileviewToMobileHTMLConverter"}"#,
            #"{"t":10.000,"app":"com.example.gallery","event":"allowanceStarted","until":40.000}"#,
            #"{"t":14.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":14.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
