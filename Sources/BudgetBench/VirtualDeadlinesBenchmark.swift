import BackgroundBudget

/// Deadlines on the virtual clock against the strongest plain alternative for each workload,
/// measured at every size in the same run, runs of the two interleaved A/B/A/B (the one that goes
/// first alternating).
///
/// - Bulk (`virtual_bulk_per_s_<n>`): schedule n deadlines spread uniformly over one simulated hour,
///   then advance in 1 s steps until all have fired. The rate is n over the time of both phases.
///   `virtual_bulk_cancel_half_*` cancels every second deadline between the two (the array marks
///   tombstones). Baseline: the sort-once array (``SortOnceArrayClock``); target (CPU): at least 1.0×
///   its rate.
/// - Hold (`virtual_hold_ns_<n>`): n deadlines pending; each operation runs the earliest and
///   schedules a new one a uniform random delay (up to two simulated hours) later, so n stays
///   constant. Measured in steady state: the n initial deadlines (drawn from the same span) and then
///   2n operations run before the timed ones. Nanoseconds per operation. Baseline: a bare binary
///   heap (``BareBinaryHeap``: arrays of deadlines and slots, no lock) doing the same operations.
///   Target: at most 1.3× the bare heap in instructions, counted with callgrind on
///   ``timedClockHold(_:_:)`` and ``timedBareHold(_:_:)`` (the *Performance* article); the time
///   ratio printed here has no target.
/// - Extend (`virtual_extend_ns_<n>`): n pending; each operation cancels a random pending deadline
///   and schedules it again up to 2 h later (what extending a budget does). Baseline: a plain 4-ary
///   heap with the node index per slot under a lock (``PlainHeapClock``); target (CPU): at most 1.0×
///   its ns/op.
///
/// Each figure comes in wall time and thread CPU time; both are medians.
struct VirtualDeadlinesBenchmark: Benchmark {
    static let bulkSizes = [10_000, 100_000, 1_000_000]
    static let holdSizes = [10_000, 100_000, 1_000_000]

    var figureNames: [String] {
        var names: [String] = []
        for size in Self.bulkSizes {
            for prefix in ["virtual_bulk_per_s_", "virtual_bulk_per_cpu_s_", "virtual_bulk_cancel_half_per_s_", "virtual_bulk_cancel_half_per_cpu_s_"] {
                names.append(prefix + sizeName(size))
            }
        }
        for size in Self.holdSizes {
            for prefix in ["virtual_hold_ns_", "virtual_hold_cpu_ns_", "virtual_extend_ns_", "virtual_extend_cpu_ns_"] {
                names.append(prefix + sizeName(size))
            }
        }
        return names
    }

    private static let hour: UInt64 = 3_600_000_000_000
    private static let step: Int64 = 1_000_000_000

