// `import BackgroundBudget` brings the whole model: the runtime, the core, the clocks, job budgets and
// saved state come with it.
@_exported import BackgroundBudgetRuntime
@_exported import BudgetClock
@_exported import JobBudgets
@_exported import SavedState
@_exported import BackgroundBudgetCore
