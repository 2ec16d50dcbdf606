// The runtime's API speaks in the core's values and the clocks' types: importing it brings both.
@_exported import BackgroundBudgetCore
@_exported import BudgetClock
