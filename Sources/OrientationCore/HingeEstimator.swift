/// What the hinge estimator says after a reading.
public struct HingeEstimate: Equatable, Sendable {
    /// The hinge angle in degrees, 0...360, 0 versus 360 resolved; the last trustworthy value
    /// while holding; nil before the first (the bus shows −1).
    public var angle: Double?
    /// Whether this update produced a fresh angle from calm, well-defined readings (false while
    /// holding, and with the lid closed).
    public var trustworthy: Bool
    /// The posture, with hysteresis; kept while holding.
    public var state: HingeState
    /// Why the estimate holds, nil when it follows the readings.
    public var hold: HingeHold?
    /// The lid switch says closed but the hinge was last seen folded back (≥ 270 degrees, fresh):
    /// the switch's magnet trips when folded, so the switch is ignored and the readings decide
    /// (log it once).
    public var lidContradicted: Bool

    /// Creates an estimate.
    public init(
        angle: Double? = nil, trustworthy: Bool = false, state: HingeState = .unknown,
        hold: HingeHold? = .noReadings, lidContradicted: Bool = false
    ) {
        self.angle = angle
        self.trustworthy = trustworthy
        self.state = state
        self.hold = hold
        self.lidContradicted = lidContradicted
    }

    /// The `HingeAngle` bus value: the angle, or −1 when unknown.
    public var busAngle: Double { angle ?? -1 }

    /// Whether `HingeAngle` should be announced again, given the bus value last announced
    /// (`busAngle`, −1 for unknown): when it becomes known or unknown, or moves by at least
    /// `deadband` degrees (`TabletModeSettings.publishDeadband`), or reaches 0 or 360 exactly
    /// (closed and full are shown as such).
    public func shouldPublish(after published: Double, deadband: Double) -> Bool {
        let now = busAngle
        if (now < 0) != (published < 0) { return true }
        if now < 0 { return false }
        if (now == 0 || now == 360) && now != published { return true }
        return abs(now - published) >= deadband
    }
}

/// The hinge angle and posture of a two-panel convertible, from paired display and base
/// readings with their timestamps and the lid switch.
///
/// A pure value: no clock, no I/O; feed it `update(display:base:lid:at:)` with monotonic seconds.
/// Deterministic (same input, same output, bit for bit). All numbers are `TabletModeSettings`.
///
/// Per reading, in order:
/// 1. The lid switch: closed means angle 0, state `closed`, hold `lidClosed`, and continuity
///    starting from 0 when it opens; except when the last fresh angle was ≥ 270 (folded back)
///    and not a guess (rule 7): then the switch is taken to trip on a fold (`lidContradicted`)
///    and the readings decide.
/// 2. Not finite or zero readings: hold `badReading`.
/// 3. Each sensor's own 1 g reference follows its steady, plausible readings (a mean, then a
///    5 s time constant), so a mis-scaled sensor is judged against itself.
/// 4. Calm: each |a| within 10 % of its reference, no axis over 1.1 of it, and the normalised
///    magnitude's spread over the last 0.3 s at most 0.1 (hold `moving`); both normalised
///    magnitudes agree within 0.1 (hold `magnitudeMismatch`).
/// 5. Both sensors agree on the hinge axis (hold `axisMismatch`; after 10 s,
///    `suspectMountMatrix`). Checked before the next rule: a wrong matrix often puts the base's
///    gravity along its x.
/// 6. The hinge axis far enough from vertical: the projection on the plane orthogonal to x at
///    least 0.26 of |a| to stay trusted, 0.30 to be trusted again (hold `hingeVertical`). The
///    raw angle is the one between the two sensors' steady means: each sensor's calm readings
///    at the slow hinge interval (`steadyMinimumGap`, 0.5 s or more apart) averaged while they
///    stay within `steadyTolerance` (0.08 of its 1 g) of the mean, a plain mean and then
///    `steadyTimeConstant` (1 s); restarted at a reading further away (that half moved), at one
///    sooner than the gap or later than `continuityWindow`, and by any hold of rules 2-5. A
///    fold restarts the display's mean and the base at rest keeps its own, so the base's noise
///    averages out of a still hinge's angle, where the filter (rule 8) leaves readings a second
///    apart alone; at the fast interval each mean is its reading and the filter smooths.
/// 7. 0 versus 360, decided only for a raw angle within 20 of 0/360 (the ambiguous zone, where
///    display and base read alike); any other raw angle stands as it is, however far from the
///    last one (a fold seen in one step, from 110 to 330, is 330). In the zone: the representative
///    nearest the last trustworthy angle, if that is at most 2.5 s old, clamped to 0...360
///    (continuity); with the lid switch open, only when that representative is within 20 of the
///    last angle, else the folded side (the switch says the lid is not closed, and nothing
///    followed the hinge there). Without a fresh last angle the reading is ambiguous (hold
///    `ambiguousWrap`) and, with the lid switch open, taken as full once that lasted 2 s. A side
///    taken without continuity is a guess: the switch closing then is believed (it does not
///    count as tripping on a fold), and the next reading outside the zone corrects it.
/// 8. A low-pass filter on the angle from the real time between readings: 0.05 s time
///    constant with the hinge far from vertical, ramped to 1 s at the vertical limit; a step of
///    more than 20 from the filtered angle restarts the filter at the reading (a fold is
///    followed at once, not over several time constants); from a restart the filter is the mean
///    of the readings since, until the time constant weighs more.
/// 9. The state from the angle with 5 degrees of hysteresis (`HingeState.state(for:previous:)`).
public struct HingeEstimator: Sendable {
    /// The settings in use (clamped).
    public let settings: TabletModeSettings

