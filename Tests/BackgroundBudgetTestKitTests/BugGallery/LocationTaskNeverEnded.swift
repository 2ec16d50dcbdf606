import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock

/// OneSignal/OneSignal-iOS-SDK#1047, fixed by OneSignal/OneSignal-iOS-SDK#1049: the location module
/// began a background task when the app left the screen, to get the current location and send it,
/// and never ended it.
///
/// The location arrives after 1 s and is sent 1 s later; before the fix nothing ends the task, so
/// the app is held in the background until its allowance runs out and is then terminated. The fix
/// ends the task once the location is sent.
final class LocationTaskNeverEnded: ApplicationDelegate, ExplorerStateDescribing {
    let fixed: Bool
    /// Locations asked for and not sent yet, for the explorer's seen-set.
    let inFlight = LockedValue(0)

    var explorerStateDescription: String {
        "\(inFlight.withLock { $0 }) locations in flight"
    }

    init(fixed: Bool) {
        self.fixed = fixed
    }

    func applicationDidEnterBackground(_ application: Application) {
        let task = application.beginBackgroundTask(withName: "location")
        inFlight.withLock { $0 += 1 }
        application.runLater(after: .seconds(1)) { [fixed, inFlight] in // the current location arrives
            application.runLater(after: .seconds(1)) {                  // and is sent to the server
                inFlight.withLock { $0 -= 1 }
                if fixed { application.endBackgroundTask(task) }
            }
        }
    }

    static let bug = GalleryBug(name: "OneSignal/OneSignal-iOS-SDK#1047", make: { LocationTaskNeverEnded(fixed: $0) },
                                menu: Gallery.menu(), invariants: ExplorerInvariant.builtIn,
                                invariant: "noKillWithOpenTask", minimal: Gallery.openHomeWait30)
}

@Suite struct LocationTaskNeverEndedTests {
    /// The app's trace, before the fix or with it, for the steps both tests take.
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: LocationTaskNeverEnded(fixed: fixed)) { system, _, clock in
            clock.advance(by: .seconds(5))
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheTaskIsLeftOpenAndTheAppIsKilledThirtySecondsAfterHome() throws {
        let lines = try Self.lines(fixed: false)
        #expect(Array(lines.suffix(5)) == [
            #"{"t":5.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"location"}"#,
            #"{"t":5.000,"app":"com.example.gallery","event":"allowanceStarted","until":35.000}"#,
            #"{"t":30.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":35.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":35.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
        ])
    }

    @Test func withTheFixTheTaskEndsOnceTheLocationIsSent() throws {
        let lines = try Self.lines(fixed: true)
        #expect(Array(lines.suffix(4)) == [
            #"{"t":5.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"location"}"#,
            #"{"t":5.000,"app":"com.example.gallery","event":"allowanceStarted","until":35.000}"#,
            #"{"t":7.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":7.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
