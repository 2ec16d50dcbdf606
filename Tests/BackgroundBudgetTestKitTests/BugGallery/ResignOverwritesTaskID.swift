import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// WalletConnect/WalletConnectSwiftV2#456 ("App gets terminated because of unbalanced calls of
/// beginBackgroundTask and endBackgroundTask"): the relay SDK, which owns no app delegate, observed
/// `UIApplication.willResignActiveNotification` and began a "Finish Network Tasks" background task
/// each time, keeping its identifier in one field that only the task's expiration handler ended. A
/// second resign before the expiry overwrote the first identifier: at the expiry both handlers ended
/// the second task, the first was never ended, and iOS terminated the app.
///
/// The first fix, WalletConnect/WalletConnectSwiftV2#458, ended the held task on
/// `willEnterForegroundNotification`; it still leaks when the second resign comes with no return to the
/// foreground between: a call answered after an alert resigned the app. The second,
/// WalletConnect/WalletConnectSwiftV2#467 (the `fixed` version here), ends the held task before
/// beginning the next. The classes keep the SDK's shape (`AppStateObserver`,
/// `AutomaticSocketConnectionHandler`, `BackgroundTaskRegistrar`); what differs is the injected
/// application for `UIApplication.shared` and `NotificationCenter.default`, and the locks Swift 6
/// asks of state that `@Sendable` blocks touch.
final class ResignOverwritesTaskID: ApplicationDelegate, ExplorerStateDescribing {
    /// The SDK's code before any fix, after #458, or after #467.
    enum Version: Sendable { case original, pr458, pr467 }

    let version: Version
    let handler = LockedValue<AutomaticSocketConnectionHandler?>(nil)

    init(_ version: Version) {
        self.version = version
    }

    var explorerStateDescription: String {
        handler.withLock { $0.map { "task \($0.backgroundTaskRegistrar.backgroundTaskID.withLock { $0.rawValue })" } ?? "no relay" }
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        let made = AutomaticSocketConnectionHandler(socket: WebSocket(),
                                                    appStateObserver: AppStateObserver(application: application),
                                                    backgroundTaskRegistrar: BackgroundTaskRegistrar(application: application, version: version))
        handler.withLock { $0 = made }
    }

    /// The gallery's menu without the interruptions: Home is the resign every user makes. With an
    /// answered call on the menu the bug has two minimal sequences (open, alert, answer, wait; and
    /// open, Home, open, Home, wait), and a walk may shrink to either; the call is the hand test's.
    static let menu: ExplorerMenu = {
        do {
            return try ExplorerMenu([
                .init(.act(.open(Gallery.app)), weight: 4), .init(.act(.home), weight: 4), .init(.act(.purge(Gallery.app))),
                .init(.wait(.seconds(1)), weight: 2), .init(.wait(.seconds(10)), weight: 2), .init(.wait(.seconds(40)), weight: 2),
            ])
        } catch {
            preconditionFailure("the menu is valid: \(error)")
        }
    }()

    static let bug = GalleryBug(name: "WalletConnect/WalletConnectSwiftV2#456", make: { ResignOverwritesTaskID($0 ? .pr467 : .original) },
                                menu: menu, invariants: ExplorerInvariant.builtIn, invariant: "noKillWithOpenTask",
                                minimal: [.act(.open(Gallery.app)), .act(.home), .act(.open(Gallery.app)), .act(.home), .wait(.seconds(30))])
}

/// The web socket the relay connects and disconnects: no network in the model, only its state.
final class WebSocket: Sendable {
    let isConnected = LockedValue(false)
    func connect() { isConnected.withLock { $0 = true } }
    func disconnect() { isConnected.withLock { $0 = false } }
}

final class AppStateObserver: Sendable {
    let onWillEnterForeground = LockedValue<(@Sendable () -> Void)?>(nil)
    let onWillEnterBackground = LockedValue<(@Sendable () -> Void)?>(nil)
    let application: Application

    init(application: Application) {
        self.application = application
        subscribeNotificationCenter()
    }

    private func subscribeNotificationCenter() {
        application.notificationCenter.addObserver(forName: Application.willEnterForegroundNotification, object: nil, queue: nil) { [unowned self] _ in
            appWillEnterForeground()
        }
        application.notificationCenter.addObserver(forName: Application.willResignActiveNotification, object: nil, queue: nil) { [unowned self] _ in
            appWillEnterBackground()
        }
    }

    private func appWillEnterBackground() {
        onWillEnterBackground.withLock { $0 }?()
    }

    private func appWillEnterForeground() {
        onWillEnterForeground.withLock { $0 }?()
    }
}

final class AutomaticSocketConnectionHandler: Sendable {
    let socket: WebSocket
    let appStateObserver: AppStateObserver
    let backgroundTaskRegistrar: BackgroundTaskRegistrar

    init(socket: WebSocket, appStateObserver: AppStateObserver, backgroundTaskRegistrar: BackgroundTaskRegistrar) {
        self.socket = socket
        self.appStateObserver = appStateObserver
        self.backgroundTaskRegistrar = backgroundTaskRegistrar
        setUpStateObserving()
        socket.connect()
    }

    private func setUpStateObserving() {
        appStateObserver.onWillEnterBackground.withLock { $0 = { [unowned self] in
            registerBackgroundTask()
        } }
        appStateObserver.onWillEnterForeground.withLock { $0 = { [unowned self] in
            if backgroundTaskRegistrar.version == .pr458 { backgroundTaskRegistrar.invalidate() }
            socket.connect()
        } }
    }

