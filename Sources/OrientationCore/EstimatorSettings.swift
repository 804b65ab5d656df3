/// Every constant of `OrientationEstimator`, named, with its unit, default and reason.
///
/// Units: times in seconds, angles in degrees, magnitudes as fractions of the (self-calibrated)
/// 1 g reference unless stated otherwise. Each setting has a row in `fields` with its unit and
/// allowed range; `problems()` lists the settings outside it and `clamped()` brings them back.
/// The estimator always works with `clamped()` settings, so a bad configuration cannot make it
/// misbehave. The `[Orientation]` keys that set some of them are `configKeys`.
public struct EstimatorSettings: SettingsTable, Equatable {
    // MARK: Low-pass gravity filter

    /// Time constant of the gravity low-pass filter while the reading's magnitude is close to
    /// the 1 g reference (the device turns or rests, nothing shakes it). Seconds, default 0.1.
    /// Short enough that a deliberate turn shows within a few tenths of a second, long enough to
    /// smooth hand tremor (8-12 Hz).
    public var filterTimeConstant = 0.1

    /// Time constant used while the signal is disturbed (the reading's magnitude is off the
    /// 1 g reference by `disturbanceFullScale` or more). Seconds, default 0.3. Linear
    /// acceleration (walking, shaking) then gets averaged out harder. Between the two levels the
    /// time constant is interpolated linearly.
    public var disturbedFilterTimeConstant = 0.3

    /// Magnitude deviation from the 1 g reference at which the filter fully uses
    /// `disturbedFilterTimeConstant`. Fraction of 1 g, default 0.2: a turning device keeps
    /// |a| = 1 g, shaking and walking change it by tenths of a g. Also the most one reading moves
    /// the vigour's mean |a| (`Vigour`), as a fraction of it.
    public var disturbanceFullScale = 0.2

    /// Longest time between two samples that still continues the filter. Seconds, default 6.
    /// A longer gap (or time going backwards) restarts the filter from the new sample and
    /// restarts any pending evidence, because the old state says nothing about the device now.
    /// Six seconds leave room for the daemon's slowest sampling interval (5 s, see
    /// `SamplingPolicy.intervalRange`) with a late wakeup; samples further apart than this can
    /// still give a first decision but never change a committed one.
    public var maximumSampleGap = 6.0

    // MARK: 1 g reference and magnitude gate

    /// Starting value of the 1 g reference. m/s^2, default 9.80665 (standard gravity). The first
    /// calm reading replaces it, whatever its size: only the direction of a reading is trusted.
    public var nominalGravity = 9.80665

    /// Time constant of the running 1 g reference estimate once it has this much steady
    /// evidence; before that it is a plain mean of all steady samples. Seconds, default 5. Slow,
    /// so that a brief steady non-1 g condition (an elevator, a car braking) barely moves it.
    public var referenceTimeConstant = 5.0

    /// Steady evidence needed before the 1 g reference is trusted. Seconds, default 0.05 (two
    /// samples at 20 Hz). Until then the magnitude gate only checks the plausible scale range,
    /// so that a sensor with a wrong absolute scale still gives a fast first decision.
    public var referenceTrustTime = 0.05

    /// How long consecutive calm readings must be rejected by the magnitude gate before the 1 g
    /// reference starts over from them. Seconds, default 1. Nothing a handheld device survives
    /// reads a steady non-1 g this long (a fall from 1.5 m lasts 0.55 s, a shock milliseconds):
    /// the reference was wrong (learned from a steady free fall, say), and the readings are 1 g.
    public var referenceRestartTime = 1.0

    /// Smallest |a| that may count as 1 g, as a fraction of the first calm reading's magnitude
    /// (whatever the sensor's scale: the first calm reading is taken for 1 g); default 0.4. Below
    /// it a calm reading never calibrates the reference.
    public var minimumPlausibleScale = 0.4

    /// Largest |a| that may count as 1 g, as a fraction of the first calm reading's magnitude;
    /// default 2.5. Above it a reading is a shock or saturation.
    public var maximumPlausibleScale = 2.5

    /// Largest change between consecutive raw readings for them to count as steady ("calm"), as
    /// a fraction of the previous reading's magnitude; default 0.05. Sensor noise and tremor stay
    /// well under it, a shake does not. Calm readings calibrate the 1 g reference, and the very
    /// first decision waits for one.
    public var calmChange = 0.05