    func run() -> [Figure] {
        let filters = CommandLine.arguments.dropFirst()
        func wanted(_ prefix: String, _ size: Int) -> Bool {
            let names: [String] = ["_per_s_", "_per_cpu_s_", "_ns_", "_cpu_ns_"].map { prefix + $0 + sizeName(size) }
            return filters.isEmpty || filters.contains { filter in names.contains { $0.contains(filter) } }
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
            let operations = 200_000
            let runs = size >= 1_000_000 ? 5 : 7
            var clock: [Cost] = [], bare: [Cost] = []
            for run in 0..<runs {
                if run % 2 == 0 { clock.append(holdWorkload(count: size, operations: operations, seed: UInt64(run), onClock: true)) }
                bare.append(holdWorkload(count: size, operations: operations, seed: UInt64(run), onClock: false))
                if run % 2 == 1 { clock.append(holdWorkload(count: size, operations: operations, seed: UInt64(run), onClock: true)) }
            }
            let perClock = medianCost(clock), perBare = medianCost(bare)
            let note = "median of \(runs); n=\(size) pending, 2n operations before the timed ones; run the earliest, schedule one up to "
                + "2 h later; \(operations) operations; target <=1.3 in instructions (callgrind), none on time; \(loadNote())"
            figures += [
                Figure(name: "virtual_hold_ns_\(sizeName(size))", value: perClock.wall / Double(operations), unit: "ns",
                       baseline: "bare_binary_heap", baselineValue: perBare.wall / Double(operations), note: "wall; " + note),
                Figure(name: "virtual_hold_cpu_ns_\(sizeName(size))", value: perClock.cpu / Double(operations), unit: "ns",
                       baseline: "bare_binary_heap", baselineValue: perBare.cpu / Double(operations), note: "thread CPU; " + note),
            ]
        }
        for size in Self.holdSizes where wanted("virtual_extend", size) {
            let operations = 200_000
            let runs = size >= 1_000_000 ? 5 : 7
            var clock: [Cost] = [], heap: [Cost] = []
            for run in 0..<runs {
                if run % 2 == 0 { clock.append(extendWorkload(count: size, operations: operations, seed: UInt64(run), onClock: true)) }
                heap.append(extendWorkload(count: size, operations: operations, seed: UInt64(run), onClock: false))
                if run % 2 == 1 { clock.append(extendWorkload(count: size, operations: operations, seed: UInt64(run), onClock: true)) }
            }
            let perClock = medianCost(clock), perHeap = medianCost(heap)
            let note = "median of \(runs); n=\(size) pending; cancel a random pending one, schedule it again up to 2 h later; "
                + "\(operations) operations; \(loadNote())"
            figures += [
                Figure(name: "virtual_extend_ns_\(sizeName(size))", value: perClock.wall / Double(operations), unit: "ns",
                       baseline: "plain_4ary_heap", baselineValue: perHeap.wall / Double(operations), note: "wall; " + note),
                Figure(name: "virtual_extend_cpu_ns_\(sizeName(size))", value: perClock.cpu / Double(operations), unit: "ns",
                       baseline: "plain_4ary_heap", baselineValue: perHeap.cpu / Double(operations), note: "thread CPU; " + note)
                    .targeting(atMost: true, 1.0),
            ]
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
                   note: "thread CPU time; " + note).targeting(atMost: false, 1.0),
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

    /// The hold workload on the clock (`onClock`) or the bare heap: n pending, 2n operations, then
    /// `operations` timed ones, each running the earliest and scheduling one more.
    private func holdWorkload(count: Int, operations: Int, seed: UInt64, onClock: Bool) -> Cost {
        let initial = deadlines(count: count, seed: seed, span: 2 * Self.hour)
        var random = SplitMix64(seed: seed ^ 0xABCD)
        let warmUp = (0..<(2 * count)).map { _ in 1 + Int64(random.next(below: 2 * Self.hour)) }
        let delays = (0..<operations).map { _ in 1 + Int64(random.next(below: 2 * Self.hour)) }
        if onClock {
            let clock = VirtualClock()
            for deadline in initial { clock.schedule(at: BudgetInstant(nanoseconds: deadline)) {} }
            timedClockHold(clock, warmUp)
            let cost = Cost.of { timedClockHold(clock, delays) }
            precondition(clock.pendingCount == count)
            return cost
        }
        var heap = BareBinaryHeap()
        for (slot, deadline) in initial.enumerated() { heap.push(deadline, UInt32(slot)) }
        timedBareHold(&heap, warmUp)
        let cost = Cost.of { timedBareHold(&heap, delays) }
        precondition(heap.count == count)
        return cost
    }

    /// The extend workload: n pending, then `operations` times cancel a random pending one and
    /// schedule it again later.
    private func extendWorkload(count: Int, operations: Int, seed: UInt64, onClock: Bool) -> Cost {
        let initial = deadlines(count: count, seed: seed, span: 2 * Self.hour)
        var random = SplitMix64(seed: seed ^ 0x1234)
        let picks = (0..<operations).map { _ in (Int(random.next(below: UInt64(count))), 1 + Int64(random.next(below: 2 * Self.hour))) }
        if onClock {
            let clock = VirtualClock()
            var handles = initial.map { deadline in clock.schedule(at: BudgetInstant(nanoseconds: deadline)) {} }
            clock.cancel(handles[0])   // setup ends ordered on both sides: the first removal orders a bulk
            handles[0] = clock.schedule(at: BudgetInstant(nanoseconds: initial[0])) {}
            let cost = Cost.of {
                for (index, deadline) in picks {
                    clock.cancel(handles[index])
                    handles[index] = clock.schedule(at: BudgetInstant(nanoseconds: deadline)) {}
                }
            }
            precondition(clock.pendingCount == count)
            return cost
        }
        let heap = PlainHeapClock()
        var handles = initial.map { deadline in heap.schedule(at: deadline) {} }
        let cost = Cost.of {
            for (index, deadline) in picks {
                heap.cancel(handles[index])
                handles[index] = heap.schedule(at: deadline) {}
            }
        }
        precondition(heap.pendingCount == count)
        return cost
    }
}

/// `1k`, `10k`, `100k`, `1m`.
func sizeName(_ size: Int) -> String {
    size >= 1_000_000 && size % 1_000_000 == 0 ? "\(size / 1_000_000)m" : size >= 1_000 && size % 1_000 == 0 ? "\(size / 1_000)k" : "\(size)"
}

/// The clock's hold operations: run the earliest, schedule one `delay` later. Out of line so that
/// callgrind's `--toggle-collect` can count it alone.
@inline(never)
func timedClockHold(_ clock: VirtualClock, _ delays: [Int64]) {
    for delay in delays {
        clock.runUntilIdle(maxSteps: 1)
        clock.schedule(after: .nanoseconds(delay)) {}
    }
}

/// The bare heap's hold operations, the same as ``timedClockHold(_:_:)``'s: pop the earliest, push
/// its slot again `delay` after its deadline.
@inline(never)
func timedBareHold(_ heap: inout BareBinaryHeap, _ delays: [Int64]) {
    for delay in delays {
        let (now, slot) = heap.pop()
        heap.push(now + delay, slot)
    }
}
