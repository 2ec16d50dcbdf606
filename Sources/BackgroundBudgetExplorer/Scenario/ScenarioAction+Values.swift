import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension ScenarioAction {
    /// What a ``launch(_:)`` action carries; `nil` for any other action.
    public var launch: AppID? {
        if case .launch(let v0) = base { v0 } else { nil }
    }

    /// What an ``open(_:)`` action carries; `nil` for any other action.
    public var open: AppID? {
        if case .open(let v0) = base { v0 } else { nil }
    }

    /// What a ``switchTo(_:)`` action carries; `nil` for any other action.
    public var switchTo: AppID? {
        if case .switchTo(let v0) = base { v0 } else { nil }
    }

    /// What a ``killFromAppSwitcher(_:)`` action carries; `nil` for any other action.
    public var killFromAppSwitcher: AppID? {
        if case .killFromAppSwitcher(let v0) = base { v0 } else { nil }
    }

    /// What a ``launchInBackground(_:reason:)`` action carries; `nil` for any other action.
    public var launchInBackground: (AppID, reason: LaunchReason)? {
        if case .launchInBackground(let v0, let v1) = base { (v0, reason: v1) } else { nil }
    }

    /// What a ``purge(_:)`` action carries; `nil` for any other action.
    public var purge: AppID? {
        if case .purge(let v0) = base { v0 } else { nil }
    }

    /// What a ``terminate(_:reason:)`` action carries; `nil` for any other action.
    public var terminate: (AppID, reason: TerminationReason)? {
        if case .terminate(let v0, let v1) = base { (v0, reason: v1) } else { nil }
    }

    /// What a ``beginTask(_:_:)`` action carries; `nil` for any other action.
    public var beginTask: (AppID, ScenarioTask)? {
        if case .beginTask(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``startActivity(_:_:)`` action carries; `nil` for any other action.
    public var startActivity: (AppID, BackgroundActivity)? {
        if case .startActivity(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``stopActivity(_:_:)`` action carries; `nil` for any other action.
    public var stopActivity: (AppID, BackgroundActivity)? {
        if case .stopActivity(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``deliver(_:_:)`` action carries; `nil` for any other action.
    public var deliver: (AppID, BackgroundEvent)? {
        if case .deliver(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``setMemoryCapacity(bytes:)`` action carries; `nil` for any other action.
    public var setMemoryCapacity: Int? {
        if case .setMemoryCapacity(let v0) = base { v0 } else { nil }
    }

    /// What a ``setFootprint(_:bytes:)`` action carries; `nil` for any other action.
    public var setFootprint: (AppID, bytes: Int)? {
        if case .setFootprint(let v0, let v1) = base { (v0, bytes: v1) } else { nil }
    }

    /// What a ``post(_:)`` action carries; `nil` for any other action.
    public var post: SystemNotification? {
        if case .post(let v0) = base { v0 } else { nil }
    }

    /// What a ``setBackgroundAppRefresh(enabled:app:)`` action carries; `nil` for any other action.
    public var setBackgroundAppRefresh: (enabled: Bool, app: AppID?)? {
        if case .setBackgroundAppRefresh(let v0, let v1) = base { (enabled: v0, app: v1) } else { nil }
    }

    /// What a ``setBackgroundAppRefreshRestricted(_:)`` action carries; `nil` for any other action.
    public var setBackgroundAppRefreshRestricted: Bool? {
        if case .setBackgroundAppRefreshRestricted(let v0) = base { v0 } else { nil }
    }

    /// What a ``setLowPowerMode(_:)`` action carries; `nil` for any other action.
    public var setLowPowerMode: Bool? {
        if case .setLowPowerMode(let v0) = base { v0 } else { nil }
    }

    /// What a ``setCriticallyLowBattery(_:)`` action carries; `nil` for any other action.
    public var setCriticallyLowBattery: Bool? {
        if case .setCriticallyLowBattery(let v0) = base { v0 } else { nil }
    }

    /// What a ``setNetwork(_:)`` action carries; `nil` for any other action.
    public var setNetwork: Bool? {
        if case .setNetwork(let v0) = base { v0 } else { nil }
    }

    /// What a ``setExternalPower(_:)`` action carries; `nil` for any other action.
    public var setExternalPower: Bool? {
        if case .setExternalPower(let v0) = base { v0 } else { nil }
    }

    /// What a ``setDeviceIdle(_:)`` action carries; `nil` for any other action.
    public var setDeviceIdle: Bool? {
        if case .setDeviceIdle(let v0) = base { v0 } else { nil }
    }

    /// What a ``submitTask(_:identifier:kind:earliest:)`` action carries; `nil` for any other action.
    public var submitTask: (AppID, identifier: String, kind: TaskRequest.Kind, earliest: Duration?)? {
        if case .submitTask(let v0, let v1, let v2, let v3) = base { (v0, identifier: v1, kind: v2, earliest: v3) } else { nil }
    }

    /// What a ``cancelContinuedTask(_:identifier:)`` action carries; `nil` for any other action.
    public var cancelContinuedTask: (AppID, identifier: String)? {
        if case .cancelContinuedTask(let v0, let v1) = base { (v0, identifier: v1) } else { nil }
    }

    /// What a ``setSystemUnderLoad(_:)`` action carries; `nil` for any other action.
    public var setSystemUnderLoad: Bool? {
        if case .setSystemUnderLoad(let v0) = base { v0 } else { nil }
    }

    /// What a ``setBackgroundGPU(_:)`` action carries; `nil` for any other action.
    public var setBackgroundGPU: Bool? {
        if case .setBackgroundGPU(let v0) = base { v0 } else { nil }
    }

    /// What an ``openScene(_:)`` action carries; `nil` for any other action.
    public var openScene: AppID? {
        if case .openScene(let v0) = base { v0 } else { nil }
    }

    /// What a ``closeScene(_:scene:)`` action carries; `nil` for any other action.
    public var closeScene: (AppID, scene: SceneID)? {
        if case .closeScene(let v0, let v1) = base { (v0, scene: v1) } else { nil }
    }

    /// What a ``reclaimScene(_:scene:)`` action carries; `nil` for any other action.
    public var reclaimScene: (AppID, scene: SceneID)? {
        if case .reclaimScene(let v0, let v1) = base { (v0, scene: v1) } else { nil }
    }
}
