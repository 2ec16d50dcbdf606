import BudgetTime

/// Why an app is in its state: what keeps it running, why it was last suspended, and what stands in
/// the way of a background relaunch — the questions people ask most about background work.
///
/// ```swift
/// print(system.explain(app))
/// // com.example.player is background: kept running by audioPlayback.
/// ```
public struct Explanation: Sendable, Hashable, CustomStringConvertible {
    /// Something that keeps an app running.
    ///
    /// The holds grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Hold: Sendable, Hashable, CustomStringConvertible {
        /// The app is on screen.
        case foreground
        /// Finite background tasks are open; the allowance runs out at the instant, if it is running.
        case backgroundTasks(count: Int, allowanceEndsAt: BudgetInstant?)
        /// A continuous activity with its mode declared.
        case activity(BackgroundActivity)
        /// The window granted to handle an event lasts until the instant.
        case eventWindow(until: BudgetInstant)
        /// A `BGTaskScheduler` task with this identifier is running and has not completed.
        case scheduledTask(String)
        /// A callback, handler or event is still running on the app's queue.
        case codeRunning
        /// `applicationWillTerminate` is running.
        case terminating

        /// A short phrase, e.g. `"2 background tasks (allowance ends at t=40.000s)"`.
        public var description: String {
            switch self {
            case .foreground: "being in the foreground"
            case .backgroundTasks(let count, let end):
                "\(count) background task\(count == 1 ? "" : "s")" + (end.map { " (allowance ends at \($0))" } ?? "")
            case .activity(let activity): activity.rawValue
            case .eventWindow(let until): "an event window until \(until)"
            case .scheduledTask(let identifier): "the scheduled task \"\(identifier)\""
            case .codeRunning: "code still running on its queue"
            case .terminating: "applicationWillTerminate running"
            }
        }
    }

    /// Something that stops the system relaunching a terminated app into the background.
    ///
    /// The blockers grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`:
    ///
    /// ```swift
    /// switch blocker {
    /// case .killedByUser: print("killedByUser")
    /// default: print(blocker)   // its name
    /// }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum RelaunchBlocker: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The user killed it from the app switcher; only location events relaunch it until the user
        /// opens it [S31][S86].
        case killedByUser
        /// It sets `UIApplicationExitsOnSuspend`.
        case exitsOnSuspend
        /// It declares no mode and monitors nothing that could relaunch it.
        case nothingToRelaunchFor

        /// A short phrase.
        public var description: String {
            switch self {
            case .killedByUser: "the user killed it from the app switcher"
            case .exitsOnSuspend: "it exits on suspend"
            case .nothingToRelaunchFor: "it declares no background mode and monitors no location"
            }
        }
    }

    /// What the model does with an app's `UIApplicationExitsOnSuspend` flag, as
    /// ``BudgetPolicy/honoursExitsOnSuspend`` says.
    ///
    /// The set is closed: the policy honours the flag or ignores it, so a `switch` over it needs no `default`.
    public enum ExitsOnSuspendRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The flag is honoured, as through iOS 12 [S68]: the app terminates instead of being
        /// suspended and never runs in the background. iOS 13 and later ignore it [S67][S70].
        case honouredByPolicy
        /// The flag is ignored, as from iOS 13 [S67][S70]: the app is suspended like any other.
        case ignoredByPolicy

        /// A sentence, e.g. `"exits on suspend: honoured by policy (iOS 13+ ignores the flag)"`.
        public var description: String {
            switch self {
            case .honouredByPolicy: "exits on suspend: honoured by policy (iOS 13+ ignores the flag)"
            case .ignoredByPolicy: "exits on suspend: ignored by policy, as from iOS 13"
            }
        }
    }

    /// The app.
    public var app: AppID
    /// Its state, as the system sees it.
    public var state: ApplicationState
    /// What keeps it running now (empty unless it is executing).
    public var holds: [Hold]
    /// The last time it was suspended, and why.
    public var lastSuspension: (time: BudgetInstant, reason: SuspensionReason)?
    /// What stands in the way of a background relaunch (for an app that is not running).
    public var relaunchBlockers: [RelaunchBlocker]
    /// The rule applied to the app's `UIApplicationExitsOnSuspend` flag; `nil` when it does not set it.
    public var exitsOnSuspend: ExitsOnSuspendRule? = nil
    /// The files whose locks the running app holds, sorted: suspended while it holds any, it is killed
    /// (``TerminationReason/fileLockHeldAtSuspension``, `0xdead10cc`) [S22].
    public var heldFileLocks: [String] = []

    /// Explanations compare by their fields.
    public static func == (lhs: Explanation, rhs: Explanation) -> Bool {
        lhs.app == rhs.app && lhs.state == rhs.state && lhs.holds == rhs.holds
            && lhs.lastSuspension?.time == rhs.lastSuspension?.time && lhs.lastSuspension?.reason == rhs.lastSuspension?.reason
            && lhs.relaunchBlockers == rhs.relaunchBlockers && lhs.exitsOnSuspend == rhs.exitsOnSuspend
            && lhs.heldFileLocks == rhs.heldFileLocks
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(app)
        hasher.combine(state)
        hasher.combine(holds)
        hasher.combine(lastSuspension?.time)
        hasher.combine(lastSuspension?.reason)
        hasher.combine(relaunchBlockers)
        hasher.combine(exitsOnSuspend)
        hasher.combine(heldFileLocks)
    }

    /// Sentences answering "why is it running", "why was it suspended", "why not relaunched", which
    /// rule applied to its `UIApplicationExitsOnSuspend` flag, if it sets it, and which file locks it
    /// holds, if any.
    public var description: String {
        var text = "\(app) is \(state)"
        switch state {
        case .inactive, .active, .background:
            text += holds.isEmpty ? "." : ": kept running by " + holds.map(\.description).joined(separator: ", ") + "."
        case .suspended:
            text += lastSuspension.map { ": suspended at \($0.time) (\($0.reason.rawValue))." } ?? "."
        case .notRunning:
            text += relaunchBlockers.isEmpty ? "; events for its modes can relaunch it."
                : "; not relaunched in the background because " + relaunchBlockers.map(\.description).joined(separator: " and ") + "."
        }
        if let exitsOnSuspend { text += " E" + exitsOnSuspend.description.dropFirst() + "." }
        if !heldFileLocks.isEmpty {
            text += " Holds file locks on " + heldFileLocks.joined(separator: ", ")
                + ": suspended while it holds one, it is killed (0xdead10cc)."
        }
        return text
    }
}
