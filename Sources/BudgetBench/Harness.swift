// A dependency-free benchmark harness: warm-up, timed runs, one `FIGURE <name> <value>` line per figure.
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// CPU time the calling thread has used, in nanoseconds: unlike wall time, it does not count time
/// the thread waited for a core, so it separates a benchmark's own cost from other load.
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The 1-minute load average and the number of cores, for notes on wall-time figures.
func loadNote() -> String {
    var load = [0.0]
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    guard getloadavg(&load, 1) == 1 else { return "\(cores) cores" }
    return "load average \(String(format3: load[0])) on \(cores) cores"
}

/// The median of some samples.
func median(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty)
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The p-th percentile (0...100) of some samples, nearest-rank.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    precondition(!samples.isEmpty)
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Formats a figure value without exponent noise.
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format3: value)
}

extension String {
    /// A number with three decimals, without Foundation.
    init(format3 value: Double) {
        let scaled = (value * 1000).rounded()
        let whole = Int64(scaled / 1000)
        let fraction = Int64(abs(scaled.truncatingRemainder(dividingBy: 1000)))
        let fractionText = String(fraction)
        self = "\(value < 0 && whole == 0 ? "-" : "")\(whole)." + String(repeating: "0", count: 3 - fractionText.count) + fractionText
    }
}

/// CPU time of the whole process (every thread, user and system), in nanoseconds, from `getrusage`:
/// it counts work a benchmark hands to other threads (Dispatch's timer and worker threads) that wall
/// time on the calling thread would hide or blur.
func processCPUNanoseconds() -> UInt64 {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1_000
    let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1_000
    return user + system
}

/// Wall and CPU time of one measured run, in nanoseconds.
struct Cost {
    var wall: Double
    var cpu: Double

    /// Times `body`: wall time, and the CPU time of the thread (`process: false`) or of the whole
    /// process (`process: true`).
    static func of(process: Bool = false, _ body: () -> Void) -> Cost {
        let cpuStart = process ? processCPUNanoseconds() : threadCPUNanoseconds()
        let start = nowNanoseconds()
        body()
        let wall = nowNanoseconds() - start
        let cpu = (process ? processCPUNanoseconds() : threadCPUNanoseconds()) - cpuStart
        return Cost(wall: Double(wall), cpu: Double(cpu))
    }

    static func + (a: Cost, b: Cost) -> Cost { Cost(wall: a.wall + b.wall, cpu: a.cpu + b.cpu) }
}

/// The median wall and the median CPU time of some runs.
func medianCost(_ costs: [Cost]) -> Cost {
    Cost(wall: median(costs.map(\.wall)), cpu: median(costs.map(\.cpu)))
}

/// Resident memory of this process in bytes (Linux: `/proc/self/statm`), or the allocator's bytes in
/// use (Apple platforms); 0 where neither is available.
func residentBytes() -> Int {
    #if canImport(Glibc)
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
