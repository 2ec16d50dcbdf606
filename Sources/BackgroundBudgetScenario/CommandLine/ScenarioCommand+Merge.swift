import BackgroundBudgetCore

extension ScenarioCommand {
    /// The usage line of `merge`.
    static let mergeUsage = "bgbudget merge REPORT... [--report PATH] [--out PATH]"

    /// `bgbudget merge REPORT... [--report PATH] [--out PATH]`: reads the reports that the shards of
    /// one exploration wrote (`explore --shard I/N --report PATH`), every shard once, and prints what
    /// `explore` without `--shard` prints for the same options (but the time); `--report` writes the
    /// merged report, the same file, byte for byte, that `explore --report` writes for the exploration
    /// in one piece; `--out` writes the first counterexample. Exits as `explore` does: 1 when an
    /// invariant broke or a report cannot be read, 2 when the reports are not one exploration's shards.
    static func mergeCommand(_ arguments: [String]) -> Outcome {
        var files: [String] = []
        var out: String?
        var reportPath: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            switch name {
            case "--help", "-h":
                return .success(help(for: "merge"))
            case "--out", "--report":
                var value = inlineValue ?? ""
                if inlineValue == nil {
                    guard index < arguments.count else { return .usage("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else { return .usage("\(name) needs a file path") }
                if name == "--out" {
                    guard out == nil else { return .usage("--out given twice") }
                    out = value
                } else {
                    guard reportPath == nil else { return .usage("--report given twice") }
                    reportPath = value
                }
            case _ where argument.hasPrefix("-") && argument != "-":
                let known = ["--report", "--out", "--help"]
                return .usage("unknown option '\(clipped(argument))' for 'merge'\(suggestion(for: name, among: known)); "
                    + "accepted: \(known.joined(separator: ", "))")
            default:
                files.append(argument)
            }
        }
        guard !files.isEmpty else { return .usage("'merge' needs the shards' reports: \(mergeUsage)") }
        if let out, out == reportPath { return .usage("--out and --report name the same file '\(quotedPath(out))'") }
        for (path, option) in [(out, "--out"), (reportPath, "--report")] {
            if let path, let problem = OutputFile.problemWriting(path) {
                return .refused("cannot write '\(quotedPath(path))' (\(option)): \(problem); nothing was merged")
            }
        }
        var reports: [(file: String, report: ExploreReport)] = []
        for file in files {
            do {
                reports.append((file, try ExploreReport(file: file)))
            } catch {
                return .failure("bgbudget: \(error)")
            }
        }
        let merged: ExploreReport
        do {
            merged = try ExploreReport.merged(reports)
        } catch {
            return .refused("\(error)")
        }
        var messages = ""
        if let reportPath, let problem = OutputFile.replace(reportPath, with: merged.json) {
            messages += "bgbudget: cannot write '\(quotedPath(reportPath))' (--report): \(problem)\n"
        }
        return reportOutcome(merged, time: nil, out: out, messages: messages)
    }
}
