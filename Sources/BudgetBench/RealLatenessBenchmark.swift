import BackgroundBudget
import Dispatch

/// How late real deadlines fire: n live deadlines spread uniformly over 3 s, all scheduled up front,
/// each recording the time it ran. The figure is the p99 of (ran − deadline) in milliseconds.
///
/// Measured on ``DispatchClock`` (one timer over a deadline heap) for 10,000 and 100,000 deadlines,
/// and, as the baseline in the same run, 100,000 deadlines with one `DispatchSourceTimer` each
/// (zero leeway, `.strict`, all on one serial queue, like the clock's).
struct RealLatenessBenchmark: Benchmark {
    var figureNames: [String] {
        ["real_p99_lateness_ms_10k", "real_p99_lateness_ms_100k", "baseline_source_per_timer_p99_lateness_ms_100k"]
    }

    /// The deadlines' spread.
    private static let window: Int64 = 3_000_000_000
    /// Time from the start of scheduling to the first possible deadline, so that scheduling is over
    /// before anything falls due.
    private static let lead: Int64 = 750_000_000

    func run() -> [Figure] {
        _ = measureClock(count: 1_000, window: 100_000_000, seed: 0)   // warm-up
        let clock10k = measureClock(count: 10_000, window: Self.window, seed: 1)
        let clock100k = measureClock(count: 100_000, window: Self.window, seed: 2)
        let sources100k = measureSourcePerTimer(count: 100_000, seed: 2)
        return [
            Figure(name: "real_p99_lateness_ms_10k", value: clock10k.p99, note: "target <= 0.5; " + clock10k.summary),
            Figure(
                name: "real_p99_lateness_ms_100k", value: clock100k.p99,
                note: "target <= 1.0; " + clock100k.summary
                    + "; one DispatchSourceTimer per deadline: \(String(format3: sources100k.p99)) ms"
            ),
            Figure(
                name: "baseline_source_per_timer_p99_lateness_ms_100k", value: sources100k.p99,
                note: "one DispatchSourceTimer per deadline; " + sources100k.summary
            ),
        ]
    }

    private struct Lateness {
        var p99: Double
        var summary: String

        init(milliseconds: [Double], scheduling: UInt64) {
            p99 = percentile(milliseconds, 99)
            summary = "p50 \(String(format3: percentile(milliseconds, 50))) ms, "
                + "max \(String(format3: milliseconds.max()!)) ms, "
                + "\(milliseconds.count) deadlines scheduled in \(String(format3: Double(scheduling) / 1e6)) ms, "
                + loadNote()
        }
    }

    /// The deadlines, as offsets from the start of scheduling, in random order.
    private func offsets(count: Int, window: Int64, seed: UInt64) -> [Int64] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Self.lead + Int64(random.next(below: UInt64(window))) }
    }

    private func measureClock(count: Int, window: Int64, seed: UInt64) -> Lateness {
        let offsets = offsets(count: count, window: window, seed: seed)
        let clock = DispatchClock(label: "bench.clock")
        let ranAt = Samples(count: count)
        let remaining = LockedValue(count)
        let done = DispatchSemaphore(value: 0)
        let start = clock.now
        let scheduleStart = nowNanoseconds()
        for (index, offset) in offsets.enumerated() {
            clock.schedule(at: start + .nanoseconds(offset)) {
                ranAt[index] = clock.now.nanoseconds
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.signal() }
            }
        }
        let scheduling = nowNanoseconds() - scheduleStart
        done.wait()
        clock.shutdown()
        let lateness = offsets.indices.map { Double(ranAt[$0] - (start.nanoseconds + offsets[$0])) / 1e6 }
        ranAt.deallocate()
        return Lateness(milliseconds: lateness, scheduling: scheduling)
    }

    private func measureSourcePerTimer(count: Int, seed: UInt64) -> Lateness {
        let offsets = offsets(count: count, window: Self.window, seed: seed)
        let queue = DispatchQueue(label: "bench.sources", qos: .userInteractive)
        let ranAt = Samples(count: count)
        let remaining = LockedValue(count)
        let done = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceTimer] = []
        sources.reserveCapacity(count)
        let start = nowNanoseconds()
        for (index, offset) in offsets.enumerated() {
            let source = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
            source.schedule(deadline: DispatchTime(uptimeNanoseconds: start + UInt64(offset)), leeway: .nanoseconds(0))
            source.setEventHandler {
                ranAt[index] = Int64(nowNanoseconds())
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.signal() }
            }
            source.activate()
            sources.append(source)
        }
        let scheduling = nowNanoseconds() - start
        done.wait()
        for source in sources { source.cancel() }
        let lateness = offsets.indices.map { Double(ranAt[$0] - Int64(start) - offsets[$0]) / 1e6 }
        ranAt.deallocate()
        return Lateness(milliseconds: lateness, scheduling: scheduling)
    }
}

/// One slot per deadline, each written once by the work of that deadline and read after every
/// deadline has signalled completion.
///
/// `@unchecked` is safe: no two threads ever touch the same slot (each deadline's work writes only its
/// own index, once), and the only reads happen after `done.wait()`, which the last write's
/// `signal()` happens-before, so every write is visible and none races a read.
private struct Samples: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Int64>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: 0)
    }

    subscript(index: Int) -> Int64 {
        get { storage[index] }
        nonmutating set { storage[index] = newValue }
    }

    func deallocate() {
        storage.deallocate()
    }
}
