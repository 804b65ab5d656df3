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

    @Test func readsCrosECsOffMinimumMaximumAsAContinuousRange() {
        let crosEC = SamplingFrequency.parseAvailable("0.000000 12.500000 100.000000\n")
        #expect(crosEC == .continuous(minimum: 12.5, maximum: 100))
        #expect(SamplingFrequency.choose(crosEC!, intervalMsec: 700) == 12.5)  // the minimum
        #expect(SamplingFrequency.choose(crosEC!, intervalMsec: 40) == 25)  // any rate in between
        #expect(SamplingFrequency.choose(crosEC!, intervalMsec: 5) == 100)
        // A set of three rates is a set.
        #expect(SamplingFrequency.parseAvailable("1 12.5 100") == .list([1, 12.5, 100]))
    }

    @Test func writesWhatThePlanNeedsWhereNoListExists() {
        #expect(SamplingFrequency.choose(.unlisted, intervalMsec: 40) == 25)
        #expect(SamplingFrequency.format(SamplingFrequency.choose(.unlisted, intervalMsec: 700)) == "1.428572")
        #expect(SamplingFrequency.choose(.unlisted, intervalMsec: 700, floor: 10) == 10)
    }

    @Test func thePolledFloorPicksTheLowestRateAtOrAboveIt() {
        // iio-sensor-proxy's own examples (LSM303DLHC, mma8452): 12 and 12.5 Hz serve a still device.
        let lsm = SamplingFrequency.parseAvailable("3 6 12 25 50 100 200 400 800 1600")!
        let mma = SamplingFrequency.parseAvailable(
            "800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000")!
        #expect(SamplingFrequency.format(SamplingFrequency.choose(lsm, intervalMsec: 700, floor: 10)) == "12")
        #expect(SamplingFrequency.format(SamplingFrequency.choose(mma, intervalMsec: 700, floor: 10)) == "12.5")
        #expect(SamplingFrequency.choose(mma, intervalMsec: 700) == 1.56)  // buffered: no floor
        #expect(SamplingFrequency.choose(lsm, intervalMsec: 40, floor: 10) == 25)
        // A device that offers nothing as fast as the floor gets its fastest.
        #expect(SamplingFrequency.choose(.list([1, 5]), intervalMsec: 700, floor: 10) == 5)
    }

    @Test func formatsWithMicroPrecisionRoundingUp() {
        #expect(SamplingFrequency.format(15.62) == "15.62")
        #expect(SamplingFrequency.format(1.56) == "1.56")
        #expect(SamplingFrequency.format(1000.0 / 3) == "333.333334")
        #expect(SamplingFrequency.format(0.000_000_4) == "0.000001")
    }
}