    /// Lower magnitude gate: readings with |a| below this fraction of the 1 g reference are free
    /// fall or throw and are rejected. Default 0.6 (Android rejects beyond about 0.4 g off 1 g).
    public var lowerMagnitudeGate = 0.6

    /// The 1 g reference learns only while `OrientationEstimator.vigour` is at most this.
    /// Fraction of 1 g, default 0.1. Two readings in a row at the top of a swing (an arm swung
    /// through exercises, 2 g for a tenth of a second) are "calm" too; learning from them drags the
    /// reference toward the motion's mean and the magnitude gate with it. A device at rest or held
    /// reads about 0.01, one worn while walking 0.2.
    public var referenceVigourLimit = 0.1

    /// Upper magnitude gate: readings with |a| above this fraction of the 1 g reference are
    /// shocks, taps or saturation and are rejected. Default 1.4.
    public var upperMagnitudeGate = 1.4

    /// How long commits stay blocked after a rejected reading (garbage, free fall, shock).
    /// Seconds, default 0.3: the moments right after a bump are not trustworthy either.
    public var disturbanceHoldTime = 0.3

    /// Smallest magnitude of the filtered gravity estimate, as a fraction of the 1 g reference,
    /// for it to propose anything; default 0.5. A fast swing averages opposite readings into a
    /// short vector whose direction means little.
    public var minimumFilteredMagnitude = 0.5

    // MARK: Angles

    /// Hysteresis: an upright orientation is kept until the in-plane gravity direction is more
    /// than this many degrees away from its axis. Degrees, default 60, so a switch to the
    /// adjacent orientation happens 15 degrees past the 45 degree boundary (Android's listener
    /// uses a similar gap), and a device held at 45 degrees never chatters.
    public var switchAngle = 60.0

    /// With no upright orientation to hold on to (first decision, or leaving face-up/down that
    /// was entered first), the in-plane direction must be within this many degrees of an axis to
    /// propose it. Degrees, default 40: a 5 degree margin from the ambiguous 45.
    public var firstDecisionAxisAngle = 40.0

    /// Tilt (angle between gravity and the screen plane) above which no upright orientation is
    /// proposed: the device lies too flat for its in-plane direction to mean anything. Degrees,
    /// default 70.
    public var uprightTiltLimit = 70.0

    /// Tilt beyond which face-up (screen toward the sky) or face-down is entered. Degrees,
    /// default 70.
    public var faceEnterTilt = 70.0

    /// Tilt below which face-up or face-down is left again. Degrees, default 60: 10 degrees of
    /// hysteresis so a device propped at 65 degrees does not flip between face-up and upright.
    public var faceLeaveTilt = 60.0

    /// Tilt beyond which face-up or face-down is entered while the signal is disturbed (`vigour`
    /// at `disturbanceFullScale` or more); between calm and that the enter tilt moves linearly
    /// from `faceEnterTilt` toward it. Degrees, default 85 (Android's flat angle is 80). A device
    /// carried at 60-70 degrees by someone walking reads 0.8-1.4 g, and its filtered tilt wanders
    /// by +-10 degrees across `faceEnterTilt`: without this it goes face-up and back within a
    /// second (a real recording: Tests/traces/hapt_u21_e0_406-418_faceup_flap). A device put down
    /// on a table is calm, and one that lies flatter than this enters at once.
    public var disturbedFaceEnterTilt = 85.0

    /// Commits happen only while the filtered gravity direction turns slower than this. Degrees
    /// per second, default 45. A fast flip (hundreds of degrees per second) therefore never
    /// commits the landscape it passes through; a slow deliberate tilt (a few degrees per second)
    /// still commits.
    public var steadyAngularSpeed = 45.0

    /// Time constant over which the angular speed compared with `steadyAngularSpeed` is averaged.
    /// Seconds, default 0.05. The speed from one sample to the next jitters with sensor noise and
    /// tremor, more at high sample rates (short steps); averaging over a fixed time makes the gate
    /// open at the same moment at 10, 25 or 50 Hz. Short, so that it adds little delay.
    public var angularSpeedTimeConstant = 0.05

