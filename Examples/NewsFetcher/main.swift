// NewsFetcher: one simulated day, midnight to midnight, of background work for two news apps while
// the phone's conditions change. Wire, an older app, uses legacy background fetch
// (setMinimumBackgroundFetchInterval and performFetchWithCompletionHandler) and answers newData, noData
// or failed from a seeded news feed, so the seeded fetch model grants it more fetches in the busy
// morning and fewer at night or after failures. Daily Brief uses BGTaskScheduler: a refresh request it
// resubmits from every run, and a nightly index rebuild (a processing request that needs external
// power and a network) which runs only while the phone is idle and is expired the moment the user
// picks the phone up or the cable slips out; it checkpoints, so an expired run is not wasted. Low Power
// Mode, the Background App Refresh switch, a subway ride without network and a memory purge happen on
// the way. Every time and probability here is a choice of the story, not a claim about iOS.
//
//   swift run NewsFetcher               # the summary; writes the SVG timeline to the temporary directory
//   swift run NewsFetcher --svg day.svg # the same, with the timeline written to day.svg
//   swift run NewsFetcher --trace       # the whole trace as NSLog lines (writes no SVG unless --svg)
import BackgroundBudget
import BackgroundBudgetScenario
import Foundation

// MARK: The world

/// A news server an app polls. It is not part of the app: a seeded generator decides how many new
/// stories it has — many in the morning, few at night — so every run is the same.
final class NewsFeed: Sendable {
    enum Answer: Sendable {
        case stories(Int)
        case nothingNew
        case unreachable
    }

    private let random: LockedValue<SplitMix64>
    private let clock: any BudgetClock
    private let isOnline: @Sendable () -> Bool

    /// - Parameters:
    ///   - seed: The seed of the server's news.
    ///   - clock: The clock whose time of day (t = 0 is midnight) makes the news busy or quiet.
    ///   - isOnline: Whether the phone has a connection (the apps' stand-in for a path monitor).
    init(seed: UInt64, clock: any BudgetClock, isOnline: @escaping @Sendable () -> Bool) {
        random = LockedValue(SplitMix64(seed: seed))
        self.clock = clock
        self.isOnline = isOnline
    }

    /// What a poll finds now.
    func poll() -> Answer {
        guard isOnline() else { return .unreachable }
        let hour = Int(clock.now.seconds) / 3600 % 24
        let percent: UInt64 = switch hour {
        case 0..<6: 5       // night
        case 6..<10: 90     // the morning rush
        case 10..<18: 60
        default: 40
        }
        return random.withLock { random in
            random.next(below: 100) < percent ? .stories(1 + Int(random.next(below: 5))) : .nothingNew
        }
    }
}

/// A line an app writes to its own log.
struct LogLine: Sendable {
    var time: BudgetInstant
    var text: String
}

// MARK: Wire: legacy background fetch

/// Wire asks for fetches as often as the system allows and answers each from the feed: newData when
/// there are stories, noData when there are none, failed when the request times out without a network.
/// The system's fetch model learns from the answers.
final class WireDelegate: ApplicationDelegate {
    let feed: NewsFeed
    let clock: any BudgetClock
    let log = LockedValue<[LogLine]>([])

    init(feed: NewsFeed, clock: any BudgetClock) {
        self.feed = feed
        self.clock = clock
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        // Set at every launch, including a launch into the background for a fetch.
        application.setMinimumBackgroundFetchInterval(.minimum)
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
        let started = clock.now
        switch feed.poll() {
        case .stories(let count):
            application.simulateWork(for: .seconds(4))
            log.withLock { $0.append(LogLine(time: started, text: "\(count) new")) }
            completionHandler(.newData)
        case .nothingNew:
            application.simulateWork(for: .seconds(1))
            log.withLock { $0.append(LogLine(time: started, text: "nothing")) }
            completionHandler(.noData)
        case .unreachable:
            application.simulateWork(for: .seconds(20))       // the request times out
            log.withLock { $0.append(LogLine(time: started, text: "failed")) }
            completionHandler(.failed)
        }
    }
}

// MARK: Daily Brief: BGTaskScheduler

/// Daily Brief registers its two launch handlers while it finishes launching, keeps one refresh request
/// pending (submitted when it leaves the screen and again from every run), and rebuilds its search
/// index in a processing task once a day.
final class DailyDelegate: ApplicationDelegate {
    static let refreshID = "com.example.daily.refresh"
    static let rebuildID = "com.example.daily.rebuild-index"
    /// The rebuild needs nine minutes of work in all, in one run or several.
    static let rebuildWork: Duration = .seconds(540)

