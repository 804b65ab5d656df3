import OrientationCore
import Testing

@Suite struct SamplingFrequencyTests {
    @Test func parsesListsAndRanges() {
        #expect(SamplingFrequency.parseAvailable("12.5 25 50 100\n") == .list([12.5, 25, 50, 100]))
        #expect(SamplingFrequency.parseAvailable("100 1.5 50") == .list([1.5, 50, 100]))
        #expect(SamplingFrequency.parseAvailable("[0.5 0.5 200]\n") == .range(minimum: 0.5, step: 0.5, maximum: 200))
        #expect(SamplingFrequency.parseAvailable("") == nil)
        #expect(SamplingFrequency.parseAvailable("fast slow") == nil)
        #expect(SamplingFrequency.parseAvailable("0 -5") == nil)
        #expect(SamplingFrequency.parseAvailable("[1 0 10]") == nil)
        #expect(SamplingFrequency.parseAvailable("12,5 25") == .list([25]))
    }

    @Test func choosesTheLowestRateThatServesThePlan() {
        let rates = SamplingFrequency.AvailableRates.list([1, 10, 25, 50, 100])
        #expect(SamplingFrequency.choose(rates, intervalMsec: 700) == 10)  // needs 1.43 Hz
        #expect(SamplingFrequency.choose(rates, intervalMsec: 1000) == 1)
        #expect(SamplingFrequency.choose(rates, intervalMsec: 40) == 25)  // needs 25 Hz exactly
        #expect(SamplingFrequency.choose(rates, intervalMsec: 20) == 50)
        #expect(SamplingFrequency.choose(rates, intervalMsec: 5) == 100)  // none fast enough: the fastest
    }

    @Test func roundsUpWithinARange() {
        let range = SamplingFrequency.AvailableRates.range(minimum: 0.5, step: 0.5, maximum: 200)
        #expect(SamplingFrequency.choose(range, intervalMsec: 700) == 1.5)
        #expect(SamplingFrequency.choose(range, intervalMsec: 40) == 25)
        #expect(SamplingFrequency.choose(range, intervalMsec: 3000) == 0.5)
        #expect(SamplingFrequency.choose(range, intervalMsec: 1) == 200)
    }

    @Test func formatsWholeRatesWithoutAFraction() {
        #expect(SamplingFrequency.format(25) == "25")
        #expect(SamplingFrequency.format(12.5) == "12.5")
    }
}
