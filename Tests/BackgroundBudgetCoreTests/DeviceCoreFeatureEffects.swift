import BudgetTime
@testable import BackgroundBudgetCore
import BudgetClock

/// The longer expected effects of ``DeviceCoreFeatureTests``, written out once. Instants follow from
/// the `.iOS13` policy: a 10 s event window, a 30 s fetch runtime, the fetch model's seeded jitter on a
/// 900 s minimum interval, a refresh request's earliest run 900 s after it is submitted.
enum FeatureEffects {
    static let app = DeviceCoreFeatureTests.app
    static func wake(_ reason: LaunchReason) -> Delivery {
        Delivery(app: app, incarnation: 1, event: .wake(reason), steps: [.enter(.background), .callback(.didEnterBackground)], settles: true)
    }
    /// Woken at 60 s: back in the background for the event window, then the event on its queue.
    static let locationWake: [Effect] = [
        .resumeQueue(app), .deliver(wake(.location)), .arm(app, .eventWindow, at: .seconds(70), token: 1),
        .deliverEvent(app, incarnation: 1, .significantLocationChange),
    ]
    /// The held notification comes before the callbacks of the return to the foreground.
    static let foregroundWithNotification: [Effect] = [
        .resumeQueue(app),
        .deliver(Delivery(app: app, incarnation: 1, event: .enterForeground, steps: [
            .enter(.background), .notification(.significantTimeChange), .callback(.willEnterForeground),
            .enter(.inactive), .enter(.active), .callback(.didBecomeActive),
        ], settles: true)),
    ]
    /// The return to the foreground, then the one coalesced accessory event on the app's queue.
    static let foregroundWithAccessory: [Effect] = [
        .resumeQueue(app),
        .deliver(Delivery(app: app, incarnation: 1, event: .enterForeground, steps: [
            .enter(.background), .callback(.willEnterForeground), .enter(.inactive), .enter(.active), .callback(.didBecomeActive),
        ], settles: true)),
        .deliverEvent(app, incarnation: 1, .accessory),
    ]
    /// Woken at 10 s for a VoIP push: the event window, then the push on the app's queue.
    static let voipWake: [Effect] = [
        .resumeQueue(app), .deliver(wake(.voip)), .arm(app, .eventWindow, at: .seconds(20), token: 1),
        .deliverEvent(app, incarnation: 1, .voipPush),
    ]
    /// Killed for the unreported push (`0xbaadca11`); every timer of the process stops.
    static let voipKill: [Effect] = [
        .dropQueue(app),
        .deliver(Delivery(app: app, incarnation: 1, event: .kill(.voipPushNotReported),
                          steps: [.exit(.voipPushNotReported), .enter(.notRunning)], settles: false)),
    ] + [AppTimer.expirationWarning, .allowanceExpiry, .watchdog, .foregroundOverrun, .eventWindow, .voipKeepAlive, .fetchDeadline, .taskDeadline]
        .map { .disarm(app, $0) }
    /// Home at 5 s with a task open: the warning at 30 s (allowance 30 s − lead 5 s from 5 s), expiry at 35 s.
    static let allowanceArmed: [Effect] = [
        .arm(app, .expirationWarning, at: .seconds(30), token: 2), .arm(app, .allowanceExpiry, at: .seconds(35), token: 3),
        .disarm(app, .foregroundOverrun),
    ]
    /// The handler of task 1 handed to the app's queue at the warning.
    static let handlersCalled: [Effect] = [.expirationHandlers(app, incarnation: 1, [BackgroundTaskIdentifier(rawValue: 1)])]
    /// The watchdog armed as the handlers start.
    static let handlerWatchdogToken: UInt64 = 4
    /// Killed with the expiry code (`0x2182bad2`); every timer of the process stops.
    static let handlersKilled: [Effect] = [
        .dropQueue(app),
        .deliver(Delivery(app: app, incarnation: 1, event: .kill(.backgroundTaskExpired),
                          steps: [.exit(.backgroundTaskExpired), .enter(.notRunning)], settles: false)),
    ] + [AppTimer.expirationWarning, .allowanceExpiry, .watchdog, .foregroundOverrun, .eventWindow, .voipKeepAlive, .fetchDeadline, .taskDeadline]
        .map { .disarm(app, $0) }
    /// The fetch model's first two gaps for the first app installed: the minimum interval stretched
    /// by its seeded jitter (about 1,099 s and 897 s).
    static let fetchGaps: (Duration, Duration) = {
        let policy = BudgetPolicy.iOS13
        var model = FetchModel(seed: policy.fetchSeed, factors: policy.fetchModelFactors)
        let first = model.nextGap(requested: nil, systemMinimum: policy.minimumFetchInterval)
        return (first, model.nextGap(requested: nil, systemMinimum: policy.minimumFetchInterval))
    }()
    /// The first opportunity: a gap after the interval was set at 1 s.
    static let fetchAt = BudgetInstant.seconds(1) + fetchGaps.0
    static let fetchPlanned: [Effect] = [.arm(app, .fetchOpportunity, at: fetchAt, token: 1)]
    static let fetchWake: [Effect] = [
        .resumeQueue(app), .deliver(wake(.backgroundFetch)),
        .arm(app, .fetchDeadline, at: fetchAt + .seconds(30), token: 2), .performFetch(app, incarnation: 1, fetch: 1),
    ]
    static let lowPowerModeOn: [Effect] = []
    /// No wake: the next opportunity is planned instead.
    static let fetchSkipped: [Effect] = [.arm(app, .fetchOpportunity, at: fetchAt + fetchGaps.1, token: 2)]
    /// Dropped without a callback; every timer of the process stops.
    static let purge: [Effect] = [
        .dropQueue(app),
        .deliver(Delivery(app: app, incarnation: 1, event: .purge, steps: [.exit(.memoryPressure), .enter(.notRunning)], settles: false)),
    ] + [AppTimer.expirationWarning, .allowanceExpiry, .watchdog, .foregroundOverrun, .eventWindow, .voipKeepAlive, .fetchDeadline, .taskDeadline]
        .map { .disarm(app, $0) }
    static let refreshDue = BudgetInstant.seconds(901)
    static let refreshSubmitted: [Effect] = [.arm(app, .taskRequestDue, at: refreshDue, token: 1)]
    /// Woken for the task; its first deadline is the expiration warning 25 s in.
    static let refreshRuns: [Effect] = [
        .resumeQueue(app), .deliver(wake(.backgroundTask)),
        .runScheduledTask(app, incarnation: 1, ScheduledTaskRef(number: 1, identifier: "com.example.core.refresh", kind: .appRefresh)),
        .arm(app, .taskDeadline, at: refreshDue + .seconds(25), token: 2),
    ]
}

extension Decision {
    /// The value and the effects, for the tests that take both apart.
    var pair: (Value, [Effect]) { (value, effects) }
}
