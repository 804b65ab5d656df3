import CSystemd
import ErrorsAndLog
import SystemdBus

/// Who holds a claim on sampling (`Start()`, `ClaimAccelerometer()`), and the calls
/// waiting for a decision (`ReadOrientation()`, and `ClaimAccelerometer()` as
/// iio-sensor-proxy answers it once the orientation is known), with the bounded wait that
/// answers them when no decision comes in time.
final class Claims {
    /// How long a waiting call waits for a fresh decision before it is answered with what
    /// there is, in microseconds.
    static let waitUsec: UInt64 = 1_000_000

    /// Unique bus names of the clients holding a claim: a second claim from the same client
    /// changes nothing.
    private(set) var claimants: Set<String> = []
    private var pendingReads: [OpaquePointer] = []
    private var pendingClaims: [OpaquePointer] = []
    private var watch: OpaquePointer?
    private var timeout: EventTimer?
    /// The claims or the waiting calls changed: the sampling plan follows.
    var onChange: () -> Void = {}
    /// The wait ended without a decision.
    var onTimeout: () -> Void = {}

    init() {}

    deinit {
        for call in pendingReads + pendingClaims { sd_bus_message_unref(call) }
        sd_bus_slot_unref(watch)
    }

    /// Claims end when their client leaves the bus: one watch for everyone (a match per
    /// client would run into the bus's limit on match rules per connection).
    func start(bus: OpaquePointer, event: OpaquePointer) throws(SystemError) {
        timeout = EventTimer(event: event) { [unowned self] in
            Log.debug(
                "ReadOrientation/ClaimAccelerometer timed out before a decision; answering with the last known orientation"
            )
            self.onTimeout()
        }
        watch = try Bus.matchNameOwnerChanged(bus) { [unowned self] change in
            guard change.name.utf8.first == UInt8(ascii: ":"), change.newOwner.isEmpty,
                self.claimants.remove(change.name) != nil
            else { return }
            Log.debug("claim of \(change.name) ended: it left the bus")
            self.onChange()
        }
    }

    var readsWaiting: Int { pendingReads.count }
    var anyWaiting: Bool { !pendingReads.isEmpty || !pendingClaims.isEmpty }

    /// Claims sampling for the caller of `call`.
    func add(from call: OpaquePointer) {
        let caller = Claims.sender(of: call)
        if claimants.insert(caller).inserted { Log.debug("claim from \(caller)") }
    }

    /// Releases the caller's claim; releasing a claim one does not hold is not an error.
    func remove(from call: OpaquePointer) {
        let caller = Claims.sender(of: call)
        if claimants.remove(caller) != nil { Log.debug("claim released by \(caller)") }
    }

    /// Keeps `call` to answer at the next decision (or the timeout).
    func waitForDecision(_ call: OpaquePointer, claim: Bool) {
        if claim {
            pendingClaims.append(sd_bus_message_ref(call))
        } else {
            pendingReads.append(sd_bus_message_ref(call))
        }
    }

    func armTimeout() {
        guard let timeout, !timeout.isArmed else { return }
        do {
            try timeout.arm(afterUsec: Claims.waitUsec)
        } catch {
            Log.error("cannot arm a timer: \(error)")
        }
    }

    /// Answers the waiting `ReadOrientation()` calls with `orientations` (device,
    /// interface) and the waiting `ClaimAccelerometer()` calls.
    func answerWaiting(with orientations: [String]) {
        let calls = pendingReads
        pendingReads = []
        for call in calls {
            let r = Bus.reply(to: call, strings: orientations)
            if r < 0 { Log.warning("answering ReadOrientation: \(SystemError("sd_bus_send", errno: r))") }
            sd_bus_message_unref(call)
        }
        let claims = pendingClaims
        pendingClaims = []
        for call in claims {
            let r = Bus.reply(to: call)
            if r < 0 { Log.warning("answering ClaimAccelerometer: \(SystemError("sd_bus_send", errno: r))") }
            sd_bus_message_unref(call)
        }
        timeout?.disarm()
    }

    static func sender(of call: OpaquePointer) -> String {
        sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
    }
}
