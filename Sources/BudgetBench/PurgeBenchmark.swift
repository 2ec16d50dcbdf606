import BackgroundBudget

/// `purge_us_<n>`: one purge under memory pressure on a ``BackgroundSystem`` with n suspended apps
/// (1k, 10k, 100k, 1M): the capacity is set one byte below the memory in use, and the system picks
/// and purges the app the policy's order names (largest footprint first by default).
///
/// The baseline is what a skeptic would write instead: a locked dictionary of the suspended apps'
/// footprints with a plain binary max-heap beside it (``PlainPurgeTable``), lowered to the same
/// capacity in turn with the system (the two alternating which goes first). The note also gives
/// `purge(_:)` of an app named by the caller on the same system, which needs no search: the
/// difference is what finding the victim adds. Each figure is the median of 101 purges, wall time;
/// `purge_cpu_us_<n>` is the thread's CPU time. No target: the system's purge also moves the app
/// through its lifecycle, records it and tells observers, which the table does not.
struct PurgeBenchmark: Benchmark {
    static let sizes = [1_000, 10_000, 100_000, 1_000_000]
    static let purges = 101

    var figureNames: [String] {
        Self.sizes.flatMap { ["purge_us_\(sizeName($0))", "purge_cpu_us_\(sizeName($0))"] }
    }

    func run() -> [Figure] {
        let filters = CommandLine.arguments.dropFirst()
        var figures: [Figure] = []
        for size in Self.sizes where filters.isEmpty || filters.contains(where: { "purge_us_\(sizeName(size)) purge_cpu_us_\(sizeName(size))".contains($0) }) {
            let setupStart = nowNanoseconds()
            let (system, apps) = Self.device(apps: size)
            let setup = Double(nowNanoseconds() - setupStart) / 1e9
            let table = PlainPurgeTable(footprints: (0..<size).map { 1_000_000 + $0 * 1_000 })
            var pressure: [Cost] = [], named: [Cost] = [], plain: [Cost] = []
            for index in 0..<Self.purges {
                let target = system.memoryInUse - 1, plainTarget = table.memoryInUse - 1
                if index % 2 == 0 { pressure.append(Cost.of { system.setMemoryCapacity(target) }) }
                plain.append(Cost.of { table.setMemoryCapacity(plainTarget) })
                if index % 2 == 1 { pressure.append(Cost.of { system.setMemoryCapacity(target) }) }
                // The smallest apps, which pressure never picks first.
                let victim = apps[index]
                named.append(Cost.of { try! system.purge(victim) })
                table.purge(index)
            }
            let byPressure = medianCost(pressure), byName = medianCost(named), byTable = medianCost(plain)
            let note = "\(size) suspended apps (set up in \(String(format3: setup)) s), median of \(Self.purges); "
                + "purge(named app) on the system \(String(format3: byName.wall / 1e3)) us wall, \(String(format3: byName.cpu / 1e3)) us CPU; \(loadNote())"
            figures += [
                Figure(name: "purge_us_\(sizeName(size))", value: byPressure.wall / 1e3, unit: "us", baseline: "locked_dictionary_max_heap",
                       baselineValue: byTable.wall / 1e3, note: "setMemoryCapacity(inUse - 1) purges one app; wall time; " + note),
                Figure(name: "purge_cpu_us_\(sizeName(size))", value: byPressure.cpu / 1e3, unit: "us", baseline: "locked_dictionary_max_heap",
                       baselineValue: byTable.cpu / 1e3, note: "the same, thread CPU time"),
            ]
        }
        return figures
    }

    /// A device with `count` suspended apps of distinct footprints (the first apps smallest).
    static func device(apps count: Int) -> (BackgroundSystem, [Application]) {
        let system = BackgroundSystem(clock: VirtualClock(), traceRetention: .none)
        var apps: [Application] = []
        apps.reserveCapacity(count)
        for index in 0..<count {
            var manifest = AppManifest(id: AppID(rawValue: "com.example.app\(index)"))
            manifest.memoryFootprint = 1_000_000 + index * 1_000
            let app = try! system.install(manifest)
            try! system.open(app)
            apps.append(app)
        }
        try! system.pressHome()
        return (system, apps)
    }
}
