/// Why a mount matrix text could not be parsed.
public enum MountMatrixError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not exactly nine numbers (the count found; 0 for empty text).
    case wrongCount(found: Int)
    /// Nine numbers, but not three rows of three separated by `;` (the number of rows found).
    case wrongRowCount(found: Int)
    /// A row without exactly three numbers (0-based row index, numbers found).
    case wrongRowLength(row: Int, found: Int)
    /// A token that is not a decimal number (the token, trimmed and cut to 32 bytes).
    case notANumber(String)
    /// A row of zeros (0-based row index): such a matrix would erase an axis.
    case allZeroRow(Int)
    /// A "nan"/"inf" token or a number too large for a Double.
    case notFinite
    /// The x and y rows point the same way (or opposite ways): no upright orientation could be
    /// told from such a matrix.
    case parallelUprightRows

    /// A one-line English explanation; row numbers are 1-based here.
    public var description: String {
        switch self {
        case .wrongCount(let found): "mount matrix needs 9 numbers, found \(found)"
        case .wrongRowCount(let found): "mount matrix needs 3 rows separated by ';', found \(found)"
        case .wrongRowLength(let row, let found):
            "mount matrix row \(row + 1) needs 3 numbers, found \(found)"
        case .notANumber(let token): "mount matrix entry is not a number: \"\(token)\""
        case .allZeroRow(let row): "mount matrix row \(row + 1) is all zeros"
        case .notFinite: "mount matrix entry is not finite"
        case .parallelUprightRows: "mount matrix rows 1 and 2 (x and y) are parallel"
        }
    }
}

/// The 3x3 matrix that turns raw sensor axes into the device frame of docs/axes.md:
/// corrected = M * raw, with the rows as written in udev's `ACCEL_MOUNT_MATRIX` or the kernel's
/// `mount_matrix` attribute.
///
/// A singular matrix whose z row repeats (or follows from) the x and y rows, as two entries of
/// systemd's hwdb have (the Bush Windows tablet and the Hometech Wi101 repeat a row), is read
/// for what it can tell: its x and y rows give the in-plane reading, as iio-sensor-proxy relies
/// on them, and `apply` makes up the z component from the part of the reading that lies
/// outside the screen plane, whose size is known but not its sign. Such a matrix tells how far
/// the device leans back but not whether the screen faces up or down (`tellsFaceUpFromFaceDown`
/// is false).
public struct MountMatrix: Equatable, Sendable, CustomStringConvertible {
    /// The three rows, in the order written.
    public var rows: (Vector3, Vector3, Vector3)

    /// The identity matrix: raw axes already are device axes.
    public static let identity = MountMatrix(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// Creates a matrix from its rows.
    public init(_ row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        rows = (row0, row1, row2)
    }

    /// Parses udev `ACCEL_MOUNT_MATRIX` / sysfs `mount_matrix` text:
    /// "x1, y1, z1; x2, y2, z2; x3, y3, z3".
    ///
    /// Whitespace around numbers and separators is ignored (so the kernel's
    /// "1, 0, 0; 0, 1, 0; 0, 0, 1\n" works), numbers are locale-independent decimals (`.` only,
    /// optional sign and exponent). Checks, in this order: empty text (`wrongCount(found: 0)`),
    /// each token (`notANumber`, `notFinite`), the count (`wrongCount`), the shape
    /// (`wrongRowCount`, `wrongRowLength`), then rows of zeros (`allZeroRow`), then x and y rows
    /// that are parallel (`parallelUprightRows`).
    public init(parsing text: String) throws(MountMatrixError) {
        if text.trimmingASCIIWhitespace().isEmpty { throw .wrongCount(found: 0) }
        var values: [[Double]] = []
        for rowText in text.split(separator: ";", omittingEmptySubsequences: false) {
            var row: [Double] = []
            for field in rowText.split(separator: ",", omittingEmptySubsequences: false) {
                let token = field.trimmingASCIIWhitespace()
                switch NumberText.decimal(token) {
                case .value(let value): row.append(value)
                case .notFinite, .nonFiniteWord: throw .notFinite
                case .malformed: throw .notANumber(NumberText.excerpt(token))
                }
            }
            values.append(row)
        }
        let count = values.reduce(0) { $0 + $1.count }
        if count != 9 { throw .wrongCount(found: count) }
        if values.count != 3 { throw .wrongRowCount(found: values.count) }
        for (index, row) in values.enumerated() where row.count != 3 {
            throw .wrongRowLength(row: index, found: row.count)
        }
        for (index, row) in values.enumerated() where row.allSatisfy({ $0 == 0 }) {
            throw .allZeroRow(index)
        }
        self.init(
            Vector3(values[0][0], values[0][1], values[0][2]),
            Vector3(values[1][0], values[1][1], values[1][2]),
            Vector3(values[2][0], values[2][1], values[2][2]))
        if Self.areParallel(rows.0, rows.1) { throw .parallelUprightRows }
    }

    /// corrected = M * raw (each component of the result is one row dotted with `v`).
    ///
    /// For a matrix that does not `tellsFaceUpFromFaceDown`, the z component is instead the
    /// size of `v` along the normal of the x and y rows, negated (as if the screen faced up),
    /// in the scale of those rows: a device leaning back by 30 degrees reads 30 degrees of tilt
    /// whichever way its screen faces, and a device lying flat reads as lying flat.
    public func apply(_ v: Vector3) -> Vector3 {
        let x = rows.0.dot(v)
        let y = rows.1.dot(v)
        guard !tellsFaceUpFromFaceDown else { return Vector3(x, y, rows.2.dot(v)) }
        let normal = rows.0.cross(rows.1)
        let length = normal.magnitude
        guard length > 0 else { return Vector3(x, y, 0) }
        let scale = (rows.0.magnitude + rows.1.magnitude) / 2 / length
        return Vector3(x, y, -abs(normal.dot(v)) * scale)
    }

    /// Whether the z row is independent of the x and y rows (the determinant is not 0), so that
    /// the reading tells face-up from face-down. False for the singular matrices some hwdb
    /// entries have, which repeat the x or the y row as the z row.
    public var tellsFaceUpFromFaceDown: Bool {
        let volume = abs(rows.0.dot(rows.1.cross(rows.2)))
        return volume > Self.dependence * rows.0.magnitude * rows.1.magnitude * rows.2.magnitude
    }

    /// Relative size under which rows count as dependent: far below any real matrix's entries
    /// (hwdb matrices are 0 and 1, kernel ones have a few decimals) and far above rounding.
    static let dependence = 1e-6

    /// Whether `a` and `b` are parallel or antiparallel (or one of them is zero).
    static func areParallel(_ a: Vector3, _ b: Vector3) -> Bool {
        a.cross(b).magnitude <= dependence * a.magnitude * b.magnitude
    }

    /// Two matrices are equal when all nine entries are equal.
    public static func == (lhs: MountMatrix, rhs: MountMatrix) -> Bool {
        lhs.rows == rhs.rows
    }

    /// The udev form, "x1, y1, z1; x2, y2, z2; x3, y3, z3", which `init(parsing:)` reads back.
    public var description: String {
        [rows.0, rows.1, rows.2].map { "\($0.x), \($0.y), \($0.z)" }.joined(separator: "; ")
    }
}