    let feed: NewsFeed
    let clock: any BudgetClock
    let refreshLog = LockedValue<[LogLine]>([])
    let rebuildLog = LockedValue<[LogLine]>([])
    /// The rebuild's checkpoint: work still to do. The process lives all day in this story, so memory
    /// is enough; a real app would save it (see StateStore).
    let rebuildLeft = LockedValue<Duration>(DailyDelegate.rebuildWork)
    /// Whether the user has had the app on screen since it last entered the background.
    let onScreen = LockedValue(false)

    init(feed: NewsFeed, clock: any BudgetClock) {
        self.feed = feed
        self.clock = clock
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        // Left over from before the move to BGTaskScheduler: with BGTaskSchedulerPermittedIdentifiers in
        // the manifest the app gets no legacy fetches, so this call changes nothing.
        application.setMinimumBackgroundFetchInterval(.minimum)

        application.register(forTaskWithIdentifier: Self.refreshID) { [self] task in
            refresh(task, application)
        }
        application.register(forTaskWithIdentifier: Self.rebuildID) { [self] task in
            rebuild(task, application)
        }
        if !application.pendingTaskRequests().contains(where: { $0.identifier == Self.rebuildID }) {
            submitRebuild(application, notBefore: nil)
        }
    }

    func applicationDidBecomeActive(_ application: Application) {
        onScreen.withLock { $0 = true }
    }

    func applicationDidEnterBackground(_ application: Application) {
        // The system also calls this when it wakes the suspended app for a task (see the Lifecycle rules
        // article); only a user leaving the app should move the next refresh an hour away.
        let userLeft = onScreen.withLock { onScreen in
            defer { onScreen = false }
            return onScreen
        }
        guard userLeft else { return }
        submitRefresh(application)
    }

    /// Asks for the next refresh, not before an hour from now.
    private func submitRefresh(_ application: Application) {
        do {
            try application.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh,
                                               earliestBeginDate: clock.now + .seconds(3_600)))
        } catch {
            refreshLog.withLock { $0.append(LogLine(time: clock.now, text: "submit refused: \(error.code)")) }
        }
    }

    private func submitRebuild(_ application: Application, notBefore: BudgetInstant?) {
        let request = TaskRequest(identifier: Self.rebuildID,
                                  kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: true),
                                  earliestBeginDate: notBefore)
        do {
            try application.submit(request)
        } catch {
            rebuildLog.withLock { $0.append(LogLine(time: clock.now, text: "submit refused: \(error.code)")) }
        }
    }

    /// The refresh task: schedule the next one first, then download the headlines. Without a network
    /// it waits for one, and completes unsuccessfully when the system expires it.
    private func refresh(_ task: ScheduledTask, _ application: Application) {
        submitRefresh(application)
        let started = clock.now
        task.expirationHandler = { [self] in
            refreshLog.withLock { $0.append(LogLine(time: started, text: "expired waiting for a network")) }
            task.setTaskCompleted(success: false)
        }
        switch feed.poll() {
        case .stories(let count):
            application.simulateWork(for: .seconds(3))
            refreshLog.withLock { $0.append(LogLine(time: started, text: "\(count) new")) }
            task.setTaskCompleted(success: true)
        case .nothingNew:
            application.simulateWork(for: .seconds(1))
            refreshLog.withLock { $0.append(LogLine(time: started, text: "nothing")) }
            task.setTaskCompleted(success: true)
        case .unreachable:
            break       // wait for a connection; the expiration handler ends the task
        }
    }

    /// The processing task: resume the rebuild where the last run stopped. The work runs on the clock
    /// (it does not block the app's queue), so the system can expire it part-way.
    private func rebuild(_ task: ScheduledTask, _ application: Application) {
        let started = clock.now
        let left = rebuildLeft.withLock { $0 }
        rebuildLog.withLock { $0.append(LogLine(time: started, text: "rebuilding, \(minutes(left)) min of work left")) }
        let done = clock.schedule(at: started + left) { [self] in
            rebuildLog.withLock {
                $0.append(LogLine(time: clock.now, text: "index rebuilt; the next rebuild is for tomorrow night"))
            }
            task.setTaskCompleted(success: true)
            rebuildLeft.withLock { $0 = Self.rebuildWork }
            submitRebuild(application, notBefore: clock.now + .seconds(20 * 3_600))
        }
        task.expirationHandler = { [self] in
            clock.cancel(done)
            let stillLeft = rebuildLeft.withLock { left in
                left -= clock.now - started
                return left
            }
            let text = "stopped at a checkpoint, \(minutes(stillLeft)) min left; resubmitted"
            rebuildLog.withLock { $0.append(LogLine(time: clock.now, text: text)) }
            task.setTaskCompleted(success: false)
            submitRebuild(application, notBefore: nil)
        }
    }
}

