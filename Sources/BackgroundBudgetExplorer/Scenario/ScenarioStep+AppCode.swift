import BudgetTime
import BackgroundBudgetRuntime

/// The steps that run an app's own code later: a Swift task started from a callback, and work sent to
/// a queue the app made. Both belong to the app's process, so they wait while it is suspended and
/// never run once it has ended (a purge, a kill, a crash), which is what a scenario shows with them.
///
/// ```json
/// {"do": "task", "sleep": 60, "then": [{"do": "readBackgroundTimeRemaining"}]}
/// {"do": "queue", "label": "sync", "after": 5, "then": [{"do": "work", "for": 1}]}
/// ```
extension ScenarioStep {
    /// The most steps nested under one `then`, and the deepest nesting, so that no file can make a
    /// step list without end.
    static let nestedStepLimit = 1_000
    /// The deepest `then` inside another `then`.
    static let nestingLimit = 8

    /// The verbs of the app-code steps.
    static let appCodeVocabulary: [Verb] = [
        Verb(name: "task", keys: ["sleep", "then"],
             summary: "start a Swift task (Application.task) that sleeps \"sleep\" seconds on the app's clock, then takes the steps in \"then\"; frozen while the app is suspended, gone with its process") { step throws(ScenarioError) in
            .appTask(sleep: try step.optional("sleep")?.seconds() ?? .zero, then: try nestedSteps(step))
        },
        Verb(name: "queue", keys: ["label", "after", "then"],
             summary: "make a serial queue (\"label\") and submit the steps in \"then\" to it, \"after\" seconds from now (at once without it); it waits while the app is suspended and is dropped with its process") { step throws(ScenarioError) in
            .queueWork(label: try step.optional("label")?.string() ?? "queue", after: try step.optional("after")?.seconds(),
                       then: try nestedSteps(step))
        },
    ]

    /// Reads `then`: an array of steps, checked like any other, at most ``nestedStepLimit`` of them
    /// and at most ``nestingLimit`` deep.
    private static func nestedSteps(_ step: ObjectReader) throws(ScenarioError) -> [ScenarioStep] {
        guard let list = step.optional("then") else { return [] }
        let readers = try list.array()
        guard readers.count <= nestedStepLimit else {
            throw list.error(.outOfRange(Double(readers.count), accepted: "at most \(nestedStepLimit) steps"))
        }
        let depth = list.path.description.components(separatedBy: ".then").count - 1
        guard depth <= nestingLimit else {
            throw list.error(.outOfRange(Double(depth), accepted: "\"then\" nested at most \(nestingLimit) deep"))
        }
        return try readers.map { reader throws(ScenarioError) in try Scenario.decodeStep(reader) }
    }

    /// Starts the task: it sleeps on the app's clock, then takes the steps on the app's executor.
    static func startTask(sleeping duration: Duration, then steps: [ScenarioStep], in application: Application) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            // The sleep counts from the step, not from the task's first job, which waits for the
            // callback to return (and, if the app is suspended then, for the app to run again).
            let deadline = application.clock.now + duration
            application.task {
                // Cancellation is the only error, and nothing cancels the task: it runs its steps
                // unless its process ends first, when it never wakes.
                if duration > .zero { try? await application.clock.sleep(until: deadline) }
                for step in steps { step.perform(in: application) }
            }
        } else {
            // Without task executors, the same work on the app's queue at the same instant.
            application.runLater(after: duration) { for step in steps { step.perform(in: application) } }
        }
    }

    /// Makes the queue and submits the steps to it.
    static func send(_ steps: [ScenarioStep], toQueue label: String, after delay: Duration?, in application: Application) {
        let queue = application.makeQueue(label: label)
        let work: @Sendable () -> Void = { for step in steps { step.perform(in: application) } }
        if let delay { queue.asyncAfter(delay, work) } else { queue.async(work) }
    }
}
