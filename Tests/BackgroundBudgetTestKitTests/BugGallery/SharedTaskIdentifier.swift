import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// firebase/firebase-ios-sdk#3625, fixed by firebase/firebase-ios-sdk#3627: event storage began a
/// background task for every event it wrote and kept the identifier in one field, so a second write
/// overwrote the first task's identifier; both writes then ended the second task, and the first
/// was never ended ("Can't end BackgroundTask: no background task exists with identifier …").
///
/// The analytics library stores an event each time the app becomes active and each time it leaves
/// the screen; a write takes 1 s. When the user leaves within a second of opening the app, the two
/// writes overlap. The fix manages the field: a task is begun only when none is held, it is ended
/// when the last pending write is done, and the field is reset to `.invalid` once it is.
final class SharedTaskIdentifier: ApplicationDelegate, ExplorerStateDescribing {
    struct Storage {
        var task = BackgroundTaskIdentifier.invalid
        var pendingWrites = 0
    }

    let fixed: Bool
    let storage = LockedValue(Storage())

    init(fixed: Bool) {
        self.fixed = fixed
    }

    var explorerStateDescription: String {
        storage.withLock { "task \($0.task.rawValue), \($0.pendingWrites) writes pending" }
    }

    func applicationDidBecomeActive(_ application: Application) { store(in: application) }

    func applicationDidEnterBackground(_ application: Application) { store(in: application) }

    private func store(in application: Application) {
        if fixed {
            let held = storage.withLock { $0.task != .invalid }
            let task = held ? BackgroundTaskIdentifier.invalid : application.beginBackgroundTask(withName: "GDTStorage")
            storage.withLock { storage in
                if !held { storage.task = task }
                storage.pendingWrites += 1
            }
        } else {
            let task = application.beginBackgroundTask(withName: "GDTStorage")
            storage.withLock { $0.task = task }
        }
        application.runLater(after: .seconds(1)) { [fixed, storage] in
            if fixed {
                let done = storage.withLock { storage -> BackgroundTaskIdentifier? in
                    storage.pendingWrites -= 1
                    guard storage.pendingWrites == 0, storage.task != .invalid else { return nil }
                    defer { storage.task = .invalid }
                    return storage.task
                }
                if let done { application.endBackgroundTask(done) }
            } else {
                application.endBackgroundTask(storage.withLock { $0.task })
            }
        }
    }

    /// The built-in invariants with `everyTaskEndsOnce` first: a wait in which the second end is
    /// ignored and the leaked task gets the app killed breaks both, and the first listed names it.
    static let endsOnceFirst: [ExplorerInvariant] = [.everyTaskEndsOnce]
        + ExplorerInvariant.builtIn.filter { $0.name != ExplorerInvariant.everyTaskEndsOnce.name }

    static let bug = GalleryBug(name: "firebase/firebase-ios-sdk#3625", make: { SharedTaskIdentifier(fixed: $0) },
                                menu: Gallery.menu(), invariants: endsOnceFirst, invariant: "everyTaskEndsOnce",
                                minimal: [.act(.open(Gallery.app)), .act(.home), .wait(.seconds(1))])
}

@Suite struct SharedTaskIdentifierTests {
    /// The app's trace, before the fix or with it, for the steps both tests take.
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: SharedTaskIdentifier(fixed: fixed)) { system, _, clock in
            clock.advance(by: .milliseconds(500))
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTwoOverlappingWritesEndTheSecondTaskTwiceAndLeakTheFirst() throws {
        let lines = try Self.lines(fixed: false)
        #expect(lines.filter { $0.contains(#""event":"beginBackgroundTask""#) } == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"GDTStorage"}"#,
            #"{"t":0.500,"app":"com.example.gallery","event":"beginBackgroundTask","task":2,"name":"GDTStorage"}"#,
        ])
        #expect(lines.filter { !$0.contains(#""event":"application"#) }.suffix(8) == [
            #"{"t":0.500,"app":"com.example.gallery","event":"stateChange","state":"background","reason":"pressHome"}"#,
            #"{"t":0.500,"app":"com.example.gallery","event":"allowanceStarted","until":30.500}"#,
            #"{"t":0.500,"app":"com.example.gallery","event":"beginBackgroundTask","task":2,"name":"GDTStorage"}"#,
            #"{"t":1.000,"app":"com.example.gallery","event":"endBackgroundTask","task":2}"#,
            #"{"t":1.500,"app":"com.example.gallery","event":"endBackgroundTaskIgnored","task":2,"reason":"alreadyEnded"}"#,
            #"{"t":25.500,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":30.500,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":30.500,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
        ])
    }

    @Test func withTheFixTheOverlappingWritesShareOneTaskEndedOnce() throws {
        let lines = try Self.lines(fixed: true)
        #expect(lines.filter { $0.contains(#""event":"beginBackgroundTask""#) } == [
            #"{"t":0.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"GDTStorage"}"#,
        ])
        #expect(lines.filter { !$0.contains(#""event":"application"#) }.suffix(5) == [
            #"{"t":0.500,"app":"com.example.gallery","event":"stateChange","state":"inactive","reason":"pressHome"}"#,
            #"{"t":0.500,"app":"com.example.gallery","event":"stateChange","state":"background","reason":"pressHome"}"#,
            #"{"t":0.500,"app":"com.example.gallery","event":"allowanceStarted","until":30.500}"#,
            #"{"t":1.500,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":1.500,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
