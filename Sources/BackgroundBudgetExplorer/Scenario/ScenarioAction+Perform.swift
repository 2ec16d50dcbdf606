import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension ScenarioAction {
    /// The table entry for a `"do"` value, or `nil`.
    static func verb(named name: String) -> Verb? {
        vocabulary.first { $0.name == name }
    }

    /// Does the action to the device.
    /// - Parameter stage: The running device and its apps.
    /// - Throws: ``ScenarioError`` with ``ScenarioError/Problem/eventRefused(_:)`` when the lifecycle
    ///   refuses it, or ``ScenarioError/Problem/taskNotFound(_:)`` when the user cancels a task that
    ///   does not exist (nothing changes either way); the caller fills in the event's path.
    package func perform(in stage: ScenarioStage) throws(ScenarioError) {
        if case .cancelContinuedTask(let id, let identifier) = self {
            do {
                try stage.system.cancelContinuedProcessingTask(identifier, of: stage.app(id))
            } catch {
                throw ScenarioError(.taskNotFound(error), path: "$")
            }
            return
        }
        do {
            try change(stage)
        } catch {
            throw ScenarioError(.eventRefused(error), path: "$")
        }
    }

    /// Does every action but `cancelContinuedTask`.
    private func change(_ stage: ScenarioStage) throws(LifecycleError) {
        switch self {
        case .launch(let id): try stage.system.send(.launch, to: stage.app(id))
        case .open(let id): try stage.system.open(stage.app(id))
        case .switchTo(let id):
            let target = stage.app(id)
            guard let current = stage.system.foregroundApplication else {
                throw LifecycleError(event: .switchAway, state: .notRunning, problem: .noForegroundApp)
            }
            guard current !== target else {
                throw LifecycleError(event: .switchAway, state: current.applicationState, problem: .alreadyInForeground, app: id)
            }
            try stage.system.open(target)
        case .home: try stage.system.pressHome()
        case .beginInterruption: try stage.system.beginInterruption()
        case .dismissInterruption: try stage.system.dismissInterruption()
        case .answerInterruption: try stage.system.answerInterruption()
        case .killFromAppSwitcher(let id): try stage.system.killFromAppSwitcher(stage.app(id))
        case .launchInBackground(let id, let reason): try stage.system.launchInBackground(stage.app(id), reason: reason)
        case .reboot: stage.system.reboot()
        case .purge(let id): try stage.system.purge(stage.app(id))
        case .terminate(let id, let reason): try stage.system.terminate(stage.app(id), reason: reason)
        case .beginTask(let id, let task): task.begin(in: stage.app(id))
        case .startActivity(let id, let activity): try? stage.app(id).startActivity(activity)
        case .stopActivity(let id, let activity): stage.app(id).stopActivity(activity)
        case .deliver(let id, let event): stage.system.deliver(event, to: stage.app(id))
        case .setMemoryCapacity(let bytes): stage.system.setMemoryCapacity(bytes)
        case .setFootprint(let id, let bytes): stage.app(id).setMemoryFootprint(bytes)
        case .post(let notification): stage.system.post(notification)
        case .setBackgroundAppRefresh(let enabled, let id?): stage.system.setBackgroundAppRefresh(enabled: enabled, for: stage.app(id))
        case .setBackgroundAppRefresh(let enabled, nil): stage.system.setBackgroundAppRefresh(enabled: enabled)
        case .setBackgroundAppRefreshRestricted(let restricted): stage.system.setBackgroundAppRefreshRestricted(restricted)
        case .setLowPowerMode(let enabled): stage.system.setLowPowerMode(enabled)
        case .setCriticallyLowBattery(let critical): stage.system.setCriticallyLowBattery(critical)
        case .setNetwork(let enabled): stage.system.setNetworkAvailable(enabled)
        case .setExternalPower(let enabled): stage.system.setExternalPower(enabled)
        case .setDeviceIdle(let enabled): stage.system.setDeviceIdle(enabled)
        case .submitTask(let id, let identifier, let kind, let earliest):
            ScenarioStep.submit(identifier: identifier, kind: kind, earliest: earliest, in: stage.app(id))
        case .cancelContinuedTask: break   // handled by perform(in:)
        case .reclaimResources: stage.system.reclaimContinuedProcessingResources()
        case .setSystemUnderLoad(let enabled): stage.system.setSystemUnderLoad(enabled)
        case .setBackgroundGPU(let enabled): stage.system.setSupportsBackgroundGPU(enabled)
        case .openScene(let id): try stage.system.openScene(of: stage.app(id))
        case .closeScene(let id, let scene): try stage.system.closeScene(scene, of: stage.app(id))
        case .reclaimScene(let id, let scene): try stage.system.reclaimScene(scene, of: stage.app(id))
        }
    }
}
