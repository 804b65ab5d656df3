/// What the bus shows of tablet mode: `TabletMode`, `TabletModeSource`, `HingeAngle`
/// (nil: unknown, shown as -1) and `HingeState`, by their bus words.
struct TabletModeShown: Equatable {
    var mode = false
    var source = "none"
    var angle: Double? = nil
    var hingeState = "unknown"
}
