// libFuzzer target: numbers read from sysfs, and where the daemon takes them.
//  - SysfsNumber.parseInteger on the raw bytes (the daemon's pread buffer of a channel file),
//    which must agree with the String form, and round-trip;
//  - SysfsNumber.parseDecimal (scales, offsets, config temperatures), finite and round-trip;
//  - a structured input (fields split at 0x1F: scale, offset, raw x, raw y, raw z, zone
//    temperature, trip temperature, trip type) through ChannelCalibration.resolve, the
//    estimator and the thermal monitor, as a sample of the daemon would go: whatever sysfs
//    says, nothing may trap.
import OrientationCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSysfsNumber(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = fuzzText(bytes)

    let integer = Result { () throws(SysfsValueError) -> Int64 in try SysfsNumber.parseInteger(bytes) }
    if isValidUTF8(bytes, text) {
        let fromText = Result { () throws(SysfsValueError) -> Int64 in try SysfsNumber.parseInteger(text) }
        fuzzCheck(integer == fromText, "buffer \(integer) != text \(fromText)")
    }
    if case .success(let value) = integer {
        fuzzCheck((try? SysfsNumber.parseInteger("\(value)")) == value, "\(value) does not read back")
        // What the daemon prints for a good value has no garbage around the digits.
        fuzzCheck((try? SysfsNumber.parseInteger(" \(value)\n\0")) == value, "\(value) padded")
    }
    if case .failure(let error) = integer { _ = error.description }

    do {
        let value = try SysfsNumber.parseDecimal(text)
        fuzzCheck(value.isFinite, "parseDecimal gave \(value)")
        fuzzCheck((try? SysfsNumber.parseDecimal("\(value)")) == value, "\(value) does not read back")
    } catch {
        _ = error.description
    }

    sample(fuzzFields(bytes))
    return 0
}

/// One sample and one thermal reading made of the fields, the daemon's way.
func sample(_ fields: [UnsafeRawBufferPointer]) {
    func field(_ index: Int) -> UnsafeRawBufferPointer? { index < fields.count ? fields[index] : nil }
    func text(_ index: Int) -> String? { field(index).map { fuzzText($0) } }

    let (calibration, problems) = ChannelCalibration.resolve(
        scales: [("in_accel_x_scale", text(0))], offsets: [("in_accel_x_offset", text(1))])
    fuzzCheck(calibration.scale > 0 && calibration.scale.isFinite, "scale \(calibration.scale)")
    fuzzCheck(calibration.offset.isFinite, "offset \(calibration.offset)")
    _ = problems

    var raw: [Int64] = []
    for index in 2...4 {
        guard let bytes = field(index), let value = try? SysfsNumber.parseInteger(bytes) else { break }
        raw.append(value)
    }
    if raw.count == 3 {
        let reading = Vector3(calibration.apply(raw[0]), calibration.apply(raw[1]), calibration.apply(raw[2]))
        var estimator = OrientationEstimator()
        var time = 0.0
        for _ in 0..<8 {
            _ = estimator.update(reading, at: time)
            time += 0.04
        }
        _ = estimator.isSettling
        _ = SensorProxyCompatibility.tilt(device: estimator.orientation, gravity: estimator.filteredGravity)
        var policy = InterfaceOrientationPolicy(allowed: InterfaceOrientationPolicy.allUpright)
        _ = policy.update(device: estimator.orientation)
    }

    // A thermal zone: temp and one trip point, in millidegrees as sysfs writes them.
    if let temp = field(5), let millidegrees = try? SysfsNumber.parseInteger(temp) {
        var trips: [TripPoint] = []
        if let trip = field(6), let tripMillidegrees = try? SysfsNumber.parseInteger(trip) {
            trips.append(TripPoint(temperature: Double(tripMillidegrees) / 1000, type: TripPointType(sysfs: text(7) ?? "")))
        }
        var monitor = ThermalMonitor()
        let reading = ThermalZoneReading(type: "x86_pkg_temp", temperature: Double(millidegrees) / 1000, tripPoints: trips)
        _ = monitor.update(["thermal_zone0": reading])
        _ = monitor.update(["thermal_zone0": reading])
        _ = monitor.update([:])
    }
}
