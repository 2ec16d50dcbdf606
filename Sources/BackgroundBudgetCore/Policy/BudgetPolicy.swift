import BudgetTime

/// Every number the model enforces, in one place, with presets for each era of iOS.
///
/// Nothing else in the package hard-codes a time limit: the runtime reads them all from the policy it
/// runs under. Each value cites its source; tags such as [S17] refer to the project's fact sheet, and
/// the *Policy reference* article lists them with their addresses.
///
/// ```swift
/// var policy = BudgetPolicy.iOS13             // 30 s allowance, handlers 5 s before the end
/// policy.backgroundTaskAllowance = .seconds(45)
/// let system = try BackgroundSystem(policy: policy, clock: VirtualClock())
/// ```
///
/// A system checks its policy with ``validate()`` before it runs anything, so a negative limit or a
/// warning lead longer than the allowance is refused with a ``PolicyError`` naming the field.
public struct BudgetPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The preset's name, e.g. `"iOS13"`; overridden policies keep the name of the preset they came from.
    public var name: String

    /// How long `applicationDidEnterBackground` may run before the watchdog kills the app
    /// (`0x8badf00d`). About 5 s in every release [S6][S13].
    public var didEnterBackgroundLimit: Duration

    /// How long `applicationWillTerminate` may run before the process is killed. About 5 s [S8].
    public var willTerminateLimit: Duration

    /// How long launching may take, from the start of `application(_:willFinishLaunchingWithOptions:)`
    /// until the first `applicationDidBecomeActive` or `applicationDidEnterBackground` returns, before
    /// the watchdog kills the app (`0x8badf00d`). About 20 s in every release: Apple's example report
    /// shows a launch killed after "an allowance of 19.97 seconds" [S23], and the historical table
    /// gives 20 s for launch [S91] (observed).
    public var launchWatchdog: Duration = .seconds(20)

    /// How long resuming may take, from the start of `applicationWillEnterForeground` until
    /// `applicationDidBecomeActive` returns, before the watchdog kills the app (`0x8badf00d`). About
    /// 10 s, observed: the historical watchdog table gives 10 s for resume [S91], and a report of a
    /// `scene-update` watchdog kill shows 10 s [S92]; Apple documents no number. Leaving the
    /// foreground has no limit of its own beyond ``didEnterBackgroundLimit``: `applicationWillResignActive`
    /// is not timed by any source the model follows.
    public var resumeWatchdog: Duration = .seconds(10)

    /// The finite-task allowance per background entry, shared by all of an app's
    /// `beginBackgroundTask` assertions [S17]. About 600 s on iOS 4–6 [S20], 180 s on iOS 7–12
    /// (`permittedBackgroundDuration: 180.000000`) [S19], 30 s from iOS 13 [S17][S18]. Apple calls
    /// exact values unguaranteed.
    public var backgroundTaskAllowance: Duration

    /// How long before the allowance runs out the expiration handlers are called. Apple says "shortly
    /// before"; observed about 5 s [S14][S21].
    public var expirationWarningLead: Duration

    /// How long expiration handlers called together may run, else ``backgroundTaskExpiryCode`` kills the app: 1 s, assumed [S17].
    public var expirationHandlerLimit: Duration = .seconds(1)

    /// Whether the allowance starts afresh each time the app returns to the foreground. Undocumented;
    /// observed to reset per background entry (open question 3 of the fact sheet).
    public var allowanceResetsOnForeground: Bool

    /// How many background-task assertions an app may hold at once; one more terminates it
    /// (`0xbada5e47`). About 1000 since iOS 11 [S17].
    public var maxOpenBackgroundTasks: Int

    /// The termination code when tasks are still open as the allowance runs out: `0x2182bad2` from
    /// iOS 13 [S22], `0x8badf00d` before [S17].
    public var backgroundTaskExpiryCode: UInt32

    /// How long an app woken or launched for a short event (Bluetooth, External Accessory, a region
    /// or significant location change, a finished Newsstand download) may run before it is suspended
    /// again, unless something else keeps it running. About 10 s, observed for Core Bluetooth [S36]
    /// and region monitoring [S32]; Apple documents none.
    public var eventWindow: Duration = .seconds(10)

    /// How long an app woken by a silent remote notification may run: up to 30 s [S63][S64][S45].
    public var remoteNotificationWindow: Duration = .seconds(30)

    /// How many silent remote notifications per hour (per ``silentPushWindow``) wake an app; more are
    /// throttled. Apple advises no more than two or three per hour [S64].
    public var silentPushesPerHour: Int = 3

    /// The window ``silentPushesPerHour`` is counted over: a silent push is throttled when that many
    /// woke the app within this long before it. An hour, as Apple phrases its advice [S64].
    public var silentPushWindow: Duration = .seconds(3600)

    /// How many regions an app may monitor at once; starting one more fails for that region, as Core
    /// Location reports it (`monitoringDidFailFor`, `regionMonitoringFailure`): 20, observed [S32].
    public var maxMonitoredRegions: Int = 20

    /// The shortest legacy VoIP keep-alive interval: 600 s [S33].
    public var voipKeepAliveMinimumInterval: Duration = .seconds(600)

    /// How long the legacy VoIP keep-alive handler may run before the app is suspended again: 10 s [S33][S34].
    /// Enforced while the handler runs: a handler still running when it ends does not keep the app.
    public var voipKeepAliveWindow: Duration = .seconds(10)

    /// How many VoIP pushes an app may leave unreported (each kills it, `0xbaadca11`) before VoIP pushes
    /// stop launching it, until the user opens it [S35][S22]. Apple gives no number: 3, a model assumption.
    public var voipUnreportedPushLimit: Int = 3

    /// Whether significant-change and region events relaunch an app the user killed from the app
    /// switcher. They do since iOS 8 [S31]; every other background relaunch stops after a user kill
    /// until the user opens the app [S86][S87][S63].
    public var relaunchesLocationAppsAfterUserKill: Bool = true

    /// Whether `UIApplicationExitsOnSuspend` is honoured: the app terminates instead of being suspended
    /// and is never run in the background. iOS honoured it from iOS 4 [S68][S97]; Apple marks the key
    /// unsupported from iOS 13, where the flag is ignored [S67][S70]. The model keeps honouring it in
    /// every preset (a model choice); set it to `false` to model iOS 13 and later, where the flag
    /// changes nothing.
    public var honoursExitsOnSuspend: Bool = true

    /// Whether the app was built with an SDK that requires the scene-based life cycle: TN3187 says that
    /// in the major release after iOS 26, an app built with the latest SDK that has not adopted it does
    /// not launch [S99]. When `true`, launching an app without an ``AppManifest/sceneManifest`` ends its
    /// process at once (``TerminationReason/sceneLifecycleRequired``), before any callback. `false` in
    /// every preset (today's SDKs).
    public var requiresSceneLifecycle: Bool = false

    /// Whether `BGTaskScheduler` raises `NSInternalInconsistencyException` ("No launch handler registered
    /// for task with identifier …") when the app's process has no launch handler for a request's
    /// identifier: at `submit`, and when the system launches a pending request. The app crashes
    /// (``TerminationReason/uncaughtException``). Crash reports show both: at the submit, from
    /// `-[BGTaskScheduler _handleSubmissionWithoutRegistrationForTaskRequest:error:]` under
    /// `submitTaskRequest:error:` [S105][S106], and at the launch of a request scheduled by an earlier
    /// process, reported on iOS 15.4 [S107]. `true` in every preset; set it to `false` for iOS 13.0 to
    /// 15.3, where the model drops such a task instead (`taskDropped`) and lets the submit through (a
    /// model assumption: what those versions did is not documented).
    public var crashesWithoutLaunchHandler: Bool = true

    /// The order memory pressure purges suspended apps in (all in the idle jetsam band). xnu kills
    /// from the lowest band up and, within a band, from the head of the band's list, where a process
    /// entering the band is appended: longest in the band first ([S72][S101]). The default,
    /// ``JetsamOrder/largestFootprint``, is the model's assumption (no source); choose
    /// ``JetsamOrder/leastRecentlyUsed`` for xnu's order.
    public var jetsamOrderWithinBand: JetsamOrder = .largestFootprint

    /// How long a background fetch (`performFetchWithCompletionHandler`) may run before its completion
    /// handler must be called, else the app is terminated (`0x2182bad4`): 30 s [S40][S22].
    public var fetchRuntime: Duration = .seconds(30)

    /// The system's own shortest gap between background fetches, what
    /// `backgroundFetchIntervalMinimum` stands for. Apple documents none; 15 minutes is the commonly
    /// observed floor, and the model's assumption [S41][S42].
    public var minimumFetchInterval: Duration = .seconds(900)

    /// The seed of the fetch model's random jitter, so that a run replays exactly.
    public var fetchSeed: UInt64 = 0

    /// How the fetch model stretches or shrinks the gap between fetch opportunities after each fetch.
    /// Apple says only that apps whose fetches are long or find nothing get fewer opportunities
    /// [S40][S41]; every factor is a model assumption (see ``FetchModelFactors``).
    public var fetchModelFactors = FetchModelFactors()

    /// The longest a `BGProcessingTask` runs before the system expires it: 10 minutes. Apple says
    /// processing tasks get "minutes" and are expired when the user starts using the device or a
    /// required condition is lost; it documents no cap, so this is the model's assumption
    /// ([S47][S50][S58]).
    public var processingTaskRuntimeCap: Duration = .seconds(600)

    /// How many continued-processing tasks (`BGContinuedProcessingTask`, iOS 26) run at once on the
    /// device; more wait in the system's queue or, with the `fail` strategy, are refused
    /// (`immediateRunIneligible`). Apple says the system has "a maximum level of concurrent tasks"
    /// but publishes no number [S53][S55], so 4 is the model's assumption: set the number your test
    /// needs.
    public var continuedProcessingTaskLimit: Int = 4

    /// How many `BGAppRefreshTaskRequest`s an app may have pending at once; submitting one more (with
    /// another identifier) throws `tooManyPendingTaskRequests`: 1 [S46][S52].
    public var pendingRefreshTaskRequestLimit: Int = 1

    /// How many `BGProcessingTaskRequest`s an app may have pending at once; submitting one more (with
    /// another identifier) throws `tooManyPendingTaskRequests`: 10 [S46][S52].
    public var pendingProcessingTaskRequestLimit: Int = 10

    /// Creates a policy from explicit values; ``iOS13`` and the other presets are the usual start.
    public init(
        name: String,
        didEnterBackgroundLimit: Duration,
        willTerminateLimit: Duration,
        backgroundTaskAllowance: Duration,
        expirationWarningLead: Duration,
        allowanceResetsOnForeground: Bool,
        maxOpenBackgroundTasks: Int,
        backgroundTaskExpiryCode: UInt32
    ) {
        self.name = name
        self.didEnterBackgroundLimit = didEnterBackgroundLimit
        self.willTerminateLimit = willTerminateLimit
        self.backgroundTaskAllowance = backgroundTaskAllowance
        self.expirationWarningLead = expirationWarningLead
        self.allowanceResetsOnForeground = allowanceResetsOnForeground
        self.maxOpenBackgroundTasks = maxOpenBackgroundTasks
        self.backgroundTaskExpiryCode = backgroundTaskExpiryCode
    }

    /// iOS 13 and later, the default: a 30 s allowance [S17][S18], handlers 5 s before it ends [S21],
    /// 5 s for `applicationDidEnterBackground` and `applicationWillTerminate` [S6][S8], 20 s to
    /// launch (``launchWatchdog``, every preset) [S23], 1000 assertions
    /// [S17], unfinished tasks killed with `0x2182bad2` [S22].
    public static let iOS13 = BudgetPolicy(
        name: "iOS13",
        didEnterBackgroundLimit: .seconds(5),
        willTerminateLimit: .seconds(5),
        backgroundTaskAllowance: .seconds(30),
        expirationWarningLead: .seconds(5),
        allowanceResetsOnForeground: true,
        maxOpenBackgroundTasks: 1000,
        backgroundTaskExpiryCode: 0x2182_bad2
    )

    /// iOS 7 to 12: a 180 s allowance [S19]; unfinished tasks killed with `0x8badf00d` [S17].
    public static let iOS7: BudgetPolicy = {
        var policy = iOS13
        policy.name = "iOS7"
        policy.backgroundTaskAllowance = .seconds(180)
        policy.backgroundTaskExpiryCode = 0x8bad_f00d
        return policy
    }()

    /// iOS 4 to 6: a 600 s allowance [S20]; unfinished tasks killed with `0x8badf00d` [S17].
    public static let iOS4: BudgetPolicy = {
        var policy = iOS7
        policy.name = "iOS4"
        policy.backgroundTaskAllowance = .seconds(600)
        return policy
    }()

    /// Every preset, newest first.
    public static let presets: [BudgetPolicy] = [.iOS13, .iOS7, .iOS4]

    /// The preset with a name (`"iOS13"`, `"iOS7"`, `"iOS4"`), or `nil`.
    public static func preset(named name: String) -> BudgetPolicy? {
        presets.first { $0.name == name }
    }

    /// Checks every value.
    /// - Throws: ``PolicyError`` for the first field that is negative, zero where time is needed,
    ///   shorter than its ``Field/floor`` (a keep-alive interval under 600 s, any limit or window under
    ///   1 ms), or inconsistent with another (a warning lead longer than the allowance).
    public func validate() throws(PolicyError) {
        func positive(_ value: Duration, _ field: BudgetPolicy.Field) throws(PolicyError) {
            if let problem = field.problem(with: value, written: value.secondsDouble) { throw PolicyError(field: field, problem: problem) }
        }
        try positive(didEnterBackgroundLimit, .didEnterBackgroundLimit)
        try positive(willTerminateLimit, .willTerminateLimit)
        try positive(launchWatchdog, .launchWatchdog)
        try positive(resumeWatchdog, .resumeWatchdog)
        try positive(backgroundTaskAllowance, .backgroundTaskAllowance)
        guard expirationWarningLead >= .zero else {
            throw PolicyError(field: .expirationWarningLead, problem: .negative(expirationWarningLead.secondsDouble))
        }
        guard expirationWarningLead <= backgroundTaskAllowance else {
            throw PolicyError(field: .expirationWarningLead, problem: .exceeds(
                expirationWarningLead.secondsDouble, field: .backgroundTaskAllowance, limit: backgroundTaskAllowance.secondsDouble))
        }
        guard maxOpenBackgroundTasks >= 1 else {
            throw PolicyError(field: .maxOpenBackgroundTasks, problem: .notPositive(Double(maxOpenBackgroundTasks)))
        }
        try positive(eventWindow, .eventWindow)
        try positive(remoteNotificationWindow, .remoteNotificationWindow)
        guard silentPushesPerHour >= 0 else {
            throw PolicyError(field: .silentPushesPerHour, problem: .negative(Double(silentPushesPerHour)))
        }
        try positive(voipKeepAliveMinimumInterval, .voipKeepAliveMinimumInterval)
        try positive(voipKeepAliveWindow, .voipKeepAliveWindow)
        try positive(fetchRuntime, .fetchRuntime)
        try positive(minimumFetchInterval, .minimumFetchInterval)
        try positive(processingTaskRuntimeCap, .processingTaskRuntimeCap)
        guard continuedProcessingTaskLimit >= 1 else {
            throw PolicyError(field: .continuedProcessingTaskLimit, problem: .notPositive(Double(continuedProcessingTaskLimit)))
        }
        try validateModelNumbers()
    }

    /// `iOS13 (allowance 30.000 s, lead 5.000 s)`.
    public var description: String {
        "\(name) (allowance \(formatSeconds(backgroundTaskAllowance.nanosecondsSaturating)) s, "
            + "lead \(formatSeconds(expirationWarningLead.nanosecondsSaturating)) s)"
    }
}