    /// A move of the filtered direction by more than this between two readings makes
    /// `isSettling` true (motion), whatever the time between them. Degrees, default 10. An
    /// adaptive sampler reads a still device slowly (e.g. every 0.7 s), so the first reading of a
    /// turn shows a jump rather than a speed above `steadyAngularSpeed`; this lets it switch to its
    /// fast rate at once. Noise and tremor move it by a few degrees at most, even between readings
    /// seconds apart. Does not affect decisions.
    public var motionStepAngle = 10.0

    // MARK: Rotation holds (flat, swing, overhead, vigour)
    //
    // A rotation is a commit of an upright orientation other than the last committed upright one
    // (after the first upright decision: the first upright orientation, say picked up from a
    // table, has none to flip from, and no hold waits it). While a swing toward flat or an overhead
    // pose lasts, and for a short hold time after it, and while the signal is vigorous, rotations
    // wait; face-up, face-down and the return to the last upright orientation do not. The in-plane direction of
    // a device being put down, held above one's face or swung on an arm says little about how the
    // user wants the screen. A flat period (tilt beyond `uprightTiltLimit`) proposes no upright
    // orientation while it lasts, and has no hold after it: a device raised from flat is turning
    // fast (the angular speed gate waits), and once it rests upright its reading is as clear as
    // any other, so it commits within the usual evidence time (a real recording:
    // Tests/traces/hapt_u09_e0_126-140_lie_to_stand_lag, 2.3 s late with the former fixed 0.5 s
    // hold and a swing rule that also counted lifting).

    /// Tilt speed of the filtered gravity toward flat (face up or face down) above which the
    /// device is swinging (being put down, swung away from the face); a tilt toward upright (picked
    /// up, someone sitting up) is no swing, as in Android's listener. Degrees per second, default 60 (Android:
    /// 20 degrees within 0.3 s). A turn about the screen normal keeps the tilt constant and never
    /// counts; hand tremor, filtered, stays under 20 degrees per second.
    public var swingTiltSpeed = 60.0

    /// Hold after a swing: rotations wait this long after the tilt last changed faster than
    /// `swingTiltSpeed`. Seconds, default 0.3, enough for the hand to come to rest.
    public var swingHoldTime = 0.3

    /// Screen-down tilt beyond which the device is held overhead (someone lying on their back,
    /// reading with the screen facing down at them). Degrees, default 40 (Android's listener uses
    /// the same). While overhead, the in-plane direction keeps the last upright orientation instead
    /// of proposing another (a first decision is still made); face-down still applies beyond
    /// `faceEnterTilt`.
    public var overheadTilt = 40.0

    /// Hold after an overhead pose: rotations wait this long after the screen last faced down by
    /// more than `overheadTilt`. Seconds, default 0.5: sitting up again is a swing of its own.
    /// With no upright orientation committed yet (e.g. lifted from face-down into an overhead
    /// pose) there is nothing to keep, and the overhead pose blocks nothing.
    public var overheadHoldTime = 0.5

    /// Rotations wait while `OrientationEstimator.vigour` (the filtered swing of |a| around its
    /// mean) is above this. Fraction, default 0.15. An arm swung through exercises reads 0.2-2.2 g
    /// (vigour 0.2-0.5) and its in-plane direction swings with it: without this gate a wrist device
    /// flips about once a second (a real recording: Tests/traces/watch_070_abduction). A hand
    /// turning a tablet stays near 0.01-0.05; a phone worn on the waist while walking reads about
    /// 0.2, so a device carried by someone striding hard waits for the stride to calm down (it has
    /// no turn to show meanwhile). A deliberate flip that comes to rest commits once the vigour
    /// has decayed below this. The first upright orientation (after face-up or face-down, say picked
    /// up from a table and still shaking from the lift) has none to flip from and does not wait, nor
    /// does a device whose readings rest around the steady mean (`SteadyMean.rests`: held still at
    /// 1 g within `calmMagnitudeBand`, or within `vibrationMagnitudeBand` once held for
    /// `vibrationHeldTime`, deviating under `vibrationDeviation`) when the mean proposes
    /// the candidate: a hard half turn (2-4 g at the sensor) leaves a vigour of 0.5, which takes a
    /// second to decay under this in a mount's weak vibration.
    public var vigourRotationLimit = 0.15

    /// Time constant of `OrientationEstimator.vigour`. Seconds, default 0.5: longer than one
    /// stride or swing (so it does not drop to zero between two), short enough that a device
    /// that comes to rest may rotate again within a few tenths of a second.
    public var vigourTimeConstant = 0.5

