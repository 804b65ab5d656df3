import OrientationCore
import Testing

@Suite struct ChannelCalibrationTests {
    func scales(_ x: String?, _ shared: String?, _ generic: String?) -> [(source: String, text: String?)] {
        [("in_accel_x_scale", x), ("in_accel_scale", shared), ("scale", generic)]
    }

    func offsets(_ x: String?, _ shared: String?) -> [(source: String, text: String?)] {
        [("in_accel_x_offset", x), ("in_accel_offset", shared)]
    }

    @Test func appliesOffsetThenScale() {
        let calibration = ChannelCalibration(scale: 0.5, offset: -10)
        #expect(calibration.apply(30) == 10)
        #expect(calibration.apply(-30) == -20)
        #expect(ChannelCalibration.identity.apply(-512) == -512)
        #expect(ChannelCalibration.identity.apply(-25.6) == -25.6)  // a raw value with a fraction
    }

    @Test func prefersPerChannelThenSharedThenGeneric() {
        let perChannel = ChannelCalibration.resolve(
            scales: scales("0.009576806\n", "0.5", "2"), offsets: offsets(nil, nil))
        #expect(perChannel.calibration == ChannelCalibration(scale: 0.009576806, offset: 0))
        #expect(perChannel.problems.isEmpty)
        let shared = ChannelCalibration.resolve(scales: scales(nil, "0.5", "2"), offsets: offsets(nil, nil))
        #expect(shared.calibration.scale == 0.5)
        #expect(shared.problems.isEmpty)
        let generic = ChannelCalibration.resolve(scales: scales(nil, nil, "2"), offsets: [])
        #expect(generic.calibration.scale == 2)
        #expect(generic.problems.isEmpty)
    }

    @Test func refusesZeroNegativeAndNonFiniteScales() {
        let result = ChannelCalibration.resolve(
            scales: [
                ("in_accel_x_scale", "0"), ("in_accel_scale", "-0.01"), ("scale", "nan"), ("extra", "1e999"),
                ("last", "0.25"),
            ], offsets: [])
        #expect(result.calibration.scale == 0.25)
        #expect(
            result.problems == [
                "ignoring the scale from in_accel_x_scale: must be positive, found \"0\"",
                "ignoring the scale from in_accel_scale: must be positive, found \"-0.01\"",
                "ignoring the scale from scale: not a number: \"nan\"",
                "ignoring the scale from extra: number out of range: \"1e999\"",
            ])
    }

    @Test func defaultsToOneWithANote() {
        let none = ChannelCalibration.resolve(scales: scales(nil, nil, nil), offsets: offsets(nil, nil))
        #expect(none.calibration == .identity)
        #expect(none.problems == ["no usable scale (tried in_accel_x_scale, in_accel_scale, scale); using 1"])
        let refused = ChannelCalibration.resolve(scales: scales("0", nil, nil), offsets: [])
        #expect(refused.calibration.scale == 1)
        #expect(refused.problems.count == 2)
        #expect(
            ChannelCalibration.resolve(scales: [], offsets: []).problems == ["no usable scale (none given); using 1"])
    }

    @Test func refusesADecimalComma() {
        let result = ChannelCalibration.resolve(
            scales: scales("0,009576806", "0.009576806", nil), offsets: offsets("1,5", "-2.5"))
        #expect(result.calibration == ChannelCalibration(scale: 0.009576806, offset: -2.5))
        #expect(
            result.problems == [
                "ignoring the scale from in_accel_x_scale: not a number: \"0,009576806\"",
                "ignoring the offset from in_accel_x_offset: not a number: \"1,5\"",
            ])
    }

    @Test func readsOffsetsPerChannelThenShared() {
        let perChannel = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets("-12", "7"))
        #expect(perChannel.calibration.offset == -12)
        #expect(perChannel.problems.isEmpty)
        let shared = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets(nil, "7\n"))
        #expect(shared.calibration.offset == 7)
        // Any finite offset, zero and negative included.
        #expect(ChannelCalibration.resolve(scales: [], offsets: offsets("0", "7")).calibration.offset == 0)
        let refused = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets("inf", nil))
        #expect(refused.calibration.offset == 0)
        #expect(
            refused.problems == [
                "ignoring the offset from in_accel_x_offset: not a number: \"inf\"", "no usable offset; using 0",
            ])
    }

    @Test func calibratesAReading() {
        let (calibration, problems) = ChannelCalibration.resolve(
            scales: scales(nil, "0.009806650", nil), offsets: offsets(nil, "-24"))
        #expect(problems.isEmpty)
        #expect(abs(calibration.apply(1024) - 9.80665) < 1e-9)
    }
}
