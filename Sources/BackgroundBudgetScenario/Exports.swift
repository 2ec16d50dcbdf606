// `import BackgroundBudgetScenario` brings the scenario vocabulary and the explorer it is built on.
@_exported import BackgroundBudgetExplorer
