// The follower of the daemon's state that the command-line client and the library share.
import CSystemd
import ErrorsAndLog
import Glibc
import SystemdBus

/// Follows motion-orientationd on one connection attached to an sd-event loop: it hears the
/// daemon's `PropertiesChanged`, holds a claim while one is wanted (`want(claim:)`), and when
/// the daemon comes back after a restart reads its state and claims again (`ClaimPlan`).
/// Everything runs on the loop's thread.
///
/// Its state starts unknown and follows what the daemon says; each signal or reply that
/// speaks of the state goes to `onNews`.
public final class OrientationFollower {
    public let connection: DaemonConnection
    /// The daemon's state as last heard.
    public private(set) var state = OrientationState()
    private var plan = ClaimPlan()
    /// Counts the read-and-claim sequences: one is given up when the daemon leaves, the claim
    /// is no longer wanted or a newer sequence starts.
    private var sequence = 0
    private var slots: [OpaquePointer] = []
    /// How long each call of a read-and-claim may take.
    public var callTimeoutUsec = Bus.callTimeoutUsec

    /// Each signal or reply that spoke of the state, with the state before and after it.
    public var onNews: (OrientationNews) -> Void = { _ in }
    /// A read-and-claim ended: nil when the claim was made, else the first call that failed
    /// (after a failure the next calls are still made, unless the daemon is not on the bus).
    public var onClaim: (DaemonCallFailure?) -> Void = { _ in }
    /// The daemon left the bus; the follower claims again once it is back.
    public var onDaemonLeft: () -> Void = {}
    /// The connection to the bus was lost: the follower has no more to tell.
    public var onDisconnected: () -> Void = {}

    /// Attaches the connection to `event` and subscribes to the daemon's `PropertiesChanged`
    /// (not the two change signals: it names both orientations when both change, so whoever
    /// hears one change sees the other's new value too), to its bus name and to the loss of
    /// the connection.
    public init(connection: DaemonConnection, event: OpaquePointer) throws(SystemError) {
        self.connection = connection
        let bus = connection.bus
        let r = sd_bus_attach_event(bus, event, 0)
        guard r >= 0 else { throw SystemError("attaching the bus to the event loop", errno: r) }
        // On a failure here deinit lets go of the matches made so far and detaches the bus.
        slots.append(
            try Bus.matchPropertiesChanged(bus, .motionOrientation) { [unowned self] in self.changed($0) })
        slots.append(
            try Bus.matchNameOwnerChanged(bus, name: BusPeer.motionOrientation.name) { [unowned self] in
                self.ownerChanged(present: !$0.newOwner.isEmpty)
            })
        slots.append(try Bus.matchDisconnected(bus) { [unowned self] in self.onDisconnected() })
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        // Fails only for a bus that is not attached: nothing to detach then.
        _ = sd_bus_detach_event(connection.bus)
    }

    /// Holds a claim (reading the state first) or lets it go; repeating the wish changes nothing.
    public func want(claim: Bool) { perform(plan.want(claim)) }

    private func perform(_ step: ClaimPlan.Step?) {
        guard let step else { return }
        sequence += 1
        switch step {
        case .readAndClaim: readAndClaim(sequence)
        // The reply says nothing a client could act on: a daemon that is gone has no claim.
        case .release: connection.callAsync(.stop) { _ in }
        }
    }

    /// `GetAll` (tablet mode and the hinge), `ReadOrientation()` (fresh orientations, before
    /// the claim), then `Start()`, each once the previous has answered.
    private func readAndClaim(_ current: Int) {
        var failure: DaemonCallFailure? = nil
        /// Whether the sequence goes on after a reply.
        func goesOn(_ follower: OrientationFollower?, _ error: DaemonCallFailure?) -> OrientationFollower? {
            guard let follower, current == follower.sequence else { return nil }
            failure = failure ?? error
            guard error?.daemonAbsent == true else { return follower }
            follower.onClaim(failure)
            return nil
        }
        connection.allPropertiesAsync(timeoutUsec: callTimeoutUsec) { [weak self] result in
            guard let self = goesOn(self, result.failure) else { return }
            if case .success(let all) = result { self.adopt(self.state.takingTabletMode(fromAll: all)) }
            self.connection.callAsync(.readOrientation, timeoutUsec: self.callTimeoutUsec) { [weak self] result in
                let read = result.flatMap(DaemonConnection.orientations(in:))
                guard let self = goesOn(self, read.failure) else { return }
                if case .success(let names) = read {
                    self.adopt(self.state.taking(device: names.device, interface: names.interface))
                }
                self.connection.callAsync(.start, timeoutUsec: self.callTimeoutUsec) { [weak self] result in
                    guard let self = goesOn(self, result.failure) else { return }
                    self.onClaim(failure)
                }
            }
        }
    }

    private func adopt(_ news: OrientationNews) {
        state = news.state
        onNews(news)
    }

    /// A `PropertiesChanged` of the daemon's interface. A malformed one changes nothing: the
    /// next good one brings the state.
    private func changed(_ message: OpaquePointer) {
        guard let changes = try? PropertyValue.readChanges(message) else { return }
        adopt(state.taking(changes))
    }

    private func ownerChanged(present: Bool) {
        // The answers of a daemon that left are no news.
        sequence += 1
        if !present { onDaemonLeft() }
        perform(plan.ownerChanged(present: present))
    }
}

extension Result {
    /// The error, if this is a failure.
    public var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
