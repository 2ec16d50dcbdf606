// bytes_per_live_task: the cost of a budget to the job runners that hold thousands.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BackgroundBudget

/// Bytes per live budget at 1,000,000 live budgets: the growth of resident memory (Linux) or of the
/// allocator's bytes in use (Apple platforms) while the budgets are requested.
struct LiveTaskMemoryBenchmark: Benchmark {
    var figureNames: [String] { ["bytes_per_live_task"] }

    func run() -> [Figure] {
        let count = 1_000_000
        let clock = VirtualClock()
        let before = allocatedBytes()
        let scheduler = BudgetScheduler(clock: clock)
        var budgets: [Budget] = []
        budgets.reserveCapacity(count)
        let afterHandles = allocatedBytes()
        for index in 0..<count {
            budgets.append(try! scheduler.requestBudget(named: "job", allowance: .milliseconds(Int64(1_000 + index % 3_600_000)),
                                                       warningLead: .milliseconds(500)))
        }
        let after = allocatedBytes()
        let perTask = Double(after - afterHandles) / Double(count)
        precondition(scheduler.liveCount == count && before > 0)
        withExtendedLifetime((scheduler, budgets)) {}
        return [Figure(name: "bytes_per_live_task", value: perTask.rounded(),
                       note: "BudgetScheduler budget with warning and stop deadlines; target ≤ 256")]
    }

    private func allocatedBytes() -> Int {
        #if canImport(Glibc)
        // /proc/self/statm: size resident shared text lib data dt, in pages.
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #elseif canImport(Darwin)
        var statistics = malloc_statistics_t()
        malloc_zone_statistics(nil, &statistics)
        return Int(statistics.size_in_use)
        #else
        return 0
        #endif
    }
}
