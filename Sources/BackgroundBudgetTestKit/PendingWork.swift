import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Something a ``/BackgroundBudget/BackgroundSystem`` still has outstanding: an armed deadline, an open task, work on an
/// app's queue, a delivery not settled. ``BackgroundBudgetRuntime/BackgroundSystem/pendingWork(allowing:)`` lists them;
/// `expectNothingPending` fails for each.
///
/// ```swift
/// for item in system.pendingWork() { print(item) }   // news: open background task 1 "upload"
/// ```
public struct PendingWork: Sendable, Hashable, CustomStringConvertible {
    /// What kind of item it is.
    ///
    /// ```swift
    /// #expect(system.pendingWork().map(\.kind) == [.timer, .timer, .openBackgroundTask])
    /// ```
    ///
    /// The kinds grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Work armed on the ``/BudgetClock/VirtualClock`` that is not one of the system's timers (the test's own).
        case clockDeadline
        /// One of the system's timers for an app: allowance warning or expiry, watchdog, event window, …
        case timer
        /// A finite background task begun and not ended.
        case openBackgroundTask
        /// A `BGTaskScheduler` task handed to the app and not completed.
        case runningScheduledTask
        /// A submitted `BGTaskScheduler` request that has not run yet.
        case pendingTaskRequest
        /// A continued-processing request waiting in the system's queue.
        case queuedContinuedRequest
        /// A background fetch started and not completed.
        case runningFetch
        /// A continuous activity (audio, navigation, …) still running.
        case activity
        /// Work on the app's queue not yet run (held while the app is suspended).
        case queuedWork
        /// Deliveries or handler batches handed to the app and not yet settled.
        case unsettledDelivery
        /// System events held until the app next runs.
        case heldEvents
        /// Notifications held (coalesced) for a suspended app.
        case heldNotifications

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// What kind of item it is.
    public var kind: Kind
    /// The app it belongs to; `nil` for the clock's own deadlines.
    public var app: AppID?
    /// What it is, e.g. `news: open background task 1 "upload"`.
    public var description: String

    /// Creates an item (the system's own come from ``BackgroundBudgetRuntime/BackgroundSystem/pendingWork(allowing:)``).
    ///
    /// ```swift
    /// let item = PendingWork(kind: .queuedWork, app: "news", description: "news: 2 items on its queue")
    /// ```
    public init(kind: Kind, app: AppID?, description: String) {
        self.kind = kind
        self.app = app
        self.description = description
    }
}

extension PendingWork {
    /// Leftovers a test expects, which ``BackgroundBudgetRuntime/BackgroundSystem/pendingWork(allowing:)`` leaves out.
    ///
    /// ```swift
    /// system.expectNothingPending(allowing: [.heldWork(of: app), .kind(.pendingTaskRequest)])
    /// ```
    public struct Allowance: Sendable {
        private let predicate: @Sendable (PendingWork) -> Bool

        /// Allows every item `predicate` accepts.
        ///
        /// ```swift
        /// .matching { $0.description.contains("upload") }
        /// ```
        public static func matching(_ predicate: @escaping @Sendable (PendingWork) -> Bool) -> Allowance {
            Allowance(predicate: predicate)
        }

        /// Allows every item of a kind.
        ///
        /// ```swift
        /// .kind(.clockDeadline)
        /// ```
        public static func kind(_ kind: PendingWork.Kind) -> Allowance {
            matching { $0.kind == kind }
        }

        /// Allows everything one app has outstanding.
        ///
        /// ```swift
        /// .everything(of: player)
        /// ```
        public static func everything(of app: Application) -> Allowance {
            let id = app.id
            return matching { $0.app == id }
        }

        /// Allows what a suspended app holds until it next runs: work on its queue, deliveries not yet
        /// settled, held events and notifications.
        ///
        /// ```swift
        /// .heldWork(of: app)
        /// ```
        public static func heldWork(of app: Application) -> Allowance {
            let id = app.id
            let held: Set<PendingWork.Kind> = [.queuedWork, .unsettledDelivery, .heldEvents, .heldNotifications]
            return matching { $0.app == id && held.contains($0.kind) }
        }

        /// Whether the item is allowed.
        ///
        /// ```swift
        /// #expect(PendingWork.Allowance.kind(.timer).allows(item))
        /// ```
        public func allows(_ item: PendingWork) -> Bool {
            predicate(item)
        }
    }
}
