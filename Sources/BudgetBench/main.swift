// BudgetBench: the performance figures of BackgroundBudget.
//
//   swift run -c release BudgetBench                 # every figure
//   swift run -c release BudgetBench begin_end_ns    # only figures whose names contain a filter
//
// Prints one line per figure, `FIGURE <name> <value>`, with the target or the alternative measured in
// the same run after a `#`.

let benchmarks: [any Benchmark] = [
    VirtualDeadlinesBenchmark(),
    RealLatenessBenchmark(),
    BeginEndBenchmark(),
    LiveTaskMemoryBenchmark(),
    ScenarioBenchmark(),
    ScaleBenchmark(),
    LockBenchmark(),
    ExplorerBenchmark(),
]

let filters = CommandLine.arguments.dropFirst()
if filters.contains("--help") || filters.contains("-h") {
    print("usage: BudgetBench [FILTER ...]   (run with -c release)")
    print("figures:")
    for benchmark in benchmarks { for name in benchmark.figureNames { print("  \(name)") } }
} else {
    #if DEBUG
    print("# warning: debug build; run `swift run -c release BudgetBench` for meaningful figures")
    #endif
    for benchmark in benchmarks where filters.isEmpty || benchmark.figureNames.contains(where: { name in filters.contains { name.contains($0) } }) {
        for figure in benchmark.run() {
            print("FIGURE \(figure.name) \(format(figure.value))\(figure.note.isEmpty ? "" : "  # \(figure.note)")")
        }
    }
}
