import BackgroundBudgetCore
import BackgroundBudgetExplorer

extension ScenarioCommand {
    /// The usage line of `check`.
    static let checkUsage = "bgbudget check FILE [--invariant NAME]..."

    /// `bgbudget check FILE [--invariant NAME]...`: runs a scenario file's events (a counterexample
    /// `explore` saved, or any scenario) with the invariants, and gives the verdict `explore` gave:
    /// the invariant that broke and how, exit 1 and `bgbudget: 1 invariant broke: NAME`; or
    /// `no invariant broke` and exit 0.
    static func checkCommand(_ arguments: [String]) -> Outcome {
        var file: String?
        var invariants: [ExplorerInvariant] = []
        var names: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            switch name {
            case "--help", "-h":
                return .success(help(for: "check"))
            case "--invariant":
                var value = inlineValue ?? ""
                if inlineValue == nil {
                    guard index < arguments.count else { return .usage("--invariant needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard names.insert(value).inserted else { return .usage("--invariant '\(clipped(value))' given twice") }
                do {
                    invariants += try ExplorerInvariant.named(value)
                } catch {
                    return .usage("\(error)")
                }
            case _ where argument.hasPrefix("-") && argument != "-":
                return .usage("unknown option '\(clipped(argument))' for 'check'\(suggestion(for: name, among: ["--invariant", "--help"])); "
                    + "accepted: --invariant, --help")
            default:
                if let file { return .usage("'check' takes one scenario file; got '\(clipped(file))' and '\(clipped(argument))'") }
                file = argument
            }
        }
        guard let file else { return .usage("'check' needs a scenario file: \(checkUsage)") }
        let explorer: Explorer
        switch loadExplorer(file, invariants: invariants, weights: []) {
        case .success(let loaded): explorer = loaded.0
        case .failure(let failed): return failed.outcome
        }
        let header = "check \(file): invariants: \(explorer.invariants.map(\.name).joined(separator: ", "))\n"
        guard let broken = explorer.setupFailure() else { return .success(header + "no invariant broke\n") }
        return setupBroken(broken, header: header, explored: false)
    }
}