    // MARK: Vibration (a steady mean)
    //
    // A vibration (a car mount, a train, a running machine: 5-25 Hz, up to half a g) is zero-mean:
    // the mean of the readings is gravity, in a direction that holds still, while the readings
    // themselves leave 1 g, the filtered direction wobbles faster than `steadyAngularSpeed` and
    // the vigour is that of a swung arm. An arm's mean moves with the arm. While the slow mean
    // (`SteadyMean`) has held still for `vibrationSettleTime` and the readings deviate from it by
    // `vibrationDeviation` or more, the mean proposes orientations, and its steady run is the
    // evidence: the rejected readings' hold, the swing and vigour holds, the angular speed gate and
    // `quarterTurnSettleTime` do not apply (the overhead hold and `halfTurnSettleTime` do).

    /// Time constant of each of the two low-passes of the steady mean. Seconds, default 0.15: a
    /// 5 Hz vibration of 0.5 g leaves about 1 degree of wobble, 3 Hz about 2.
    public var vibrationTimeConstant = 0.15

    /// Largest angle the steady mean may move from where its steady run began. Degrees,
    /// default 5: a hand holding a device still moves it by more within half a second only when it
    /// turns it; a swung arm's mean moves by tens of degrees.
    public var vibrationSpread = 5.0

    /// How long the steady mean must hold still before it may propose and commit. Seconds,
    /// default 0.25: with the mean's own settling after a turn (a few tenths of a second), a device
    /// in a vibrating mount is decided within a second of the turn's end, at 3 Hz too; the pause at
    /// the end of an arm's swing is shorter (the abduction recording, Tests/traces/watch_070_abduction,
    /// keeps its one decision at 10, 25 and 50 Hz).
    public var vibrationSettleTime = 0.25

    /// Smallest deviation of the readings from the steady mean (|a - mean| / |mean|, filtered) that
    /// is a vibration. Fraction, default 0.12: a device at rest or in a hand reads a few hundredths
    /// (0.03 g of noise), a phone on the waist of someone getting up about 0.1, a sinusoidal
    /// vibration of 0.2 g about 0.13 (its mean |sin| is 0.64) and more for a stronger one; below it
    /// the filter decides as it does for a calm device.
    public var vibrationDeviation = 0.12

    /// Deviation of the readings from the steady mean under which a vibration, once seen, has
    /// ended: a hysteresis below `vibrationDeviation`, as `faceLeaveTilt` is below `faceEnterTilt`.
    /// Fraction, default 0.08: a vibration near `vibrationDeviation` (0.2 g aliased near half the
    /// rate, beating) dips under it for a reading or two every few tenths of a second, and each dip
    /// started its run over; a device that stops vibrating reads a few hundredths within a tenth
    /// of a second.
    public var vibrationLeaveDeviation = 0.08

    /// Largest deviation of the steady mean's size from the 1 g reference for it to be gravity.
    /// Fraction, default 0.2: a vibration's mean is 1 g (a bump moves it briefly), the mean of an
    /// arm swung through exercises 1.5-1.8 g.
    public var vibrationMagnitudeBand = 0.2

    /// Largest share of the readings' deviation from the steady mean that may be slow (still there
    /// after the first of its low-passes) for it to be a vibration. Fraction, default 0.4: a first
    /// low-pass with `vibrationTimeConstant` 0.15 s leaves about 0.2 of a 5 Hz vibration, 0.33 of
    /// 3 Hz, but half and more of a stride or a bag swinging at 1-2 Hz.
    public var vibrationSlowShare = 0.4

    /// Largest tilt of the steady mean (its angle from the screen plane) at which it proposes an
    /// upright orientation; beyond it, up to `faceEnterTilt`, the filter proposes. Degrees,
    /// default 55: a mount holds a device upright or leaning back by up to 55 degrees (a dashboard
    /// mount, a stand; or it lies flat), which an upright pose still clearly is; under a vibration
    /// the mean of a mount at 50 degrees wanders by a few degrees, and a limit at the pose itself
    /// left such a mount to the wobbling filter. A device lying at 60-70 degrees in a bag or a
    /// purse, jostled by a stride, shows an in-plane direction that means little.
    public var vibrationTiltLimit = 55.0

