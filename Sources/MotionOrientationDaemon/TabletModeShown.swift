import OrientationCore

/// What the bus shows of tablet mode: `TabletMode`, `TabletModeSource`, `HingeAngle`
/// (nil: unknown, shown as -1) and `HingeState`.
struct TabletModeShown: Equatable {
    var mode = false
    var source = TabletModeSource.none
    var angle: Double? = nil
    var hingeState = HingeState.unknown
}
