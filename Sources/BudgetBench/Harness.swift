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
