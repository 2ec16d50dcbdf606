import BackgroundBudget

/// The device a scenario runs on, with its apps by identifier.
struct ScenarioStage {
    let system: BackgroundSystem
    let apps: [AppID: Application]

    /// The installed app with an identifier; ``Scenario/validate()`` has checked that it exists.
    func app(_ id: AppID) -> Application {
        guard let app = apps[id] else { preconditionFailure("a validated scenario named an undeclared app \(id)") }
        return app
    }
}
