import BackgroundBudget

/// Deadlines on the virtual clock against the sort-once array (``SortOnceArrayClock``), measured at
/// every size in the same run, runs of the two interleaved.
///
/// - Bulk (`virtual_bulk_per_s_<n>`): schedule n deadlines spread uniformly over one simulated hour,
///   then advance in 1 s steps until all have fired. The rate is n over the time of both phases.
///   `virtual_bulk_cancel_half_*` cancels every second deadline between the two (the array marks
///   tombstones).
/// - Hold (`virtual_hold_per_s_<n>`): n deadlines pending; each operation runs the earliest and
///   schedules a new one a uniform random delay (up to two simulated hours) later, so n stays
///   constant (the n initial deadlines are drawn from the same span). The rate is operations per
///   second, after the n deadlines are in place; the array, whose operations cost O(n), runs fewer
///   of them (the note says how many).
///
/// Each figure comes in wall time (`per_s`) and thread CPU time (`per_cpu_s`); both are medians.
struct VirtualDeadlinesBenchmark: Benchmark {
    static let bulkSizes = [10_000, 100_000, 1_000_000]
    static let holdSizes = [1_000, 10_000, 100_000, 1_000_000]

    var figureNames: [String] {
        Self.bulkSizes.flatMap { ["virtual_bulk_per_s_\(sizeName($0))", "virtual_bulk_per_cpu_s_\(sizeName($0))"] }
            + Self.bulkSizes.flatMap { ["virtual_bulk_cancel_half_per_s_\(sizeName($0))", "virtual_bulk_cancel_half_per_cpu_s_\(sizeName($0))"] }
            + Self.holdSizes.flatMap { ["virtual_hold_per_s_\(sizeName($0))", "virtual_hold_per_cpu_s_\(sizeName($0))"] }
    }

    private static let hour: UInt64 = 3_600_000_000_000
    private static let step: Int64 = 1_000_000_000

    func run() -> [Figure] {
        let filters = CommandLine.arguments.dropFirst()
        func wanted(_ prefix: String, _ size: Int) -> Bool {
            filters.isEmpty || filters.contains { "\(prefix)_per_s_\(sizeName(size))".contains($0) || "\(prefix)_per_cpu_s_\(sizeName(size))".contains($0) }
        }
        var figures: [Figure] = []
        _ = bulkClock(count: 10_000, seed: 0)
        _ = bulkArray(count: 10_000, seed: 0)
        for size in Self.bulkSizes where wanted("virtual_bulk", size) {
            let runs = size >= 1_000_000 ? 5 : size >= 100_000 ? 9 : 21
            var clock: [Cost] = [], array: [Cost] = []
            for run in 0..<runs {
                // Alternate which goes first, so drifting load hurts both alike.
                if run % 2 == 0 {
                    clock.append(bulkClock(count: size, seed: UInt64(run)))
                    array.append(bulkArray(count: size, seed: UInt64(run)))
                } else {
                    array.append(bulkArray(count: size, seed: UInt64(run)))
                    clock.append(bulkClock(count: size, seed: UInt64(run)))
                }
            }
            figures += rateFigures("virtual_bulk", size: size, operations: size, runs: runs, clock: clock, array: array,
                                   how: "schedule n deadlines over 1 h, advance in 1 s steps until drained; scheduling included")
        }
        for size in Self.bulkSizes where wanted("virtual_bulk_cancel_half", size) {
            let runs = size >= 1_000_000 ? 5 : size >= 100_000 ? 9 : 21
            var clock: [Cost] = [], array: [Cost] = []
            for run in 0..<runs {
                if run % 2 == 0 { clock.append(bulkClock(count: size, seed: UInt64(run), cancelHalf: true)) }
                array.append(bulkArray(count: size, seed: UInt64(run), cancelHalf: true))
                if run % 2 == 1 { clock.append(bulkClock(count: size, seed: UInt64(run), cancelHalf: true)) }
            }
            figures += rateFigures("virtual_bulk_cancel_half", size: size, operations: size, runs: runs, clock: clock, array: array,
                                   how: "as virtual_bulk, but every second deadline is cancelled before the advance; cancels included")
        }
        for size in Self.holdSizes where wanted("virtual_hold", size) {
            let clockOperations = 200_000
            let arrayOperations = max(100, min(200_000, 100_000_000 / size))
            let runs = size >= 1_000_000 ? 3 : 7
            var clock: [Cost] = [], array: [Cost] = []
            for run in 0..<runs {
                // Alternate which goes first, so drifting load hurts both alike.
                if run % 2 == 0 { clock.append(holdClock(count: size, operations: clockOperations, seed: UInt64(run))) }
                array.append(holdArray(count: size, operations: arrayOperations, seed: UInt64(run)))
                if run % 2 == 1 { clock.append(holdClock(count: size, operations: clockOperations, seed: UInt64(run))) }
            }
            // Per-operation costs, so the two counts of operations compare.
            let clockPer = clock.map { Cost(wall: $0.wall / Double(clockOperations), cpu: $0.cpu / Double(clockOperations)) }
            let arrayPer = array.map { Cost(wall: $0.wall / Double(arrayOperations), cpu: $0.cpu / Double(arrayOperations)) }
            figures += rateFigures("virtual_hold", size: size, operations: 1, runs: runs, clock: clockPer, array: arrayPer,
                                   how: "n pending; run the earliest, schedule one up to 2 h later; \(clockOperations) operations"
                                       + " (array: \(arrayOperations)) after setup")
        }
        return figures
    }

