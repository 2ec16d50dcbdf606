/// The error ``BackgroundBudgetRuntime/BackgroundSystem/checkNothingPending(allowing:)`` throws: what is still outstanding.
///
/// ```swift
/// do { try system.checkNothingPending() } catch { #expect(error.items.map(\.kind) == [.timer]) }
/// ```
public struct PendingWorkError: Error, Sendable, CustomStringConvertible {
    /// The outstanding items, none allowed.
    public var items: [PendingWork]

    /// `2 items still pending:` then one line per item.
    public var description: String {
        "\(items.count) item\(items.count == 1 ? "" : "s") still pending:\n" + items.map { "  \($0)\n" }.joined()
    }
}
