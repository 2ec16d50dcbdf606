import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// `BGTaskScheduler` with no launch handler for an identifier: `NSInternalInconsistencyException`
/// ("No launch handler registered for task with identifier …") at the submit [S105][S106], and at the
/// launch of a pending request [S107], under ``BudgetPolicy/crashesWithoutLaunchHandler``.
@Suite struct LaunchHandlerRuleTests {
    static let ingest = "org.example.browser.suggest.ingest"

    /// Registers the handler at launch only while `registers` is on; submits a processing request in
    /// `applicationDidEnterBackground`, then records that the code after the submit ran.
    final class Ingest: ApplicationDelegate {
        let registers: LockedValue<Bool>
        let submits = LockedValue(true)
        let afterSubmit = TestLog<BudgetInstant>()
        let runs = TestLog<BudgetInstant>()

        init(registers: Bool) { self.registers = LockedValue(registers) }

        func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
            guard registers.withLock({ $0 }) else { return }
            application.register(forTaskWithIdentifier: LaunchHandlerRuleTests.ingest) { [runs] task in
                runs.append(application.system!.clock.now)
                task.setTaskCompleted(success: true)
            }
        }

        func applicationDidEnterBackground(_ application: Application) {
            guard submits.withLock({ $0 }) else { return }
            try? application.submit(TaskRequest(identifier: LaunchHandlerRuleTests.ingest,
                                                 kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false)))
            // Code that runs on after the crash changes nothing: the process has ended.
            afterSubmit.append(application.system!.clock.now)
            application.recordBackgroundTimeRemaining()
        }
    }

    let clock = VirtualClock()

    func install(_ system: BackgroundSystem, _ delegate: Ingest) throws -> Application {
        try system.install(AppManifest(id: "browser", backgroundModes: [.processing], permittedTaskIdentifiers: [Self.ingest]),
                           delegate: delegate)
    }

    func lines(_ system: BackgroundSystem) -> [String] {
        system.trace.events.filter { !$0.eventName.hasPrefix("application") }.map(\.jsonLine)
    }

    @Test func submittingWithoutAHandlerCrashesTheAppAtTheSubmit() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = Ingest(registers: false)
        let browser = try install(system, delegate)
        try system.open(browser)
        clock.advance(by: .seconds(3))
        try system.pressHome()
        #expect(lines(system).suffix(5) == [
            #"{"t":3.000,"app":"browser","event":"stateChange","state":"background","reason":"pressHome"}"#,
            #"{"t":3.000,"app":"browser","event":"launchHandlerMissing","name":"org.example.browser.suggest.ingest","#
                + #""message":"No launch handler registered for task with identifier org.example.browser.suggest.ingest"}"#,
            #"{"t":3.000,"app":"browser","event":"exit","reason":"uncaughtException"}"#,
            #"{"t":3.000,"app":"browser","event":"killedMidCallback","name":"applicationDidEnterBackground"}"#,
            #"{"t":3.000,"app":"browser","event":"stateChange","state":"notRunning","reason":"uncaughtException"}"#,
        ])
        #expect(system.trace.first(.taskSubmitted) == nil)
        // The code after the submit still ran, but its call reached no process.
        #expect(delegate.afterSubmit.entries == [.seconds(3)])
        #expect(system.trace.first(.backgroundTimeRemainingRead) == nil)
        #expect(browser.pendingTaskRequests().isEmpty)
        #expect(browser.applicationState == .notRunning)
    }

    @Test func submittingWithTheHandlerRegisteredIsAccepted() throws {
        let system = BackgroundSystem(clock: clock)
        let browser = try install(system, Ingest(registers: true))
        try system.open(browser)
        try system.pressHome()
        #expect(system.trace.first(.launchHandlerMissing) == nil)
        #expect(system.trace.events(of: .backgroundTimeRemainingRead).count == 1)
        #expect(browser.pendingTaskRequests().map(\.identifier) == [Self.ingest])
        #expect(browser.applicationState == .suspended)
    }

    @Test func aPendingRequestLaunchedIntoAProcessWithoutItsHandlerCrashesTheApp() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = Ingest(registers: true)
        let browser = try install(system, delegate)
        try system.open(browser)
        try system.pressHome()                      // submitted by a process that registered
        try system.purge(browser)
        // The next version registers and submits under another name.
        delegate.registers.withLock { $0 = false }
        delegate.submits.withLock { $0 = false }
        clock.advance(by: .seconds(10))
        system.setDeviceIdle(true)                  // the processing request launches the app
        #expect(lines(system).suffix(4) == [
            #"{"t":10.000,"app":"browser","event":"taskStarted","name":"org.example.browser.suggest.ingest"}"#,
            #"{"t":10.000,"app":"browser","event":"launchHandlerMissing","name":"org.example.browser.suggest.ingest","#
                + #""message":"No launch handler registered for task with identifier org.example.browser.suggest.ingest"}"#,
            #"{"t":10.000,"app":"browser","event":"exit","reason":"uncaughtException"}"#,
            #"{"t":10.000,"app":"browser","event":"stateChange","state":"notRunning","reason":"uncaughtException"}"#,
        ])
        #expect(delegate.runs.entries.isEmpty)
        #expect(browser.pendingTaskRequests().isEmpty)
    }

    @Test func beforeIOS15_4TheSubmitIsAcceptedAndTheLaunchDropsTheTask() throws {
        var policy = BudgetPolicy.iOS13
        policy.crashesWithoutLaunchHandler = false
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let delegate = Ingest(registers: false)
        let browser = try install(system, delegate)
        try system.open(browser)
        try system.pressHome()
        // A wake calls applicationDidEnterBackground again: submitting there on every wake would
        // run the dropped task again at the same instant, for ever.
        delegate.submits.withLock { $0 = false }
        system.setDeviceIdle(true)
        #expect(system.trace.first(.launchHandlerMissing) == nil)
        #expect(system.trace.events(of: .taskDropped).map(\.name) == [Self.ingest])
        #expect(browser.applicationState == .suspended)
    }

    @Test func thePolicyFieldReadsAsABoolean() throws {
        #expect(BudgetPolicy.presets.allSatisfy { $0.crashesWithoutLaunchHandler })
        #expect(try BudgetPolicy.iOS13.setting(.crashesWithoutLaunchHandler, to: 0).crashesWithoutLaunchHandler == false)
        #expect(throws: PolicyError.self) { try BudgetPolicy.iOS13.setting(.crashesWithoutLaunchHandler, to: 2) }
    }
}
