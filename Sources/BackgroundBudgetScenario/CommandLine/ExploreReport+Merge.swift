import BackgroundBudgetExplorer

extension ExploreReport {
    /// The report of a whole exploration from the reports of all its shards, in any order: the report
    /// `bgbudget explore` without `--shard` writes, byte for byte (when no shard was stopped short).
    /// A single report of a whole exploration is returned as it is.
    /// - Parameter reports: Each report with the file it was read from, for messages.
    /// - Throws: ``ExploreReportError`` when the reports are not every shard of one exploration, once each.
    static func merged(_ reports: [(file: String, report: ExploreReport)]) throws(ExploreReportError) -> ExploreReport {
        guard let (firstFile, first) = reports.first else { throw ExploreReportError(file: "", problem: .missingShards([], of: 0)) }
        if first.shard == nil, reports.count == 1 { return first }
        var byIndex: [Int: (file: String, report: ExploreReport)] = [:]
        var count: Int?
        for (file, report) in reports {
            guard let shard = report.shard else { throw ExploreReportError(file: file, problem: .notAShard) }
            if let count, count != shard.count { throw ExploreReportError(file: file, problem: .differentShardCounts(count, shard.count)) }
            count = shard.count
            if let option = first.setup.difference(from: report.setup) {
                let problem: ExploreReportError.Problem = option.name == "scenario"
                    ? .differentScenario(option.first, option.other) : .differentOptions(option: option.name, option.first, option.other)
                throw ExploreReportError(file: file, problem: problem)
            }
            guard byIndex[shard.index] == nil else { throw ExploreReportError(file: file, problem: .duplicateShard(shard.index + 1, of: shard.count)) }
            byIndex[shard.index] = (file, report)
        }
        let total = count ?? 1
        let missing = (0..<total).filter { byIndex[$0] == nil }
        guard missing.isEmpty else { throw ExploreReportError(file: firstFile, problem: .missingShards(missing.map { $0 + 1 }, of: total)) }
        let shards = (0..<total).compactMap { byIndex[$0] }
        var merged = ExploreReport(setup: shards[0].report.setup, shard: nil)
        for (file, report) in shards {
            let part = report.shard ?? .whole
            if let stray = report.walks.first(where: { !part.owns($0.offset) || $0.seed != report.setup.firstSeed &+ UInt64($0.offset) }) {
                throw ExploreReportError(file: file, problem: .inconsistentShards("the seeds it ran (seed \(stray.seed) at place \(stray.offset + 1) is not its own)"))
            }
            if Set(report.walks.map(\.offset)).count != report.walks.count {
                throw ExploreReportError(file: file, problem: .inconsistentShards("the seeds it ran (one is there twice)"))
            }
            merged.walks += report.walks
            if merged.stopped == nil { merged.stopped = report.stopped }
            merged.interrupted = merged.interrupted || report.interrupted
        }
        merged.walks.sort { $0.offset < $1.offset }
        let searches = shards.compactMap { shard in shard.report.exhaustive.map { (shard.file, $0) } }
        if !searches.isEmpty {
            let stopped = shards.contains { $0.report.stopped != nil }
            if !stopped, let other = searches.first(where: { $0.1.before != searches[0].1.before }) {
                throw ExploreReportError(file: other.0, problem: .inconsistentShards("the exhaustive search's levels before the last"))
            }
            merged.exhaustive = Exhaustive.combined(searches.map(\.1))
        }
        return merged
    }
}

extension ExploreReport.Exhaustive {
    /// The pieces of one exhaustive search (``ExplorerPartition``) as one: the levels before the last
    /// once, the last level's counts added up, its states united, and the first failure of each group
    /// in the order the search in one piece finds them.
    static func combined(_ parts: [Self]) -> Self {
        if parts.count == 1 { return parts[0] }
        var whole = Self(before: parts.first?.before ?? ExplorerCounts(sequencesTried: 0, eventsPerformed: 0, failingSequences: 0, statesSeen: 0))
        var states: Set<UInt64> = []
        var finds: [String: ExploreReport.Find] = [:]
        for part in parts {
            whole.lastSequences += part.lastSequences
            whole.lastEvents += part.lastEvents
            whole.lastFailing += part.lastFailing
            states.formUnion(part.lastStates)
            for find in part.finds {
                if let known = finds[find.group], let at = known.foundAt, let new = find.foundAt, !(new < at) { continue }
                finds[find.group] = find
            }
        }
        whole.lastStates = states.sorted()
        whole.lastStateCount = states.count
        whole.finds = finds.values.sorted { $0.searchOrder < $1.searchOrder }
        return whole
    }
}

extension ExploreReport.Find {
    /// Where the exhaustive search found it, as a tuple to compare (the group breaks ties).
    var searchOrder: (Int, Int, Int, String) {
        (foundAt?.level ?? -1, foundAt?.prefix ?? -1, foundAt?.entry ?? -1, group)
    }
}

extension ExploreReport.Setup {
    /// The first option in which `other` differs from this one, with both values; `nil` when they
    /// agree on all (the file's path may differ: the same file may be mounted elsewhere).
    func difference(from other: Self) -> (name: String, first: String, other: String)? {
        func list(_ values: [String]) -> String { values.isEmpty ? "none" : values.map { "'\($0)'" }.joined(separator: ", ") }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "none" }
        let pairs: [(String, String, String)] = [
            ("scenario", digest, other.digest),
            ("--invariant", list(invariantOptions), list(other.invariantOptions)),
            ("--weight", list(weights), list(other.weights)),
            ("--seeds", number(seeds), number(other.seeds)),
            ("--first-seed", String(firstSeed), String(other.firstSeed)),
            ("--sequences", String(sequences), String(other.sequences)),
            ("--length", String(length), String(other.length)),
            ("--depth", number(depth), number(other.depth)),
        ]
        return pairs.first { $0.1 != $0.2 }.map { (name: $0.0, first: $0.1, other: $0.2) }
    }
}
