/// Steps the system has decided for one app, to be delivered on that app's executor in order.
struct Delivery: Sendable {
    /// The app.
    var app: AppID
    /// The event that caused the steps (it carries the launch reason for launch options).
    var event: LifecycleEvent
    /// The steps, in order.
    var steps: [LifecycleStep]

    /// The app's state after the last step, if any step changes it.
    var finalState: ApplicationState? {
        for step in steps.reversed() { if case .enter(let state) = step { return state } }
        return nil
    }
}

/// The device's pure core: every app's authoritative state, which app is in the foreground, and the
/// trace. No clocks, queues or locks: callers pass `now` and perform the returned deliveries.
struct DeviceCore: Sendable {
    struct AppRecord: Sendable {
        var manifest: AppManifest
        var state: ApplicationState = .notRunning
    }

    private(set) var apps: [AppID: AppRecord] = [:]
    private(set) var foreground: AppID?
    private(set) var trace = Trace()

    /// Adds an app in the not-running state.
    mutating func install(_ manifest: AppManifest) throws(InstallError) {
        if let problem = manifest.id.validationProblem {
            throw InstallError(app: manifest.id, problem: .invalidBundleIdentifier(problem))
        }
        guard apps[manifest.id] == nil else { throw InstallError(app: manifest.id, problem: .alreadyInstalled) }
        apps[manifest.id] = AppRecord(manifest: manifest)
    }

    /// The authoritative state of an app.
    func state(of app: AppID) -> ApplicationState {
        apps[app]?.state ?? .notRunning
    }

    /// Applies an event to one app. An event that brings the app to the foreground first sends the
    /// current foreground app away (only one app is in the foreground at a time).
    /// Nothing changes when it throws.
    mutating func apply(_ event: LifecycleEvent, to app: AppID, at now: BudgetInstant) throws(LifecycleError) -> [Delivery] {
        guard let record = apps[app] else {
            preconditionFailure("BackgroundSystem handed the core an app it never installed: \(app)")
        }
        let transition: Lifecycle.Transition
        do {
            transition = try Lifecycle.transition(from: record.state, on: event, exitsOnSuspend: record.manifest.exitsOnSuspend)
        } catch {
            var error = error
            error.app = app
            throw error
        }
        var deliveries: [Delivery] = []
        if transition.to.isForeground, let current = foreground, current != app {
            // The other app is in the foreground, so this cannot fail.
            deliveries += (try? apply(.switchAway, to: current, at: now)) ?? []
        }
        commit(transition, of: app, cause: event, at: now)
        deliveries.append(Delivery(app: app, event: event, steps: transition.steps))
        return deliveries
    }

    /// Applies a device-wide event to the foreground app.
    mutating func applyToForeground(_ event: LifecycleEvent, at now: BudgetInstant) throws(LifecycleError) -> [Delivery] {
        guard let app = foreground else {
            throw LifecycleError(event: event, state: .notRunning, problem: .noForegroundApp)
        }
        return try apply(event, to: app, at: now)
    }

    /// Decides what happens to an app whose callbacks have all returned: a background app that nothing
    /// keeps running is suspended.
    mutating func settle(_ app: AppID, at now: BudgetInstant) -> [Delivery] {
        guard state(of: app) == .background else { return [] }
        return (try? apply(.suspend(.noBackgroundWork), to: app, at: now)) ?? []
    }

    private mutating func commit(_ transition: Lifecycle.Transition, of app: AppID, cause: LifecycleEvent, at now: BudgetInstant) {
        for step in transition.steps {
            switch step {
            case .enter(let state):
                trace.events.append(TraceEvent(time: now, app: app, kind: .stateChange(state, cause: cause)))
            case .callback(let callback):
                trace.events.append(TraceEvent(time: now, app: app, kind: .callback(callback)))
            case .exit(let reason):
                trace.events.append(TraceEvent(time: now, app: app, kind: .exit(reason, code: reason.defaultCode)))
            }
        }
        apps[app]?.state = transition.to
        if transition.to.isForeground {
            foreground = app
        } else if foreground == app {
            foreground = nil
        }
    }
}
