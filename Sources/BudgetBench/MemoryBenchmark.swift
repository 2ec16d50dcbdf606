// Memory per live entry, each measured alone in a fresh child process (see ChildProcess.swift), so
// that memory freed by earlier benchmarks cannot hide growth.
#if canImport(Dispatch)
import Dispatch
#endif
import BackgroundBudget

/// - `bytes_per_live_task`: resident growth per live `BudgetScheduler` budget (a warning lead but no
///   handlers, so only the hard stop is scheduled: a warning nobody hears never is; a 3-byte name) at
///   1,000,000; baseline: one `DispatchSourceTimer` per budget, 1,000,000 of them. Target: at most 96 B.
/// - `bytes_per_live_task_named_with_handler`: the same with a stop handler capturing a value and a
///   30-byte name of its own per budget. Target: at most 160 B.
/// - `bytes_per_virtual_deadline`: resident growth per pending ``VirtualClock`` deadline at
///   1,000,000; baseline: the sort-once array (``SortOnceArrayClock``), sorted.
struct MemoryBenchmark: Benchmark {
    static let count = 1_000_000

    var figureNames: [String] { ["bytes_per_live_task", "bytes_per_live_task_named_with_handler", "bytes_per_virtual_deadline"] }

    func run() -> [Figure] {
        let budget = ChildMeasurement.run("budget-memory", count: Self.count)
        let fullBudget = ChildMeasurement.run("full-budget-memory", count: Self.count)
        let source = ChildMeasurement.run("source-memory", count: Self.count)
        let clock = ChildMeasurement.run("clock-memory", count: Self.count)
        let array = ChildMeasurement.run("array-memory", count: Self.count)
        let how = "resident growth per entry at \(Self.count), each in a fresh child process"
        return [
            Figure(name: "bytes_per_live_task", value: budget.rounded(), unit: "B", baseline: "dispatch_source_per_budget",
                   baselineValue: source.rounded(), note: "BudgetScheduler budget with a warning lead, no handlers (only the hard stop is scheduled); \(how)")
                .targeting(valueAtMost: 96),
            Figure(name: "bytes_per_live_task_named_with_handler", value: fullBudget.rounded(), unit: "B", baseline: "dispatch_source_per_budget",
                   baselineValue: source.rounded(), note: "the same with an onStop handler capturing an Int and a 30-byte name per budget; \(how)")
                .targeting(valueAtMost: 160),
            Figure(name: "bytes_per_virtual_deadline", value: clock.rounded(), unit: "B", baseline: "sort_once_array",
                   baselineValue: array.rounded(), note: "VirtualClock pending deadline, no captures; \(how)"),
        ]
    }

    /// Bytes of resident growth per entry while `body` creates `count` entries and keeps them.
    private static func growth(count: Int, _ body: () -> AnyObject?) -> Double {
        let before = residentBytes()
        let kept = body()
        let after = residentBytes()
        withExtendedLifetime(kept) {}
        return Double(after - before) / Double(count)
    }

    @Sendable static func bytesPerBudget(count: Int) -> Double {
        let scheduler = BudgetScheduler(clock: VirtualClock())
        // The caller's handles are not the budgets' cost: their array is written (so resident) before
        // measuring. Reserving capacity alone would leave its pages to be faulted in during the loop.
        var budgets = [Budget](repeating: Budget(id: 0, name: "job"), count: count)
        return growth(count: count) {
            for index in 0..<count {
                budgets[index] = try! scheduler.requestBudget(named: "job", allowance: .milliseconds(Int64(1_000 + index % 3_600_000)),
                                                             warningLead: .milliseconds(500))
            }
            precondition(scheduler.liveCount == count)
            return scheduler
        }
    }

    @Sendable static func bytesPerNamedBudgetWithHandler(count: Int) -> Double {
        let scheduler = BudgetScheduler(clock: VirtualClock())
        var budgets = [Budget](repeating: Budget(id: 0, name: "job"), count: count)
        // Each name is its own 30-byte string, made while measuring: its allocation counts.
        return growth(count: count) {
            for index in 0..<count {
                let digits = String(index)
                let name = "import-customer-batch-" + String(repeating: "0", count: 8 - digits.count) + digits
                budgets[index] = try! scheduler.requestBudget(named: name, allowance: .milliseconds(Int64(1_000 + index % 3_600_000)),
                                                             warningLead: .milliseconds(500), onStop: { _, _ in _ = index })
            }
            precondition(scheduler.liveCount == count)
            return scheduler
        }
    }

    @Sendable static func bytesPerTimerSource(count: Int) -> Double {
        #if canImport(Dispatch)
        let queue = DispatchQueue(label: "bench.sources")
        var sources = [AnyObject?](repeating: nil, count: count)   // resident before measuring, as above
        return growth(count: count) {
            for index in 0..<count {
                let source = DispatchSource.makeTimerSource(queue: queue)
                source.schedule(deadline: .now() + .milliseconds(3_600_000 + index % 3_600_000), leeway: .nanoseconds(0))
                source.setEventHandler {}
                source.resume()
                sources[index] = source as AnyObject
            }
            return nil
        }
        #else
        return .nan
        #endif
    }

    @Sendable static func bytesPerVirtualDeadline(count: Int) -> Double {
        let clock = VirtualClock()
        var random = SplitMix64(seed: 5)
        return growth(count: count) {
            for _ in 0..<count { clock.schedule(at: BudgetInstant(nanoseconds: 1 + Int64(random.next(below: 3_600_000_000_000)))) {} }
            return clock
        }
    }

    @Sendable static func bytesPerArrayDeadline(count: Int) -> Double {
        let clock = SortOnceArrayClock()
        var random = SplitMix64(seed: 5)
        return growth(count: count) {
            for _ in 0..<count { clock.schedule(at: 1 + Int64(random.next(below: 3_600_000_000_000))) {} }
            clock.advance(by: 0)   // sorted, as the array keeps them
            return clock
        }
    }
}
