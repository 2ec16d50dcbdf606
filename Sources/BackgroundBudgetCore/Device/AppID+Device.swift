import BudgetTime

extension AppID {
    /// The identifier device-wide trace entries (``TraceEvent/Kind/deviceChanged(_:)``) carry. It is not a
    /// valid bundle identifier, so no app can have it.
    public static let device: AppID = "(device)"
}
