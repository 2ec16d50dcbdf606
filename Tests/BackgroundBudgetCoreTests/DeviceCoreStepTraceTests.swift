import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// The trace shows what ran, in the order it ran: the core holds a delivery's entries back and records
/// each callback (with the state changes before it) when the shell reports that it started, and the
/// entries after the last callback when it returns. Each step names the exact effects and the exact
/// entries it adds to the trace.
@Suite struct DeviceCoreStepTraceTests {
    /// One input to the core.
    enum Input: Sendable {
        /// A lifecycle event for the app.
        case event(LifecycleEvent)
        /// The app's queue starts a callback of the first incarnation.
        case started(AppCallback)
        /// The callback returned.
        case returned(AppCallback)
        /// The app's queue ran a delivery of the first incarnation that settles.
        case settle
    }

    /// An input at an instant (seconds), the effects the core must return and the entries it adds.
    struct Step: Sendable {
        var at: Int64
        var input: Input
        var effects: [Effect]
        var traced: [TraceEvent.Kind]
    }

    /// A named sequence of steps, run on a fresh core with one installed app.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        var testDescription: String { name }
    }

    static let app = DeviceCoreTests.app
    static let launchSteps = DeviceCoreTests.launchSteps

    /// A launch whose callbacks run one after the other, didFinishLaunching taking 2 s.
    static let launch: [Step] = [
        Step(at: 0, input: .event(.launch), effects: [DeviceCoreTests.delivery(.launch, launchSteps)], traced: []),
        // willFinishLaunching starts the launch and its watchdog.
        Step(at: 0, input: .started(.willFinishLaunching), effects: [.arm(DeviceCoreTests.app, .watchdog, at: .seconds(20), token: 1)],
             traced: [.stateChange(.inactive, cause: .launch), .callback(.willFinishLaunching)]),
        Step(at: 0, input: .returned(.willFinishLaunching), effects: [], traced: []),
        Step(at: 0, input: .started(.didFinishLaunching), effects: [], traced: [.callback(.didFinishLaunching)]),
    ]

    static let cases: [Case] = [
        Case(name: "a launch is traced callback by callback, as the queue reaches each", steps: launch + [
            Step(at: 2, input: .returned(.didFinishLaunching), effects: [], traced: []),
            Step(at: 2, input: .started(.didBecomeActive), effects: [],
                 traced: [.stateChange(.active, cause: .launch), .callback(.didBecomeActive)]),
            Step(at: 2, input: .returned(.didBecomeActive), effects: [.disarm(DeviceCoreTests.app, .watchdog)], traced: []),
            Step(at: 2, input: .settle, effects: [], traced: []),
        ]),
        Case(name: "a kill inside didFinishLaunching: the steps after it never appear", steps: launch + [
            Step(at: 1, input: .event(.kill(.watchdog)), effects: [
                .dropQueue(app),
                .deliver(Delivery(app: app, incarnation: 1, event: .kill(.watchdog), steps: [.exit(.watchdog), .enter(.notRunning)], settles: false)),
            ] + [AppTimer.expirationWarning, .allowanceExpiry, .watchdog, .foregroundOverrun, .eventWindow, .voipKeepAlive, .fetchDeadline, .taskDeadline]
                .map { .disarm(app, $0) },
                 traced: [.exit(.watchdog, code: 0x8bad_f00d), .killedMidCallback(.didFinishLaunching),
                          .stateChange(.notRunning, cause: .kill(.watchdog))]),
            Step(at: 1, input: .started(.didBecomeActive), effects: [], traced: []),
            Step(at: 1, input: .settle, effects: [], traced: []),
        ]),
        Case(name: "the state change after an interruption's callback is traced when it returns", steps: launch + [
            Step(at: 2, input: .returned(.didFinishLaunching), effects: [], traced: []),
            Step(at: 2, input: .started(.didBecomeActive), effects: [],
                 traced: [.stateChange(.active, cause: .launch), .callback(.didBecomeActive)]),
            Step(at: 2, input: .returned(.didBecomeActive), effects: [.disarm(DeviceCoreTests.app, .watchdog)], traced: []),
            Step(at: 2, input: .settle, effects: [], traced: []),
            Step(at: 5, input: .event(.interruptionBegan), effects: [
                DeviceCoreTests.delivery(.interruptionBegan, [.callback(.willResignActive), .enter(.inactive)]),
            ], traced: []),
            Step(at: 5, input: .started(.willResignActive), effects: [], traced: [.callback(.willResignActive)]),
            Step(at: 6, input: .returned(.willResignActive), effects: [], traced: [.stateChange(.inactive, cause: .interruptionBegan)]),
        ]),
        Case(name: "a callback started that its delivery did not hold adds nothing", steps: [
            Step(at: 0, input: .event(.launch), effects: [DeviceCoreTests.delivery(.launch, launchSteps)], traced: []),
            Step(at: 0, input: .started(.didReceiveMemoryWarning), effects: [], traced: []),
        ]),
    ]

    @Test(arguments: cases) func theCoreTracesStepsAsTheyRun(_ scenario: Case) throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        for (index, step) in scenario.steps.enumerated() {
            let now = BudgetInstant.seconds(step.at)
            let before = core.trace.events.count
            core.beginDecision()
            let effects: [Effect]
            switch step.input {
            case .event(let event): effects = try core.apply(event, to: Self.app, at: now).effects
            case .started(let callback): effects = core.callbackStarted(callback, app: Self.app, incarnation: 1, at: now).effects
            case .returned(let callback): effects = core.callbackReturned(callback, app: Self.app, at: now).effects
            case .settle: effects = core.settle(Self.app, incarnation: 1, at: now).effects
            }
            #expect(effects == step.effects, "step \(index) (\(step.input) at \(step.at) s)")
            let traced = Array(core.trace.events[before...])
            #expect(traced == step.traced.map { TraceEvent(time: now, app: Self.app, kind: $0) }, "step \(index) (\(step.input) at \(step.at) s)")
        }
    }
}
