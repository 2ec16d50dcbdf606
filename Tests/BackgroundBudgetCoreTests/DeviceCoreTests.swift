import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// Drives ``DeviceCore`` directly, without the shell: each step gives the core one input at a virtual
/// instant and names the exact effects it must return. The core is a value, so no clock, queue or
/// app code takes part.
@Suite struct DeviceCoreTests {
    /// One input to the core.
    enum Input: Sendable {
        /// A lifecycle event for the app.
        case event(LifecycleEvent)
        /// The app's queue ran a delivery or handler batch of this incarnation that settles.
        case settle(incarnation: UInt64)
        /// The app begins a finite task; `granted` is the identifier number the core must hand out.
        case begin(String, granted: UInt64)
        /// The app ends a finite task.
        case end(UInt64)
        /// A timer fires with the token it was armed with.
        case fire(AppTimer, token: UInt64)
    }

    /// An input at an instant (seconds), and the effects the core must return for it.
    struct Step: Sendable {
        /// The instant, in seconds of virtual time.
        var at: Int64
        /// What the core is given.
        var input: Input
        /// Exactly what the core must return, in order.
        var effects: [Effect]
    }

    /// A named sequence of steps, run on a fresh core with one installed app.
    struct Case: Sendable, CustomTestStringConvertible {
        /// What the case shows.
        var name: String
        /// The steps, in order.
        var steps: [Step]
        /// The name, for the test report.
        var testDescription: String { name }
    }

    /// The one installed app.
    static let app: AppID = "com.example.core"
    /// The steps of a cold launch into the foreground.
    static let launchSteps: [LifecycleStep] = [
        .enter(.inactive), .callback(.willFinishLaunching), .callback(.didFinishLaunching), .enter(.active), .callback(.didBecomeActive),
    ]
    /// The steps of pressing Home on an active app.
    static let homeSteps: [LifecycleStep] = [.callback(.willResignActive), .enter(.inactive), .enter(.background), .callback(.didEnterBackground)]

    /// A delivery to the app's first incarnation.
    static func delivery(_ event: LifecycleEvent, _ steps: [LifecycleStep], settles: Bool = true) -> Effect {
        .deliver(Delivery(app: app, incarnation: 1, event: event, steps: steps, settles: settles))
    }

    /// Launch at 0 s and settle; press Home at 5 s (not settled yet) and begin a task then.
    static let taskInBackground: [Step] = [
        Step(at: 0, input: .event(.launch), effects: [delivery(.launch, launchSteps)]),
        Step(at: 0, input: .settle(incarnation: 1), effects: []),
        Step(at: 5, input: .event(.pressHome), effects: [delivery(.pressHome, homeSteps)]),
        // iOS 13: a 30 s allowance from 5 s, handlers 5 s before it runs out.
        Step(at: 5, input: .begin("upload", granted: 1), effects: [
            .arm(app, .expirationWarning, at: .seconds(30), token: 1), .arm(app, .allowanceExpiry, at: .seconds(35), token: 2),
        ]),
        Step(at: 30, input: .fire(.expirationWarning, token: 1), effects: [
            .expirationHandlers(app, incarnation: 1, [BackgroundTaskIdentifier(rawValue: 1)]),
        ]),
    ]

    /// The cases, each run on a fresh core.
    static let cases: [Case] = [
        Case(name: "a launch delivers its steps, and settling leaves the active app running", steps: [
            Step(at: 0, input: .event(.launch), effects: [delivery(.launch, launchSteps)]),
            Step(at: 0, input: .settle(incarnation: 1), effects: []),
        ]),
        Case(name: "entering the background with no task suspends the queue once settled", steps: [
            Step(at: 0, input: .event(.launch), effects: [delivery(.launch, launchSteps)]),
            Step(at: 0, input: .settle(incarnation: 1), effects: []),
            Step(at: 5, input: .event(.pressHome), effects: [delivery(.pressHome, homeSteps)]),
            Step(at: 5, input: .settle(incarnation: 1), effects: [.suspendQueue(app)]),
        ]),
        Case(name: "ending the warned task releases its handler, disarms the expiry, then suspends", steps: taskInBackground + [
            Step(at: 31, input: .end(1), effects: [.releaseExpirationHandler(app, BackgroundTaskIdentifier(rawValue: 1)), .disarm(app, .allowanceExpiry)]),
            Step(at: 31, input: .settle(incarnation: 1), effects: []),   // the Home delivery
            Step(at: 31, input: .settle(incarnation: 1), effects: [.suspendQueue(app)]),   // the handlers
        ]),
        Case(name: "a task still open at the expiry kills the app: the queue drops first, every process timer stops", steps: taskInBackground + [
            Step(at: 35, input: .fire(.allowanceExpiry, token: 2), effects: [
                .dropQueue(app),
                delivery(.kill(.backgroundTaskExpired), [.exit(.backgroundTaskExpired), .enter(.notRunning)], settles: false),
            ] + [AppTimer.expirationWarning, .allowanceExpiry, .watchdog, .foregroundOverrun, .eventWindow, .voipKeepAlive, .fetchDeadline, .taskDeadline]
                .map { .disarm(app, $0) }),
            // The firing of the disarmed warning timer, and a settle of the dead incarnation, do nothing.
            Step(at: 35, input: .fire(.expirationWarning, token: 1), effects: []),
            Step(at: 35, input: .settle(incarnation: 1), effects: []),
        ]),
    ]

    @Test(arguments: cases) func theCoreReturnsExactlyTheseEffects(_ scenario: Case) throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        for (index, step) in scenario.steps.enumerated() {
            let now = BudgetInstant.seconds(step.at)
            let effects: [Effect]
            switch step.input {
            case .event(let event):
                effects = try core.apply(event, to: Self.app, at: now).effects
            case .settle(let incarnation):
                effects = core.settle(Self.app, incarnation: incarnation, at: now).effects
            case .begin(let name, let granted):
                let (outcome, begun) = core.beginBackgroundTask(Self.app, name: name, at: now).pair
                guard case .granted(let id) = outcome else {
                    Issue.record("step \(index): \(name) was denied: \(outcome)")
                    return
                }
                #expect(id == BackgroundTaskIdentifier(rawValue: granted), "step \(index)")
                effects = begun
            case .end(let number):
                effects = core.endBackgroundTask(Self.app, BackgroundTaskIdentifier(rawValue: number), at: now).effects
            case .fire(let timer, let token):
                effects = core.timerFired(timer, app: Self.app, token: token, at: now).effects
            }
            #expect(effects == step.effects, "step \(index) (\(step.input) at \(step.at) s)")
        }
    }

    @Test func aRefusedEventThrowsAndReturnsNoEffects() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        #expect(throws: LifecycleError.self) { try core.apply(.pressHome, to: Self.app, at: .zero) }
        #expect(core.state(of: Self.app) == .notRunning)
        #expect(try core.apply(.launch, to: Self.app, at: .zero).effects == [Self.delivery(.launch, Self.launchSteps)])
    }
}
