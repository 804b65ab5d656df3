/// The table of `EstimatorSettings`: every setting's name, unit and range, the `[Orientation]`
/// keys that set some of them, and the range checks.
extension EstimatorSettings {
    /// What a setting's number measures.
    public typealias Unit = SettingsUnit

    /// One setting: its name, unit and range (see `SettingsField`).
    public typealias Field = SettingsField<EstimatorSettings, Double>

    /// Every setting, in declaration order: the one table of names, units and ranges.
    public static let fields: [Field] = [
        Field("filterTimeConstant", .seconds, 0.01...1.0, { $0.filterTimeConstant }, { $0.filterTimeConstant = $1 }),
        Field(
            "disturbedFilterTimeConstant", .seconds, 0.01...3.0, { $0.disturbedFilterTimeConstant },
            { $0.disturbedFilterTimeConstant = $1 }),
        Field(
            "disturbanceFullScale", .fraction, 0.01...1.0, { $0.disturbanceFullScale }, { $0.disturbanceFullScale = $1 }
        ),
        Field("maximumSampleGap", .seconds, 0.1...60.0, { $0.maximumSampleGap }, { $0.maximumSampleGap = $1 }),
        Field(
            "nominalGravity", .metresPerSecondSquared, 1.0...100.0, { $0.nominalGravity }, { $0.nominalGravity = $1 }),
        Field(
            "referenceTimeConstant", .seconds, 0.1...600.0, { $0.referenceTimeConstant },
            { $0.referenceTimeConstant = $1 }),
        Field("referenceTrustTime", .seconds, 0.0...10.0, { $0.referenceTrustTime }, { $0.referenceTrustTime = $1 }),
        Field(
            "referenceRestartTime", .seconds, 0.6...60.0, { $0.referenceRestartTime },
            { $0.referenceRestartTime = $1 }),
        Field(
            "minimumPlausibleScale", .fraction, 0.05...0.95, { $0.minimumPlausibleScale },
            { $0.minimumPlausibleScale = $1 }),
        Field(
            "maximumPlausibleScale", .fraction, 1.05...20.0, { $0.maximumPlausibleScale },
            { $0.maximumPlausibleScale = $1 }),
        Field("calmChange", .fraction, 0.001...0.5, { $0.calmChange }, { $0.calmChange = $1 }),
        Field(
            "referenceVigourLimit", .fraction, 0.01...1.0, { $0.referenceVigourLimit },
            { $0.referenceVigourLimit = $1 }),
        Field("lowerMagnitudeGate", .fraction, 0.1...0.95, { $0.lowerMagnitudeGate }, { $0.lowerMagnitudeGate = $1 }),
        Field("upperMagnitudeGate", .fraction, 1.05...5.0, { $0.upperMagnitudeGate }, { $0.upperMagnitudeGate = $1 }),
        Field("disturbanceHoldTime", .seconds, 0.0...5.0, { $0.disturbanceHoldTime }, { $0.disturbanceHoldTime = $1 }),
        Field(
            "minimumFilteredMagnitude", .fraction, 0.1...0.95, { $0.minimumFilteredMagnitude },
            { $0.minimumFilteredMagnitude = $1 }),
        Field("switchAngle", .degrees, 55.0...65.0, { $0.switchAngle }, { $0.switchAngle = $1 }),
        Field(
            "firstDecisionAxisAngle", .degrees, 20.0...44.0, { $0.firstDecisionAxisAngle },
            { $0.firstDecisionAxisAngle = $1 }),
        Field("uprightTiltLimit", .degrees, 60.0...85.0, { $0.uprightTiltLimit }, { $0.uprightTiltLimit = $1 }),
        Field("faceEnterTilt", .degrees, 65.0...85.0, { $0.faceEnterTilt }, { $0.faceEnterTilt = $1 }),
        Field("faceLeaveTilt", .degrees, 40.0...64.0, { $0.faceLeaveTilt }, { $0.faceLeaveTilt = $1 }),
        Field(
            "disturbedFaceEnterTilt", .degrees, 65.0...89.0, { $0.disturbedFaceEnterTilt },
            { $0.disturbedFaceEnterTilt = $1 }),
        Field(
            "steadyAngularSpeed", .degreesPerSecond, 5.0...720.0, { $0.steadyAngularSpeed },
            { $0.steadyAngularSpeed = $1 }),
        Field(
            "angularSpeedTimeConstant", .seconds, 0.0...1.0, { $0.angularSpeedTimeConstant },
            { $0.angularSpeedTimeConstant = $1 }),
        Field("motionStepAngle", .degrees, 1.0...45.0, { $0.motionStepAngle }, { $0.motionStepAngle = $1 }),
        Field("swingTiltSpeed", .degreesPerSecond, 10.0...720.0, { $0.swingTiltSpeed }, { $0.swingTiltSpeed = $1 }),
        Field("swingHoldTime", .seconds, 0.0...5.0, { $0.swingHoldTime }, { $0.swingHoldTime = $1 }),
        Field("overheadTilt", .degrees, 20.0...65.0, { $0.overheadTilt }, { $0.overheadTilt = $1 }),
        Field("overheadHoldTime", .seconds, 0.0...5.0, { $0.overheadHoldTime }, { $0.overheadHoldTime = $1 }),
        Field(
            "vigourRotationLimit", .fraction, 0.05...1.0, { $0.vigourRotationLimit },
            { $0.vigourRotationLimit = $1 }),
        Field("vigourTimeConstant", .seconds, 0.05...5.0, { $0.vigourTimeConstant }, { $0.vigourTimeConstant = $1 }),
        Field(
            "vibrationTimeConstant", .seconds, 0.02...2.0, { $0.vibrationTimeConstant },
            { $0.vibrationTimeConstant = $1 }),
        Field("vibrationSpread", .degrees, 1.0...30.0, { $0.vibrationSpread }, { $0.vibrationSpread = $1 }),
        Field(
            "vibrationSettleTime", .seconds, 0.05...5.0, { $0.vibrationSettleTime }, { $0.vibrationSettleTime = $1 }),
        Field("vibrationDeviation", .fraction, 0.01...1.0, { $0.vibrationDeviation }, { $0.vibrationDeviation = $1 }),
        Field(
            "vibrationMagnitudeBand", .fraction, 0.01...1.0, { $0.vibrationMagnitudeBand },
            { $0.vibrationMagnitudeBand = $1 }),
        Field("vibrationSlowShare", .fraction, 0.05...1.0, { $0.vibrationSlowShare }, { $0.vibrationSlowShare = $1 }),
        Field("vibrationTiltLimit", .degrees, 10.0...70.0, { $0.vibrationTiltLimit }, { $0.vibrationTiltLimit = $1 }),
        Field(
            "firstDecisionSettleTime", .seconds, 0.0...2.0, { $0.firstDecisionSettleTime },
            { $0.firstDecisionSettleTime = $1 }),
        Field(
            "quarterTurnSettleTime", .seconds, 0.0...5.0, { $0.quarterTurnSettleTime },
            { $0.quarterTurnSettleTime = $1 }),
        Field("halfTurnSettleTime", .seconds, 0.0...10.0, { $0.halfTurnSettleTime }, { $0.halfTurnSettleTime = $1 }),
        Field("midTurnAngle", .degrees, 65.0...85.0, { $0.midTurnAngle }, { $0.midTurnAngle = $1 }),
        Field("midTurnSlowdown", .fraction, 0.0...0.9, { $0.midTurnSlowdown }, { $0.midTurnSlowdown = $1 }),
        Field("calmSettleTime", .seconds, 0.02...1.0, { $0.calmSettleTime }, { $0.calmSettleTime = $1 }),
        Field("calmSpread", .fraction, 0.005...0.3, { $0.calmSpread }, { $0.calmSpread = $1 }),
        Field("calmMagnitudeBand", .fraction, 0.005...0.3, { $0.calmMagnitudeBand }, { $0.calmMagnitudeBand = $1 }),
        Field("calmJumpAngle", .degrees, 10.0...90.0, { $0.calmJumpAngle }, { $0.calmJumpAngle = $1 }),
        Field("timingSlack", .seconds, 0.0...0.01, { $0.timingSlack }, { $0.timingSlack = $1 }),
    ]