    /// How far the first of the steady mean's low-passes may lead the mean before the mean starts
    /// over from the reading (a turn). Degrees, default 20, twice the wobble of a vibration: one of
    /// 0.5 g at 3 Hz leaves the first low-pass within about 10 degrees of the mean. A hand's half
    /// turn carries it well past that; a quarter turn of 0.6 s leads it by only 20-25 degrees (the
    /// lead is about the time constant times the turn's speed, and a smooth turn's speed peaks
    /// briefly), which 25 missed: the mean then lagged the whole turn, 40-50 degrees behind at
    /// its end, and held still only 0.8 s into the hold. Started over, the mean no longer drags
    /// the pose before the turn behind it and holds still sooner after the turn's end.
    public var vibrationRestartAngle = 20.0

    /// Highest face enter tilt for a vibration's steady mean: the enter tilt rises with the vigour
    /// as for the filter (`disturbedFaceEnterTilt`), but no further than this. Degrees, default 80:
    /// the mean holds still (within `vibrationSpread`), so it does not wander across the enter tilt
    /// as a disturbed filter does, and a device lying flat at 80-85 degrees under a vibration of
    /// 0.3-0.5 g (whose vigour is that of a swung arm) is face-up or face-down; a hand holding a
    /// device at 70-75 degrees with a light vibration (vigour under half of `disturbanceFullScale`)
    /// still meets the raised tilt. A mean that lies beyond this toward one face, at 1 g, while the
    /// readings deviate from it by `vibrationDeviation`, for `vibrationHeldTime`, is a vibration's
    /// however slow the readings' swing and however far its in-plane direction wanders (which says
    /// nothing lying flat): the low-energy plan reads a 50 Hz sensor every 0.1 s, a train's
    /// 8-11 Hz then shows as a slow wobble that breaks the fast share (`vibrationSlowShare`) and
    /// moves the mean's direction past `vibrationSpread` around the vertical, while the filter's
    /// tilt wanders across the raised enter tilt (80-86 degrees against 85), so a tablet lying flat
    /// on a train table was never face-up (held-still-decided seed 8708, bumpy-still-decided
    /// 5133).
    public var vibrationFaceEnterTilt = 80.0

    /// A vibration the sampling aliases: how close to the candidate's axis the filtered in-plane
    /// direction must stay. Degrees, default 25: well inside the band, and past the 10-20 degrees a
    /// rail vibration wobbles a clearly held pose by (30 let the top of an arm's raise through, held
    /// 27 degrees off an axis for half a second: no-direct-half-turn seed 695). The
    /// daemon's low-energy plan reads a 50 Hz sensor every 0.1 s, and a train's 8-11 Hz vibration
    /// (and its harmonic) then shows as a slow wobble of 0.5-2.6 Hz and up to 0.5 g: the steady mean
    /// cannot tell it from a stride by its speed (`vibrationSlowShare`), the vigour holds every
    /// rotation as for a swung arm, and the filter's speed hovers around `steadyAngularSpeed`, so a
    /// tablet turned in its mount was never decided (the scenario properties held-still-decided
    /// and bumpy-still-decided). Yet its direction wobbles by 10-20 degrees about a clear axis,
    /// where a swung arm carries it across the bands. While the readings deviate from the steady
    /// mean by `vibrationDeviation` or more, the filtered direction stands within
    /// `vibrationTiltLimit` of upright and within this of the candidate's axis, the whole
    /// `vibrationHeldTime`, and the steady mean holds still at 1 g (`SteadyMean.isSteady`), the
    /// candidate is committed through the swing and vigour holds, the speed gate and a half turn's
    /// rest (the rejected readings' hold, the overhead hold and `halfTurnSettleTime` still apply).
    /// The end of an arm's raise, where the arm rests before it swings back (the scenario property
    /// no-direct-half-turn), reads still (a deviation under `vibrationDeviation`) for part of
    /// that time, or leans back further, or its mean is off 1 g or moves.
    public var vibrationHeldAngle = 25.0

