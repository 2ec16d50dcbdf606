/// A benchmark produces one or more figures.
protocol Benchmark {
    /// The names of the figures this benchmark prints (used for filtering on the command line).
    var figureNames: [String] { get }
    /// Runs the benchmark and returns its figures.
    func run() -> [Figure]
}
