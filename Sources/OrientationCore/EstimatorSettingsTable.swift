/// The table of `EstimatorSettings`: every setting's name, unit and range, the `[Orientation]`
/// keys that set some of them, and the range checks.
extension EstimatorSettings: GravityReferenceSettings {
    /// What a setting's number measures.
    public typealias Unit = SettingsUnit

    /// One setting: its name, unit and range (see `SettingsField`).
    public typealias Field = SettingsField<EstimatorSettings, Double>

    /// Every setting, in declaration order (the shared 1 g reference rows together): the one
    /// table of names, units and ranges.
    public static let fields: [Field] =
        [
            Field("filterTimeConstant", .seconds, 0.01...1.0) { $1(&$0.filterTimeConstant) },
            Field("disturbedFilterTimeConstant", .seconds, 0.01...3.0) { $1(&$0.disturbedFilterTimeConstant) },
            Field("disturbanceFullScale", .fraction, 0.01...1.0) { $1(&$0.disturbanceFullScale) },
            Field("maximumSampleGap", .seconds, 0.1...60.0) { $1(&$0.maximumSampleGap) },
        ] + gravityReferenceFields + [
            Field("referenceTrustTime", .seconds, 0.0...10.0) { $1(&$0.referenceTrustTime) },
            Field("referenceRestartTime", .seconds, 0.6...60.0) { $1(&$0.referenceRestartTime) },
            Field("calmChange", .fraction, 0.001...0.5) { $1(&$0.calmChange) },
            Field("referenceVigourLimit", .fraction, 0.01...1.0) { $1(&$0.referenceVigourLimit) },
            Field("lowerMagnitudeGate", .fraction, 0.1...0.95) { $1(&$0.lowerMagnitudeGate) },
            Field("upperMagnitudeGate", .fraction, 1.05...5.0) { $1(&$0.upperMagnitudeGate) },
            Field("disturbanceHoldTime", .seconds, 0.0...5.0) { $1(&$0.disturbanceHoldTime) },
            Field("minimumFilteredMagnitude", .fraction, 0.1...0.95) { $1(&$0.minimumFilteredMagnitude) },
            Field("switchAngle", .degrees, 55.0...65.0) { $1(&$0.switchAngle) },
            Field("firstDecisionAxisAngle", .degrees, 20.0...44.0) { $1(&$0.firstDecisionAxisAngle) },
            Field("uprightTiltLimit", .degrees, 60.0...85.0) { $1(&$0.uprightTiltLimit) },
            Field("faceEnterTilt", .degrees, 65.0...85.0) { $1(&$0.faceEnterTilt) },
            Field("faceLeaveTilt", .degrees, 40.0...64.0) { $1(&$0.faceLeaveTilt) },
            Field("disturbedFaceEnterTilt", .degrees, 65.0...89.0) { $1(&$0.disturbedFaceEnterTilt) },
            Field("steadyAngularSpeed", .degreesPerSecond, 5.0...720.0) { $1(&$0.steadyAngularSpeed) },
            Field("angularSpeedTimeConstant", .seconds, 0.0...1.0) { $1(&$0.angularSpeedTimeConstant) },
            Field("motionStepAngle", .degrees, 1.0...45.0) { $1(&$0.motionStepAngle) },
            Field("swingTiltSpeed", .degreesPerSecond, 10.0...720.0) { $1(&$0.swingTiltSpeed) },
            Field("swingHoldTime", .seconds, 0.0...5.0) { $1(&$0.swingHoldTime) },
            Field("overheadTilt", .degrees, 20.0...65.0) { $1(&$0.overheadTilt) },
            Field("overheadHoldTime", .seconds, 0.0...5.0) { $1(&$0.overheadHoldTime) },
            Field("vigourRotationLimit", .fraction, 0.05...1.0) { $1(&$0.vigourRotationLimit) },
            Field("vigourTimeConstant", .seconds, 0.05...5.0) { $1(&$0.vigourTimeConstant) },
            Field("vibrationTimeConstant", .seconds, 0.02...2.0) { $1(&$0.vibrationTimeConstant) },
            Field("vibrationSpread", .degrees, 1.0...30.0) { $1(&$0.vibrationSpread) },
            Field("vibrationSettleTime", .seconds, 0.05...5.0) { $1(&$0.vibrationSettleTime) },
            Field("vibrationDeviation", .fraction, 0.01...1.0) { $1(&$0.vibrationDeviation) },
            Field("vibrationLeaveDeviation", .fraction, 0.01...1.0) { $1(&$0.vibrationLeaveDeviation) },
            Field("vibrationMagnitudeBand", .fraction, 0.01...1.0) { $1(&$0.vibrationMagnitudeBand) },
            Field("vibrationSlowShare", .fraction, 0.05...1.0) { $1(&$0.vibrationSlowShare) },
            Field("vibrationTiltLimit", .degrees, 10.0...70.0) { $1(&$0.vibrationTiltLimit) },
            Field("vibrationRestartAngle", .degrees, 5.0...90.0) { $1(&$0.vibrationRestartAngle) },
            Field("vibrationFaceEnterTilt", .degrees, 65.0...89.0) { $1(&$0.vibrationFaceEnterTilt) },
            Field("vibrationHeldAngle", .degrees, 0.0...45.0) { $1(&$0.vibrationHeldAngle) },
            Field("vibrationHeldTime", .seconds, 0.0...10.0) { $1(&$0.vibrationHeldTime) },
            Field("firstDecisionSettleTime", .seconds, 0.0...2.0) { $1(&$0.firstDecisionSettleTime) },
            Field("quarterTurnSettleTime", .seconds, 0.0...5.0) { $1(&$0.quarterTurnSettleTime) },
            Field("halfTurnSettleTime", .seconds, 0.0...10.0) { $1(&$0.halfTurnSettleTime) },
            Field("halfTurnRestSpeed", .degreesPerSecond, 5.0...720.0) { $1(&$0.halfTurnRestSpeed) },
            Field("halfTurnHeldTime", .seconds, 0.0...10.0) { $1(&$0.halfTurnHeldTime) },
            Field("halfTurnRestVigour", .fraction, 0.0...1.0) { $1(&$0.halfTurnRestVigour) },
            Field("halfTurnRestMagnitudeBand", .fraction, 0.005...1.0) { $1(&$0.halfTurnRestMagnitudeBand) },
            Field("midTurnAngle", .degrees, 65.0...85.0) { $1(&$0.midTurnAngle) },
            Field("midTurnSlowdown", .fraction, 0.0...0.9) { $1(&$0.midTurnSlowdown) },
            Field("calmSettleTime", .seconds, 0.02...1.0) { $1(&$0.calmSettleTime) },
            Field("calmSpread", .fraction, 0.005...0.3) { $1(&$0.calmSpread) },
            Field("calmMagnitudeBand", .fraction, 0.005...0.3) { $1(&$0.calmMagnitudeBand) },
            Field("calmJumpAngle", .degrees, 10.0...90.0) { $1(&$0.calmJumpAngle) },
            Field("timingSlack", .seconds, 0.0...0.01) { $1(&$0.timingSlack) },
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
            SettingsField<EstimatorSettings, UInt32>("SettleTimeMsec", .milliseconds, 20...1000) { settings, body in
                var msec = UInt32(exactly: (settings.quarterTurnSettleTime * 1000).rounded()) ?? 0
                body(&msec)
                // A half turn needs twice the evidence of a quarter turn.
                settings.quarterTurnSettleTime = Double(msec) / 1000
                settings.halfTurnSettleTime = 2 * Double(msec) / 1000
            }),
        ConfigKey(Field("SwitchAngle", .degrees, 55...65) { $1(&$0.switchAngle) }),
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
