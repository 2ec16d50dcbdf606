// `import BudgetClock` brings the instants the clocks count and the lock they are built on.
@_exported import BudgetLock
@_exported import BudgetTime