    func registerBackgroundTask() {
        backgroundTaskRegistrar.register(name: "Finish Network Tasks") { [unowned self] in
            endBackgroundTask()
        }
    }

    func endBackgroundTask() {
        socket.disconnect()
    }
}

final class BackgroundTaskRegistrar: Sendable {
    let backgroundTaskID = LockedValue(BackgroundTaskIdentifier.invalid)
    let application: Application
    let version: ResignOverwritesTaskID.Version

    init(application: Application, version: ResignOverwritesTaskID.Version) {
        self.application = application
        self.version = version
    }

    func register(name: String, completion: @escaping @Sendable () -> Void) {
        if version == .pr467 {
            invalidate()
        } else {
            backgroundTaskID.withLock { $0 = .invalid }
        }
        let id = application.beginBackgroundTask(withName: name) { [unowned self] in
            application.endBackgroundTask(backgroundTaskID.withLock { $0 })
            backgroundTaskID.withLock { $0 = .invalid }
            completion()
        }
        backgroundTaskID.withLock { $0 = id }
    }

    /// `invalidate()` (#458) and `invalidateIfNeeded()` (#467).
    func invalidate() {
        let held = backgroundTaskID.withLock { $0 }
        if held != .invalid {
            application.endBackgroundTask(held)
            backgroundTaskID.withLock { $0 = .invalid }
        }
    }
}

@Suite struct ResignOverwritesTaskIDTests {
    /// The app's trace for a version: an alert resigns the app at 5 s, the user answers the call at 6 s
    /// (the app becomes active, resigns again and goes to the background), then 60 s pass.
    static func answeredCall(_ version: ResignOverwritesTaskID.Version) throws -> [String] {
        try Gallery.trace(of: ResignOverwritesTaskID(version)) { system, _, clock in
            clock.advance(to: .seconds(5))
            try system.beginInterruption()
            clock.advance(to: .seconds(6))
            try system.answerInterruption()
            clock.advance(by: .seconds(60))
        }
    }

    /// The lines that show the tasks, the observers and the end.
    static func tasks(_ lines: [String]) -> [String] {
        let names = ["beginBackgroundTask", "endBackgroundTask", "expirationHandler", "exit", "notificationObserved", "suspended"]
        return lines.filter { line in names.contains { line.contains($0) } }
    }

    @Test func beforeAnyFixTheSecondResignOverwritesTheFirstTaskWhichLeaksAndGetsTheAppKilled() throws {
        let lines = Self.tasks(try Self.answeredCall(.original))
        #expect(lines == [
            #"{"t":5.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"Finish Network Tasks"}"#,
            #"{"t":5.000,"app":"com.example.gallery","event":"notificationObserved","name":"UIApplicationWillResignActiveNotification","count":1}"#,
            #"{"t":6.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":2,"name":"Finish Network Tasks"}"#,
            #"{"t":6.000,"app":"com.example.gallery","event":"notificationObserved","name":"UIApplicationWillResignActiveNotification","count":1}"#,
            // The allowance runs out 30 s after the app entered the background at 6 s: both handlers end
            // the second task (the first finds it ended, as the upstream log's unbalanced calls), and the
            // first task, never ended, gets the app killed.
            #"{"t":31.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":31.000,"app":"com.example.gallery","event":"expirationHandler","task":2}"#,
            #"{"t":31.000,"app":"com.example.gallery","event":"endBackgroundTask","task":2}"#,
            #"{"t":31.000,"app":"com.example.gallery","event":"endBackgroundTaskIgnored","task":0,"reason":"invalidIdentifier"}"#,
            #"{"t":36.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
        ], "\(lines.joined(separator: "\n"))")
    }

    /// The explorer's minimal sequence (Home twice) and the answered call, on the code after #458: the
    /// first passes, as the return to the foreground ends the held task; the second still fails.
    @Test func theFirstFixPassesHomeTwiceButTheExplorerStillFindsTheAnsweredCall() throws {
        let target = try ExplorerTarget(json: Gallery.scenario, delegates: [Gallery.app: { ResignOverwritesTaskID(.pr458) }])
        let explorer = try Explorer(target: target, invariants: ExplorerInvariant.builtIn, menu: Gallery.menu())
        #expect(explorer.firstViolation(in: ResignOverwritesTaskID.bug.minimal) == nil)
        let call: [ExplorerEvent] = [.act(.open(Gallery.app)), .act(.beginInterruption), .act(.answerInterruption), .wait(.seconds(30))]
        #expect(explorer.firstViolation(in: call)?.invariant == "noKillWithOpenTask")
        let found = explorer.exhaustive(depth: 4)
        #expect(found.failures.map(\.events) == [call], "\(found)")
    }

    @Test func theFirstFixStillLeaksOnAnAnsweredCallWhichNeverEntersTheForeground() throws {
        let lines = Self.tasks(try Self.answeredCall(.pr458))
        #expect(lines.last?.contains(#""event":"exit""#) == true, "\(lines)")
    }

    @Test func theSecondFixEndsTheHeldTaskBeforeBeginningTheNext() throws {
        let lines = Self.tasks(try Self.answeredCall(.pr467))
        #expect(lines.contains(#"{"t":6.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#), "\(lines)")
        #expect(!lines.contains { $0.contains(#""event":"exit""#) }, "\(lines)")
    }
}
