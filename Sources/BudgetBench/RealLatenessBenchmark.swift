import BackgroundBudget
import Dispatch
import Foundation

/// Real deadlines: n deadlines spread uniformly over 2 s starting 50 ms after scheduling begins,
/// all scheduled up front, each recording when it ran, at 400 (5 ms apart on average, most reached
/// through a timer), 10,000 and 100,000; and a sparse run (`sparse`): 200 deadlines exactly 10 ms
/// apart, each its own isolated wake-up.
///
/// Five mechanisms, in the same run: ``DispatchClock`` with its default leeway (one timer over a
/// deadline heap), the same with a zero leeway (`precise`: it spins, lowers its thread's timer slack
/// and arms the timer early: more CPU, earlier runs), and as baselines `DispatchQueue.asyncAfter` per deadline, one `DispatchSourceTimer` per deadline (zero
/// leeway, `.strict`), and a plain thread that sorts the deadlines and sleeps until each. All Dispatch
/// work runs on one serial `.userInteractive` queue, like the clock's.
///
/// Figures per mechanism and size: p99 lateness (ran − deadline; setup that overruns the 50 ms lead
/// shows up here), setup (the time to schedule everything, its own figure), and the process's CPU
/// time from the start of scheduling to the last deadline run (every thread: Dispatch's timer
/// threads count). The baseline of each is `asyncAfter`; the default clock's targets are CPU at
/// most 1.0× and p99 at most 1.0× `asyncAfter`'s. Five runs each, the mechanisms taking turns in a
/// rotating order: setup and CPU are the median run's, p99 the 99th percentile of all five runs'
/// samples together (the note also gives the median run's p99).
struct RealLatenessBenchmark: Benchmark {
    /// The sizes; 200 is the sparse run.
    static let sizes = [200, 400, 10_000, 100_000]
    private static let window: Int64 = 2_000_000_000
    private static let lead: Int64 = 50_000_000
    private static let rounds = 5

    enum Mechanism: String, CaseIterable {
        case dispatchClock = "dispatch_clock"
        case dispatchClockPrecise = "dispatch_clock_precise"
        case asyncAfter = "async_after"
        case sourcePerDeadline = "source_per_deadline"
        case sortedArrayThread = "sorted_array_thread"

        /// The figure name's suffix: none for the clock itself.
        var suffix: String { self == .dispatchClock ? "" : "_" + rawValue }
    }

    var figureNames: [String] {
        Self.sizes.flatMap { size in
            Mechanism.allCases.filter { $0 != .asyncAfter }.flatMap { mechanism in
                ["real_p99_lateness_ms", "real_setup_ms", "real_cpu_ms"].map { "\($0)_\(Self.sizeLabel(size))\(mechanism.suffix)" }
            }
        }
    }

    private struct Outcome {
        var lateness: [Double]   // milliseconds
        var setup: Double        // milliseconds
        var cpu: Double          // milliseconds
        var p99: Double { percentile(lateness, 99) }
    }

    func run() -> [Figure] {
        _ = measure(.dispatchClock, count: 1_000, seed: 0)   // warm-up
        _ = measure(.asyncAfter, count: 1_000, seed: 0)
        var figures: [Figure] = []
        // Only the sizes some filter on the command line names (all without filters).
        let filters = CommandLine.arguments.dropFirst()
        let names = figureNames
        for size in Self.sizes where filters.isEmpty || filters.contains(where: { filter in
            names.contains { $0.contains(filter) && $0.contains("_\(Self.sizeLabel(size))") }
        }) {
            // Five rounds, each mechanism once per round in a rotated order; each figure is the
            // median of its five runs, so one burst of outside load does not decide it.
            var runs: [Mechanism: [Outcome]] = [:]
            let mechanisms = Mechanism.allCases
            for round in 0..<Self.rounds {
                for offset in mechanisms.indices {
                    let mechanism = mechanisms[(offset + round) % mechanisms.count]
                    runs[mechanism, default: []].append(measure(mechanism, count: size, seed: UInt64(size + round)))
                }
            }
            // p99 over every run's samples together (1,000 to 500,000 of them): the 99th percentile of
            // one run of 200 or 400 is its second to fourth latest sample, which one stall decides.
            var outcomes: [Mechanism: Outcome] = [:]
            var medianRunP99: [Mechanism: Double] = [:]
            for (mechanism, list) in runs {
                let byP99 = list.sorted { $0.p99 < $1.p99 }
                medianRunP99[mechanism] = byP99[byP99.count / 2].p99
                outcomes[mechanism] = Outcome(lateness: list.flatMap(\.lateness), setup: median(list.map(\.setup)),
                                              cpu: median(list.map(\.cpu)))
            }
            let base = outcomes[.asyncAfter]!
            for mechanism in Mechanism.allCases where mechanism != .asyncAfter {
                let outcome = outcomes[mechanism]!
                let name = Self.sizeLabel(size) + mechanism.suffix
                let targeted = mechanism == .dispatchClock
                let what = size == Self.sparseCount ? "\(size) deadlines 10 ms apart" : "\(size) deadlines over 2 s"
                let spread = "p50 \(String(format3: percentile(outcome.lateness, 50))) ms, max \(String(format3: outcome.lateness.max()!)) ms"
                let perRun = "median run's p99 \(String(format3: medianRunP99[mechanism]!)) ms against \(String(format3: medianRunP99[.asyncAfter]!))"
                figures += [
                    Figure(name: "real_p99_lateness_ms_\(name)", value: outcome.p99, unit: "ms", baseline: "async_after",
                           baselineValue: base.p99, note: "\(mechanism.rawValue), \(what) from 50 ms after scheduling began; p99 of the \(outcome.lateness.count) samples of \(Self.rounds) runs; \(spread); \(perRun); \(loadNote())",
                           target: targeted ? .init(atMost: true, bound: 1) : nil),
                    Figure(name: "real_setup_ms_\(name)", value: outcome.setup, unit: "ms", baseline: "async_after",
                           baselineValue: base.setup, note: "\(mechanism.rawValue): wall time to schedule \(size) deadlines, median of \(Self.rounds)"),
                    Figure(name: "real_cpu_ms_\(name)", value: outcome.cpu, unit: "ms", baseline: "async_after",
                           baselineValue: base.cpu, note: "\(mechanism.rawValue): process CPU time (getrusage, all threads), scheduling to last run, median of \(Self.rounds)",
                           target: targeted ? .init(atMost: true, bound: 1) : nil),
                ]
            }
        }
        return figures
    }

