/// Mount matrix sources in precedence order, as the daemon reads them.
public enum MountMatrixResolution {
    /// The source name reported for `[Sensor] MountMatrix=`.
    public static let overrideSource = "[Sensor] MountMatrix="
    /// The source name reported when no source gives a matrix.
    public static let identitySource = "identity (no mount matrix given)"

    /// The mount matrix to use.
    ///
    /// `override` (`[Sensor] MountMatrix=`) wins, and the sources are then not looked at. Else
    /// the first of `sources` whose text parses, in the order given (the daemon passes the udev
    /// property `ACCEL_MOUNT_MATRIX`, then the sysfs attributes `mount_matrix`,
    /// `in_accel_mount_matrix`, `in_mount_matrix`); nil text means absent and is skipped
    /// silently, while present text that does not parse (including empty text) gives a problem
    /// naming the source and falls through. Else the identity.
    ///
    /// Returns the matrix, the name of the source used (`overrideSource`, a name from `sources`
    /// or `identitySource`) and the problems, one line each. A singular matrix is used (see
    /// `MountMatrix`), with a problem that says so: it costs face-up and face-down.
    public static func resolve(override: MountMatrix?, sources: [(source: String, text: String?)]) -> (
        matrix: MountMatrix, source: String, problems: [String]
    ) {
        if let override { return (override, overrideSource, singularNotice(override, from: overrideSource)) }
        var problems: [String] = []
        for (source, text) in sources {
            guard let text else { continue }
            do {
                let matrix = try MountMatrix(parsing: text)
                return (matrix, source, problems + singularNotice(matrix, from: source))
            } catch {
                problems.append("ignoring the mount matrix from \(source): \(error)")
            }
        }
        return (.identity, identitySource, problems)
    }

    /// The notice for a matrix that does not tell face-up from face-down; empty for any other.
    static func singularNotice(_ matrix: MountMatrix, from source: String) -> [String] {
        guard !matrix.tellsFaceUpFromFaceDown else { return [] }
        return [
            "the mount matrix from \(source) (\(matrix)) is singular (its z row repeats its x or y row): "
                + "rotation follows its x and y rows, face-up and face-down are unavailable"
        ]
    }
}