    /// The last estimate.
    public private(set) var estimate = HingeEstimate()

    /// Time of the last trustworthy angle change of at least `motionStep`, or of a reading on
    /// which the halves disagreed (axis or magnitude mismatch: one half moves against the other);
    /// nil if never. For the sampling policy's "hinge moving".
    public private(set) var lastMotionTime: Double?

    /// True when the axis mismatch has lasted `axisMismatchReportTime`: the base's mount matrix
    /// is probably wrong (log it once).
    public private(set) var suspectMountMatrix = false

    /// Creates an estimator; the settings are clamped into their ranges.
    public init(settings: TabletModeSettings = TabletModeSettings()) {
        self.settings = settings.clamped()
    }

    /// One sensor's self-calibrated 1 g. Not the display estimator's `GravityReference`: a hinge
    /// angle may wait for a trustworthy pair, so this one takes only magnitudes plausible against
    /// the nominal 1 g and needs no restart; the estimator must decide on a sensor of any scale
    /// from its second reading, so it measures plausibility against its first calm reading.
    struct Reference: Sendable {
        var value: Double?
        var count = 0
        var lastMagnitude: Double?
        var lastTime: Double?

        mutating func update(_ magnitude: Double, at time: Double, settings: TabletModeSettings) {
            defer {
                lastMagnitude = magnitude
                lastTime = time
            }
            let nominal = settings.nominalGravity
            guard magnitude >= settings.minimumPlausibleScale * nominal,
                magnitude <= settings.maximumPlausibleScale * nominal
            else { return }
            guard let current = value else {
                value = magnitude
                count = 1
                return
            }
            guard let last = lastMagnitude, let lastTime, time > lastTime,
                abs(magnitude - last) <= settings.referenceSteadyChange * last
            else { return }
            let timed = 1 - CoreMath.exp(-(time - lastTime) / settings.referenceTimeConstant)
            let weight = max(1 / Double(count + 1), timed)
            value = current + weight * (magnitude - current)
            count += 1
        }
    }

    var displayReference = Reference()
    var baseReference = Reference()

    /// One sensor's mean of its calm readings since it last moved (rule 6).
    struct SteadyReading: Sendable {
        var mean: Vector3?
        var count = 0
        var time = 0.0

        /// Takes a calm reading (`oneG` is the sensor's 1 g reference); returns the mean.
        mutating func update(_ reading: Vector3, oneG: Double, at time: Double, settings: TabletModeSettings)
            -> Vector3
        {
            defer { self.time = time }
            let dt = time - self.time
            guard let mean, dt >= settings.steadyMinimumGap, dt <= settings.continuityWindow,
                (reading - mean).magnitude <= settings.steadyTolerance * oneG
            else {
                self.mean = reading
                count = 1
                return reading
            }
            // A plain mean of the readings since the restart, until the time constant weighs more.
            let weight = max(1 / Double(count + 1), dt / (settings.steadyTimeConstant + dt))
            let next = mean + (reading - mean) * weight
            self.mean = next
            count += 1
            return next
        }
    }

