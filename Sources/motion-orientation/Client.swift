/// A failure the client reports in one line before exiting non-zero.
struct ClientError: Error, CustomStringConvertible {
    var description: String
    /// The daemon did not answer within the call's timeout.
    var timedOut = false
    init(_ description: String, timedOut: Bool = false) {
        self.description = description
        self.timedOut = timedOut
    }
}
