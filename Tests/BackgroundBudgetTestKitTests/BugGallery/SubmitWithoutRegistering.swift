import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// mozilla-mobile/firefox-ios#19031, fixed by mozilla-mobile/firefox-ios#19054: a background utility
/// registered its `BGTaskScheduler` launch handler in its set-up, at launch, only when a feature was
/// on, and submitted its processing request each time the app went to the background when the
/// feature was on. A feature switched on after launch (an experiment the user was enrolled in) made
/// the app submit with no handler registered in the process: `BGTaskScheduler` raised
/// `NSInternalInconsistencyException` inside the submit and the app crashed (`EXC_CRASH (SIGABRT)`)
/// as it left the screen. The fix remembers whether the set-up registered the handler and submits
/// only then.
///
/// The port: the feature is off at the first launch and switched on as the app becomes active; the
/// switch is kept across launches, as the app's settings are. With the handler registered (a later
/// launch with the feature on) the request is submitted, and waits for an idle, charging device.
final class SubmitWithoutRegistering: ApplicationDelegate, ExplorerStateDescribing {
    static let identifier = "com.example.gallery.suggest.ingest"

    let fixed: Bool
    /// The feature's switch, kept across launches.
    let featureEnabled = LockedValue(false)
    /// Whether the current process registered the handler (the fix's flag).
    let didRegisterTaskHandler = LockedValue(false)

    init(fixed: Bool) {
        self.fixed = fixed
    }

    var explorerStateDescription: String {
        "feature \(featureEnabled.withLock { $0 }), registered \(didRegisterTaskHandler.withLock { $0 })"
    }

    /// The utility's set-up, run at launch.
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        didRegisterTaskHandler.withLock { $0 = false }
        guard featureEnabled.withLock({ $0 }) else { return }
        application.register(forTaskWithIdentifier: Self.identifier) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            application.simulateWork(for: .seconds(5))   // ingest the new suggestions
            task.setTaskCompleted(success: true)
        }
        didRegisterTaskHandler.withLock { $0 = true }
    }

    /// The experiment enrols the user once the app is on screen.
    func applicationDidBecomeActive(_ application: Application) {
        featureEnabled.withLock { $0 = true }
    }

    /// Schedules the ingestion as the app leaves the screen.
    func applicationDidEnterBackground(_ application: Application) {
        guard featureEnabled.withLock({ $0 }) else { return }
        if fixed, !didRegisterTaskHandler.withLock({ $0 }) { return }
        try? application.submit(TaskRequest(identifier: Self.identifier,
                                             kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: true)))
    }

    /// The gallery's app, permitted the identifier and the `processing` mode.
    static let scenario = """
        {"apps": [{"id": "com.example.gallery", "backgroundModes": ["processing"],
                   "permittedTaskIdentifiers": ["\(identifier)"]}], "events": []}
        """

    /// The gallery's entry: the built-in invariants (`noSelfInflictedExit` breaks) and the gallery's menu.
    static let bug = GalleryBug(name: "mozilla-mobile/firefox-ios#19031", make: { SubmitWithoutRegistering(fixed: $0) },
                                menu: Gallery.menu(), invariants: ExplorerInvariant.builtIn, invariant: "noSelfInflictedExit",
                                minimal: [.act(.open(Gallery.app)), .act(.home)], scenario: scenario)
}

@Suite struct SubmitWithoutRegisteringTests {
    static func lines(fixed: Bool) throws -> [String] {
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let manifest = AppManifest(id: Gallery.app, backgroundModes: [.processing],
                                   permittedTaskIdentifiers: [SubmitWithoutRegistering.identifier])
        let application = try system.install(manifest, delegate: SubmitWithoutRegistering(fixed: fixed))
        try system.open(application)
        clock.advance(by: .seconds(2))
        try system.pressHome()
        clock.advance(by: .seconds(60))
        return system.trace.events.filter { $0.app == Gallery.app && !$0.eventName.hasPrefix("application") }.map(\.jsonLine)
    }

    @Test func beforeTheFixTheAppCrashesInsideTheSubmitAsItLeavesTheScreen() throws {
        #expect(try Self.lines(fixed: false).suffix(6) == [
            #"{"t":2.000,"app":"com.example.gallery","event":"stateChange","state":"inactive","reason":"pressHome"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"stateChange","state":"background","reason":"pressHome"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"launchHandlerMissing","name":"com.example.gallery.suggest.ingest","#
                + #""message":"No launch handler registered for task with identifier com.example.gallery.suggest.ingest"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"exit","reason":"uncaughtException"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"killedMidCallback","name":"applicationDidEnterBackground"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"uncaughtException"}"#,
        ])
    }

    @Test func withTheFixNothingIsSubmittedUntilALaunchRegistersTheHandler() throws {
        let lines = try Self.lines(fixed: true)
        #expect(!lines.contains { $0.contains("launchHandlerMissing") || $0.contains(#""event":"exit""#) })
        #expect(lines.last == #"{"t":2.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"noBackgroundWork"}"#)
    }
}
