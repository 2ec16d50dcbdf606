import BackgroundBudget
print(BudgetInstant.zero)
