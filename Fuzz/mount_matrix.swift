// libFuzzer target: ACCEL_MOUNT_MATRIX / mount_matrix text, MountMatrix(parsing:), as udev,
// sysfs and `[Sensor] MountMatrix=` give it. A parsed matrix must be finite, have no zero
// row nor parallel x and y rows, read back from its description (the daemon logs it that
// way), and turn a reading without trapping; MountMatrixResolution must fall through a bad text to the next source.
import OrientationCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMountMatrix(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(fuzzBytes(data, size))
    do {
        let matrix = try MountMatrix(parsing: text)
        let rows = [matrix.rows.0, matrix.rows.1, matrix.rows.2]
        for row in rows {
            fuzzCheck(row.x.isFinite && row.y.isFinite && row.z.isFinite, "entry not finite in \(matrix)")
            fuzzCheck(row.x != 0 || row.y != 0 || row.z != 0, "zero row in \(matrix)")
        }
        fuzzCheck(matrix.rows.0.cross(matrix.rows.1) != .zero, "parallel x and y rows in \(matrix)")
        let again = try? MountMatrix(parsing: matrix.description)
        fuzzCheck(again == matrix, "\"\(matrix.description)\" does not read back")
        _ = matrix.apply(Vector3(0, -9.80665, 0))
        _ = matrix.apply(Vector3(1e308, -1e308, 1e308))

        let resolved = MountMatrixResolution.resolve(
            override: nil, sources: [("udev", nil), ("sysfs mount_matrix", text)])
        // A singular matrix is used with one notice (it costs face-up and face-down).
        fuzzCheck(
            resolved.matrix == matrix && resolved.problems.count == (matrix.tellsFaceUpFromFaceDown ? 0 : 1),
            "resolution disagrees with parsing: \(resolved.problems)")
    } catch {
        _ = error.description
        let resolved = MountMatrixResolution.resolve(
            override: nil, sources: [("udev", text), ("sysfs mount_matrix", "0, 1, 0; 1, 0, 0; 0, 0, -1")])
        fuzzCheck(resolved.source == "sysfs mount_matrix", "a bad text did not fall through")
        fuzzCheck(resolved.problems.count == 1, "problems \(resolved.problems)")
    }
    return 0
}