    /// How long the direction must stay so (see `vibrationHeldAngle`). Seconds, default 0.5: a
    /// tablet turned in a vibrating mount is then decided within a second of the turn's end (the
    /// candidate comes mid-turn); 0.6-0.8 s decided fewer of them and still flipped at the top of
    /// some arm raises, which stay there for up to a second. Also how long a steady mean must lie
    /// flat to be a vibration's (see `vibrationFaceEnterTilt`), as a margin: the top of an arm's
    /// raise lies flat with the readings deviating for a moment (no-direct-half-turn seed 9452
    /// flipped from face-up to face-down when a steady run of `vibrationSettleTime` was enough);
    /// `vibrationSettleTime` for the flat mean's tilt decided the same seeds and flipped none.
    /// And how long a steady mean off 1 g by more than `calmMagnitudeBand` (within
    /// `vibrationMagnitudeBand`) must hold still to rest (`SteadyMean.rests`): after a half turn a
    /// sensor's bias reads the other way (0.93 g at 0.035 g), and under vibration no reading is
    /// calm enough to teach the reference again; an arm pausing at 0.9 g stays for a few tenths.
    public var vibrationHeldTime = 0.5

    // MARK: Evidence timers

    /// Evidence time for the first decision after init or reset: the same unambiguous proposal,
    /// a calm reading and a steady direction for this long. Seconds, default 0.05, so a still
    /// device is decided on its second sample at 20 Hz (the daemon's ReadOrientation waits for
    /// a fresh decision). Without a calm reading (a shaken device) the first decision takes
    /// `quarterTurnSettleTime` instead.
    public var firstDecisionSettleTime = 0.05

    /// Evidence time before committing a 90 degree change (e.g. portrait to landscape, or upright
    /// to face-up). Seconds, default 0.2: short enough to feel immediate, long enough to ride out
    /// a wobble past the switch angle.
    public var quarterTurnSettleTime = 0.2

    /// Evidence time before committing a 180 degree change (portrait to upside-down, landscape
    /// to landscape, face-up to face-down). Seconds, default 0.4: a half turn is rarely wanted
    /// briefly, and a wrong one is the most annoying. It is counted from the moment another
    /// orientation was first proposed, since a half turn passes through a quarter turn on its way;
    /// the final proposal must also have lasted `quarterTurnSettleTime`. A 0.5 s flip is thus
    /// committed about 0.2 s after it ends, a sudden one (a step) about 0.5 s after it.
    public var halfTurnSettleTime = 0.4

    /// A half turn committed on the filter's evidence (no turn target, calm mean or vibration mean)
    /// needs the device at rest in its new pose, and the filter's speed at the commit says too
    /// little of that: the end of an arm's raise (a wrist device, a phone in a swinging hand) turns
    /// the last few degrees slowly, the lagging filter is under `steadyAngularSpeed` before the hand
    /// stops, and the vigour of the raise decays under `vigourRotationLimit` as it stops, so the
    /// screen flipped upside down at the top of every raise as the hand slowed (the scenario property
    /// no-direct-half-turn: arm raises at 10-100 Hz, flipping 0-0.1 s before the hand rested). The
    /// rest is one of, with the steady mean within `halfTurnRestMagnitudeBand` of 1 g: the readings
    /// held still (a calm run, sudden or not, of three readings over `calmSettleTime`), or the
    /// filtered direction slower than this for the final proposal's whole `quarterTurnSettleTime` (a
    /// jostled device, whose readings keep no calm run); or else the proposal standing for
    /// `halfTurnHeldTime` with the steady mean gravity (within `vibrationMagnitudeBand` of 1 g).
    /// Asked only while the vigour is above `halfTurnRestVigour`.
    /// Degrees per second, default 35: the property's rest is 20 degrees per second; the filter,
    /// 0.1-0.3 s behind the readings, turns 30-45 degrees per second over the last degrees of a
    /// raise, and under 35 only once the hand has stopped.
    public var halfTurnRestSpeed = 35.0

