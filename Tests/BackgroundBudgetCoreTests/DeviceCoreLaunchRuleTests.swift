import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// The rules of launching and of `BGTaskScheduler` tasks that issue 13 added, driven on the pure core
/// with the exact effects each input returns: the launch watchdog [S23], the resume watchdog
/// [S91][S92], handlers registered after
/// launch crash the app [S51][S98], and a task that expires with no expiration handler ends at
/// once [S49]. Every case starts from a fresh core with the app installed and, unless it says
/// otherwise, launched into the foreground at 0 s with its refresh handler registered, and settled.
@Suite struct DeviceCoreLaunchRuleTests {
    /// One input to the core at an instant, and the effects it must return.
    struct Step: Sendable {
        /// The instant of virtual time.
        var at: BudgetInstant
        /// What the input is, for the report.
        var input: String
        /// Gives the input to the core and returns its effects.
        var run: @Sendable (inout DeviceCore, BudgetInstant) throws -> [Effect]
        /// Exactly what the core must return, in order; `nil` for a step that only sets the scene.
        var effects: [Effect]?
    }

    /// A named sequence of steps.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The rule and what the case shows.
        var name: String
        /// Whether the app is launched, with its handler registered, before the steps.
        var launched = true
        /// The steps after the launch.
        var steps: [Step]
        /// The name, for the test report.
        var testDescription: String { name }
    }

    /// The app every case installs.
    static let app: AppID = "com.example.core"
    /// Its refresh identifier, registered at launch.
    static let refreshID = "com.example.core.refresh"
    /// Its processing identifier, registered by the cases that need it.
    static let cleanID = "com.example.core.clean"
    /// The app's manifest: both identifiers permitted, with their modes.
    static let manifest = AppManifest(id: app, backgroundModes: [.fetch, .processing], permittedTaskIdentifiers: [refreshID, cleanID])

    /// The app's first process ends for `reason`: its queue is dropped, the exit delivered, and every
    /// timer of the process disarmed.
    static func killed(_ reason: TerminationReason) -> [Effect] {
        [.dropQueue(app),
         .deliver(Delivery(app: app, incarnation: 1, event: .kill(reason), steps: [.exit(reason), .enter(.notRunning)], settles: false))]
            + AppTimer.allCases.filter { $0 != .fetchOpportunity && $0 != .taskRequestDue }.map { .disarm(app, $0) }
    }

    /// A step that sets the scene; its effects are not checked.
    static func given(_ at: BudgetInstant, _ input: String, _ run: @escaping @Sendable (inout DeviceCore, BudgetInstant) throws -> [Effect]) -> Step {
        Step(at: at, input: input, run: run, effects: nil)
    }

    /// The shell reports that a callback started (incarnation 1).
    static func started(_ callback: AppCallback, at: BudgetInstant, _ effects: [Effect]) -> Step {
        Step(at: at, input: "\(callback) started", run: { core, now in core.callbackStarted(callback, app: app, incarnation: 1, at: now).effects },
             effects: effects)
    }

    /// The shell reports that a callback returned.
    static func returned(_ callback: AppCallback, at: BudgetInstant, _ effects: [Effect]) -> Step {
        Step(at: at, input: "\(callback) returned", run: { core, now in core.callbackReturned(callback, app: app, at: now).effects }, effects: effects)
    }

    /// The app registers a launch handler, during its launch or after it.
    static func register(_ identifier: String, finishingLaunch: Bool, at: BudgetInstant, result: Bool, _ effects: [Effect]) -> Step {
        Step(at: at, input: "register \(identifier)\(finishingLaunch ? " while launching" : " after launch")", run: { core, now in
            let (registered, effects) = core.registerTask(identifier, finishingLaunch: finishingLaunch, app: app, at: now).pair
            #expect(registered == result)
            return effects
        }, effects: effects)
    }
    /// The refresh request runs 900 s after it is submitted at 1 s; its expiration is due 25 s in.
    static let refreshDue = BudgetInstant.seconds(901)
    /// When the running refresh expires: its runtime less the expiration lead.
    static let expiry = refreshDue + .seconds(25)

    /// Submit a refresh at 1 s, press Home at 5 s (suspended), run the request at 901 s and settle the
    /// wake and the launch handler; the deadline timer is armed with token 2.
    static let refreshRunning: [Step] = [
        Step(at: .seconds(1), input: "submit refresh", run: { core, now in
            core.submitTask(TaskRequest(identifier: refreshID, kind: .appRefresh), app: app, at: now).effects
        }, effects: [.arm(app, .taskRequestDue, at: refreshDue, token: 1)]),
        Step(at: .seconds(5), input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects },
             effects: [.deliver(Delivery(app: app, incarnation: 1, event: .pressHome, steps: DeviceCoreTests.homeSteps, settles: true))]),
        Step(at: .seconds(5), input: "settle", run: { core, now in core.settle(app, incarnation: 1, at: now).effects },
             effects: [.suspendQueue(app)]),
        Step(at: refreshDue, input: "request timer", run: { core, now in core.timerFired(.taskRequestDue, app: app, token: 1, at: now).effects },
             effects: FeatureEffects.refreshRuns.map { effect in
                 // Same effects as the feature table, for this app's identifier.
                 if case .runScheduledTask(let app, let incarnation, _) = effect {
                     return .runScheduledTask(app, incarnation: incarnation, ScheduledTaskRef(number: 1, identifier: refreshID, kind: .appRefresh))
                 }
                 return effect
             }),
        Step(at: refreshDue, input: "settle wake", run: { core, now in core.settle(app, incarnation: 1, at: now).effects }, effects: []),
        Step(at: refreshDue, input: "settle handler", run: { core, now in core.settle(app, incarnation: 1, at: now).effects }, effects: []),
    ]

    /// The deadline timer (token 2) fires at the refresh's expiry.
    static func deadline(_ effects: [Effect]) -> Step {
        Step(at: expiry, input: "task deadline", run: { core, now in core.timerFired(.taskDeadline, app: app, token: 2, at: now).effects },
             effects: effects)
    }

    /// The app sets (or clears) the task's expiration handler.
    static func handler(_ set: Bool) -> Step {
        Step(at: refreshDue, input: set ? "set expiration handler" : "clear expiration handler", run: { core, _ in
            core.scheduledTaskHandlerSet(app: app, task: 1, set: set).effects
        }, effects: [])
    }

    /// Press Home at 5 s and settle: the app is suspended.
    static let suspendedAtFive: [Step] = [
        given(.seconds(5), "press Home", { core, now in try core.apply(.pressHome, to: app, at: now).effects }),
        given(.seconds(5), "settle", { core, now in core.settle(app, incarnation: 1, at: now).effects }),
    ]

    /// Every case, by rule.
    static let cases: [Case] = [
        Case(name: "launch watchdog: willFinish 12 s and didFinish 9 s are killed 20 s after the launch started",
             launched: false,
             steps: [
                 given(.zero, "launch", { core, now in try core.apply(.launch, to: app, at: now).effects }),
                 started(.willFinishLaunching, at: .zero, [.arm(app, .watchdog, at: .seconds(20), token: 1)]),
                 returned(.willFinishLaunching, at: .seconds(12), []),
                 started(.didFinishLaunching, at: .seconds(12), []),
                 Step(at: .seconds(20), input: "watchdog", run: { core, now in core.timerFired(.watchdog, app: app, token: 1, at: now).effects },
                      effects: killed(.watchdog)),
             ]),
        Case(name: "launch watchdog: the first activation within 20 s ends the launch and disarms it",
             launched: false,
             steps: [
                 given(.zero, "launch", { core, now in try core.apply(.launch, to: app, at: now).effects }),
                 started(.willFinishLaunching, at: .zero, [.arm(app, .watchdog, at: .seconds(20), token: 1)]),
                 started(.didBecomeActive, at: .seconds(19), []),
                 returned(.didBecomeActive, at: .seconds(19), [.disarm(app, .watchdog)]),
                 returned(.didBecomeActive, at: .seconds(30), []),
                 Step(at: .seconds(30), input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects }, effects: nil),
                 started(.didEnterBackground, at: .seconds(30), [.arm(app, .watchdog, at: .seconds(35), token: 2)]),
             ]),
        Case(name: "launch watchdog: launched into the background, didEnterBackground must also end by the launch's deadline",
             launched: false,
             steps: [
                 given(.zero, "launch in background", { core, now in try core.apply(.launchInBackground(.backgroundTask), to: app, at: now).effects }),
                 started(.willFinishLaunching, at: .zero, [.arm(app, .watchdog, at: .seconds(20), token: 1)]),
                 started(.didEnterBackground, at: .seconds(18), [.arm(app, .watchdog, at: .seconds(20), token: 2)]),
                 returned(.didEnterBackground, at: .seconds(19), [.disarm(app, .watchdog)]),
             ]),
        Case(name: "resume watchdog: willEnterForeground 6 s and didBecomeActive 5 s are killed 10 s after the resume started",
             steps: suspendedAtFive + [
                 given(.seconds(100), "enter foreground", { core, now in try core.apply(.enterForeground, to: app, at: now).effects }),
                 started(.willEnterForeground, at: .seconds(100), [.arm(app, .watchdog, at: .seconds(110), token: 1)]),
                 returned(.willEnterForeground, at: .seconds(106), []),
                 started(.didBecomeActive, at: .seconds(106), []),
                 Step(at: .seconds(110), input: "watchdog", run: { core, now in core.timerFired(.watchdog, app: app, token: 1, at: now).effects },
                      effects: killed(.watchdog)),
             ]),
        Case(name: "resume watchdog: didBecomeActive returning within 10 s ends the resume and disarms it",
             steps: suspendedAtFive + [
                 given(.seconds(100), "enter foreground", { core, now in try core.apply(.enterForeground, to: app, at: now).effects }),
                 started(.willEnterForeground, at: .seconds(100), [.arm(app, .watchdog, at: .seconds(110), token: 1)]),
                 returned(.willEnterForeground, at: .seconds(106), []),
                 started(.didBecomeActive, at: .seconds(106), []),
                 returned(.didBecomeActive, at: .seconds(109), [.disarm(app, .watchdog)]),
                 Step(at: .seconds(110), input: "stale watchdog", run: { core, now in core.timerFired(.watchdog, app: app, token: 1, at: now).effects },
                      effects: []),
             ]),
        Case(name: "registration: during the launch a permitted identifier is registered",
             launched: false,
             steps: [
                 given(.zero, "launch", { core, now in try core.apply(.launch, to: app, at: now).effects }),
                 register(cleanID, finishingLaunch: true, at: .zero, result: true, []),
             ]),
        Case(name: "registration: after launch a permitted identifier crashes the app (uncaught exception)",
             steps: [register(cleanID, finishingLaunch: false, at: .seconds(3), result: false, killed(.uncaughtException))]),
        Case(name: "registration: an identifier registered twice crashes the app",
             launched: false,
             steps: [
                 given(.zero, "launch", { core, now in try core.apply(.launch, to: app, at: now).effects }),
                 register(cleanID, finishingLaunch: true, at: .zero, result: true, []),
                 register(cleanID, finishingLaunch: true, at: .zero, result: false, killed(.taskRegisteredTwice)),
             ]),
        Case(name: "registration: an identifier that is not permitted is refused without a crash, even after launch",
             steps: [register("com.example.core.other", finishingLaunch: false, at: .seconds(3), result: false, [])]),
        Case(name: "expiry: with an expiration handler, it is called and the task gets the lead to complete",
             steps: refreshRunning + [handler(true), deadline([
                 .scheduledTaskExpiration(app, incarnation: 1, task: 1), .arm(app, .taskDeadline, at: expiry + .seconds(5), token: 3),
             ])]),
        Case(name: "expiry: with no expiration handler, the task is completed unsuccessfully at the expiry instant",
             steps: refreshRunning + [deadline([.releaseScheduledTask(app, task: 1), .suspendQueue(app)])]),
        Case(name: "expiry: a handler set and cleared again counts as none",
             steps: refreshRunning + [handler(true), handler(false), deadline([.releaseScheduledTask(app, task: 1), .suspendQueue(app)])]),
    ]

    @Test(arguments: cases) func aRuleReturnsExactlyTheseEffects(_ scenario: Case) throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(Self.manifest)
        if scenario.launched {
            _ = try core.apply(.launch, to: Self.app, at: .zero)
            _ = core.registerTask(Self.refreshID, finishingLaunch: true, app: Self.app, at: .zero)
            _ = core.settle(Self.app, incarnation: 1, at: .zero)
        }
        for (index, step) in scenario.steps.enumerated() {
            let effects = try step.run(&core, step.at)
            if let expected = step.effects { #expect(effects == expected, "step \(index): \(step.input) at \(step.at)") }
        }
    }

    /// Records every step the core holds back for the app, at `now`, as if its queue had run them: the
    /// trace records a delivery's entries only as its steps run. (No watchdog is armed, so the timer
    /// tokens of the table's steps stay as they are.)
    static func runHeldSteps(_ core: inout DeviceCore, at now: BudgetInstant) {
        let s = core.slot(app)
        while let first = core.records[s].heldSteps.first {
            let before = core.records[s].heldSteps.count
            core.recordHeldSteps(app, starting: first.callback, at: now)
            if core.records[s].heldSteps.count >= before { break }
        }
    }

    @Test func aLateRegistrationIsTracedWithTheIdentifierAndTheMessageThenTheCrash() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(Self.manifest)
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        Self.runHeldSteps(&core, at: .zero)
        _ = core.settle(Self.app, incarnation: 1, at: .zero)
        _ = core.registerTask(Self.cleanID, finishingLaunch: false, app: Self.app, at: .seconds(3))
        let entries = core.trace.events.filter { $0.time == .seconds(3) }
        #expect(entries.map(\.kind) == [
            .taskRegistrationRejected(Self.cleanID, .afterLaunch), .exit(.uncaughtException, code: nil),
            .stateChange(.notRunning, cause: .kill(.uncaughtException)),
        ])
        #expect(entries.first?.jsonLine == #"{"t":3.000,"app":"com.example.core","event":"taskRegistrationRejected","name":"com.example.core.clean","reason":"afterLaunch","message":"All launch handlers must be registered before application finishes launching"}"#)
    }

    @Test func anExpiryWithoutHandlerIsTracedAsExpiredThenCompletedAtTheSameInstant() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(Self.manifest)
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        _ = core.registerTask(Self.refreshID, finishingLaunch: true, app: Self.app, at: .zero)
        Self.runHeldSteps(&core, at: .zero)
        _ = core.settle(Self.app, incarnation: 1, at: .zero)
        for step in Self.refreshRunning {
            _ = try step.run(&core, step.at)
            Self.runHeldSteps(&core, at: step.at)
        }
        _ = core.timerFired(.taskDeadline, app: Self.app, token: 2, at: Self.expiry)
        Self.runHeldSteps(&core, at: Self.expiry)
        let tail = core.trace.events.filter { $0.time == Self.expiry }.map(\.kind)
        #expect(tail == [
            .taskExpired(Self.refreshID, .runtimeEnding), .taskCompleted(Self.refreshID, .expiredUnfinished),
            .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)),
        ])
    }
}
