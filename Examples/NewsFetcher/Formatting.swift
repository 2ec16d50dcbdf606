import BackgroundBudget

/// `07:05`, or `07:05:25` with seconds.
func clockTime(_ instant: BudgetInstant, seconds: Bool = false) -> String {
    let total = instant.nanoseconds / 1_000_000_000
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return two(total / 3_600) + ":" + two(total / 60 % 60) + (seconds ? ":" + two(total % 60) : "")
}

/// `3 newData, 1 noData` for the counts of some names, in a fixed order.
func counts(_ names: [String], order: [String]) -> String {
    order.compactMap { name in
        let count = names.filter { $0 == name }.count
        return count == 0 ? nil : "\(count) \(name)"
    }.joined(separator: ", ")
}

/// Prints items a few to a line.
func printColumns(_ items: [String], perLine: Int) {
    for start in stride(from: 0, to: items.count, by: perLine) {
        print("  " + items[start..<min(start + perLine, items.count)].joined(separator: "   "))
    }
}
