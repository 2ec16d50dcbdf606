import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// The device a scenario runs on, with its apps by identifier.
package struct ScenarioStage {
    package let system: BackgroundSystem
    package let apps: [AppID: Application]

    /// A stage of installed apps on a system.
    package init(system: BackgroundSystem, apps: [AppID: Application]) {
        self.system = system
        self.apps = apps
    }

    /// The installed app with an identifier; ``Scenario/validate()`` has checked that it exists.
    package func app(_ id: AppID) -> Application {
        guard let app = apps[id] else { preconditionFailure("a validated scenario named an undeclared app \(id)") }
        return app
    }
}
