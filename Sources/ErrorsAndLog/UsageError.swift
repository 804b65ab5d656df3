/// A command line that cannot be run: the daemon's and the client's (each prints it in one
/// line and exits with status 2).
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
