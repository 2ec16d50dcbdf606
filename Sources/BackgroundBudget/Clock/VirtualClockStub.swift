import Synchronization
// TEMPORARY stand-in until the real VirtualClock lands; deleted on merge.
public final class VirtualClock: Sendable {
    private let time = Mutex(BudgetInstant.zero)
    public init(startingAt start: BudgetInstant = .zero) { time.withLock { $0 = start } }
    public var now: BudgetInstant { time.withLock { $0 } }
    @discardableResult public func advance(by duration: Duration) -> Int { time.withLock { $0 = $0 + duration }; return 0 }
}
public struct ScheduledWork: Hashable, Sendable {}
extension VirtualClock {
    public func schedule(at deadline: BudgetInstant, _ work: @escaping @Sendable () -> Void) -> ScheduledWork { fatalError() }
    public func cancel(_ work: ScheduledWork) -> Bool { false }
}
