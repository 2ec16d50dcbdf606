// lock_ns: what the package's own lock costs against the standard library's `Mutex`, which it replaced.
#if canImport(Dispatch)
import Dispatch
#endif
import BackgroundBudget

/// The cost of one `withLock` that adds to a counter: `LockedValue` (a `pthread_mutex_t`, or an
/// `os_unfair_lock` on Apple platforms) against `Synchronization.Mutex`, uncontended on one thread and
/// with two threads taking turns on the same lock.
struct LockBenchmark: Benchmark {
    var figureNames: [String] { ["lock_uncontended_ns", "lock_contended_2_threads_ns"] }

    func run() -> [Figure] {
        guard let mutex = MutexBaseline.make() else {
            return [Figure(name: "lock_uncontended_ns", value: uncontended(LockedValue(0)), note: "no Mutex on this system")]
        }
        let ours = uncontended(LockedValue(0))
        let theirs = mutex.uncontended()
        let oursContended = contended(LockedValue(0))
        let theirsContended = mutex.contended()
        return [
            Figure(name: "lock_uncontended_ns", value: ours, unit: "ns", baseline: "Synchronization.Mutex", baselineValue: theirs,
                   note: "withLock adding to a counter, one thread; median of 11 rounds of \(Self.operations), wall time"),
            Figure(name: "lock_contended_2_threads_ns", value: oursContended, unit: "ns", baseline: "Synchronization.Mutex",
                   baselineValue: theirsContended, note: "two threads taking turns; median of 5 rounds, wall time per withLock"),
        ]
    }

    static let operations = 2_000_000

    /// Median nanoseconds per `withLock` over 11 rounds.
    private func uncontended(_ lock: LockedValue<Int>) -> Double {
        Self.median(rounds: 11) {
            for _ in 0..<Self.operations { lock.withLock { $0 &+= 1 } }
        }
    }

    /// Median wall nanoseconds per `withLock` with two threads sharing the lock.
    private func contended(_ lock: LockedValue<Int>) -> Double {
        Self.median(rounds: 5) {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<Self.operations / 2 { lock.withLock { $0 &+= 1 } }
            }
        }
    }

    static func median(rounds: Int, _ body: () -> Void) -> Double {
        body()    // warm-up
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = nowNanoseconds()
            body()
            samples.append(Double(nowNanoseconds() - start) / Double(operations))
        }
        return BudgetBench.median(samples)
    }
}
