// job_*: what the job-runner operations cost, beside one DispatchWorkItem per job in the same run.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// The job-budget operations on a scheduler over a ``DispatchClock`` (what a worker uses), with no
/// other budget live (so a new budget arms the clock's timer): request+end, extend by 1 s (each
/// moves the deadline), and request+stop, in nanoseconds per operation on one
/// thread and on 8 threads at once (wall time of the whole run divided by the operations of one
/// thread), beside the obvious alternative, a `DispatchWorkItem` per job given to `asyncAfter` and
/// cancelled. Then `shutdown(grace:)` over 100,000 live budgets: the time the call takes to re-arm them
/// all, and the p99 lateness of the 100,000 hard stops it brings forward, beside 100,000 work items
/// given to `asyncAfter` for one instant.
struct JobBudgetOperationsBenchmark: Benchmark {
    var figureNames: [String] {
        ["job_request_end_ns", "job_request_end_8_threads_ns", "job_extend_ns", "job_extend_8_threads_ns", "job_stop_ns",
         "job_stop_8_threads_ns", "baseline_work_item_async_after_cancel_ns", "job_shutdown_rearm_100k_ms",
         "job_shutdown_stop_p99_lateness_ms_100k", "baseline_work_item_p99_lateness_ms_100k"]
    }

    func run() -> [Figure] {
        #if canImport(Dispatch)
        let clock = DispatchClock(label: "bench.jobs")
        let scheduler = BudgetScheduler(clock: clock)
        let requestEnd = perThreads { _ in
            { _ = scheduler.end(try! scheduler.requestBudget(named: "job", allowance: .seconds(7_200), warningLead: .seconds(5))) }
        }
        let extend = perThreads { _ in
            let budget = try! scheduler.requestBudget(named: "growing", allowance: .seconds(7_200), warningLead: .seconds(5))
            return { _ = try! scheduler.extend(budget, by: .seconds(1)) }
        }
        let stop = perThreads { _ in
            { _ = scheduler.stop(try! scheduler.requestBudget(named: "job", allowance: .seconds(7_200), warningLead: .seconds(5))) }
        }
        let queue = DispatchQueue(label: "bench.jobs.baseline")
        let baseline = perThreads { _ in
            {
                let item = DispatchWorkItem {}
                queue.asyncAfter(deadline: .now() + .seconds(30), execute: item)
                item.cancel()
            }
        }
        clock.shutdown()
        let shutdown = measureShutdown(count: 100_000)
        let items = measureWorkItems(count: 100_000)
        let pair = { (figures: (Double, Double)) in "1 thread \(String(format3: figures.0)) ns, 8 threads \(String(format3: figures.1)) ns" }
        return [
            figure("job_request_end_ns", requestEnd.0.rounded(), "ns", "work_item_async_after_cancel", baseline.0.rounded(),
                   note: pair(requestEnd) + "; work item: " + pair(baseline)),
            figure("job_request_end_8_threads_ns", requestEnd.1.rounded(), "ns", "work_item_async_after_cancel_8_threads", baseline.1.rounded(),
                   note: "wall time / operations of one thread, 8 threads at once"),
            figure("job_extend_ns", extend.0.rounded(), "ns", "work_item_async_after_cancel", baseline.0.rounded(), note: pair(extend)),
            figure("job_extend_8_threads_ns", extend.1.rounded(), "ns", "work_item_async_after_cancel_8_threads", baseline.1.rounded()),
            figure("job_stop_ns", stop.0.rounded(), "ns", "work_item_async_after_cancel", baseline.0.rounded(),
                   note: "request+stop; " + pair(stop)),
            figure("job_stop_8_threads_ns", stop.1.rounded(), "ns", "work_item_async_after_cancel_8_threads", baseline.1.rounded()),
            figure("baseline_work_item_async_after_cancel_ns", baseline.0.rounded(), "ns", nil, nil,
                   note: "DispatchWorkItem + asyncAfter + cancel; " + pair(baseline)),
            figure("job_shutdown_rearm_100k_ms", shutdown.rearm, "ms", nil, nil,
                   note: "shutdown(grace: 200 ms) over 100,000 live budgets (the call re-arms them; the clock delivers the warnings)"),
            figure("job_shutdown_stop_p99_lateness_ms_100k", shutdown.p99, "ms", "work_item_p99_lateness_100k", items.p99,
                   note: shutdown.summary),
            figure("baseline_work_item_p99_lateness_ms_100k", items.p99, "ms", nil, nil,
                   note: "100,000 DispatchWorkItems asyncAfter one instant; " + items.summary),
        ]
        #else
        return []
        #endif
    }

