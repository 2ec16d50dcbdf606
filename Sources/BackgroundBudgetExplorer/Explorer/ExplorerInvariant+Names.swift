import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension ExplorerInvariant {
    /// The names ``named(_:)`` reads.
    public static let names = ["noWatchdogKill", "noKillWithOpenTask[:anyExit]", "everyTaskEndsOnce[:anyExit]",
                               "scheduledTaskCompletes[:anyExit]", "noCallbackAfterExit", "noSelfInflictedExit", "dataSaved:CALLBACK[,CALLBACK…]", "all"]

    /// The built-in invariants a command-line name gives: one of ``builtIn`` by name, `all` for every
    /// one of them, or `dataSaved:` with the callbacks that save, by trace name and comma-separated
    /// (`dataSaved:applicationDidEnterBackground,applicationWillTerminate`). `:anyExit` after
    /// `noKillWithOpenTask`, `everyTaskEndsOnce`, `scheduledTaskCompletes` or a `dataSaved` list counts
    /// exits the app cannot prevent too (``isBeyondTheAppsControl(_:)``).
    /// - Parameter name: The name.
    /// - Returns: The invariants.
    /// - Throws: ``ExplorerError/unknownInvariant(_:known:)`` for another name or callback.
    public static func named(_ name: String) throws(ExplorerError) -> [ExplorerInvariant] {
        if name == "all" { return builtIn }
        if let invariant = builtIn.first(where: { $0.name == name }) { return [invariant] }
        let anyExit = ":anyExit"
        let all = name.hasSuffix(anyExit)
        let base = all ? String(name.dropLast(anyExit.count)) : name
        switch base {
        case "noKillWithOpenTask" where all: return [noKillWithOpenTask(countingExitsTheAppCannotPrevent: true)]
        case "everyTaskEndsOnce" where all: return [everyTaskEndsOnce(countingExitsTheAppCannotPrevent: true)]
        case "scheduledTaskCompletes" where all: return [scheduledTaskCompletes(countingExitsTheAppCannotPrevent: true)]
        default: break
        }
        let prefix = "dataSaved:"
        guard base.hasPrefix(prefix) else { throw .unknownInvariant(name, known: names) }
        let callbacks = base.dropFirst(prefix.count).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var saving: Set<AppCallback> = []
        for callback in callbacks {
            guard let parsed = AppCallback(eventName: callback) else {
                throw .unknownInvariant(name, known: AppCallback.allCases.map { prefix + $0.eventName })
            }
            saving.insert(parsed)
        }
        return [dataSaved(by: saving, countingExitsTheAppCannotPrevent: all)]
    }
}