    /// A `[Orientation]` key of the configuration file that sets estimator settings: its name,
    /// and how its value (in its own unit and range, which may be narrower than the settings')
    /// sets them.
    public struct ConfigKey: Sendable {
        /// The key, e.g. "SettleTimeMsec".
        public let name: String
        let apply: @Sendable (inout EstimatorSettings, String) -> String?

        init<Value>(_ field: SettingsField<EstimatorSettings, Value>) {
            name = field.name
            apply = { field.apply($1, to: &$0) }
        }
    }

    /// The configuration keys that set estimator settings; every other setting keeps its default.
    public static let configKeys: [ConfigKey] = [
        ConfigKey(
            SettingsField<EstimatorSettings, UInt32>(
                "SettleTimeMsec", .milliseconds, 20...1000, { UInt32(($0.quarterTurnSettleTime * 1000).rounded()) },
                {
                    // A half turn needs twice the evidence of a quarter turn.
                    $0.quarterTurnSettleTime = Double($1) / 1000
                    $0.halfTurnSettleTime = 2 * Double($1) / 1000
                })),
        ConfigKey(Field("SwitchAngle", .degrees, 55...65, { $0.switchAngle }, { $0.switchAngle = $1 })),
    ]

    /// Sets what the configuration key `key` sets from its text `value`; returns what is wrong
    /// with it (the previous values then stay), or nil. `key` must be one of `configKeys`.
    mutating func apply(_ key: ConfigKey, value text: String) -> String? {
        key.apply(&self, text)
    }

    /// One setting outside its allowed range.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// The setting's property name, e.g. "switchAngle".
        public var name: String
        /// The value given.
        public var value: Double
        /// The allowed range.
        public var allowed: ClosedRange<Double>

        /// E.g. "switchAngle = 80.0 is outside 55.0...65.0".
        public var description: String {
            "\(name) = \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        }
    }

    /// The settings outside their allowed range (NaN is always outside); empty when all are fine.
    public func problems() -> [Problem] { rangeProblems() }

    /// A copy with every setting brought into its allowed range (NaN becomes the default).
    public func clamped() -> EstimatorSettings { clampedToRanges() }
}
