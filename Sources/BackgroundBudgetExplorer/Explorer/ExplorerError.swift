import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Why an explorer could not be set up.
///
/// The errors grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum ExplorerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The menu has no entry.
    case emptyMenu
    /// An entry's weight is below 1 or above 1,000,000.
    case badWeight(index: Int, weight: Int)
    /// An entry's event cannot be written to a scenario file, or is a wait of no time.
    case unexplorableEvent(index: Int, String)
    /// An invariant name or parameter that the command line does not know.
    case unknownInvariant(String, known: [String])
    /// A weight names no event of the menu.
    case unknownMenuEvent(String, known: [String])
    /// A weight is not `EVENT=N` with N a whole number from 0 to 1,000,000.
    case badWeightSetting(String)

    /// What was wrong, and where.
    public var description: String {
        switch self {
        case .emptyMenu: "the explorer's menu has no event"
        case .badWeight(let index, let weight): "menu entry \(index) has weight \(weight); weights are whole numbers from 1 to 1000000"
        case .unexplorableEvent(let index, let event):
            "menu entry \(index) (\(event)) cannot be explored: waits must be positive, and tasks, submissions, notifications and cancellations belong in a behaviour"
        case .unknownInvariant(let name, let known): "unknown invariant '\(BoundedText.clipped(name))'; expected one of \(known.joined(separator: ", "))"
        case .unknownMenuEvent(let name, let known):
            "no menu event is called '\(BoundedText.clipped(name))'; the menu has \(known.joined(separator: ", "))"
        case .badWeightSetting(let text):
            "'\(text)' is not a weight: expected EVENT=N, N a whole number from 0 (leave the event out) to 1000000"
        }
    }
}
