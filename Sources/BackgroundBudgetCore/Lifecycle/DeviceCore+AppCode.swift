import BudgetTime

/// App code running now: the system suspends an app between pieces of its code, never inside one.
///
/// A suspended app runs no code and "the system resumes the app" before it runs any [S3]. The shell
/// cannot stop a piece of app code between instructions, so a suspension decided while one runs (its
/// code ended its last background task, completed its fetch, or a timer fired during its
/// `simulateWork`) takes effect when it returns: until then the app reads a running state, and the
/// trace records the suspension after everything that code did (a model assumption: iOS freezes the
/// code where it is, and the app sees nothing either way).
extension DeviceCore {
    /// Notes that a piece of the app's code starts on one of its queues.
    /// - Returns: The incarnation it runs in, to hand back to ``appCodeReturned(_:incarnation:at:)``;
    ///   `nil` when the app is not running (nothing is counted).
    package mutating func appCodeStarted(_ app: AppID) -> UInt64? {
        let s = slot(app)
        guard records[s].isRunning else { return nil }
        records[s].process.modify { $0.codeRunning += 1 }
        return records[s].incarnation
    }

    /// Notes that a piece of the app's code returned; when none runs any more, suspends a background
    /// app that nothing else keeps running. A return for an ended incarnation changes nothing.
    package mutating func appCodeReturned(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, let running = records[s].process.running, running.codeRunning > 0 else { return [] }
        records[s].process.modify { $0.codeRunning -= 1 }
        guard running.codeRunning == 1 else { return [] }
        return Decision(suspendIfIdle(app, at: now))
    }
}
