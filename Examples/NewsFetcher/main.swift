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
//
// This file plays the day and prints it. The world is in NewsFeed.swift, the two apps in
// WireDelegate.swift and DailyDelegate.swift, the command line in Options.swift, and the summary's
// formatting in Formatting.swift.
import BackgroundBudget
import BackgroundBudgetScenario
import Foundation

// MARK: Command line

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