/// Whole minutes in a duration.
func minutes(_ duration: Duration) -> Int64 { duration.components.seconds / 60 }

// MARK: Command line

struct Options {
    var trace = false
    var svgPath: String?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("NewsFetcher: \(message)\nusage: NewsFetcher [--svg PATH] [--trace]\n".utf8))
    exit(2)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--trace": options.trace = true
    case "--svg":
        guard let path = arguments.popFirst(), !path.hasPrefix("--") else { fail("--svg needs a file path") }
        options.svgPath = path
    case "--help", "-h":
        print("usage: NewsFetcher [--svg PATH] [--trace]")
        exit(0)
    default: fail("unknown argument \"\(argument)\"")
    }
}

// MARK: The day

let clock = VirtualClock()
let system = BackgroundSystem(clock: clock)
let isOnline: @Sendable () -> Bool = { [system] in system.isNetworkAvailable }

let dailyDelegate = DailyDelegate(feed: NewsFeed(seed: 1, clock: clock, isOnline: isOnline), clock: clock)
let daily = try system.install(
    AppManifest(id: "com.example.daily", displayName: "Daily Brief", backgroundModes: [.fetch, .processing],
                permittedTaskIdentifiers: [DailyDelegate.refreshID, DailyDelegate.rebuildID]),
    delegate: dailyDelegate)
let wireDelegate = WireDelegate(feed: NewsFeed(seed: 2, clock: clock, isOnline: isOnline), clock: clock)
let wire = try system.install(AppManifest(id: "com.example.wire", displayName: "Wire", backgroundModes: [.fetch]),
                              delegate: wireDelegate)
let messages = try system.install(AppManifest(id: "com.example.messages", displayName: "Messages"))

/// What happens to the phone, for the summary.
var story: [LogLine] = []
/// "Why didn't it run?", asked at a few instants.
var explanations: [LogLine] = []

/// Moves the clock to a time of day (t = 0 is midnight).
@MainActor func at(_ hour: Int64, _ minute: Int64, _ what: String? = nil) {
    clock.advance(to: .seconds(hour * 3_600 + minute * 60))
    if let what { story.append(LogLine(time: clock.now, text: what)) }
}

@MainActor func explain(_ identifier: String) {
    let explanation = system.explainPendingTaskRequest(identifier, of: daily)
    explanations.append(LogLine(time: clock.now, text: explanation?.description ?? "\(identifier) is not pending."))
}

// Midnight, in bed, the phone on the charger. Daily Brief launches: it registers its handlers and
// submits the index rebuild, which waits for the phone to be idle.
at(0, 0, "In bed, phone on the charger: the user reads Daily Brief.")
system.setExternalPower(true)
try system.open(daily)
at(0, 15)
try system.pressHome()                  // Daily Brief leaves the screen: it submits its first refresh
at(0, 20, "Phone down: idle, on power, online. The index rebuild starts.")
system.setDeviceIdle(true)
at(0, 24, "A message: the user opens Messages, which ends idleness.")
try system.open(messages)               // the rebuild is expired (deviceInUse)
at(0, 26)
try system.pressHome()
at(0, 28, "Phone down again: the rebuild resumes.")
system.setDeviceIdle(true)
at(0, 31, "The charging cable slips out.")
system.setExternalPower(false)          // the rebuild is expired (externalPowerLost)
at(3, 0)
explain(DailyDelegate.rebuildID)        // idle and online, but not on power

// The working day.
at(7, 0, "The user picks up the phone, reads Daily Brief, then opens Wire (new on the phone) for the first time.")
system.setDeviceIdle(false)
try system.open(daily)
at(7, 12)
try system.open(wire)                   // Wire launches and asks for background fetches
at(7, 20)
try system.pressHome()
at(8, 0, "Subway: no network until 08:40.")
system.setNetworkAvailable(false)       // Wire's fetches fail; Daily Brief's refresh waits and expires
at(8, 40)
system.setNetworkAvailable(true)
at(12, 30, "Lunch: Daily Brief, then Messages.")
try system.open(daily)
at(12, 40)
try system.open(messages)
at(12, 45)
try system.pressHome()
at(14, 0, "Battery low: Low Power Mode on, so Background App Refresh is off for every app.")
system.setLowPowerMode(true)
at(15, 0, "The user checks Daily Brief; leaving it, the app cannot submit a refresh.")
try system.open(daily)
at(15, 5)
try system.pressHome()
at(16, 0)
explain(DailyDelegate.refreshID)        // its earliest date has passed: only Low Power Mode is in the way
explain(DailyDelegate.rebuildID)
at(17, 0, "Plugged in at the desk.")
system.setExternalPower(true)
at(17, 30, "Low Power Mode off: the waiting refresh runs at once.")
system.setLowPowerMode(false)
at(18, 0, "Unplugged.")
system.setExternalPower(false)
at(19, 0, "The user turns Background App Refresh off for Wire.")
system.setBackgroundAppRefresh(enabled: false, for: wire)
at(20, 0, "A game needs memory: the system purges the suspended Wire.")
try system.purge(wire)
at(21, 0, "Background App Refresh on again for Wire: its next fetch launches it into the background.")
system.setBackgroundAppRefresh(enabled: true, for: wire)