    private func rateFigures(_ prefix: String, size: Int, operations: Int, runs: Int, clock: [Cost], array: [Cost], how: String) -> [Figure] {
        let clockCost = medianCost(clock), arrayCost = medianCost(array)
        let note = "median of \(runs); \(how); \(loadNote())"
        return [
            Figure(name: "\(prefix)_per_s_\(sizeName(size))", value: (Double(operations) / (clockCost.wall / 1e9)).rounded(), unit: "/s",
                   baseline: "sort_once_array", baselineValue: (Double(operations) / (arrayCost.wall / 1e9)).rounded(), note: note),
            Figure(name: "\(prefix)_per_cpu_s_\(sizeName(size))", value: (Double(operations) / (clockCost.cpu / 1e9)).rounded(), unit: "/cpu_s",
                   baseline: "sort_once_array", baselineValue: (Double(operations) / (arrayCost.cpu / 1e9)).rounded(),
                   note: "thread CPU time; " + note),
        ]
    }

    /// Deadlines uniform over `(0, span]`.
    private func deadlines(count: Int, seed: UInt64, span: UInt64 = VirtualDeadlinesBenchmark.hour) -> [Int64] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in 1 + Int64(random.next(below: span)) }
    }

    private func bulkClock(count: Int, seed: UInt64, cancelHalf: Bool = false) -> Cost {
        let deadlines = deadlines(count: count, seed: seed)
        let clock = VirtualClock()
        var handles: [ScheduledWork] = []
        handles.reserveCapacity(count)
        var fired = 0
        let cost = Cost.of {
            for deadline in deadlines { handles.append(clock.schedule(at: BudgetInstant(nanoseconds: deadline)) {}) }
            if cancelHalf { for index in stride(from: 0, to: count, by: 2) { clock.cancel(handles[index]) } }
            while clock.pendingCount > 0 { fired += clock.advance(by: .nanoseconds(Self.step)) }
        }
        precondition(fired == (cancelHalf ? count / 2 : count), "fired \(fired) of \(count)")
        return cost
    }

    private func bulkArray(count: Int, seed: UInt64, cancelHalf: Bool = false) -> Cost {
        let deadlines = deadlines(count: count, seed: seed)
        let clock = SortOnceArrayClock()
        var handles: [Int] = []
        handles.reserveCapacity(count)
        var fired = 0
        let cost = Cost.of {
            for deadline in deadlines { handles.append(clock.schedule(at: deadline) {}) }
            if cancelHalf { for index in stride(from: 0, to: count, by: 2) { clock.cancel(handles[index]) } }
            while clock.pendingCount > 0 { fired += clock.advance(by: Self.step) }
        }
        precondition(fired == (cancelHalf ? count / 2 : count), "fired \(fired) of \(count)")
        return cost
    }

    private func holdClock(count: Int, operations: Int, seed: UInt64) -> Cost {
        let clock = VirtualClock()
        // Drawn like the delays, so the first operations already see the steady state.
        for deadline in deadlines(count: count, seed: seed, span: 2 * Self.hour) { clock.schedule(at: BudgetInstant(nanoseconds: deadline)) {} }
        var random = SplitMix64(seed: seed ^ 0xABCD)
        let delays = (0..<operations).map { _ in 1 + Int64(random.next(below: 2 * Self.hour)) }
        let cost = Cost.of {
            for delay in delays {
                clock.runUntilIdle(maxSteps: 1)
                clock.schedule(after: .nanoseconds(delay)) {}
            }
        }
        precondition(clock.pendingCount == count)
        return cost
    }

    private func holdArray(count: Int, operations: Int, seed: UInt64) -> Cost {
        let clock = SortOnceArrayClock()
        for deadline in deadlines(count: count, seed: seed, span: 2 * Self.hour) { clock.schedule(at: deadline) {} }
        clock.advance(by: 0)   // sorts the initial batch, as the clock's setup orders its entries
        var random = SplitMix64(seed: seed ^ 0xABCD)
        let delays = (0..<operations).map { _ in 1 + Int64(random.next(below: 2 * Self.hour)) }
        let cost = Cost.of {
            for delay in delays {
                clock.runNext()
                clock.schedule(after: delay) {}
            }
        }
        precondition(clock.pendingCount == count)
        return cost
    }
}

/// `1k`, `10k`, `100k`, `1m`.
func sizeName(_ size: Int) -> String {
    size >= 1_000_000 && size % 1_000_000 == 0 ? "\(size / 1_000_000)m" : size >= 1_000 && size % 1_000 == 0 ? "\(size / 1_000)k" : "\(size)"
}
