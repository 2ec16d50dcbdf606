import BudgetTime

/// Restarting the device.
///
/// Every process ends, with no callback: no source describes what an app sees when the device shuts
/// down, so the model runs none of its code (the exit's reason is ``TerminationReason/reboot``). What
/// the sources say survives does: the mark a user kill from the app switcher leaves, which keeps the app
/// from being relaunched in the background until the user opens it [S31][S86][S87]. VoIP apps are
/// relaunched into the background at boot [S34] (reason ``LaunchReason/voip``), unless that mark or
/// `UIApplicationExitsOnSuspend` stops them. Everything else the system keeps across a termination
/// (location monitoring, pending task requests, the fetch plan, device settings) is kept as it is: the
/// sources say nothing of it.
extension DeviceCore {
    /// Restarts the device: ends every running process, then relaunches the VoIP apps.
    package mutating func reboot(at now: BudgetInstant) -> Decision<Void> {
        recordDevice(.reboot, now)
        var effects: [Effect] = []
        for s in records.indices where records[s].isRunning {
            effects += applyValid(.kill(.reboot), to: records[s].manifest.id, at: now, invariant: "a running app can be killed")
        }
        for s in records.indices where relaunchesAtBoot(slot: s) {
            effects += applyValid(.launchInBackground(.voip), to: records[s].manifest.id, at: now,
                                  invariant: "an app that is not running can be launched into the background")
        }
        return Decision(effects)
    }

    /// Whether the app is relaunched at boot: it declares `voip` [S34], and neither a user kill
    /// [S31][S86] nor exits-on-suspend keeps it from background launches.
    func relaunchesAtBoot(slot s: Int) -> Bool {
        records[s].manifest.backgroundModes.contains(.voip) && !records[s].isRunning
            && userKillGate(slot: s, for: .content) == nil && exitsOnSuspendGate(slot: s) == nil
    }
}
