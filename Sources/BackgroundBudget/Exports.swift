// `import BackgroundBudget` brings the whole model: the runtime, the core, the clocks with the instants
// and the lock they are built on, job budgets and saved state come with it. This is the package's only
// re-export: every other module imports what it uses, file by file.
@_exported import BackgroundBudgetRuntime
@_exported import BackgroundBudgetCore
@_exported import BudgetClock
@_exported import BudgetTime
@_exported import BudgetLock
@_exported import JobBudgets
@_exported import SavedState
