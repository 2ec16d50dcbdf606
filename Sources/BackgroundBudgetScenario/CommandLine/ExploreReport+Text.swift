extension ExploreReport {
    /// The header: `explore FILE: 1 app(s), 40 events to choose from, invariants: …`.
    var header: String {
        "explore \(setup.file): \(setup.apps) app(s), \(setup.menuEvents) events to choose from, "
            + "invariants: \(setup.invariants.joined(separator: ", "))"
    }

    /// What `explore` and `merge` print: the header, the walks' and the search's counts, where it
    /// stopped short, and each group of failures with its smallest minimum.
    /// - Parameter time: The wall-clock seconds `explore` took, or `nil` (`merge`).
    func text(time: String?) -> String {
        var lines = [header]
        if let shard {
            lines.append("shard \(shard.index + 1)/\(shard.count): the seeds at places \(shard.index + 1), \(shard.index + 1 + shard.count), … "
                + "of \(setup.seeds ?? 0), and the exhaustive search's last level likewise; "
                + "'bgbudget merge' joins the reports (--report) of all \(shard.count) shards")
        }
        if let seeds = setup.seeds {
            let planned = plannedSeeds.count, run = walks.count
            let tried = walks.reduce(0) { $0 + $1.sequencesTried }
            let failing = walks.filter { $0.find != nil }.count
            lines.append("random walks: \(seeds) seeds from \(setup.firstSeed), up to \(setup.sequences) sequences of \(setup.length) events each: "
                + "sequences tried: \(tried), seeds that found a failure: \(failing)/\(run == planned ? planned : run)"
                + (run == planned ? "" : " (\(run) of \(planned) seeds run)"))
        }
        if let search = exhaustive, let depth = setup.depth {
            lines.append("exhaustive search to depth \(depth): sequences tried: \(search.sequencesTried), states seen: \(search.statesSeen), "
                + "failing sequences: \(search.failingSequences)")
        }
        if let stopped { lines.append("\(stopped): the search did not finish; what it found so far follows") }
        let groups = groups
        lines.append("distinct shrunk failures: \(groups.count)" + (time.map { ", time: \($0) s" } ?? ""))
        for group in groups {
            lines.append(group.headline)
            lines.append(group.minimum.description)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `bgbudget: 2 invariants broke: dataSaved, noWatchdogKill`, or `nil` when none broke.
    var brokeMessage: String? {
        var names: [String] = []
        for group in groups where !names.contains(group.minimum.invariant) { names.append(group.minimum.invariant) }
        guard !names.isEmpty else { return nil }
        return "bgbudget: \(names.count) invariant\(names.count == 1 ? "" : "s") broke: \(names.joined(separator: ", "))\n"
    }
}