    /// How many deadlines the sparse run has, 10 ms apart.
    static let sparseCount = 200

    /// `sparse` for the sparse run, else the size's name.
    static func sizeLabel(_ size: Int) -> String { size == sparseCount ? "sparse" : sizeName(size) }

    /// The deadlines, as offsets from the start of scheduling, in random order (10 ms apart for the
    /// sparse run).
    private func offsets(count: Int, seed: UInt64) -> [Int64] {
        if count == Self.sparseCount { return (0..<count).map { Self.lead + Int64($0) * 10_000_000 } }
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Self.lead + Int64(random.next(below: UInt64(Self.window))) }
    }

    private func measure(_ mechanism: Mechanism, count: Int, seed: UInt64) -> Outcome {
        let offsets = offsets(count: count, seed: seed)
        let ranAt = Samples(count: count)
        let remaining = LockedValue(count)
        let done = DispatchSemaphore(value: 0)
        let ran: @Sendable (Int) -> Void = { index in
            ranAt[index] = Int64(nowNanoseconds())
            if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.signal() }
        }
        var clocks: [DispatchClock] = []
        var sources: [any DispatchSourceTimer] = []
        let cpuStart = processCPUNanoseconds()
        let start = nowNanoseconds()
        switch mechanism {
        case .dispatchClock, .dispatchClockPrecise:
            let clock = mechanism == .dispatchClock ? DispatchClock(label: "bench.clock") : DispatchClock(label: "bench.clock", leeway: .zero)
            let origin = clock.now.nanoseconds &- Int64(nowNanoseconds() &- start)
            for (index, offset) in offsets.enumerated() {
                clock.schedule(at: BudgetInstant(nanoseconds: origin + offset)) { ran(index) }
            }
            clocks.append(clock)
        case .asyncAfter:
            let queue = DispatchQueue(label: "bench.asyncAfter", qos: .userInteractive)
            for (index, offset) in offsets.enumerated() {
                queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: start + UInt64(offset))) { ran(index) }
            }
        case .sourcePerDeadline:
            let queue = DispatchQueue(label: "bench.sources", qos: .userInteractive)
            for (index, offset) in offsets.enumerated() {
                let source = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
                source.schedule(deadline: DispatchTime(uptimeNanoseconds: start + UInt64(offset)), leeway: .nanoseconds(0))
                source.setEventHandler { ran(index) }
                source.activate()
                sources.append(source)
            }
        case .sortedArrayThread:
            let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
            let deadlines = order.map { start + UInt64(offsets[$0]) }
            let thread = Thread {
                for (position, index) in order.enumerated() {
                    let now = nowNanoseconds()
                    if deadlines[position] > now {
                        var wait = timespec(tv_sec: Int(deadlines[position] - now) / 1_000_000_000,
                                            tv_nsec: Int(deadlines[position] - now) % 1_000_000_000)
                        nanosleep(&wait, nil)
                    }
                    ran(index)
                }
            }
            thread.start()
        }
        let setup = nowNanoseconds() - start
        done.wait()
        let cpu = processCPUNanoseconds() - cpuStart
        for clock in clocks { clock.shutdown() }
        for source in sources { source.cancel() }
        let lateness = offsets.indices.map { Double(ranAt[$0] - Int64(start) - offsets[$0]) / 1e6 }
        ranAt.deallocate()
        return Outcome(lateness: lateness, setup: Double(setup) / 1e6, cpu: Double(cpu) / 1e6)
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
