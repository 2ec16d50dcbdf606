import BackgroundBudgetCore

/// Something that lasts, drawn as a labelled bar under a lane's state band: an activity, a finite
/// task, a fetch, a scheduled task, or (in the Device lane, and for an app's own Background App
/// Refresh switch) a device condition.
struct TimelineSpan: Sendable, Hashable {
    /// What kind of thing it is; it decides the colour.
    enum Kind: Sendable, Hashable, CaseIterable {
        /// Audio, location and the other continuous activities.
        case activity
        /// A finite background task (`beginBackgroundTask` to `endBackgroundTask`).
        case finiteTask
        /// A background fetch (`performFetch` to its completion).
        case fetch
        /// A `BGTaskScheduler` task (started to completed).
        case scheduledTask
        /// A file lock the app holds (from taking it to releasing it, or to the process's end).
        case fileLock
        /// A device condition: Low Power Mode, Background App Refresh off, memory, power, network.
        case condition

        /// The bar's fill and the label's colour on it.
        var colours: (fill: String, stroke: String) {
            switch self {
            case .activity: ("#cfe8c8", "#3f8f3f")
            case .finiteTask: ("#fde2c2", "#c06a00")
            case .fetch: ("#d3e4f5", "#2f6fad")
            case .scheduledTask: ("#e6d9f2", "#7a4fa3")
            case .fileLock: ("#e3e3e3", "#4d4d4d")
            case .condition: ("#fff2b3", "#9a7b00")
            }
        }

        /// The legend's word for it.
        var legend: String {
            switch self {
            case .activity: "activity"
            case .finiteTask: "finite task"
            case .fetch: "fetch"
            case .scheduledTask: "scheduled task"
            case .fileLock: "file lock"
            case .condition: "condition"
            }
        }
    }

    var kind: Kind
    /// The text drawn on or next to the bar.
    var label: String
    /// Start and end, in nanoseconds.
    var from: Int64
    var to: Int64
    /// How it ended (`"completed: newData"`, `"exit"`), or `nil` while it still ran when the run ended.
    var ending: String?
}

/// Turns a lane's trace entries into ``TimelineSpan``s: opens a span when something starts, closes it
/// when it stops or the process ends.
struct TimelineSpanTracker: Sendable {
    private(set) var spans: [TimelineSpan] = []
    private var open: [String: Int] = [:]

    mutating func record(_ event: TraceEvent) {
        let t = event.time.nanoseconds
        switch event.kind {
        case .activityStarted(let activity): start("activity \(activity)", .activity, Self.label(of: activity), at: t)
        case .activityStopped(let activity): stop("activity \(activity)", at: t, "stopped")
        case .backgroundTaskBegan(let task, let name):
            start("task \(task.rawValue)", .finiteTask, name.map { "task \"\($0)\"" } ?? "task \(task.rawValue)", at: t)
        case .backgroundTaskEnded(let task): stop("task \(task.rawValue)", at: t, "ended")
        case .fetchStarted: start("fetch", .fetch, "fetch", at: t)
        case .fetchCompleted(let result): stop("fetch", at: t, "completed: \(result.rawValue)")
        case .taskStarted(let identifier):
            start("scheduled \(identifier)", .scheduledTask, Self.shortIdentifier(identifier), at: t)
        case .taskCompleted(let identifier, let completion): stop("scheduled \(identifier)", at: t, completion.rawValue)
        case .fileLockAcquired(let path): start("lock \(path)", .fileLock, "lock \(Self.lastComponent(of: path))", at: t)
        case .fileLockReleased(let path): stop("lock \(path)", at: t, "released")
        case .deviceChanged(let change):
            stop("condition \(change.name)", at: t, "\(change)")
            if let label = Self.label(of: change) { start("condition \(change.name)", .condition, label, at: t) }
        case .exit(let reason, _):
            for key in open.keys.sorted() where !key.hasPrefix("condition ") { stop(key, at: t, "exit: \(reason.rawValue)") }
        default: break
        }
    }

    /// Closes what is still open at the end of the run; those spans keep a `nil` ending.
    mutating func finish(at end: Int64) {
        for index in open.values.sorted() { spans[index].to = max(end, spans[index].from) }
        open = [:]
    }

    private mutating func start(_ key: String, _ kind: TimelineSpan.Kind, _ label: String, at t: Int64) {
        if open[key] != nil { stop(key, at: t, "restarted") }
        open[key] = spans.count
        spans.append(TimelineSpan(kind: kind, label: label, from: t, to: t, ending: nil))
    }

    private mutating func stop(_ key: String, at t: Int64, _ ending: String) {
        guard let index = open.removeValue(forKey: key) else { return }
        spans[index].to = t
        spans[index].ending = ending
    }

    /// `audio`, `location`, …
    static func label(of activity: BackgroundActivity) -> String {
        switch activity {
        case .audioPlayback: "audio"
        case .locationUpdates: "location"
        default: activity.rawValue
        }
    }

    /// The label of a condition that is out of the ordinary, or `nil` for the usual value (which
    /// ends the span): Low Power Mode on, Background App Refresh off, no network, …
    static func label(of change: DeviceChange) -> String? {
        switch change {
        case .lowPowerMode(let on): on ? "Low Power Mode" : nil
        case .criticallyLowBattery(let on): on ? "critically low battery" : nil
        case .reboot: nil        // an instant, not a condition that lasts
        case .backgroundAppRefresh(let on): on ? nil : "Background App Refresh off"
        case .backgroundAppRefreshRestricted(let on): on ? "Background App Refresh restricted" : nil
        case .network(let on): on ? nil : "no network"
        case .externalPower(let on): on ? "on external power" : nil
        case .idle(let on): on ? "idle" : nil
        case .systemUnderLoad(let on): on ? "system under load" : nil
        case .backgroundGPU(let on): on ? "background GPU" : nil
        case .memoryCapacity(let bytes): bytes.map { _ in "memory: \(change.value)" }
        }
    }

    /// The file name at the end of a path: `Notes.sqlite` for `Library/Notes.sqlite`.
    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The last component of a reverse-DNS task identifier: `refresh` for `com.example.photos.refresh`.
    static func shortIdentifier(_ identifier: String) -> String {
        identifier.split(separator: ".").last.map(String.init) ?? identifier
    }
}
