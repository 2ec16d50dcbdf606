import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget
import BudgetClock
import BackgroundBudgetCore

/// segmentio/analytics-swift#115: the expiration handler ran a copy of the upload's record taken
/// before its cleanup was set, so an upload that outlived the allowance never ended its task.
///
/// The destination keeps a small value record per upload: the task's identifier and a cleanup
/// closure that cancels the upload and ends the task. Before the fix, the record began the task in
/// its own initialiser with an expiration handler that captured the record itself, a value, at a
/// moment when the cleanup was still empty; the cleanup was filled in afterwards on the stored copy
/// only. The fix stopped capturing the record: the handler reaches the cleanup through a reference
/// that the record shares.
final class StaleCaptureUpload: ApplicationDelegate, ExplorerStateDescribing {
    /// Where the fixed record keeps its cleanup, so that the expiration handler sees it once set.
    final class CleanupSlot: Sendable {
        let cleanup = LockedValue<(@Sendable () -> Void)?>(nil)
    }

    /// What the destination keeps for one upload.
    struct UploadRecord: Sendable {
        var task = BackgroundTaskIdentifier.invalid
        var cleanup: (@Sendable () -> Void)?
        let slot = CleanupSlot()

        /// Before the fix: the handler is given the record as it is now, a copy without a cleanup.
        init(staleCaptureIn application: Application) {
            let snapshot = self
            task = application.beginBackgroundTask(withName: "segment-upload") { snapshot.cleanup?() }
        }

        /// The fix: the handler captures the shared slot, not the record.
        init(in application: Application) {
            let slot = slot
            task = application.beginBackgroundTask(withName: "segment-upload") { slot.cleanup.withLock { $0 }?() }
        }

        /// Sets the cleanup on the record and in its slot.
        mutating func setCleanup(_ cleanup: @escaping @Sendable () -> Void) {
            self.cleanup = cleanup
            slot.cleanup.withLock { $0 = cleanup }
        }
    }

    let fixed: Bool
    /// Uploads in flight, for the explorer's seen-set.
    let uploads = LockedValue(0)

    var explorerStateDescription: String {
        "\(uploads.withLock { $0 }) uploads in flight"
    }

    init(fixed: Bool) {
        self.fixed = fixed
    }

    /// Events are flushed when the app leaves the screen; on a slow network the upload takes 45 s.
    func applicationDidEnterBackground(_ application: Application) {
        var record = fixed ? UploadRecord(in: application) : UploadRecord(staleCaptureIn: application)
        let task = record.task
        let cancelled = LockedValue(false)
        uploads.withLock { $0 += 1 }
        record.setCleanup { [uploads] in
            cancelled.withLock { $0 = true }
            uploads.withLock { $0 -= 1 }
            application.endBackgroundTask(task)
        }
        application.runLater(after: .seconds(45)) { [uploads] in
            guard !cancelled.withLock({ $0 }) else { return }
            uploads.withLock { $0 -= 1 }
            application.endBackgroundTask(task)
        }
    }

    static let bug = GalleryBug(name: "segmentio/analytics-swift#115", make: { StaleCaptureUpload(fixed: $0) },
                                menu: Gallery.menu(), invariants: ExplorerInvariant.builtIn,
                                invariant: "noKillWithOpenTask", minimal: Gallery.openHomeWait30)
}

@Suite struct StaleCaptureUploadTests {
    /// The app's trace, before the fix or with it, for the steps both tests take.
    static func lines(fixed: Bool) throws -> [String] {
        try Gallery.trace(of: StaleCaptureUpload(fixed: fixed)) { system, _, clock in
            clock.advance(by: .seconds(2))
            try system.pressHome()
            clock.advance(by: .seconds(60))
        }
    }

    @Test func beforeTheFixTheExpirationHandlerEndsNothingAndTheAppIsKilledAtThirtySeconds() throws {
        let lines = try Self.lines(fixed: false)
        #expect(Array(lines.suffix(6)) == [
            #"{"t":2.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"segment-upload"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"allowanceStarted","until":32.000}"#,
            #"{"t":27.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":32.000,"app":"com.example.gallery","event":"exit","reason":"backgroundTaskExpired","code":"0x2182bad2"}"#,
            #"{"t":32.000,"app":"com.example.gallery","event":"stateChange","state":"notRunning","reason":"backgroundTaskExpired"}"#,
            // The upload still pending, which the end of the process drops.
            #"{"t":32.000,"app":"com.example.gallery","event":"workDropped","count":1}"#,
        ])
    }

    @Test func withTheFixTheHandlerCancelsTheUploadAndEndsTheTask() throws {
        let lines = try Self.lines(fixed: true)
        #expect(Array(lines.suffix(5)) == [
            #"{"t":2.000,"app":"com.example.gallery","event":"beginBackgroundTask","task":1,"name":"segment-upload"}"#,
            #"{"t":2.000,"app":"com.example.gallery","event":"allowanceStarted","until":32.000}"#,
            #"{"t":27.000,"app":"com.example.gallery","event":"expirationHandler","task":1}"#,
            #"{"t":27.000,"app":"com.example.gallery","event":"endBackgroundTask","task":1}"#,
            #"{"t":27.000,"app":"com.example.gallery","event":"stateChange","state":"suspended","reason":"backgroundTasksEnded"}"#,
        ])
    }
}