    /// How long a half turn's final proposal must stand to be committed on the filter's evidence
    /// without the rest of `halfTurnRestSpeed` (the speed gate still applies at the commit), with
    /// the steady mean gravity: within `vibrationMagnitudeBand` of 1 g (measured as for
    /// `halfTurnRestMagnitudeBand`), as a vibrating mount's is, and as the mean of an arm stopping at
    /// the top of its raise, read 0.7-0.8 g, is not (no-direct-half-turn seeds 1737, 9074 flipped
    /// 0.02-0.06 s before their 0.1 s of calm: the rest at the top of a raise is too short to tell
    /// by time alone). Seconds,
    /// default 0.8: a device held still in a vibrating mount after a half turn keeps no calm run, and
    /// its filter wobbles past `halfTurnRestSpeed` (the scenario properties held-still-decided and
    /// bumpy-still-decided keep its decisions within 1 s of the turn's end, which the proposal, made
    /// as the filter passes the switch angle before that end, leaves time for up to 0.8 s, not 0.9),
    /// while the end of an arm's raise proposes the new orientation for up to 0.7 s before the hand
    /// stops: the proposal comes as the lagging filter passes the switch angle mid-raise, and the
    /// hand slows over the raise's last 20-35 degrees with the filter turning 40-50 degrees per
    /// second, between `halfTurnRestSpeed` and `steadyAngularSpeed` (no-direct-half-turn seeds 892,
    /// 7000, 8021 flipped at 0.52-0.7 s, 0.1-0.2 s before the hand rested, with 0.5).
    public var halfTurnHeldTime = 0.8

    /// The rest of `halfTurnRestSpeed` is asked of a half turn only while the vigour is above this.
    /// Fraction, default 0.075 (half of `vigourRotationLimit`): an arm raised through exercises or
    /// swung while walking flips at a vigour of 0.09-0.15, as it slows under the rotation limit; a
    /// hand turning a tablet over reads 0.01-0.05 and is committed as promptly as before, also on a
    /// noisy sensor (0.03 g), whose readings keep no calm run and whose filter jitters past
    /// `halfTurnRestSpeed` (Tests/traces/flip-180-in-0.5s keeps its 0.26 s).
    public var halfTurnRestVigour = 0.075

    /// A half turn's rest (the readings held still, or the filtered direction slower than
    /// `halfTurnRestSpeed`) counts only while the steady mean's size (`SteadyMean`, against the 1 g
    /// for the mean, or the gate's reference once trusted if that is nearer: a vibration and the
    /// turn's push inflate the mean size of every reading, which stands in for 1 g until the
    /// reference has learned for `vibrationTimeConstant`, by 15-20 percent, bumpy-still-decided
    /// seed 12538) is within this of 1 g. Fraction, default 0.1. A decelerating hand reads off
    /// 1 g: an arm that turns back at the top of a raise without pausing leaves the lagging filter
    /// halfway between the readings going up and coming down, slower than `halfTurnRestSpeed` for
    /// the settle time while the hand still moves at 50-100 degrees per second, reading 0.75-0.9 g
    /// (no-direct-half-turn seed 9325: flipped with the mean at 0.85 g); and a hand stopping at
    /// 0.9 g gives three readings within the calm spread, which a calm run measures against their
    /// own size while the 1 g reference is not learned (a scaled sensor, seed 7414: the mean 0.89).
    /// A jostled or vibrating device's mean is gravity: a sensor's bias read the other way after a
    /// half turn leaves it within 0.07 of the reference. held-still-decided and bumpy-still-decided
    /// are unchanged from 0.08 to 0.12, and lose decisions at 0.05.
    public var halfTurnRestMagnitudeBand = 0.1

    // MARK: Mid-turn commit
    //
    // A hand turns a tablet a quarter turn in 0.3-0.6 s and slows down into the new orientation.
    // The filter lags such a turn by tens of degrees, so through it and `quarterTurnSettleTime`
    // the decision would come about 0.2 s after the turn ends. The readings themselves show the
    // turn: once they are well past the switch angle, at 1 g with a steady upright tilt, and the
    // turn has slowed to a fraction of its top speed, the adjacent orientation is committed
    // before the turn ends. A flip passing through that orientation is at its top speed there,
    // a wobble or a swing turns back, shaking and walking leave 1 g: each keeps the filtered,
    // settle-time path. The rotation holds (swing, overhead, vigour) and `disturbanceHoldTime`
    // still apply.

    /// How far from the committed orientation's axis the readings must be, toward the adjacent
    /// one, for a mid-turn commit. Degrees, default 75: fifteen degrees past `switchAngle`,
    /// fifteen from the new axis.
    public var midTurnAngle = 75.0

