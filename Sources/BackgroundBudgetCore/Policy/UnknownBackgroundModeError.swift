import BudgetTime

/// A `UIBackgroundModes` string that names no mode.
public struct UnknownBackgroundModeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The string.
    public var value: String
    /// Its index in the array.
    public var index: Int

    /// Creates an error.
    public init(value: String, index: Int) {
        self.value = value
        self.index = index
    }

    /// A sentence naming the value and listing the accepted ones.
    public var description: String {
        "UIBackgroundModes[\(index)]: unknown mode \"\(value)\"; accepted: "
            + BackgroundModes.all.map { "\"\($0.plistValue)\"" }.joined(separator: ", ")
    }
}
