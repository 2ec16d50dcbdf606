import Testing
import BudgetTime

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

    /// The one-division conversion agrees with the one through `components` everywhere: exact
    /// nanoseconds, fractions (rounded toward zero on both sides of zero), the ends of `Int64`, and
    /// past them (clamped), plus random durations of every magnitude.
    @Test func nanosecondsSaturatingAgreesWithTheConversionThroughComponents() {
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(30), .seconds(-30), .milliseconds(1500),
            .nanoseconds(Int64.max), .nanoseconds(Int64.min), .nanoseconds(Int64.max) + .nanoseconds(1),
            .nanoseconds(Int64.min) - .nanoseconds(1), .seconds(Int64.max), .seconds(Int64.min),
            Duration(secondsComponent: 0, attosecondsComponent: 1), Duration(secondsComponent: 0, attosecondsComponent: -1),
            Duration(secondsComponent: 2, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: -2, attosecondsComponent: -999_999_999_999_999_999),
            Duration(secondsComponent: 18_446_744_073, attosecondsComponent: 709_551_615_999_999_999),
            Duration(secondsComponent: 18_446_744_073, attosecondsComponent: 709_551_616_000_000_000),
        ]
        var random = SplitMix64(seed: 26)
        for _ in 0..<2_000 {
            let seconds = Int64(bitPattern: random.next()) >> random.next(below: 64)
            let attoseconds = Int64(random.next(below: 1_000_000_000_000_000_000)) * (seconds < 0 ? -1 : 1)
            durations.append(Duration(secondsComponent: seconds, attosecondsComponent: attoseconds))
        }
        for duration in durations {
            #expect(duration.nanosecondsSaturating == duration.nanosecondsThroughComponents, "\(duration)")
        }
        #expect(Duration.nanoseconds(Int64.min).nanosecondsSaturating == .min)
        #expect(Duration.seconds(Int64.max).nanosecondsSaturating == .max)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: -1).nanosecondsSaturating == 0)
    }
}
