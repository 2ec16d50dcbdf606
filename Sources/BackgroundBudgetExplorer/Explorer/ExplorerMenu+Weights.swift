import BackgroundBudgetRuntime

extension ExplorerMenu {
    /// The name a weight calls an entry by: its action's name (`open`, `home`, `reboot`,
    /// `setLowPowerMode`), `wait` or `advance`. ``weighted(_:)`` also takes the entry's whole
    /// description (`open com.example.notes`, `wait 60 s`, `setLowPowerMode enabled: true`).
    /// - Parameter event: The event.
    /// - Returns: Its name.
    public static func name(of event: ExplorerEvent) -> String {
        switch event {
        case .wait: "wait"
        case .advance: "advance"
        case .act(let action): action.name
        }
    }

    /// The names and descriptions a weight can give, in menu order, each once.
    public var weightNames: [String] {
        var names: [String] = []
        for entry in entries {
            for name in [Self.name(of: entry.event), entry.event.description] where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// This menu with some weights changed, in order: each names entries by their name (every entry
    /// of that kind: `open` for opening any app) or their whole description (one entry: `wait 600 s`),
    /// and gives them a weight; 0 leaves them out.
    ///
    /// ```swift
    /// let menu = try ExplorerMenu.standard(for: ["com.example.feed"])
    ///     .weighted([("reboot", 0), ("advance", 10), ("wait 600 s", 5)])
    /// ```
    /// - Parameter weights: The names and their weights, from 0 to 1,000,000; a later one wins.
    /// - Returns: The menu.
    /// - Throws: ``ExplorerError/unknownMenuEvent(_:known:)`` for a name no entry has,
    ///   ``ExplorerError/badWeight(index:weight:)`` for a weight out of range, ``ExplorerError/emptyMenu``
    ///   when every entry is left out.
    public func weighted(_ weights: [(name: String, weight: Int)]) throws(ExplorerError) -> ExplorerMenu {
        var changed = entries
        for (index, setting) in weights.enumerated() {
            guard (0...1_000_000).contains(setting.weight) else { throw .badWeight(index: index, weight: setting.weight) }
            var matched = false
            for position in changed.indices
            where Self.name(of: changed[position].event) == setting.name || changed[position].event.description == setting.name {
                changed[position].weight = setting.weight
                matched = true
            }
            guard matched else { throw .unknownMenuEvent(setting.name, known: weightNames) }
        }
        return try ExplorerMenu(changed.filter { $0.weight > 0 })
    }

    /// This menu with weights read from command-line settings, `EVENT=N` each (see ``weighted(_:)``).
    /// - Parameter settings: The settings, in order.
    /// - Returns: The menu.
    /// - Throws: ``ExplorerError/badWeightSetting(_:)`` for a setting that is not `EVENT=N`, or what
    ///   ``weighted(_:)`` throws.
    public func weighted(settings: [String]) throws(ExplorerError) -> ExplorerMenu {
        var weights: [(name: String, weight: Int)] = []
        for setting in settings {
            guard let equals = setting.lastIndex(of: "="), let weight = Int(setting[setting.index(after: equals)...]),
                  (0...1_000_000).contains(weight), equals > setting.startIndex else { throw .badWeightSetting(setting) }
            weights.append((String(setting[..<equals]), weight))
        }
        return try weighted(weights)
    }
}