    /// How much the turn must have slowed there: its speed (the readings' in-plane angle, smoothed
    /// over `angularSpeedTimeConstant`) at most this fraction of the fastest it went since it
    /// left the axis; 0 turns the mid-turn commit off. Fraction, default 0.5. A smoothstep
    /// quarter turn is at 0.75 of its top speed at 75 degrees and at 0.5 at 85 percent of its
    /// duration; a 180 degree flip passes the quarter between at its top speed. A smooth
    /// 0.3-0.6 s quarter turn is then committed around its end at 25 and 50 Hz, against about
    /// 0.2 s after it through the filter.
    public var midTurnSlowdown = 0.5

    // MARK: Calm fast path
    //
    // A device that jumps to a new pose and rests there (a brisk quarter turn sampled slowly, a
    // device set down, a fake device in a test rig) needs neither the low-pass filter nor the
    // settle time to be believed: a short run of steady readings at 1 g is evidence enough, and
    // the filter would lag the jump by tens of degrees for a tenth of a second. A calm run is a
    // sequence of accepted readings, each with a magnitude within `calmMagnitudeBand` of the
    // 1 g reference and within `calmSpread` of the run's first reading; any other reading (or a
    // rejected one, or a gap) ends it. A run whose first reading jumped `calmJumpAngle` or more
    // from the reading before it is the end of a sudden turn; once it has lasted
    // `calmSettleTime` (and has at least two readings), its mean proposes orientations instead of
    // the filtered gravity, and a candidate that appears meanwhile commits at once: the run
    // replaces `quarterTurnSettleTime` and the angular speed gate. Half turns still wait
    // `halfTurnSettleTime` since the device left the committed orientation, and the rotation
    // holds (swing, overhead, vigour) and `disturbanceHoldTime` still apply. Smooth turns take
    // the mid-turn commit or the filtered, settle-time path; slow sweeps, shaking, walking, a
    // drop, tremor near 45 degrees and heavy noise the filtered, settle-time path.

    /// Evidence time of the calm fast path: how long a calm run after a sudden turn must last
    /// before it may commit. Seconds, default 0.08: three readings at 25 Hz, five at 50 Hz, two at
    /// 10 Hz (0.1 s apart), so a step is committed 80-100 ms after the first reading that shows
    /// it, against about 0.3 s through the filter (time constant 0.1 s to carry the estimate past
    /// `switchAngle`) and `quarterTurnSettleTime`. Long enough that one stray reading, or two
    /// that happen to agree, never commit, and that a device still turning faster than about
    /// `calmSpread` (2.9 degrees) per `calmSettleTime` (36 degrees per second, under
    /// `steadyAngularSpeed`) cannot keep a run going. Independent of `quarterTurnSettleTime`
    /// (`SettleTimeMsec=` in the configuration), which stays the evidence time of every other
    /// change.
    public var calmSettleTime = 0.08

    /// Largest distance of a reading from the first reading of its calm run, as a fraction of that
    /// reading's magnitude; default 0.05 (about 2.9 degrees). Sensor noise of a resting device
    /// (0.01 g) and light tremor stay within it; a moving device, 0.03 g noise or 3 degrees of
    /// tremor leave it within a reading or two.
    public var calmSpread = 0.05

    /// Largest deviation of a calm reading's magnitude from the 1 g reference, as a fraction of
    /// it; default 0.05. Linear acceleration (walking, shaking, a bump) changes |a| by tenths of
    /// a g; a device at rest reads 1 g.
    public var calmMagnitudeBand = 0.05

    /// Smallest change of direction, from the last accepted reading to the first reading of a
    /// calm run, for the run to count as the end of a sudden turn. Degrees, default 30 (half the
    /// switch angle). Only such runs take the calm fast path: a jump of this size between two
    /// readings is a step (a device set down in a new pose, a fake device in a test rig) or a turn
    /// faster than the sampling, and the low-pass filter lags it by tens of degrees. A smooth
    /// turn sampled at 10-50 Hz ends with small changes between readings (about 14 degrees for a
    /// 0.4 s turn at 10 Hz) and keeps off the calm fast path at every rate (it takes the mid-turn
    /// commit or the settle-time path), so its decisions stay the same within a sample period
    /// whatever the rate.
    public var calmJumpAngle = 30.0

    /// Tolerance when comparing elapsed times with settle times. Seconds, default 0.001: sample
    /// timestamps jitter, and 0.05 s of evidence measured as 0.0499999 must still count.
    public var timingSlack = 0.001

    /// Creates the default settings.
    public init() {}
}