    var displaySteady = SteadyReading()
    var baseSteady = SteadyReading()
    /// Normalised magnitudes over the calm window: (time, display, base).
    var window: [(time: Double, display: Double, base: Double)] = []
    /// Whether the hinge-vertical rule holds now (with hysteresis).
    var hingeVertical = false
    /// Time of the last trustworthy angle; nil when there is no continuity (start, reset).
    var lastTrustTime: Double?
    /// Start of the current run of ambiguous readings.
    var ambiguousSince: Double?
    /// The side of 0/360 of the last angle was guessed (rule 7), not followed from outside the
    /// ambiguous zone.
    var sideGuessed = false
    /// Start of the current axis mismatch.
    var axisMismatchSince: Double?
    /// The lid state last seen.
    var lid = LidState.unknown
    /// The last angle is the lid's 0, not a measurement: the next one starts the filter afresh.
    var restartFilter = false
    /// Readings the filter has averaged since it last restarted.
    var filtered = 0

    /// Feeds one pair of readings (both after their mount matrices, m/s^2, any scale) taken at
    /// `time` (monotonic seconds), with the lid switch's state; returns the estimate.
    @discardableResult
    public mutating func update(display: Vector3, base: Vector3, lid newLid: LidState, at time: Double)
        -> HingeEstimate
    {
        lidChanged(newLid, at: time)
        if lid == .closed && !estimate.lidContradicted { return estimate }
        guard let sample = HingeGeometry.angle(display: display, base: base) else {
            return hold(.badReading)
        }
        displayReference.update(display.magnitude, at: time, settings: settings)
        baseReference.update(base.magnitude, at: time, settings: settings)
        guard let dRef = displayReference.value, let bRef = baseReference.value else {
            return hold(.moving)
        }
        let dn = display.magnitude / dRef
        let bn = base.magnitude / bRef
        if let last = window.last, last.time > time { window.removeAll() }
        window.removeAll { $0.time < time - settings.calmWindow }
        window.append((time, dn, bn))

        // Calm: each sensor against its own 1 g, over the window.
        func axisMax(_ v: Vector3, _ reference: Double) -> Double {
            max(abs(v.x), max(abs(v.y), abs(v.z))) / reference
        }
        func spread(_ values: [Double]) -> Double {
            (values.max() ?? 0) - (values.min() ?? 0)
        }
        let tolerance = settings.calmMagnitudeTolerance
        guard abs(dn - 1) <= tolerance, abs(bn - 1) <= tolerance,
            axisMax(display, dRef) <= settings.axisMaxFraction, axisMax(base, bRef) <= settings.axisMaxFraction,
            spread(window.map { $0.display }) <= settings.calmSpread,
            spread(window.map { $0.base }) <= settings.calmSpread
        else {
            return hold(.moving)
        }
        guard abs(dn - bn) <= settings.magnitudeAgreement else {
            lastMotionTime = time
            return hold(.magnitudeMismatch)
        }
        guard sample.axisMismatch <= settings.axisMismatchLimit else {
            lastMotionTime = time
            let since = axisMismatchSince ?? time
            axisMismatchSince = since
            if time - since >= settings.axisMismatchReportTime { suspectMountMatrix = true }
            return hold(.axisMismatch)
        }
        axisMismatchSince = nil
        if hingeVertical {
            hingeVertical = sample.projected < max(settings.hingeVerticalEnter, settings.hingeVerticalLeave)
        } else {
            hingeVertical = sample.projected < settings.hingeVerticalLeave
        }
        // The angle between the two sensors' steady means (rule 6).
        let displayMean = displaySteady.update(display, oneG: dRef, at: time, settings: settings)
        let baseMean = baseSteady.update(base, oneG: bRef, at: time, settings: settings)
        if hingeVertical { return hold(.hingeVertical) }

        // 0 versus 360.
        let raw = HingeGeometry.angle(display: displayMean, base: baseMean)?.degrees ?? sample.degrees
        let previous: Double?
        if let angle = estimate.angle, let last = lastTrustTime, time >= last, time - last <= settings.continuityWindow
        {
            previous = angle
        } else {
            previous = nil
        }
        var resolved = raw
        if raw < settings.wrapBand || raw > 360 - settings.wrapBand {
            let low = raw < 180 ? raw : raw - 360
            let high = low + 360
            if let previous {
                let near = abs(low - previous) <= abs(high - previous) ? low : high
                if lid == .open && abs(near - previous) > settings.continuityReach {
                    resolved = high
                    sideGuessed = true
                } else {
                    resolved = near
                }
                ambiguousSince = nil
            } else {
                let since = ambiguousSince ?? time
                ambiguousSince = since
                guard lid == .open, time - since >= settings.wrapResolveTime else {
                    return hold(.ambiguousWrap, keepAmbiguity: true)
                }
                resolved = high
                sideGuessed = true
            }
        } else {
            ambiguousSince = nil
            sideGuessed = false
        }
        resolved = min(max(resolved, 0), 360)

        // Low-pass filter from the real time step; more smoothing near vertical.
        var angle = resolved
        var restarted = true
        if let previous, let last = lastTrustTime, !restartFilter {
            if abs(resolved - previous) >= settings.motionStep { lastMotionTime = time }
            let ramp = settings.smoothingStart - settings.hingeVerticalLeave
            let nearness = ramp > 0 ? min(max((settings.smoothingStart - sample.projected) / ramp, 0), 1) : 0
            let tau = settings.smoothingTimeMin + nearness * (settings.smoothingTimeMax - settings.smoothingTimeMin)
            let dt = time - last
            // From a restart, the mean of the readings since, until the time constant gives more weight.
            let alpha = max(tau > 0 ? -CoreMath.expMinusOne(-dt / tau) : 1, 1 / Double(filtered + 1))
            if abs(resolved - previous) <= settings.smoothingJump {
                angle = previous + alpha * (resolved - previous)
                restarted = false
            }
        }
        filtered = restarted ? 1 : filtered + 1
        lastTrustTime = time
        restartFilter = false
        estimate.angle = angle
        estimate.trustworthy = true
        estimate.hold = nil
        estimate.state = HingeState.state(for: angle, previous: estimate.state, settings: settings)
        return estimate
    }