// Night again.
at(22, 30, "In bed, on the charger, reading Daily Brief.")
system.setExternalPower(true)
try system.open(daily)
at(22, 45)
explain(DailyDelegate.rebuildID)        // on power and online, but the phone is in use
at(22, 50)
try system.pressHome()
at(23, 0, "Phone down for the night: the rebuild finishes.")
system.setDeviceIdle(true)
at(24, 0)

// MARK: Output

let apps = [daily, wire, messages].map(\.manifest)
let run = ScenarioRun(
    trace: system.trace, apps: apps, end: clock.now,
    description: "NewsFetcher: one simulated day from midnight (0 h) to midnight (24 h). Wire uses legacy background "
        + "fetch; Daily Brief a BGTaskScheduler refresh request and a nightly index rebuild that needs idle, power "
        + "and network. Subway without network 8-8:40 h, Low Power Mode 14-17:30 h, Wire's Background App Refresh "
        + "off 19-21 h and purged at 20 h.")

func writeSVG(to path: String) -> Bool {
    do {
        try run.rendered(as: .svg).write(toFile: path, atomically: true, encoding: .utf8)
        return true
    } catch {
        let message = "NewsFetcher: cannot write the SVG to \(path): \(error.localizedDescription)\n"
        FileHandle.standardError.write(Data(message.utf8))
        return false
    }
}

if options.trace {
    // As run.rendered(as: .log), but with trace time zero printed as midnight, so the log's times of
    // day match the summary's.
    let style = LogLineStyle(start: .init(year: 2026, month: 1, day: 1),
                             processNames: Dictionary(uniqueKeysWithValues: apps.map { ($0.id, $0.displayName) }))
    print(run.trace.logLines(style), terminator: "")
    if let path = options.svgPath, !writeSVG(to: path) { exit(1) }
    exit(0)
}

let svgPath = options.svgPath ?? FileManager.default.temporaryDirectory.appendingPathComponent("NewsFetcher.svg").path
guard writeSVG(to: svgPath) else { exit(1) }

/// `07:05`, or `07:05:25` with seconds.
func clockTime(_ instant: BudgetInstant, seconds: Bool = false) -> String {
    let total = instant.nanoseconds / 1_000_000_000
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return two(total / 3_600) + ":" + two(total / 60 % 60) + (seconds ? ":" + two(total % 60) : "")
}

/// `3 newData, 1 noData` for the counts of some names, in a fixed order.
func counts(_ names: [String], order: [String]) -> String {
    order.compactMap { name in
        let count = names.filter { $0 == name }.count
        return count == 0 ? nil : "\(count) \(name)"
    }.joined(separator: ", ")
}

/// Prints items a few to a line.
func printColumns(_ items: [String], perLine: Int) {
    for start in stride(from: 0, to: items.count, by: perLine) {
        print("  " + items[start..<min(start + perLine, items.count)].joined(separator: "   "))
    }
}

let events = system.trace.events
print("NewsFetcher: a simulated day, 00:00 to 24:00, of background fetches and BGTaskScheduler tasks.")
print("")
print("The day")
for line in story { print("  \(clockTime(line.time))  \(line.text)") }

