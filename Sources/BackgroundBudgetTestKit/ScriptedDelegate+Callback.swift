import BackgroundBudgetCore

extension ScriptedDelegate {
    /// What the delegate received.
    ///
    /// The callbacks grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and
    /// a `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings,
    /// or in the `switch`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Callback: Sendable, Hashable, CustomStringConvertible {
        /// A lifecycle callback.
        case lifecycle(AppCallback)
        /// `application(_:didReceive:)` with a system event.
        case event(BackgroundEvent)
        /// `application(_:didObserve:)` with a notification.
        case notification(SystemNotification)
        /// `application(_:performFetchWithCompletionHandler:)`.
        case fetch
        /// A scene callback, for the scene it was about (see ``ScriptedDelegate/onScene(_:perform:)``).
        case scene(SceneCallback, SceneID)

        /// Which method received it, without its value.
        ///
        /// ```swift
        /// #expect(delegate.records(ofKind: .event).map(\.state) == [.background])
        /// ```
        ///
        /// The kinds grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and
        /// a `switch` outside this package needs an `@unknown default`.
        #if hasAttribute(nonexhaustive)
        @nonexhaustive
        #endif
        public enum Kind: Sendable, Hashable {
            /// A lifecycle callback.
            case lifecycle
            /// A system event.
            case event
            /// A notification.
            case notification
            /// A background fetch.
            case fetch
            /// A scene callback.
            case scene
        }

        /// Which method received it.
        public var kind: Kind {
            switch self {
            case .lifecycle: .lifecycle
            case .event: .event
            case .notification: .notification
            case .fetch: .fetch
            case .scene: .scene
            }
        }

        /// `applicationDidEnterBackground`, `event silentPush`, `notification …`, `performFetch`.
        public var description: String {
            switch self {
            case .lifecycle(let callback): callback.eventName
            case .event(let event): "event \(event)"
            case .notification(let notification): "notification \(notification)"
            case .fetch: "performFetch"
            case .scene(let callback, let scene): "\(callback.eventName) \(scene)"
            }
        }
    }
}