    /// Tells the estimator the lid switch changed without a reading (the daemon pauses sampling
    /// while the lid is closed); returns the estimate. `update` calls it with every reading.
    @discardableResult
    public mutating func lidChanged(_ newLid: LidState, at time: Double) -> HingeEstimate {
        defer { lid = newLid }
        if newLid == .closed {
            if lid != .closed {
                let fresh = lastTrustTime.map { time >= $0 && time - $0 <= settings.continuityWindow } ?? false
                estimate.lidContradicted = fresh && !sideGuessed && (estimate.angle ?? 0) >= 270
            }
            if !estimate.lidContradicted {
                restartMeans()
                estimate = HingeEstimate(angle: 0, trustworthy: false, state: .closed, hold: .lidClosed)
                lastTrustTime = time
                restartFilter = true
                ambiguousSince = nil
                sideGuessed = false
            }
        } else if lid == .closed {
            // Opened: continuity starts from the closed lid's 0 (unless the switch was ignored).
            if !estimate.lidContradicted {
                estimate.angle = 0
                lastTrustTime = time
                restartFilter = true
            }
            estimate.lidContradicted = false
        }
        return estimate
    }

    /// Forgets continuity (after suspend: the hinge may have moved meanwhile) but keeps the last
    /// angle and state until the next trustworthy reading, and each sensor's 1 g reference.
    public mutating func forgetContinuity() {
        lastTrustTime = nil
        ambiguousSince = nil
        window.removeAll()
        hingeVertical = false
        restartMeans()
    }

    /// Forgets both sensors' steady means (rule 6).
    mutating func restartMeans() {
        displaySteady = SteadyReading()
        baseSteady = SteadyReading()
    }

    /// Holds the last angle and state with `reason`; a hold of rules 2-5 (the readings not calm,
    /// or the halves disagreeing) restarts the steady means.
    mutating func hold(_ reason: HingeHold, keepAmbiguity: Bool = false) -> HingeEstimate {
        if !keepAmbiguity { ambiguousSince = nil }
        if reason != .hingeVertical && reason != .ambiguousWrap { restartMeans() }
        estimate.trustworthy = false
        estimate.hold = reason
        return estimate
    }
}
