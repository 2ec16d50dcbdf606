import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Why an explorer could not be set up.
///
/// The errors grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per error rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an error's values through the property of its name.
public struct ExplorerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case emptyMenu
        case badWeight(index: Int, weight: Int)
        case unexplorableEvent(index: Int, String)
        case unknownInvariant(String, known: [String])
        case unknownMenuEvent(String, known: [String])
        case badWeightSetting(String)
    }

    /// The error, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The menu has no entry.
    public static let emptyMenu = ExplorerError(.emptyMenu)

    /// An entry's weight is below 1 or above 1,000,000.
    public static func badWeight(index: Int, weight: Int) -> ExplorerError {
        ExplorerError(.badWeight(index: index, weight: weight))
    }
    /// What a ``badWeight(index:weight:)`` error carries; `nil` for any other error.
    public var badWeight: (index: Int, weight: Int)? {
        if case .badWeight(let v0, let v1) = base { (index: v0, weight: v1) } else { nil }
    }

    /// An entry's event cannot be written to a scenario file, or is a wait of no time.
    public static func unexplorableEvent(index: Int, _ value: String) -> ExplorerError {
        ExplorerError(.unexplorableEvent(index: index, value))
    }
    /// What an ``unexplorableEvent(index:_:)`` error carries; `nil` for any other error.
    public var unexplorableEvent: (index: Int, String)? {
        if case .unexplorableEvent(let v0, let v1) = base { (index: v0, v1) } else { nil }
    }

    /// An invariant name or parameter that the command line does not know.
    public static func unknownInvariant(_ value: String, known: [String]) -> ExplorerError {
        ExplorerError(.unknownInvariant(value, known: known))
    }
    /// What an ``unknownInvariant(_:known:)`` error carries; `nil` for any other error.
    public var unknownInvariant: (String, known: [String])? {
        if case .unknownInvariant(let v0, let v1) = base { (v0, known: v1) } else { nil }
    }

    /// A weight names no event of the menu.
    public static func unknownMenuEvent(_ value: String, known: [String]) -> ExplorerError {
        ExplorerError(.unknownMenuEvent(value, known: known))
    }
    /// What an ``unknownMenuEvent(_:known:)`` error carries; `nil` for any other error.
    public var unknownMenuEvent: (String, known: [String])? {
        if case .unknownMenuEvent(let v0, let v1) = base { (v0, known: v1) } else { nil }
    }

    /// A weight is not `EVENT=N` with N a whole number from 0 to 1,000,000.
    public static func badWeightSetting(_ value: String) -> ExplorerError { ExplorerError(.badWeightSetting(value)) }
    /// What a ``badWeightSetting(_:)`` error carries; `nil` for any other error.
    public var badWeightSetting: String? {
        if case .badWeightSetting(let v0) = base { v0 } else { nil }
    }

    /// What was wrong, and where.
    public var description: String {
        switch base {
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
