import BackgroundBudget
import Foundation

/// Daily Brief registers its two launch handlers while it finishes launching, keeps one refresh request
/// pending (submitted when it leaves the screen and again from every run), and rebuilds its search
/// index in a processing task once a day.
final class DailyDelegate: ApplicationDelegate {
    static let refreshID = "com.example.daily.refresh"
    static let rebuildID = "com.example.daily.rebuild-index"
    /// The rebuild needs nine minutes of work in all, in one run or several.
    static let rebuildWork: Duration = .seconds(540)

    let feed: NewsFeed
    let clock: any BudgetClock
    let refreshLog = LockedValue<[LogLine]>([])
    let rebuildLog = LockedValue<[LogLine]>([])
    /// The rebuild's checkpoint: work still to do. The process lives all day in this story, so memory
    /// is enough; a real app would save it (see StateStore).
    let rebuildLeft = LockedValue<Duration>(DailyDelegate.rebuildWork)
    /// Whether the user has had the app on screen since it last entered the background.
    let onScreen = LockedValue(false)

    init(feed: NewsFeed, clock: any BudgetClock) {
        self.feed = feed
        self.clock = clock
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        // Left over from before the move to BGTaskScheduler: with BGTaskSchedulerPermittedIdentifiers in
        // the manifest the app gets no legacy fetches, so this call changes nothing.
        application.setMinimumBackgroundFetchInterval(.minimum)

        application.register(forTaskWithIdentifier: Self.refreshID) { [self] task in
            refresh(task, application)
        }
        application.register(forTaskWithIdentifier: Self.rebuildID) { [self] task in
            rebuild(task, application)
        }
        if !application.pendingTaskRequests().contains(where: { $0.identifier == Self.rebuildID }) {
            submitRebuild(application, notBefore: nil)
        }
    }

    func applicationDidBecomeActive(_ application: Application) {
        onScreen.withLock { $0 = true }
    }

    func applicationDidEnterBackground(_ application: Application) {
        // The system also calls this when it wakes the suspended app for a task (see the Lifecycle rules
        // article); only a user leaving the app should move the next refresh an hour away.
        let userLeft = onScreen.withLock { onScreen in
            defer { onScreen = false }
            return onScreen
        }
        guard userLeft else { return }
        submitRefresh(application)
    }

    /// Asks for the next refresh, not before an hour from now.
    private func submitRefresh(_ application: Application) {
        do {
            try application.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh,
                                               earliestBeginDate: clock.now + .seconds(3_600)))
        } catch {
            refreshLog.withLock { $0.append(LogLine(time: clock.now, text: "submit refused: \(error.code)")) }
        }
    }

    private func submitRebuild(_ application: Application, notBefore: BudgetInstant?) {
        let request = TaskRequest(identifier: Self.rebuildID,
                                  kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: true),
                                  earliestBeginDate: notBefore)
        do {
            try application.submit(request)
        } catch {
            rebuildLog.withLock { $0.append(LogLine(time: clock.now, text: "submit refused: \(error.code)")) }
        }
    }

    /// The refresh task: schedule the next one first, then download the headlines. Without a network
    /// it waits for one, and completes unsuccessfully when the system expires it.
    private func refresh(_ task: ScheduledTask, _ application: Application) {
        submitRefresh(application)
        let started = clock.now
        task.expirationHandler = { [self] in
            refreshLog.withLock { $0.append(LogLine(time: started, text: "expired waiting for a network")) }
            task.setTaskCompleted(success: false)
        }
        switch feed.poll() {
        case .stories(let count):
            application.simulateWork(for: .seconds(3))
            refreshLog.withLock { $0.append(LogLine(time: started, text: "\(count) new")) }
            task.setTaskCompleted(success: true)
        case .nothingNew:
            application.simulateWork(for: .seconds(1))
            refreshLog.withLock { $0.append(LogLine(time: started, text: "nothing")) }
            task.setTaskCompleted(success: true)
        case .unreachable:
            break       // wait for a connection; the expiration handler ends the task
        }
    }

    /// The processing task: resume the rebuild where the last run stopped. The work runs on the clock
    /// (it does not block the app's queue), so the system can expire it part-way.
    private func rebuild(_ task: ScheduledTask, _ application: Application) {
        let started = clock.now
        let left = rebuildLeft.withLock { $0 }
        rebuildLog.withLock { $0.append(LogLine(time: started, text: "rebuilding, \(minutes(left)) min of work left")) }
        let done = clock.schedule(at: started + left) { [self] in
            rebuildLog.withLock {
                $0.append(LogLine(time: clock.now, text: "index rebuilt; the next rebuild is for tomorrow night"))
            }
            task.setTaskCompleted(success: true)
            rebuildLeft.withLock { $0 = Self.rebuildWork }
            submitRebuild(application, notBefore: clock.now + .seconds(20 * 3_600))
        }
        task.expirationHandler = { [self] in
            clock.cancel(done)
            let stillLeft = rebuildLeft.withLock { left in
                left -= clock.now - started
                return left
            }
            let text = "stopped at a checkpoint, \(minutes(stillLeft)) min left; resubmitted"
            rebuildLog.withLock { $0.append(LogLine(time: clock.now, text: text)) }
            task.setTaskCompleted(success: false)
            submitRebuild(application, notBefore: nil)
        }
    }
}

/// Whole minutes in a duration.
func minutes(_ duration: Duration) -> Int64 { duration.components.seconds / 60 }
