/// A read-only copy of the core's state, for tools that compare states between runs.
import BackgroundBudgetCore

extension BackgroundSystem {
    /// A copy of the device's pure state with an empty trace: every app's record, the foreground app,
    /// memory, settings and conditions. Two systems with equal snapshots at the same instant decide
    /// alike from then on (the explorer prunes states it has already seen with it). Nothing changes.
    package var coreSnapshot: DeviceCore {
        state.withLock { $0.core.withoutTrace }
    }
}
