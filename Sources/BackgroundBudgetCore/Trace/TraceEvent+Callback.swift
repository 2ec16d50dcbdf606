import BudgetTime

extension TraceEvent {
    /// The callback, when this entry is one.
    public var callback: AppCallback? {
        if case .callback(let callback) = kind { return callback }
        return nil
    }

    /// The scene callback and the scene it was delivered for, when this entry is one.
    public var sceneCallback: (callback: SceneCallback, scene: SceneID)? {
        if case .sceneCallback(let callback, let scene) = kind { return (callback, scene) }
        return nil
    }
}
