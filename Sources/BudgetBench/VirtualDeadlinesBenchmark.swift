import BackgroundBudget

/// Many live deadlines on the virtual clock: 1,000,000 deadlines spread uniformly over one simulated
/// hour, advanced in 1 s steps until all have fired. The figure is deadlines fired per second of wall
/// time during the advancing (scheduling is timed separately and printed in the note).
///
/// The baseline is ``SortedArrayClock`` (a re-sort and `removeFirst` per fired deadline, as
/// swift-clocks' `TestClock` does) on 10,000 deadlines: its cost per deadline grows with the number
/// pending, so a million would take the better part of an hour; the note extrapolates.
struct VirtualDeadlinesBenchmark: Benchmark {
    var deadlineCount = 1_000_000
    var baselineDeadlineCount = 10_000
    /// Timed runs; the figure is their median.
    var runs = 3

    var figureNames: [String] {
        ["virtual_deadlines_per_s", "virtual_deadlines_per_s_sorted_array_baseline"]
    }

    private static let hour: Int64 = 3_600_000_000_000
    private static let step: Int64 = 1_000_000_000

    func run() -> [Figure] {
        _ = measureHeap(count: deadlineCount / 10, seed: 0)   // warm-up
        let heap = (1...runs).map { measureHeap(count: deadlineCount, seed: UInt64($0)) }
        let heapRate = median(heap.map(\.firedPerSecond))
        let heapCPURate = median(heap.map(\.firedPerCPUSecond))
        let schedulingRate = median(heap.map(\.scheduledPerSecond))

        _ = measureBaseline(count: baselineDeadlineCount / 10, seed: 0)
        let baseline = (1...runs).map { measureBaseline(count: baselineDeadlineCount, seed: UInt64($0)) }
        let baselineRate = median(baseline.map(\.firedPerSecond))
        // Each fire costs O(n), so the whole run grows with n²: extrapolate to the full count.
        let scale = Double(deadlineCount) / Double(baselineDeadlineCount)
        let baselineFullMinutes = Double(baselineDeadlineCount) / baselineRate * scale * scale / 60

        return [
            Figure(
                name: "virtual_deadlines_per_s", value: heapRate.rounded(),
                note: "target >= 4000000; \(deadlineCount) deadlines over 1 h in 1 s steps, median of \(runs);"
                    + " \(format(heapCPURate.rounded()))/s of thread CPU time (\(loadNote()));"
                    + " scheduling \(format(schedulingRate.rounded()))/s;"
                    + " \(format((heapRate / baselineRate).rounded()))x the sorted-array baseline"
            ),
            Figure(
                name: "virtual_deadlines_per_s_sorted_array_baseline", value: baselineRate.rounded(),
                note: "re-sort + removeFirst per fired deadline (swift-clocks TestClock style),"
                    + " only \(baselineDeadlineCount) deadlines: O(n) per fire, so \(deadlineCount) would take"
                    + " about \(format(baselineFullMinutes.rounded())) min"
            ),
        ]
    }

    private struct Rates {
        var scheduledPerSecond: Double
        var firedPerSecond: Double
        var firedPerCPUSecond: Double = 0
    }

    private func measureHeap(count: Int, seed: UInt64) -> Rates {
        let clock = VirtualClock()
        var random = SplitMix64(seed: seed)
        let work: @Sendable () -> Void = {}
        let scheduleStart = nowNanoseconds()
        for _ in 0..<count {
            clock.schedule(at: BudgetInstant(nanoseconds: 1 + Int64(random.next(below: UInt64(Self.hour)))), work)
        }
        let fireStart = nowNanoseconds()
        let cpuStart = threadCPUNanoseconds()
        var fired = 0
        while clock.pendingCount > 0 {
            fired += clock.advance(by: .nanoseconds(Self.step))
        }
        let end = nowNanoseconds()
        let cpuEnd = threadCPUNanoseconds()
        precondition(fired == count, "fired \(fired) of \(count)")
        return Rates(
            scheduledPerSecond: Double(count) / (Double(fireStart - scheduleStart) / 1e9),
            firedPerSecond: Double(count) / (Double(end - fireStart) / 1e9),
            firedPerCPUSecond: Double(count) / (Double(cpuEnd - cpuStart) / 1e9)
        )
    }

    private func measureBaseline(count: Int, seed: UInt64) -> Rates {
        let clock = SortedArrayClock()
        var random = SplitMix64(seed: seed)
        let work: @Sendable () -> Void = {}
        let scheduleStart = nowNanoseconds()
        for _ in 0..<count {
            clock.schedule(at: 1 + Int64(random.next(below: UInt64(Self.hour))), work)
        }
        let fireStart = nowNanoseconds()
        var fired = 0
        while clock.pendingCount > 0 {
            fired += clock.advance(by: Self.step)
        }
        let end = nowNanoseconds()
        precondition(fired == count, "fired \(fired) of \(count)")
        return Rates(
            scheduledPerSecond: Double(count) / (Double(fireStart - scheduleStart) / 1e9),
            firedPerSecond: Double(count) / (Double(end - fireStart) / 1e9)
        )
    }
}
