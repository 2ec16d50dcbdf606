import BudgetLock
import BudgetTime
import Dispatch
import Testing
@testable import BudgetClock
import TestSupport

/// The real-time clock against the wall: lenient about lateness, strict about order and about
/// never running early. Each test waits on a semaphore with a timeout.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct DispatchClockTests {
    /// Every test ends by proving nothing is left pending, and stops the clock.
    private func expectIdleAndShutDown(_ clock: DispatchClock, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(clock.pendingCount == 0, sourceLocation: sourceLocation)
        #expect(clock.nextDeadline == nil, sourceLocation: sourceLocation)
        #expect(clock.shutdown() == 0, sourceLocation: sourceLocation)
    }

    /// 200 deadlines over 200 ms on a 2 ms grid, so many are shared (the timer re-arms between
    /// them); and 6,000 on a 20 µs grid, so that the clock fires by spinning as well as by the timer
    /// with a zero leeway; the same again with the default leeway, which never spins. The first
    /// deadline is far enough out that all are scheduled before it, even under ThreadSanitizer.
    @Test(arguments: [(200, 2_000_000, 0), (6_000, 20_000, 0), (6_000, 20_000, 50)] as [(Int, Int64, Int)])
    func runsEveryItemAtOrAfterItsDeadlineInDeadlineThenSchedulingOrder(count: Int, grid: Int64, leewayMicroseconds: Int) {
        // Expected order: by deadline, then by scheduling order among equal deadlines.
        var random = SplitMix64(seed: 7)
        let lead: Int64 = count > 1_000 ? 600_000_000 : 20_000_000
        let deadlines = (0..<count).map { _ in
            BudgetInstant(nanoseconds: lead + grid * random.next(in: 0...(200_000_000 / grid)))
        }
        let expected = deadlines.indices.sorted { (deadlines[$0], $0) < (deadlines[$1], $1) }

        let clock = DispatchClock(leeway: .microseconds(leewayMicroseconds))
        let log = TestLog<(index: Int, ranAt: BudgetInstant)>()
        let finished = DispatchSemaphore(value: 0)
        let remaining = LockedValue(count)
        for (index, deadline) in deadlines.enumerated() {
            clock.schedule(at: deadline) {
                dispatchPrecondition(condition: .onQueue(clock.queue))
                log.append((index, clock.now))
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { finished.signal() }
            }
        }
        #expect(clock.pendingCount == count)
        #expect(finished.wait(timeout: .now() + .seconds(3)) == .success)
        // A clock with a leeway never spins. Whether a zero-leeway clock spins depends on how late its
        // thread wakes (under a loaded machine or a sanitizer it may never be within the spin window):
        // DispatchClockStateTests checks that choice exactly.
        if count > 1_000, leewayMicroseconds != 0 {
            #expect(clock.spins == 0)
        }
        #if os(Linux)
        // The firing set its thread's timer slack while it lasted, and put it back: the queue's next
        // block (usually on the same thread) sees the default again.
        #expect(clock.queue.sync { TimerSlack.current } != 1)
        #endif

        #expect(log.entries.map(\.index) == expected)
        let early = log.entries.filter { $0.ranAt < deadlines[$0.index] }
        #expect(early.isEmpty, "ran before their deadlines: \(early)")
        expectIdleAndShutDown(clock)
    }

    @Test func cancelledWorkNeverRuns() {
        // Expected: ["kept", "last"]; "cancelled" and "cancelled-by-work" never run.
        let clock = DispatchClock()
        let log = TestLog<String>()
        let finished = DispatchSemaphore(value: 0)
        let victim = LockedValue<ScheduledWork?>(nil)
        let cancelled = clock.schedule(after: .milliseconds(20)) { log.append("cancelled") }
        let sharedDeadline = clock.now + .milliseconds(40)
        clock.schedule(at: sharedDeadline) {
            log.append("kept")
            // Work may cancel work due at the same instant that has not started.
            log.append(clock.cancel(victim.withLock { $0! }) ? "cancelled-at-same-instant" : "too-late")
        }
        victim.withLock { $0 = clock.schedule(at: sharedDeadline) { log.append("cancelled-by-work") } }
        let last = clock.schedule(after: .milliseconds(60)) {
            log.append("last")
            finished.signal()
        }
        #expect(clock.cancel(cancelled))
        #expect(!clock.cancel(cancelled))
        #expect(!VirtualClock().cancel(last), "a handle from one clock cancels nothing on another")

        #expect(finished.wait(timeout: .now() + .seconds(1)) == .success)
        #expect(log.entries == ["kept", "cancelled-at-same-instant", "last"])
        #expect(!clock.cancel(last), "finished work cannot be cancelled")
        expectIdleAndShutDown(clock)
    }

    @Test func workScheduledBeforeTheEarliestDeadlineRearmsTheTimer() {
        // Expected: "soon" runs about 20 ms in, long before the 30 s item the timer was armed for.
        let clock = DispatchClock()
        let finished = DispatchSemaphore(value: 0)
        let ranAt = LockedValue<BudgetInstant?>(nil)
        let far = clock.schedule(after: .seconds(30)) { Issue.record("the 30 s item ran") }
        let soon = clock.now + .milliseconds(20)
        clock.schedule(at: soon) {
            ranAt.withLock { $0 = clock.now }
            finished.signal()
        }
        #expect(clock.nextDeadline == soon)

        #expect(finished.wait(timeout: .now() + .milliseconds(500)) == .success)
        let lateness = ranAt.withLock { $0 }.map { $0 - soon }
        #expect(lateness.map { $0 >= .zero && $0 < .milliseconds(400) } == true, "lateness \(String(describing: lateness))")
        #expect(clock.cancel(far))
        expectIdleAndShutDown(clock)
    }

    @Test func shutdownDropsPendingWorkAndRefusesNewWork() {
        // Expected: nothing runs; shutdown reports the 10 items it dropped.
        let clock = DispatchClock()
        let ran = LockedValue(0)
        let released = DispatchSemaphore(value: 0)
        for _ in 0..<10 {
            let token = ReleaseSignal(released)
            clock.schedule(after: .milliseconds(30)) { _ = token; ran.withLock { $0 += 1 } }
        }
        #expect(clock.shutdown() == 10)
        #expect(clock.isShutDown)
        for _ in 0..<10 {
            #expect(released.wait(timeout: .now() + .seconds(1)) == .success, "dropped work is released")
        }
        let late = clock.schedule(after: .zero) { ran.withLock { $0 += 1 } }
        #expect(!clock.cancel(late), "work scheduled after shutdown is never pending")

        // Wait past the dropped deadlines: nothing may run.
        #expect(DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(80)) == .timedOut)
        #expect(ran.withLock { $0 } == 0)
        #expect(clock.shutdown() == 0, "a second shutdown does nothing")
        #expect(clock.pendingCount == 0)
    }

    @Test func releasingTheClockReleasesPendingWorkAndSimulateWorkBlocks() {
        // Expected: simulateWork(for: 20 ms) returns no earlier than 20 ms later; a released clock
        // releases its pending work without running it.
        let released = DispatchSemaphore(value: 0)
        weak var weakClock: DispatchClock?
        do {
            let clock = DispatchClock()
            weakClock = clock
            let start = clock.now
            clock.simulateWork(for: .milliseconds(20))
            #expect(clock.now - start >= .milliseconds(20))
            let token = ReleaseSignal(released)
            clock.schedule(after: .seconds(30)) { _ = token; Issue.record("work of a released clock ran") }
            #expect(clock.pendingCount == 1)
        }
        #expect(weakClock == nil, "the timer does not keep the clock alive")
        #expect(released.wait(timeout: .now() + .seconds(1)) == .success)
    }
}

/// Signals a semaphore when released, to prove a closure that captured it was released.
private final class ReleaseSignal: Sendable {
    private let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
    deinit { semaphore.signal() }
}
