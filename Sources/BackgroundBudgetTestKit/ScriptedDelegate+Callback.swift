import BackgroundBudgetCore

extension ScriptedDelegate {
    /// What the delegate received.
    ///
    /// The callbacks grow as the model does, so this is a struct with a static member (a static function for one
    /// with values) per callback rather than an enum: a new one is not a breaking change. Compare with `==`, or
    /// match in a `switch` that has a `default`; read a callback's values through the property of its name.
    public struct Callback: Sendable, Hashable, CustomStringConvertible {
        /// The callbacks the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case lifecycle(AppCallback)
            case event(BackgroundEvent)
            case notification(SystemNotification)
            case fetch
            case scene(SceneCallback, SceneID)
        }

        /// The callback, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// A lifecycle callback.
        public static func lifecycle(_ appCallback: AppCallback) -> Callback { Callback(.lifecycle(appCallback)) }
        /// What a ``lifecycle(_:)`` callback carries; `nil` for any other callback.
        public var lifecycle: AppCallback? {
            if case .lifecycle(let v0) = base { v0 } else { nil }
        }

        /// `application(_:didReceive:)` with a system event.
        public static func event(_ backgroundEvent: BackgroundEvent) -> Callback { Callback(.event(backgroundEvent)) }
        /// What an ``event(_:)`` callback carries; `nil` for any other callback.
        public var event: BackgroundEvent? {
            if case .event(let v0) = base { v0 } else { nil }
        }

        /// `application(_:didObserve:)` with a notification.
        public static func notification(_ systemNotification: SystemNotification) -> Callback {
            Callback(.notification(systemNotification))
        }
        /// What a ``notification(_:)`` callback carries; `nil` for any other callback.
        public var notification: SystemNotification? {
            if case .notification(let v0) = base { v0 } else { nil }
        }

        /// `application(_:performFetchWithCompletionHandler:)`.
        public static let fetch = Callback(.fetch)

        /// A scene callback, for the scene it was about (see ``ScriptedDelegate/onScene(_:perform:)``).
        public static func scene(_ sceneCallback: SceneCallback, _ sceneID: SceneID) -> Callback {
            Callback(.scene(sceneCallback, sceneID))
        }
        /// What a ``scene(_:_:)`` callback carries; `nil` for any other callback.
        public var scene: (SceneCallback, SceneID)? {
            if case .scene(let v0, let v1) = base { (v0, v1) } else { nil }
        }

        /// Which method received it, without its value.
        ///
        /// ```swift
        /// #expect(delegate.records(ofKind: .event).map(\.state) == [.background])
        /// ```
        ///
        /// The kinds grow as the model does, so this is a struct with a static member per kind rather than an enum:
        /// a new one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            /// The kinds the model knows, for the package's own exhaustive switches.
            package enum Base: Sendable, Hashable {
                case lifecycle
                case event
                case notification
                case fetch
                case scene
            }

            /// The kind, for the package's own exhaustive switches.
            package let base: Base

            package init(_ base: Base) { self.base = base }

            /// A lifecycle callback.
            public static let lifecycle = Kind(.lifecycle)
            /// A system event.
            public static let event = Kind(.event)
            /// A notification.
            public static let notification = Kind(.notification)
            /// A background fetch.
            public static let fetch = Kind(.fetch)
            /// A scene callback.
            public static let scene = Kind(.scene)

            /// The kind's name, as Swift prints an enum case.
            public var description: String { "\(base)" }
        }

        /// Which method received it.
        public var kind: Kind {
            switch base {
            case .lifecycle: .lifecycle
            case .event: .event
            case .notification: .notification
            case .fetch: .fetch
            case .scene: .scene
            }
        }

        /// `applicationDidEnterBackground`, `event silentPush`, `notification …`, `performFetch`.
        public var description: String {
            switch base {
            case .lifecycle(let callback): callback.eventName
            case .event(let event): "event \(event)"
            case .notification(let notification): "notification \(notification)"
            case .fetch: "performFetch"
            case .scene(let callback, let scene): "\(callback.eventName) \(scene)"
            }
        }
    }
}
