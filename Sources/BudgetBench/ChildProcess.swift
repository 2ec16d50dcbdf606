// Memory figures are measured in a fresh child process: the bench runs itself again with
// `--child <measurement> <count>`, and the child prints one `CHILD <value>` line.
import Foundation

/// Measurements that must run alone in a fresh process, by name.
enum ChildMeasurement {
    /// The argument that makes the bench a child.
    static let flag = "--child"

    /// Each measurement takes a count and returns one value (bytes per entry, for memory). A new
    /// measurement adds its entry here.
    static let registry: [String: @Sendable (Int) -> Double] = [
        "budget-memory": MemoryBenchmark.bytesPerBudget,
        "full-budget-memory": MemoryBenchmark.bytesPerNamedBudgetWithHandler,
        "source-memory": MemoryBenchmark.bytesPerTimerSource,
        "clock-memory": MemoryBenchmark.bytesPerVirtualDeadline,
        "array-memory": MemoryBenchmark.bytesPerArrayDeadline,
    ]

    /// If this process was started as a child, runs its measurement, prints the result and returns
    /// `true`; otherwise returns `false`.
    static func runIfChild(_ arguments: [String]) -> Bool {
        guard arguments.count >= 4, arguments[1] == flag else { return false }
        guard let measurement = registry[arguments[2]], let count = Int(arguments[3]) else {
            print("CHILD error: unknown measurement \(arguments[2]) or count \(arguments[3])")
            exit(2)
        }
        print("CHILD \(measurement(count))")
        return true
    }

    /// Runs a measurement in a fresh child process and returns its value (NaN if the child failed).
    static func run(_ name: String, count: Int) -> Double {
        let process = Process()
        #if os(Linux)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        #else
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        process.arguments = [flag, name, String(count)]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return .nan }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("CHILD ") }),
              let value = Double(line.dropFirst("CHILD ".count)) else {
            return .nan
        }
        return value
    }
}
