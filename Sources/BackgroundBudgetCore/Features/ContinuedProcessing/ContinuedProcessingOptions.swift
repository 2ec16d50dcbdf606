import BudgetTime

/// What a continued-processing request asks for besides its identifier
/// (`BGContinuedProcessingTaskRequest`, iOS 26 [S47][S53]).
public struct ContinuedProcessingOptions: Sendable, Hashable {
    /// What `submit` does when the task cannot start at once (`SubmissionStrategy`) [S55].
    ///
    /// The set is closed, so this is a plain enum: a `switch` over it needs no `default`.
    public enum SubmissionStrategy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Put the request at the back of the system's queue; it starts as soon as it can. The
        /// default. Queued requests are cancelled when the user removes the app from the app switcher.
        case queue
        /// Refuse the request with ``TaskSchedulerError/Code/immediateRunIneligible``.
        case fail

        /// The strategy's name.
        public var description: String { rawValue }
    }

    /// What the system shows the user for the task.
    public var title: String
    /// The line under the title.
    public var subtitle: String
    /// What to do when the task cannot start at once.
    public var strategy: SubmissionStrategy
    /// Whether the task needs the GPU in the background (`requiredResources = .gpu`); refused on a
    /// device that does not support it (`BackgroundSystem.setSupportsBackgroundGPU(_:)`).
    public var requiresGPU: Bool

    /// Creates options.
    /// - Parameters:
    ///   - title: What the system shows the user.
    ///   - subtitle: The line under the title.
    ///   - strategy: ``SubmissionStrategy/queue`` by default.
    ///   - requiresGPU: `false` by default.
    public init(title: String, subtitle: String, strategy: SubmissionStrategy = .queue, requiresGPU: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiresGPU = requiresGPU
    }
}
