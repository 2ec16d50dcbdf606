/// Why `bgbudget merge` refused its reports: a file that is not a report this build reads, or a set of
/// reports that are not the shards of one exploration. Nothing is merged or written then.
struct ExploreReportError: Error, Hashable, CustomStringConvertible {
    /// What was wrong.
    enum Problem: Hashable {
        /// The file could not be read: the reason.
        case unreadable(String)
        /// The file is not JSON: the parser's message.
        case malformedJSON(String)
        /// The file is JSON but not an explore report (no `"format": "bgbudget-explore-report"`).
        case notAReport
        /// A report of another version.
        case unsupportedVersion(Double)
        /// A member is missing or of the wrong kind: its JSONPath and what it should be.
        case badField(path: String, expected: String)
        /// Two reports explored different scenario files (their digests differ).
        case differentScenario(String, String)
        /// Two reports explored with different options: which, and the two values.
        case differentOptions(option: String, String, String)
        /// The reports were split into different numbers of shards.
        case differentShardCounts(Int, Int)
        /// A shard's report was given twice (1-based).
        case duplicateShard(Int, of: Int)
        /// Shards' reports are missing (1-based).
        case missingShards([Int], of: Int)
        /// A report of a whole exploration, given with others.
        case notAShard
        /// Two shards disagree on what every shard computes alike (the levels before the exhaustive
        /// search's last): they were not made by the same build, or a report was edited.
        case inconsistentShards(String)
    }

    /// The report file the problem is in, or the first of those that disagree.
    var file: String
    var problem: Problem

    var description: String {
        let quoted = ScenarioCommand.quotedPath(file)
        switch problem {
        case .unreadable(let reason):
            return "cannot read '\(quoted)': \(reason)"
        case .malformedJSON(let message):
            return "'\(quoted)' is not an explore report: \(message)"
        case .notAReport:
            return "'\(quoted)' is not an explore report (no \"format\": \"\(ExploreReport.format)\"; write one with bgbudget explore --report)"
        case .unsupportedVersion(let version):
            return "'\(quoted)' is an explore report of version \(plainVersion(version)); this bgbudget reads version \(ExploreReport.version)"
        case .badField(let path, let expected):
            return "'\(quoted)': \(path) must be \(expected)"
        case .differentScenario(let first, let other):
            return "'\(quoted)' explored another scenario file (digest \(other), not \(first)): every shard must explore the same file"
        case .differentOptions(let option, let first, let other):
            return "'\(quoted)' explored with \(option) \(other), not \(first): every shard must have the same options (all but --shard, --jobs, --time-limit, --force, --out and --report)"
        case .differentShardCounts(let first, let other):
            return "'\(quoted)' is a shard of \(other), not of \(first)"
        case .duplicateShard(let index, let count):
            return "'\(quoted)' is shard \(index)/\(count) again: give each shard's report once"
        case .missingShards(let missing, let count):
            let list = missing.prefix(20).map { "\($0)/\(count)" }.joined(separator: ", ")
            return "the reports of shard\(missing.count == 1 ? "" : "s") \(list)\(missing.count > 20 ? " and \(missing.count - 20) more" : "") are missing: "
                + "merge needs every shard's report"
        case .notAShard:
            return "'\(quoted)' is the report of a whole exploration, not of a shard: there is nothing to merge it with"
        case .inconsistentShards(let what):
            return "'\(quoted)' disagrees with the other shards on \(what), which every shard computes alike: were they made by the same bgbudget?"
        }
    }

    private func plainVersion(_ version: Double) -> String {
        version == version.rounded() && abs(version) < 1e15 ? String(Int64(version)) : String(version)
    }
}
