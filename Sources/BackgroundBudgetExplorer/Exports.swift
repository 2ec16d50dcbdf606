// The explorer's API speaks in the runtime's types (systems, apps, delegates): importing it brings them.
@_exported import BackgroundBudgetRuntime
