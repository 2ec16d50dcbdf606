import BackgroundBudgetCore
import BudgetTime

/// One expected entry of a trace, for ``checkTrace(_:app:_:comparing:)`` and `expectTrace`.
///
/// A step names a kind of entry (its ``tag``) and what the entry must say: a callback, a new state,
/// an exact ``/BackgroundBudgetCore/TraceEvent/Kind``, or any entry of a kind. Add ``at(_:)`` to require the time as well.
///
/// ```swift
/// expectTrace(system, app: app, [
///     .state(.background), .callback(.didEnterBackground),
///     .any(.expirationHandlerCalled).at(.seconds(25)),
///     .exit(.backgroundTaskExpired),
/// ], comparing: .inOrder)
/// ```
public struct TraceStep: Sendable, CustomStringConvertible {
    /// How the expected steps are compared with the trace.
    ///
    /// ```swift
    /// expectTrace(system, app: app, [.callback(.didEnterBackground)], comparing: .inOrder)
    /// ```
    ///
    /// The comparisons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change,
    /// and a `switch` outside this package needs an `@unknown default`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Comparison: Sendable, Hashable {
        /// The app's entries of the kinds the steps mention (callbacks, state changes, …), all of them,
        /// in order: other kinds are ignored. The default.
        case mentionedKinds
        /// Every one of the app's entries, in order.
        case everyEntry
        /// The steps appear in order among the app's entries, with anything in between.
        case inOrder
    }

    /// The kind of entry the step matches.
    public let tag: TraceEvent.Kind.Tag
    /// The expected entry as the mismatch message prints it.
    public let description: String
    private let predicate: @Sendable (TraceEvent) -> Bool

    /// A step of kind `tag` that holds when `predicate` does; `description` is printed on a mismatch.
    ///
    /// ```swift
    /// .matching(.workDropped, "work dropped") { if case .workDropped(let count) = $0.kind { count > 0 } else { false } }
    /// ```
    public static func matching(_ tag: TraceEvent.Kind.Tag, _ description: String,
                                where predicate: @escaping @Sendable (TraceEvent) -> Bool) -> TraceStep {
        TraceStep(tag: tag, description: description) { $0.kind.tag == tag && predicate($0) }
    }

    /// The system called a delegate method.
    ///
    /// ```swift
    /// .callback(.didEnterBackground)
    /// ```
    public static func callback(_ callback: AppCallback) -> TraceStep {
        exactly(.callback(callback))
    }

    /// The app's state changed to `state`, for any cause.
    ///
    /// ```swift
    /// .state(.suspended)
    /// ```
    public static func state(_ state: ApplicationState) -> TraceStep {
        matching(.stateChange, "stateChange state=\"\(state.rawValue)\"") { $0.state == state }
    }

    /// The app's state changed to `state` because of `cause`.
    ///
    /// ```swift
    /// .state(.suspended, cause: .suspend(.backgroundTasksEnded))
    /// ```
    public static func state(_ state: ApplicationState, cause: LifecycleEvent) -> TraceStep {
        exactly(.stateChange(state, cause: cause))
    }

    /// The app's process exited for `reason`, with any termination code.
    ///
    /// ```swift
    /// .exit(.backgroundTaskExpired)
    /// ```
    public static func exit(_ reason: TerminationReason) -> TraceStep {
        matching(.exit, "exit reason=\"\(reason.rawValue)\"") {
            if case .exit(reason, _) = $0.kind { true } else { false }
        }
    }

    /// An entry of exactly this kind, values included.
    ///
    /// ```swift
    /// .exactly(.backgroundTaskBegan(BackgroundTaskIdentifier(rawValue: 1), name: "upload"))
    /// ```
    public static func exactly(_ kind: TraceEvent.Kind) -> TraceStep {
        let sample = TraceEvent(time: .zero, app: "x", kind: kind).description
        // The description of an entry starts with its time and app; keep the rest.
        let text = sample.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? "\(kind)"
        return TraceStep(tag: kind.tag, description: text) { $0.kind == kind }
    }

    /// Any entry of a kind, whatever its values.
    ///
    /// ```swift
    /// .any(.expirationHandlerCalled)
    /// ```
    public static func any(_ tag: TraceEvent.Kind.Tag) -> TraceStep {
        TraceStep(tag: tag, description: "any \(tag)") { $0.kind.tag == tag }
    }

    /// This step, also requiring that the entry happened at `instant`.
    ///
    /// ```swift
    /// .callback(.didEnterBackground).at(.seconds(10))
    /// ```
    public func at(_ instant: BudgetInstant) -> TraceStep {
        let predicate = self.predicate
        return TraceStep(tag: tag, description: "\(description) at \(instant)") { $0.time == instant && predicate($0) }
    }

    /// Whether `event` is what this step expects.
    ///
    /// ```swift
    /// #expect(TraceStep.callback(.didBecomeActive).matches(event))
    /// ```
    public func matches(_ event: TraceEvent) -> Bool {
        predicate(event)
    }

    private init(tag: TraceEvent.Kind.Tag, description: String, predicate: @escaping @Sendable (TraceEvent) -> Bool) {
        self.tag = tag
        self.description = description
        self.predicate = predicate
    }
}
