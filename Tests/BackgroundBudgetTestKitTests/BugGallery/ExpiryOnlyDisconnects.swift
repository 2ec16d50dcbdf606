import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock

/// GetStream/stream-chat-swift#877: the chat client kept its web socket open in the background under
/// one background task, begun through its `IOSBackgroundTaskScheduler` when the app left the screen.
/// The task's expiration handler disconnected the socket and did not end the task (in v2 the
/// disconnect had ended it, implicitly), so every app that stayed in the background for the
/// allowance was terminated ("Background task still not ended after expiration handlers were
/// called"). The fix ends the task in the expiration handler, after the disconnect.
///
/// Written in the upstream shape against the application seam: the scheduler holds the one
/// `UIApplication` it is given (`BackgroundTaskApplication`) and the identifier of its one task; the
/// client begins the task when the app enters the background and ends it when the app becomes active
/// again. Only the application handed to the scheduler is the model's.
final class BackgroundTaskScheduler<App: BackgroundTaskApplication>: Sendable {
    private let app: App
    private let activeBackgroundTask = LockedValue<App.BackgroundTaskIdentifier?>(nil)

    init(app: App) {
        self.app = app
    }

    /// Begins the scheduler's one task; `false` when the system refuses it.
    func beginBackgroundTask(expirationHandler: (@MainActor @Sendable () -> Void)?) -> Bool {
        let identifier = app.beginBackgroundTask(withName: "StreamChat") { expirationHandler?() }
        activeBackgroundTask.withLock { $0 = identifier }
        return identifier != .invalid
    }

    func endBackgroundTask() {
        guard let identifier = activeBackgroundTask.withLock({ task in defer { task = nil }; return task }) else { return }
        app.endBackgroundTask(identifier)
    }

    var hasActiveTask: Bool { activeBackgroundTask.withLock { $0 != nil } }
}

/// The chat client's part: connected while active, and in the background for as long as the task lasts.
final class ChatClientBackgrounding<App: BackgroundTaskApplication>: Sendable {
    let fixed: Bool
    let backgroundTaskScheduler: BackgroundTaskScheduler<App>
    let connected = LockedValue(false)

    init(fixed: Bool, app: App) {
        self.fixed = fixed
        self.backgroundTaskScheduler = BackgroundTaskScheduler(app: app)
    }

    func handleAppDidEnterBackground() {
        let began = backgroundTaskScheduler.beginBackgroundTask { [self] in
            disconnect()
            if fixed { backgroundTaskScheduler.endBackgroundTask() }   // the fix
        }
        if !began { disconnect() }
    }

    func handleAppDidBecomeActive() {
        backgroundTaskScheduler.endBackgroundTask()
        connected.withLock { $0 = true }
    }

    func disconnect() { connected.withLock { $0 = false } }
}

/// The app: the chat client made at launch with the model's application.
final class ExpiryOnlyDisconnects: ApplicationDelegate, ExplorerStateDescribing {
    let fixed: Bool
    let client = LockedValue<ChatClientBackgrounding<Application>?>(nil)

    init(fixed: Bool) {
        self.fixed = fixed
    }

    var explorerStateDescription: String {
        guard let client = client.withLock({ $0 }) else { return "no client" }
        return "connected: \(client.connected.withLock { $0 }), task: \(client.backgroundTaskScheduler.hasActiveTask)"
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        client.withLock { $0 = ChatClientBackgrounding(fixed: fixed, app: application) }
    }

    func applicationDidBecomeActive(_ application: Application) {
        client.withLock { $0 }?.handleAppDidBecomeActive()
    }

    func applicationDidEnterBackground(_ application: Application) {
        client.withLock { $0 }?.handleAppDidEnterBackground()
    }

    static let bug = GalleryBug(name: "GetStream/stream-chat-swift#877", make: { ExpiryOnlyDisconnects(fixed: $0) },
                                menu: Gallery.menu(), invariants: ExplorerInvariant.builtIn,
                                invariant: "noKillWithOpenTask", minimal: Gallery.openHomeWait30)
}

@Suite struct ExpiryOnlyDisconnectsTests {
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: ExpiryOnlyDisconnects(fixed: fixed)) { system, _, clock in
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheExpirationHandlerDisconnectsAndTheAppIsTerminated() throws {
        #expect(try Array(Self.lines(fixed: false).suffix(5)) == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"StreamChat"}"#,
            #"{"t":0.000,"app":"com.example.gallery","event":"allowanceStarted","until":30.000}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":30.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":30.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
        ])
    }

    @Test func withTheFixTheTaskEndsInTheExpirationHandler() throws {
        #expect(try Array(Self.lines(fixed: true).suffix(3)) == [
            #"{"t":25.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":25.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
