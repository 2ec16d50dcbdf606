import BackgroundBudget
import Foundation

/// A news server an app polls. It is not part of the app: a seeded generator decides how many new
/// stories it has — many in the morning, few at night — so every run is the same.
final class NewsFeed: Sendable {
    enum Answer: Sendable {
        case stories(Int)
        case nothingNew
        case unreachable
    }

    private let random: LockedValue<SplitMix64>
    private let clock: any BudgetClock
    private let isOnline: @Sendable () -> Bool

    /// - Parameters:
    ///   - seed: The seed of the server's news.
    ///   - clock: The clock whose time of day (t = 0 is midnight) makes the news busy or quiet.
    ///   - isOnline: Whether the phone has a connection (the apps' stand-in for a path monitor).
    init(seed: UInt64, clock: any BudgetClock, isOnline: @escaping @Sendable () -> Bool) {
        random = LockedValue(SplitMix64(seed: seed))
        self.clock = clock
        self.isOnline = isOnline
    }

    /// What a poll finds now.
    func poll() -> Answer {
        guard isOnline() else { return .unreachable }
        let hour = Int(clock.now.seconds) / 3600 % 24
        let percent: UInt64 = switch hour {
        case 0..<6: 5       // night
        case 6..<10: 90     // the morning rush
        case 10..<18: 60
        default: 40
        }
        return random.withLock { random in
            random.next(below: 100) < percent ? .stories(1 + Int(random.next(below: 5))) : .nothingNew
        }
    }
}

/// A line an app writes to its own log.
struct LogLine: Sendable {
    var time: BudgetInstant
    var text: String
}
