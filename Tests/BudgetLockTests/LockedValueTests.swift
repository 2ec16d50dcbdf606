#if canImport(Dispatch)
import Dispatch
#endif
import Foundation
import Testing
import BudgetLock

@Suite struct LockedValueTests {
    /// Eight threads add under the lock; not one increment may be lost. Under ThreadSanitizer (which
    /// `.ci/run` runs this suite with) the run must also be free of reports: the lock's ordering is
    /// one ThreadSanitizer can see.
    @Test func eightThreadsIncrementingLoseNothing() {
        let counter = LockedValue(0)
        let log = LockedValue<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<5_000 {
                counter.withLock { $0 += 1 }
            }
            log.withLock { $0.append(thread) }
        }
        #expect(counter.withLock { $0 } == 40_000)
        #expect(log.withLock { $0.sorted() } == Array(0..<8))
    }

    /// A throwing body rethrows its own error type, and the lock is free again afterwards.
    @Test func aThrowingBodyReleasesTheLock() {
        struct Refused: Error, Equatable {}
        let value = LockedValue("draft")
        #expect(throws: Refused.self) {
            try value.withLock { (text: inout String) throws(Refused) in
                text = "changed before the throw"
                throw Refused()
            }
        }
        // Taking the lock again would deadlock (or trap) if the throw had left it held.
        #expect(value.withLock { $0 } == "changed before the throw")
    }

    /// The value is released with the lock, not kept alive by it.
    @Test func theValueIsReleasedWithTheLock() {
        final class Token: Sendable {
            let released: LockedValue<Bool>
            init(_ released: LockedValue<Bool>) { self.released = released }
            deinit { released.withLock { $0 = true } }
        }
        let released = LockedValue(false)
        do {
            let locked = LockedValue<Token?>(Token(released))
            #expect(locked.withLock { $0 != nil })
        }
        #expect(released.withLock { $0 })
    }
}

/// A deliberate data race, to show that ThreadSanitizer catches one in this package's tests.
///
/// It runs only when `BGBUDGET_PLANTED_RACE=1`; `.ci/run` runs it under `--sanitize=thread` and
/// requires the run to fail with a ThreadSanitizer data-race report.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["BGBUDGET_PLANTED_RACE"] == "1",
                "a planted race for the ThreadSanitizer check in .ci/run"))
struct PlantedRaceTests {
    /// Not safe, on purpose: `value` is written from two threads with no lock. The `@unchecked` is
    /// the race this suite plants, and nothing else uses the type.
    final class UnguardedCounter: @unchecked Sendable {
        var value = 0
    }

    @Test func twoThreadsWriteAPlainPropertyWithoutALock() {
        // Two threads of their own (a dispatch pool might run both loops on one thread, which is no
        // race); the semaphores only say when both are done.
        let counter = UnguardedCounter()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                for _ in 0..<1_000 { counter.value += 1 }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        #expect(counter.value > 0)
    }
}