    /// A figure with its in-run baseline (`baseline` nil: the baseline itself, or no alternative). The
    /// one place that knows how `Figure` is made.
    private func figure(_ name: String, _ value: Double, _ unit: String, _ baseline: String?, _ baselineValue: Double?,
                        note: String = "") -> Figure {
        guard let baseline, let baselineValue else {
            var figure = Figure(name: name, value: value, note: note)
            figure.unit = unit
            return figure
        }
        return Figure(name: name, value: value, unit: unit, baseline: baseline, baselineValue: baselineValue, note: note)
    }

    #if canImport(Dispatch)
    /// Median ns per operation on 1 thread, and wall ns per operation of one thread with 8 threads at
    /// once; `make` gives each thread its operation.
    private func perThreads(_ make: (Int) -> @Sendable () -> Void) -> (Double, Double) {
        let one = make(0)
        var samples: [Double] = []
        for round in 0...11 {
            let start = nowNanoseconds()
            for _ in 0..<20_000 { one() }
            if round > 0 { samples.append(Double(nowNanoseconds() - start) / 20_000) }
        }
        let operations = (0..<8).map(make)
        var eight: [Double] = []
        for _ in 0..<5 {
            let start = nowNanoseconds()
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for _ in 0..<20_000 { operations[thread]() }
            }
            eight.append(Double(nowNanoseconds() - start) / 20_000)
        }
        return (median(samples), median(eight))
    }

    private struct Shutdown {
        var rearm: Double
        var p99: Double
        var summary: String
    }

    /// 100,000 live budgets of an hour, shut down with a 200 ms grace: how long the call takes, and how
    /// late each hard stop's handler runs after the instant the shutdown set.
    private func measureShutdown(count: Int) -> Shutdown {
        let clock = DispatchClock(label: "bench.jobs.shutdown")
        let scheduler = BudgetScheduler(clock: clock)
        let lateness = LockedValue<[Double]>([])
        let done = DispatchSemaphore(value: 0)
        let deadline = LockedValue<Int64>(.max)
        var first: Budget?
        for index in 0..<count {
            let budget = try! scheduler.requestBudget(named: "job", allowance: .seconds(3_600 + Int64(index % 600)), warningLead: .seconds(5),
                                             onStop: { _, _ in
                let late = Double(clock.now.nanoseconds - deadline.withLock { $0 }) / 1e6
                if lateness.withLock({ $0.append(late); return $0.count }) == count { done.signal() }
            })
            if first == nil { first = budget }
        }
        let start = nowNanoseconds()
        scheduler.shutdown(grace: .milliseconds(200))
        let rearm = Double(nowNanoseconds() - start) / 1e6
        // The instant the shutdown set, read before it falls due (200 ms later).
        deadline.withLock { $0 = scheduler.deadline(of: first!)!.nanoseconds }
        done.wait()
        clock.shutdown()
        let samples = lateness.withLock { $0 }
        return Shutdown(rearm: rearm, p99: percentile(samples, 99),
                        summary: "p50 \(String(format3: percentile(samples, 50))) ms, max \(String(format3: samples.max()!)) ms, " + loadNote())
    }

    /// 100,000 work items given to `asyncAfter` for one instant 200 ms ahead, on one serial queue.
    private func measureWorkItems(count: Int) -> (p99: Double, summary: String) {
        let queue = DispatchQueue(label: "bench.jobs.items", qos: .userInteractive)
        let lateness = LockedValue<[Double]>([])
        let done = DispatchSemaphore(value: 0)
        let deadline = DispatchTime.now() + .milliseconds(200)
        for _ in 0..<count {
            queue.asyncAfter(deadline: deadline, execute: DispatchWorkItem {
                let late = Double(DispatchTime.now().uptimeNanoseconds - deadline.uptimeNanoseconds) / 1e6
                if lateness.withLock({ $0.append(late); return $0.count }) == count { done.signal() }
            })
        }
        done.wait()
        let samples = lateness.withLock { $0 }
        return (percentile(samples, 99), "p50 \(String(format3: percentile(samples, 50))) ms, max \(String(format3: samples.max()!)) ms")
    }
    #endif
}
