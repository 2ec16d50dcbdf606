import Testing
import BudgetClock

@Suite struct BudgetInstantTests {
    @Test func formatsSecondsWithThreeDecimals() {
        #expect(formatSeconds(0) == "0.000")
        #expect(formatSeconds(25_000_000_000) == "25.000")
        #expect(formatSeconds(1_234_567_890) == "1.235")
        #expect(formatSeconds(-500_000_000) == "-0.500")
        #expect(formatSeconds(-400_000) == "0.000")
    }

    @Test func arithmeticSaturatesInsteadOfTrapping() {
        #expect(BudgetInstant.seconds(10) + .seconds(5) == .seconds(15))
        #expect(BudgetInstant.seconds(15) - BudgetInstant.seconds(10) == .seconds(5))
        #expect(BudgetInstant.distantFuture + .seconds(1) == .distantFuture)
        #expect(BudgetInstant.seconds(Int64.max) == .distantFuture)
        #expect(BudgetInstant.milliseconds(1500).seconds == 1.5)
    }
}
