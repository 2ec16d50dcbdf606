import BackgroundBudgetExplorer
import BackgroundBudgetScenario
import Testing
import BackgroundBudget

/// One entry of the bug gallery (the *Bug gallery* article): a publicly reported, fixed
/// background-execution bug, ported as a delegate that runs the code before the fix or with it, and
/// what the explorer must find on its own.
struct GalleryBug: Sendable, CustomTestStringConvertible {
    /// The upstream report, as the article cites it (`segmentio/analytics-swift#115`).
    let name: String
    /// Makes the delegate: the code before the fix (`false`) or with it (`true`).
    let make: @Sendable (_ fixed: Bool) -> any ApplicationDelegate
    /// The events the explorer chooses from.
    let menu: ExplorerMenu
    /// The rules; the built-in ones unless the bug needs one of its own.
    let invariants: [ExplorerInvariant]
    /// The invariant the code before the fix breaks.
    let invariant: String
    /// The one sequence every find shrinks to (events that commute in menu order).
    let minimal: [ExplorerEvent]
    /// The scenario the app runs in: the gallery's one app, unless the bug needs a manifest of its own.
    var scenario: String = Gallery.scenario

    var testDescription: String { name }

    /// An explorer of the one-app scenario with the delegate before the fix or with it.
    func explorer(fixed: Bool) throws -> Explorer {
        let make = make
        let target = try ExplorerTarget(json: scenario, delegates: [Gallery.app: { make(fixed) }])
        return try Explorer(target: target, invariants: invariants, menu: menu)
    }
}
