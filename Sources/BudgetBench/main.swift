// BudgetBench: the performance figures of BackgroundBudget.
//
//   swift run -c release BudgetBench                 # every figure
//   swift run -c release BudgetBench begin_end_ns    # only figures whose names contain a filter
//
// Prints one line per figure:
//   FIGURE <name> <value> <unit> baseline=<name>:<value> ratio=<value / baseline>  # how it was measured
// where the baseline is the alternative measured in the same run. A benchmark is one file with a type
// conforming to `Benchmark`, listed below; memory figures run in a fresh child process
// (ChildProcess.swift).

let benchmarks: [any Benchmark] = [
    VirtualDeadlinesBenchmark(),
    RealLatenessBenchmark(),
    BeginEndBenchmark(),
    MemoryBenchmark(),
    PurgeBenchmark(),
    ScenarioBenchmark(),
    SceneScaleBenchmark(),
    ScaleBenchmark(),
    LockBenchmark(),
    JobBudgetOperationsBenchmark(),
    JobMassStopBenchmark(),
    JobCostBenchmark(),
    ExplorerBenchmark(),
    ExplorerRestoreBenchmark(),
]

if !ChildMeasurement.runIfChild(CommandLine.arguments) {
    let filters = CommandLine.arguments.dropFirst()
    if filters.contains("--help") || filters.contains("-h") {
        print("usage: BudgetBench [FILTER ...]   (run with -c release)")
        print("figures:")
        for benchmark in benchmarks { for name in benchmark.figureNames { print("  \(name)") } }
    } else {
        #if DEBUG
        print("# warning: debug build; run `swift run -c release BudgetBench` for meaningful figures")
        #endif
        print("# \(loadNote())")
        for benchmark in benchmarks where filters.isEmpty || benchmark.figureNames.contains(where: { name in filters.contains { name.contains($0) } }) {
            for figure in benchmark.run() where filters.isEmpty || filters.contains(where: { figure.name.contains($0) }) {
                print(figure.line)
            }
        }
    }
}
