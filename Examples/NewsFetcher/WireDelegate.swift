import BackgroundBudget
import Foundation

/// Wire asks for fetches as often as the system allows and answers each from the feed: newData when
/// there are stories, noData when there are none, failed when the request times out without a network.
/// The system's fetch model learns from the answers.
final class WireDelegate: ApplicationDelegate {
    let feed: NewsFeed
    let clock: any BudgetClock
    let log = LockedValue<[LogLine]>([])

    init(feed: NewsFeed, clock: any BudgetClock) {
        self.feed = feed
        self.clock = clock
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        // Set at every launch, including a launch into the background for a fetch.
        application.setMinimumBackgroundFetchInterval(.minimum)
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        let started = clock.now
        switch feed.poll() {
        case .stories(let count):
            application.simulateWork(for: .seconds(4))
            log.withLock { $0.append(LogLine(time: started, text: "\(count) new")) }
            completionHandler(.newData)
        case .nothingNew:
            application.simulateWork(for: .seconds(1))
            log.withLock { $0.append(LogLine(time: started, text: "nothing")) }
            completionHandler(.noData)
        case .unreachable:
            application.simulateWork(for: .seconds(20))       // the request times out
            log.withLock { $0.append(LogLine(time: started, text: "failed")) }
            completionHandler(.failed)
        }
    }
}
