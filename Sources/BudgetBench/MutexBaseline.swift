#if canImport(Dispatch)
import Dispatch
#endif
import Synchronization

/// `Synchronization.Mutex`, where the system has it.
struct MutexBaseline {
    let uncontended: () -> Double
    let contended: () -> Double

    static func make() -> MutexBaseline? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return MutexBaseline(
            uncontended: {
                let mutex = Mutex(0)
                return LockBenchmark.median(rounds: 11) {
                    for _ in 0..<LockBenchmark.operations { mutex.withLock { $0 &+= 1 } }
                }
            },
            contended: {
                let box = MutexBox()
                return LockBenchmark.median(rounds: 5) {
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        for _ in 0..<LockBenchmark.operations / 2 { box.mutex.withLock { $0 &+= 1 } }
                    }
                }
            })
    }
}
