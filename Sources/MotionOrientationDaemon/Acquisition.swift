import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The acquisition of one accelerometer: its polled reader, its buffered interface (preferred
/// while it delivers, with the fall back to polling), the timers that drive them, and the
/// sampling plan in force. It delivers one stream of readings, calibrated and turned by the
/// mount matrix, each with its time on the monotonic clock, to `sink`.
///
/// The daemon makes one per sensor it samples (the display's today; the base's too for the
/// hinge) and tells it the plan; what the readings mean is the daemon's business.
///
/// A buffered source's silence means "unchanged", never a fault, whatever its attributes
/// claim: while the daemon still needs readings to decide (`readingTaken(needsMore:)`) its
/// last report is repeated with the time passing, and whether it reports only changes (a
/// still device sends nothing: its rate costs nothing) is learned from what it does
/// (`ReportCadence`), the change sensitivity it claims being the first guess.
final class Acquisition {
    /// A reading in m/s^2 in the docs/axes.md frame and its time on the monotonic clock
    /// (seconds).
    typealias Sink = (_ reading: Vector3, _ time: Double) -> Void

    /// How long a freshly enabled buffer may stay silent before we poll instead.
    static let bufferDeadlineUsec: UInt64 = 1_000_000
    /// A buffer that would deliver more scans than this per still interval, at the slowest rate
    /// its device offers, is not used: the device is polled at the plan's rate instead. Every
    /// scan wakes the daemon (the watermark stays 1, docs/drivers.md), so a bmc150, whose
    /// slowest rate is 15.62 Hz, would wake it 15 times a second where the still plan reads
    /// 1.4 times; two leaves room for a rate just above the plan's.
    static let bufferScansPerStillIntervalLimit = 2.0
    /// The sensor, as discovery described it.
    let info: AccelerometerInfo
    /// The plan being applied; `.off` until the first `apply(_:)`.
    private(set) var plan: SamplingPlan = .off
    private let reader: any AccelerometerSource
    /// The buffered interface of the sensor, preferred while it delivers; nil when the sensor
    /// has none, or after it failed (until the sensor changes).
    private var buffered: BufferedAccelerometer?
    private let event: OpaquePointer
    private let sink: Sink
    private lazy var sampleTimer = EventTimer(event: event) { [unowned self] in self.sample() }
    private lazy var bufferDeadline = EventTimer(event: event) { [unowned self] in self.bufferDeadlinePassed() }
    private lazy var silenceTimer = EventTimer(event: event) { [unowned self] in self.silenceTimerFired() }
    /// The last sample delivered, for repeating a silent buffer's last report.
    private var lastSample: RawSample?
    /// How the buffer reports, learned from what it does, and when its silence is due.
    private var cadence: ReportCadence
    /// Whether the daemon still needed readings after the last one (`readingTaken`).
    private var needsMore = false
    /// Whether another sensor is read in this one's wakeups (`readingTaken`).
    private var pacesFollower = false
    /// A silent buffer's channels were read, and whether anything comes through it is
    /// awaited (`bufferDeadlinePassed`).
    private var probingSilence = false
    /// The time of the report being taken (a scan or a raw read's answer), for its cadence.
    private var reportTaken: Double?
    /// The still interval of the settings, which the silence that tells a change-only source
    /// is measured by.
    private let stillIntervalMsec: UInt32
    /// Called when the silence of a buffer made it change-only (the plan may change).
    var onCadenceChange: (() -> Void)?

    /// Whether the readings come through a buffer that delivers only changes, as far as its
    /// behaviour tells: then a still device sends nothing, at any rate
    /// (`SamplingInputs.changeOnly`).
    var readsChangesOnly: Bool { cadence.changeOnly && buffered != nil }

    /// Opens the sensor's reader (and its buffered interface, when it is to be preferred:
    /// `preferBuffer`, or a device that cannot be polled; not one that would scan much faster
    /// than the still plan reads, every `stillIntervalMsec`). Nothing is read before
    /// `apply(_:)`.
    init(
        info: AccelerometerInfo, preferBuffer: Bool, stillIntervalMsec: UInt32, event: OpaquePointer,
        sink: @escaping Sink
    ) throws(SystemError) {
        self.info = info
        self.event = event
        self.sink = sink
        self.stillIntervalMsec = stillIntervalMsec
        cadence = ReportCadence(claimedChangeOnly: info.reportsOnlyChanges)
        if info.subsystem == .iio && (preferBuffer || !info.hasRawChannels) {
            buffered = BufferedAccelerometer(info: info, devnode: info.devnode)
        }
        reader = try AccelerometerDiscovery.reader(for: info)
        // A change-only device scans only on a change, whatever its rate.
        if buffered != nil, info.hasRawChannels, !info.reportsOnlyChanges,
            let rate = reader.bufferedRate(forIntervalMsec: stillIntervalMsec),
            rate * Double(stillIntervalMsec) / 1000 > Acquisition.bufferScansPerStillIntervalLimit
        {
            Log.notice(
                "\(info.syspath): polling its channels, not its buffer: at its slowest rate, "
                    + "\(SamplingFrequency.format(rate)) Hz, the buffer would wake the daemon every "
                    + "\(SamplingFrequency.format((1000 / rate).rounded())) ms where a still device is read "
                    + "every \(stillIntervalMsec) ms"
            )
            buffered = nil
        }
        do {
            try buffered?.prepare()
        } catch {
            // Sampling tries again, and polls instead if that fails too.
            Log.warning("cannot enable the scan elements: \(error)")
        }
        if buffered == nil { reader.prepareForPolling() }
    }

    /// An acquisition of `info` (nil: none), logged as "using" `what` says of the device
    /// (its path, name and mount matrix), or nil with the reason logged.
    static func open(
        _ info: AccelerometerInfo?, preferBuffer: Bool, stillIntervalMsec: UInt32, event: OpaquePointer,
        what: (String) -> String, sink: @escaping Sink
    ) -> Acquisition? {
        guard let info else { return nil }
        do {
            let acquisition = try Acquisition(
                info: info, preferBuffer: preferBuffer, stillIntervalMsec: stillIntervalMsec, event: event, sink: sink)
            Log.info(
                "using "
                    + what("\(info.syspath) (\(info.name ?? "unnamed")), mount matrix from \(info.mountMatrixSource)"))
            return acquisition
        } catch {
            Log.error("cannot use \(info.syspath): \(error)")
            return nil
        }
    }

    /// Stops reading, switches the scan elements off and gives the device its own rate back (on
    /// exit; dropping the object does the same).
    func release() {
        stopReading()
        buffered?.release()
        reader.restoreSamplingFrequency()
    }

    /// Applies a sampling plan: starts reading (buffer first, else polling), re-times the
    /// polling, or stops.
    func apply(_ next: SamplingPlan) {
        guard next != plan else { return }
        let previous = plan
        plan = next
        switch next {
        case .off:
            stopReading()
        case .every(let interval):
            reader.setSamplingInterval(msec: interval, polled: buffered == nil)
            if previous == .off {
                if !startBuffer() { armSampleTimer(afterUsec: 0) }
            } else if interval < previous.intervalMsec && !(buffered?.isRunning ?? false) {
                armSampleTimer(afterUsec: UInt64(interval) * 1000)
            }
        }
    }

    /// Reads the sensor once, now, and hands the reading on: a follower that is never given
    /// a plan of its own (the base sensor, read in the display sensor's wakeup). Polled only.
    func readOnce() {
        if let sample = reader.read() { deliver(sample, at: monotonicSeconds()) }
    }

    /// A follower's device rate, for the plan of the acquisition it follows (its wakeups are
    /// the follower's); `.off` lets go of what sampling needs.
    func followRate(of plan: SamplingPlan) {
        switch plan {
        case .off: reader.stopSampling()
        case .every(let interval): reader.setSamplingInterval(msec: interval, polled: true)
        }
    }

    /// Stops the timers and the buffer (the plan is the caller's to change).
    private func stopReading() {
        sampleTimer.disarm()
        bufferDeadline.disarm()
        silenceTimer.disarm()
        lastSample = nil
        needsMore = false
        pacesFollower = false
        reportTaken = nil
        cadence.restart()
        buffered?.stop()
        reader.stopSampling()
    }

    /// Turns raw counts into a reading and hands it on, at a time no earlier than the last one
    /// handed on. `report`: a scan the buffer delivered (not a poll, nor a repeat).
    private func deliver(_ sample: RawSample, at time: Double, report: Bool = false) {
        let time = cadence.deliveryTime(time)
        if report { reportTaken = time }
        lastSample = sample
        sink(info.reading(sample), time)
    }

    /// The silence that tells a change-only buffer, at the plan in force.
    private var silence: Double {
        ReportCadence.silence(planIntervalMsec: plan.intervalMsec, stillIntervalMsec: stillIntervalMsec)
    }

    /// Called after each reading: `needsMore` while the daemon still needs readings to decide
    /// (a pending orientation or tablet mode, a waiting call); `pacesFollower` while another
    /// sensor (the base) is read in this one's wakeups. A buffer that stays silent meanwhile
    /// has its last report repeated with the time passing; with nothing pending and nothing
    /// paced, a buffer believed to stream is watched for the silence that would make it
    /// change-only, and one believed change-only costs no wakeups.
    func readingTaken(needsMore: Bool, pacesFollower: Bool = false) {
        // A report that finds nothing pending and leaves nothing pending said nothing new.
        if let time = reportTaken, cadence.report(at: time, settled: !self.needsMore && !needsMore, silence: silence) {
            Log.info("\(info.syspath) keeps reporting while the device is still: reading it as a streaming source")
        }
        reportTaken = nil
        self.needsMore = needsMore
        self.pacesFollower = pacesFollower
        armSilenceTimer()
    }

    /// What the cadence wants next of the silence timer, and when: a repeat, or the judging of
    /// a silence; nil while the buffer is not read or wants nothing.
    private var nextWake: (time: Double, wake: ReportCadence.Wake)? {
        guard buffered?.isRunning == true, lastSample != nil, case .every(let interval) = plan else { return nil }
        return cadence.nextWake(needed: needsMore || pacesFollower, planIntervalMsec: interval, silence: silence)
    }

    /// Arms the silence timer for `nextWake`, or disarms it.
    private func armSilenceTimer() {
        guard let wake = nextWake else { return silenceTimer.disarm() }
        let after = max(0, wake.time - monotonicSeconds())
        arm(silenceTimer, afterUsec: UInt64((after * 1e6).rounded(.up)))
    }

    private func silenceTimerFired() {
        guard let lastSample, let wake = nextWake else { return }
        switch wake.wake {
        case .repeatLastReport:
            deliver(lastSample, at: monotonicSeconds())
        case .judgeSilence:
            // sd-event times a relative timer from its loop's last wakeup: it may fire a little
            // before the silence is complete. Then it is armed again for the rest.
            guard cadence.silent(at: monotonicSeconds(), silence: silence) else { return armSilenceTimer() }
            Log.info(
                "\(info.syspath) stays silent while the device is still: reading it as a source that reports only changes"
            )
            onCadenceChange?()
        }
    }

    /// Starts reading the buffered interface, if the sensor has a usable one; a buffer that
    /// delivers nothing before the deadline, or fails later, falls back to polling.
    private func startBuffer() -> Bool {
        guard let buffered else { return false }
        do {
            try buffered.start(
                event: event, sink: { [unowned self] sample, time in self.deliver(sample, at: time, report: true) },
                onFailure: { [unowned self] why in self.pollInstead(why) })
        } catch {
            pollInstead("cannot use the buffer: \(error)")
            return false
        }
        Log.info("reading \(buffered.devnode) (buffered)")
        probingSilence = false
        arm(bufferDeadline, afterUsec: Acquisition.bufferDeadlineUsec)
        return true
    }

    /// A second after the buffer was enabled, and a second after a silent buffer's channels
    /// were read. A change-only hub reports at power-up, but not at every power-up (one kept
    /// powered, or one that reports only the first time): its silence may just mean a still
    /// device. So a silent buffer's raw channels are read once (a synchronous request to the
    /// hub: its answer is a report of the present value, which stands while it stays silent).
    /// A buffer believed change-only is kept at once; one believed to stream is kept if
    /// anything comes through it within another second (a HID hub's answer to the read comes
    /// back through its buffer as a scan): it was silent for longer than the interval asked,
    /// so it reports only changes. A buffer that stays silent even then is a fault: polled.
    private func bufferDeadlinePassed() {
        guard let buffered, buffered.isRunning else { return }
        if probingSilence {
            probingSilence = false
            guard buffered.delivered else {
                return pollInstead(
                    "\(buffered.devnode) delivered nothing within a second, nor after a read of its channels")
            }
            cadence.learnChangeOnly()
            Log.info(
                "\(buffered.devnode) answers through its buffer and was silent: reading it as a source that reports only changes"
            )
            onCadenceChange?()
            return
        }
        guard !buffered.delivered else { return }
        guard cadence.changeOnly || info.hasRawChannels else {
            return pollInstead("\(buffered.devnode) delivered nothing within a second")
        }
        Log.info(
            "\(buffered.devnode) is silent (a still device, if it reports only changes); reading its channels once")
        if !cadence.changeOnly {
            probingSilence = true
            buffered.forgetDelivered()
            arm(bufferDeadline, afterUsec: Acquisition.bufferDeadlineUsec)
        }
        if info.hasRawChannels, let sample = reader.read() { deliver(sample, at: monotonicSeconds(), report: true) }
    }

    /// Gives up on the buffered interface (until the sensor changes) and polls. A device
    /// without raw channels cannot be polled: its buffer is kept (tried again at the next
    /// start if it failed).
    private func pollInstead(_ why: String) {
        if info.subsystem == .iio, !info.hasRawChannels {
            Log.warning("\(why); \(info.syspath) has no raw channels to poll, only its buffer")
            return
        }
        Log.warning("\(why); polling the channels instead")
        buffered?.stop()
        buffered = nil
        silenceTimer.disarm()
        if case .every(let interval) = plan {
            reader.setSamplingInterval(msec: interval, polled: true)
            armSampleTimer(afterUsec: 0)
        } else {
            reader.prepareForPolling()
        }
    }

    /// One tick of the sampling timer: read, hand the reading on, and re-arm for the plan
    /// then in force (taking the reading may have changed or ended it).
    private func sample() {
        let now = monotonicSeconds()
        if let sample = reader.read() { deliver(sample, at: now) }
        if case .every(let interval) = plan, !(buffered?.isRunning ?? false) {
            armSampleTimer(afterUsec: UInt64(interval) * 1000)
        }
    }

    private func armSampleTimer(afterUsec usec: UInt64) {
        arm(sampleTimer, afterUsec: usec)
    }

    private func arm(_ timer: EventTimer, afterUsec usec: UInt64) {
        do {
            try timer.arm(afterUsec: usec)
        } catch {
            Log.error("cannot arm a timer: \(error)")
        }
    }
}
