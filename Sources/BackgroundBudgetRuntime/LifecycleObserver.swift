/// A token for a lifecycle observer; pass it to ``Application/removeObserver(_:)``.
import BackgroundBudgetCore

public struct LifecycleObserver: Sendable, Hashable {
    let app: AppID
    let token: Int
}
