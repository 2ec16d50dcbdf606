import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// Each feature's rules, driven on the pure core: (state, input) → effects, with the exact `Effect`
/// values the shell must perform. Every case starts from a fresh core with one app installed from the
/// case's manifest, launched at 0 s and settled; its steps then give the core one input each.
@Suite struct DeviceCoreFeatureTests {
    /// One input to the core at an instant, and the effects it must return.
    struct Step: Sendable {
        /// The instant of virtual time.
        var at: BudgetInstant
        /// What the input is, for the report.
        var input: String
        /// Gives the input to the core and returns its effects.
        var run: @Sendable (inout DeviceCore, BudgetInstant) throws -> [Effect]
        /// Exactly what the core must return, in order.
        var effects: [Effect]
    }

    /// A named sequence of steps for one feature.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The feature and what the case shows.
        var name: String
        /// The installed app.
        var manifest: AppManifest
        /// The steps after the launch.
        var steps: [Step]
        /// The policy the core runs under.
        var policy: BudgetPolicy = .iOS13
        /// The name, for the test report.
        var testDescription: String { name }
    }

    static let app: AppID = "com.example.core"

    /// A delivery to the app's first incarnation.
    static func delivery(_ event: LifecycleEvent, _ steps: [LifecycleStep], settles: Bool = true, incarnation: UInt64 = 1) -> Effect {
        .deliver(Delivery(app: app, incarnation: incarnation, event: event, steps: steps, settles: settles))
    }

    /// Pressing Home on the active app, and settling that delivery.
    static func home(at time: BudgetInstant, settled: [Effect]) -> [Step] {
        [
            Step(at: time, input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects },
                 effects: [delivery(.pressHome, DeviceCoreTests.homeSteps)]),
            Step(at: time, input: "settle", run: { core, now in core.settle(app, incarnation: 1, at: now).effects }, effects: settled),
        ]
    }

    /// Home at 5 s, then a silent push at 60 s that wakes the suspended app for a 30 s window; the
    /// app's queue handles it at 61 s.
    static let silentPushWake: [Step] = home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
        Step(at: .seconds(60), input: "silent push", run: { core, now in core.deliver(.silentPush, to: app, at: now).effects },
             effects: [.resumeQueue(app), .deliver(FeatureEffects.wake(.remoteNotification)),
                       .arm(app, .eventWindow, at: .seconds(90), token: 1), .deliverEvent(app, incarnation: 1, .silentPush)]),
        Step(at: .seconds(60), input: "settle the wake", run: { core, now in core.settle(app, incarnation: 1, at: now).effects },
             effects: []),
        Step(at: .seconds(61), input: "handled", run: { core, now in core.eventHandled(.silentPush, app: app, incarnation: 1, at: now).effects },
             effects: []),
    ]

    static let cases: [Case] = [
        Case(name: "modes: an audio app keeps running while it plays and suspends when it stops",
             manifest: AppManifest(id: app, backgroundModes: [.audio]),
             steps: [
                 Step(at: .seconds(1), input: "start audio", run: { core, now in
                     _ = core.startActivity(.audioPlayback, app: app, at: now); return []
                 }, effects: []),
             ] + home(at: .seconds(5), settled: []) + [
                 Step(at: .seconds(20), input: "stop audio", run: { core, now in core.stopActivity(.audioPlayback, app: app, at: now).effects },
                      effects: [.suspendQueue(app)]),
             ]),
        Case(name: "modes: without the audio mode, starting playback is refused and Home suspends the app",
             manifest: AppManifest(id: app),
             steps: [
                 Step(at: .seconds(1), input: "start audio", run: { core, now in
                     #expect(throws: ActivityDenial.modeNotDeclared) { try core.startActivity(.audioPlayback, app: app, at: now).value.get() }
                     return []
                 }, effects: []),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)])),
        Case(name: "events: a significant location change wakes a suspended app for a short window",
             manifest: AppManifest(id: app, backgroundModes: [.location]),
             steps: [
                 Step(at: .seconds(1), input: "monitor significant changes", run: { core, now in
                     _ = core.setLocationMonitoring(significantChanges: true, monitoring: true, app: app, at: now); return []
                 }, effects: []),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(60), input: "significant change", run: { core, now in core.deliver(.significantLocationChange, to: app, at: now).effects },
                      effects: FeatureEffects.locationWake),
             ]),
        Case(name: "notifications: one posted to a suspended app waits and is delivered when it runs again",
             manifest: AppManifest(id: app),
             steps: home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(10), input: "significant time change", run: { core, now in core.post(.significantTimeChange, at: now).effects },
                      effects: []),
                 Step(at: .seconds(20), input: "enter foreground", run: { core, now in try core.apply(.enterForeground, to: app, at: now).effects },
                      effects: FeatureEffects.foregroundWithNotification),
             ]),
        Case(name: "events: accessory events queued while suspended are coalesced, one delivered on resume",
             manifest: AppManifest(id: app),
             steps: home(at: .seconds(5), settled: [.suspendQueue(app)]) + [.seconds(10), .seconds(11), .seconds(12)].map { time in
                 Step(at: time, input: "accessory event", run: { core, now in
                     let (outcome, effects) = core.deliver(.accessory, to: app, at: now).pair
                     #expect(outcome == .queued)
                     #expect(core.records[core.slot(app)].modes.queuedEvents == [.accessory])
                     return effects
                 }, effects: [])
             } + [
                 Step(at: .seconds(20), input: "enter foreground", run: { core, now in try core.apply(.enterForeground, to: app, at: now).effects },
                      effects: FeatureEffects.foregroundWithAccessory),
             ]),
        Case(name: "fetch: asking for fetches plans an opportunity; at it, a suspended app is woken to fetch",
             manifest: AppManifest(id: app, backgroundModes: [.fetch]),
             steps: [
                 Step(at: .seconds(1), input: "interval minimum", run: { core, now in core.setFetchInterval(.minimum, app: app, at: now).effects },
                      effects: FeatureEffects.fetchPlanned),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: FeatureEffects.fetchAt, input: "fetch opportunity", run: { core, now in core.fetchOpportunity(app, at: now) },
                      effects: FeatureEffects.fetchWake),
             ]),
        Case(name: "gates: with Low Power Mode on, a fetch opportunity passes without waking the app",
             manifest: AppManifest(id: app, backgroundModes: [.fetch]),
             steps: [
                 Step(at: .seconds(1), input: "interval minimum", run: { core, now in core.setFetchInterval(.minimum, app: app, at: now).effects },
                      effects: FeatureEffects.fetchPlanned),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(6), input: "Low Power Mode on", run: { core, now in
                     core.changeRefreshSettings(at: now) { $0.settings.lowPowerMode = true }
                 }, effects: FeatureEffects.lowPowerModeOn),
                 Step(at: FeatureEffects.fetchAt, input: "fetch opportunity", run: { core, now in core.fetchOpportunity(app, at: now) },
                      effects: FeatureEffects.fetchSkipped),
             ]),
        Case(name: "memory: a capacity below a suspended app's footprint purges it silently",
             manifest: AppManifest(id: app),
             steps: home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(10), input: "capacity 1 byte", run: { core, now in core.setMemoryCapacity(1, at: now).effects },
                      effects: FeatureEffects.purge),
             ]),
        Case(name: "voip: a keep-alive handler still running when its 10 s window ends is suspended at the window's end",
             manifest: AppManifest(id: app, backgroundModes: [.voip]),
             steps: [
                 Step(at: .seconds(1), input: "set keep-alive 600 s", run: { core, now in core.setKeepAlive(.seconds(600), app: app, at: now).effects },
                      effects: [.arm(app, .voipKeepAlive, at: .seconds(601), token: 1)]),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(601), input: "keep-alive due", run: { core, now in core.keepAliveDue(app, at: now) },
                      effects: [.resumeQueue(app), delivery(.wake(.voip), [.enter(.background), .callback(.didEnterBackground)]),
                                .arm(app, .eventWindow, at: .seconds(611), token: 2), .keepAliveHandler(app, incarnation: 1),
                                .arm(app, .voipKeepAlive, at: .seconds(1_201), token: 3)]),
                 Step(at: .seconds(601), input: "settle the wake", run: { core, now in core.settle(app, incarnation: 1, at: now).effects },
                      effects: []),
                 Step(at: .seconds(611), input: "window ends, handler running", run: { core, now in core.eventWindowEnded(app, at: now) },
                      effects: [.suspendQueue(app)]),
                 Step(at: .seconds(613), input: "handler returns", run: { core, now in core.keepAliveHandlerReturned(app, incarnation: 1, at: now).effects },
                      effects: []),
             ]),
        Case(name: "voip: with a limit of 1, a push left unreported kills the app and the next push is dropped",
             manifest: AppManifest(id: app, backgroundModes: [.voip]),
             steps: home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(10), input: "VoIP push", run: { core, now in core.deliver(.voipPush, to: app, at: now).effects },
                      effects: FeatureEffects.voipWake),
                 Step(at: .seconds(10), input: "push handled without a report", run: { core, now in
                     core.eventHandled(.voipPush, app: app, incarnation: 1, at: now).effects
                 }, effects: FeatureEffects.voipKill),
                 Step(at: .seconds(20), input: "VoIP push", run: { core, now in
                     let (outcome, effects) = core.deliver(.voipPush, to: app, at: now).pair
                     #expect(outcome == .dropped(.voipLaunchesStopped))
                     return effects
                 }, effects: []),
             ],
             policy: { var policy = BudgetPolicy.iOS13; policy.voipUnreportedPushLimit = 1; return policy }()),
        Case(name: "finite tasks: expiration handlers still running 1 s after they start are killed with the expiry code",
             manifest: AppManifest(id: app),
             steps: [
                 Step(at: .seconds(1), input: "begin task", run: { core, now in core.beginBackgroundTask(app, name: "upload", at: now).effects },
                      effects: [.arm(app, .foregroundOverrun, at: .seconds(31), token: 1)]),
                 Step(at: .seconds(5), input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects },
                      effects: [delivery(.pressHome, DeviceCoreTests.homeSteps)] + FeatureEffects.allowanceArmed),
                 Step(at: .seconds(5), input: "settle", run: { core, now in core.settle(app, incarnation: 1, at: now).effects }, effects: []),
                 Step(at: .seconds(30), input: "expiration warning", run: { core, now in core.callExpirationHandlers(app, at: now) },
                      effects: FeatureEffects.handlersCalled),
                 Step(at: .seconds(30), input: "handlers start", run: { core, now in
                     core.expirationHandlersStarted(app, incarnation: 1, at: now).effects
                 }, effects: [.arm(app, .watchdog, at: .seconds(31), token: FeatureEffects.handlerWatchdogToken)]),
                 Step(at: .seconds(31), input: "watchdog", run: { core, now in
                     core.timerFired(.watchdog, app: app, token: FeatureEffects.handlerWatchdogToken, at: now).effects
                 }, effects: FeatureEffects.handlersKilled),
             ]),
        Case(name: "finite tasks: a begin refused for a spent allowance asks the shell for its handler, timed as handlers are",
             manifest: AppManifest(id: app),
             steps: [
                 Step(at: .seconds(5), input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects },
                      effects: [delivery(.pressHome, DeviceCoreTests.homeSteps)]),
                 Step(at: .seconds(36), input: "begin task without handler", run: { core, now in
                     core.beginBackgroundTask(app, name: "late", at: now).effects
                 }, effects: []),
                 Step(at: .seconds(36), input: "begin task with handler", run: { core, now in
                     core.beginBackgroundTask(app, name: "late", hasExpirationHandler: true, at: now).effects
                 }, effects: [.refusedTaskHandler(app, incarnation: 1)]),
                 Step(at: .seconds(36), input: "handler starts", run: { core, now in
                     core.refusedTaskHandlerStarted(app, incarnation: 1, at: now).effects
                 }, effects: [.arm(app, .watchdog, at: .seconds(37), token: 1)]),
                 Step(at: .seconds(36), input: "handler returns", run: { core, now in
                     core.expirationHandlersReturned(app, incarnation: 1, at: now).effects
                 }, effects: [.disarm(app, .watchdog)]),
             ],
             policy: { var policy = BudgetPolicy.iOS13; policy.didEnterBackgroundLimit = .seconds(60); return policy }()),
        Case(name: "exits on suspend: honoured by policy, Home ends in willTerminate and background tasks are refused",
             manifest: AppManifest(id: app, exitsOnSuspend: true),
             steps: [
                 Step(at: .seconds(1), input: "begin task", run: { core, now in
                     let (outcome, effects) = core.beginBackgroundTask(app, name: "upload", at: now).pair
                     guard case .denied(let denial) = outcome else { Issue.record("granted"); return effects }
                     #expect(denial == .exitsOnSuspend)
                     return effects
                 }, effects: []),
                 Step(at: .seconds(5), input: "press Home", run: { core, now in try core.apply(.pressHome, to: app, at: now).effects },
                      effects: [delivery(.pressHome, DeviceCoreTests.homeSteps + [.callback(.willTerminate)])]),
             ]),
        Case(name: "exits on suspend: ignored by policy (iOS 13+), Home suspends the app and tasks are granted",
             manifest: AppManifest(id: app, exitsOnSuspend: true),
             steps: [
                 Step(at: .seconds(1), input: "begin task", run: { core, now in
                     let (outcome, effects) = core.beginBackgroundTask(app, name: "upload", at: now).pair
                     guard case .granted(let id) = outcome else { Issue.record("denied: \(outcome)"); return effects }
                     #expect(id == BackgroundTaskIdentifier(rawValue: 1))
                     return effects
                 }, effects: [.arm(app, .foregroundOverrun, at: .seconds(31), token: 1)]),
                 Step(at: .seconds(2), input: "end task", run: { core, now in
                     core.endBackgroundTask(app, BackgroundTaskIdentifier(rawValue: 1), at: now).effects
                 }, effects: [.releaseExpirationHandler(app, BackgroundTaskIdentifier(rawValue: 1)), .disarm(app, .foregroundOverrun)]),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]),
             policy: { var policy = BudgetPolicy.iOS13; policy.honoursExitsOnSuspend = false; return policy }()),
        Case(name: "task requests: a refresh request registered at launch runs when due, waking the app",
             manifest: AppManifest(id: app, backgroundModes: [.fetch], permittedTaskIdentifiers: ["com.example.core.refresh"]),
             steps: [
                 Step(at: .seconds(1), input: "submit refresh", run: { core, now in
                     let (error, effects) = core.submitTask(TaskRequest(identifier: "com.example.core.refresh", kind: .appRefresh), app: app, at: now).pair
                     #expect(error == nil)
                     return effects
                 }, effects: FeatureEffects.refreshSubmitted),
             ] + home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: FeatureEffects.refreshDue, input: "request timer", run: { core, now in core.taskRequestTimerFired(app, at: now) },
                      effects: FeatureEffects.refreshRuns),
             ]),
        Case(name: "task requests: two refresh tasks started 20 s apart share one allotment, warned at 125 s and killed at 130 s",
             manifest: AppManifest(id: app, backgroundModes: [.fetch], permittedTaskIdentifiers: [refreshA, refreshB]),
             steps: home(at: .seconds(5), settled: [.suspendQueue(app)]) + [
                 Step(at: .seconds(100), input: "refresh A starts", run: { core, now in
                     core.startTask(TaskRequest(identifier: refreshA, kind: .appRefresh), slot: 0, at: now)
                 }, effects: [.resumeQueue(app), .deliver(FeatureEffects.wake(.backgroundTask)),
                              .runScheduledTask(app, incarnation: 1, ScheduledTaskRef(number: 1, identifier: refreshA, kind: .appRefresh)),
                              .arm(app, .taskDeadline, at: .seconds(125), token: 1)]),
                 Step(at: .seconds(100), input: "A sets its expiration handler", run: { core, _ in
                     core.scheduledTaskHandlerSet(app: app, task: 1, set: true).effects
                 }, effects: []),
                 Step(at: .seconds(120), input: "refresh B starts", run: { core, now in
                     core.startTask(TaskRequest(identifier: refreshB, kind: .appRefresh), slot: 0, at: now)
                 }, effects: [.runScheduledTask(app, incarnation: 1, ScheduledTaskRef(number: 2, identifier: refreshB, kind: .appRefresh)),
                              .arm(app, .taskDeadline, at: .seconds(125), token: 2)]),
                 Step(at: .seconds(120), input: "B sets its expiration handler", run: { core, _ in
                     core.scheduledTaskHandlerSet(app: app, task: 2, set: true).effects
                 }, effects: []),
                 Step(at: .seconds(125), input: "deadline: both warned", run: { core, now in core.taskDeadlineFired(app, at: now) },
                      effects: [.scheduledTaskExpiration(app, incarnation: 1, task: 1), .scheduledTaskExpiration(app, incarnation: 1, task: 2),
                                .arm(app, .taskDeadline, at: .seconds(130), token: 3)]),
                 Step(at: .seconds(130), input: "deadline: the allotment ends", run: { core, now in core.taskDeadlineFired(app, at: now) },
                      effects: DeviceCoreLaunchRuleTests.killed(.backgroundFetchNotCompleted)),
             ]),
        Case(name: "modes: a silent push not completed within its 30 s window terminates the app at 90 s",
             manifest: AppManifest(id: app, backgroundModes: [.remoteNotification]),
             steps: silentPushWake + [
                 Step(at: .seconds(90), input: "window ends", run: { core, now in core.timerFired(.eventWindow, app: app, token: 1, at: now).effects },
                      effects: DeviceCoreLaunchRuleTests.killed(.backgroundFetchNotCompleted)),
             ]),
        Case(name: "modes: a silent push completed within its window suspends the app then",
             manifest: AppManifest(id: app, backgroundModes: [.remoteNotification]),
             steps: silentPushWake + [
                 Step(at: .seconds(70), input: "completion", run: { core, now in core.remoteNotificationCompleted(.newData, app: app, at: now).effects },
                      effects: [.disarm(app, .eventWindow), .suspendQueue(app)]),
             ]),
    ]

    /// Two refresh identifiers of one app, for the shared allotment.
    static let refreshA = "com.example.core.refresh.a"
    /// The second refresh identifier.
    static let refreshB = "com.example.core.refresh.b"

    @Test(arguments: cases) func aFeatureReturnsExactlyTheseEffects(_ scenario: Case) throws {
        var core = DeviceCore(policy: scenario.policy)
        try core.install(scenario.manifest)
        if scenario.manifest.permittedTaskIdentifiers.isEmpty == false {
            // Handlers are registered while the app finishes launching.
            _ = try core.apply(.launch, to: Self.app, at: .zero)
            for identifier in scenario.manifest.permittedTaskIdentifiers {
                _ = core.registerTask(identifier, finishingLaunch: true, app: Self.app, at: .zero)
            }
        } else {
            _ = try core.apply(.launch, to: Self.app, at: .zero)
        }
        _ = core.settle(Self.app, incarnation: 1, at: .zero)
        for (index, step) in scenario.steps.enumerated() {
            let effects = try step.run(&core, step.at)
            #expect(effects == step.effects, "step \(index): \(step.input) at \(step.at)")
        }
    }
}