// Wire: what the fetch model granted, and how its gaps followed the answers.
let wireEvents = events.filter { $0.app == wire.id }
let fetchResults = wireEvents.compactMap { event -> String? in
    if case .fetchCompleted(let result) = event.kind { result.rawValue } else { nil }
}
let skipReasons = wireEvents.filter { $0.eventName == "fetchSkipped" }.compactMap(\.reason)
// How each answer changed the wait for the next opportunity: the wait after a fetch (from its completion
// to the next fetch or skip) divided by the wait before it.
var ratios: [String: [Double]] = [:]
var anchor: BudgetInstant?
var previousWait: Duration?
var lastResult: String?
for event in wireEvents {
    switch event.kind.tag {
    case .fetchStarted, .fetchSkipped:
        if let from = anchor {
            let wait = event.time - from
            if let result = lastResult, let previousWait, previousWait > .zero {
                ratios[result, default: []].append(wait / previousWait)
            }
            previousWait = wait
        }
        lastResult = nil
        if event.kind.tag == .fetchSkipped { anchor = event.time }
    case .fetchCompleted:
        anchor = event.time
        if case .fetchCompleted(let result) = event.kind { lastResult = result.rawValue }
    default: break
    }
}
print("")
print("Wire: legacy background fetch, setMinimumBackgroundFetchInterval(.minimum)")
print("  \(fetchResults.count) fetches: \(counts(fetchResults, order: BackgroundFetchResult.allCases.map(\.rawValue))). "
    + "\(skipReasons.count) opportunities skipped: "
    + "\(counts(skipReasons, order: FetchSkipReason.allCases.map(\.rawValue))).")
let ratioText = BackgroundFetchResult.allCases.compactMap { result -> String? in
    guard let list = ratios[result.rawValue], !list.isEmpty else { return nil }
    let mean = list.reduce(0, +) / Double(list.count)
    return "\((mean * 10).rounded() / 10)x after \(result.rawValue)"
}.joined(separator: ", ")
print("  The seeded fetch model's wait for the next opportunity, compared with the wait before: \(ratioText).")
for event in wireEvents {
    if case .stateChange(_, cause: .launchInBackground(.backgroundFetch)) = event.kind {
        print("  At \(clockTime(event.time)) the system launched it into the background for a fetch.")
    }
}
printColumns(wireDelegate.log.withLock { $0 }.map { "\(clockTime($0.time)) \($0.text)" }, perLine: 6)

// Daily Brief's refresh task.
let dailyEvents = events.filter { $0.app == daily.id }
func taskEvents(_ identifier: String) -> [TraceEvent] { dailyEvents.filter { $0.name == identifier } }
let refreshEvents = taskEvents(DailyDelegate.refreshID)
let refreshCompletions = refreshEvents.filter { $0.eventName == "taskCompleted" }.compactMap(\.reason)
let refreshExpiries = refreshEvents.filter { $0.eventName == "taskExpired" }.compactMap(\.reason)
print("")
print("Daily Brief: refresh request \"\(DailyDelegate.refreshID)\", resubmitted from every run (not before +1 h)")
print("  \(refreshEvents.filter { $0.eventName == "taskStarted" }.count) runs, "
    + "\(refreshExpiries.count) expired (\(Set(refreshExpiries).sorted().joined(separator: ", "))); "
    + "completed: \(counts(refreshCompletions, order: TaskCompletion.allCases.map(\.rawValue))).")
printColumns(dailyDelegate.refreshLog.withLock { $0 }.map { "\(clockTime($0.time)) \($0.text)" }, perLine: 5)
let dailyFetches = dailyEvents.filter { $0.eventName == "performFetch" }.count
print("  It also calls setMinimumBackgroundFetchInterval: \(dailyFetches) legacy fetches, because "
    + "BGTaskSchedulerPermittedIdentifiers turn legacy fetch off.")

// Daily Brief's processing task: the trace says why each run ended, the app's log what it kept.
print("")
print("Daily Brief: processing request \"\(DailyDelegate.rebuildID)\" "
    + "(needs external power and network; only while idle)")
// At one instant: the system starts or expires the task, then the app writes its log, then the task completes.
var rebuildLines = taskEvents(DailyDelegate.rebuildID).compactMap { event -> (LogLine, rank: Int)? in
    if event.kind.tag == .taskStarted { return (LogLine(time: event.time, text: "started"), 0) }
    if case .taskExpired(_, let reason) = event.kind { return (LogLine(time: event.time, text: "expired: \(reason.rawValue)"), 0) }
    if case .taskCompleted(_, let completion) = event.kind {
        return (LogLine(time: event.time, text: "completed: \(completion.rawValue)"), 2)
    }
    return nil
}
rebuildLines += dailyDelegate.rebuildLog.withLock { $0 }.map {
    (LogLine(time: $0.time, text: "  app: " + $0.text), 1)
}
for (line, _) in rebuildLines.sorted(by: { ($0.0.time, $0.rank) < ($1.0.time, $1.rank) }) {
    print("  \(clockTime(line.time, seconds: true))  \(line.text)")
}

print("")
print("Why didn't it run? (explainPendingTaskRequest; t= counts seconds from midnight)")
for line in explanations { print("  \(clockTime(line.time))  \(line.text)") }

print("")
print("Timeline (\(events.count) trace events): \(svgPath)")
