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
        }
    }
}

/// The 3x3 matrix that turns raw sensor axes into the device frame of DESIGN.md section 3:
/// corrected = M * raw, with the rows as written in udev's `ACCEL_MOUNT_MATRIX` or the kernel's
/// `mount_matrix` attribute.
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
    /// (`wrongRowCount`, `wrongRowLength`), then rows of zeros (`allZeroRow`).
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
    }

    /// corrected = M * raw (each component of the result is one row dotted with `v`).
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(rows.0.dot(v), rows.1.dot(v), rows.2.dot(v))
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
