/// A three-component vector of `Double`, used for accelerometer readings and gravity estimates.
///
/// Readings are in m/s^2 in the frame of docs/axes.md: x to the right edge, y to the top
/// edge, z out of the screen, and the vector points at the ground (gravity, not the specific force
/// "up" reading some APIs report).
public struct Vector3: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Component along the device's right edge.
    public var x: Double
    /// Component along the device's top edge.
    public var y: Double
    /// Component out of the screen, toward the viewer.
    public var z: Double

    /// Creates a vector from its three components.
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The zero vector.
    public static let zero = Vector3(0, 0, 0)

    /// Euclidean length. Infinite when a component is infinite or the squares overflow,
    /// NaN when a component is NaN.
    public var magnitude: Double {
        (x * x + y * y + z * z).squareRoot()
    }

    /// True when all three components are finite (neither NaN nor infinite).
    public var isFinite: Bool {
        x.isFinite && y.isFinite && z.isFinite
    }

    /// Scalar (dot) product.
    public func dot(_ other: Vector3) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// Vector (cross) product, right-handed.
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(
            y * other.z - z * other.y,
            z * other.x - x * other.z,
            x * other.y - y * other.x)
    }

    /// The angle between this vector and `other`, in degrees, in 0...180.
    ///
    /// Computed as atan2(|a x b|, a . b), which stays accurate for small and for nearly opposite
    /// angles. Zero when either vector is zero.
    public func angle(to other: Vector3) -> Double {
        CoreMath.atan2Degrees(cross(other).magnitude, dot(other))
    }

    /// Component-wise sum.
    public static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z)
    }

    /// Component-wise difference.
    public static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)
    }

    /// Scales every component by `factor`.
    public static func * (vector: Vector3, factor: Double) -> Vector3 {
        Vector3(vector.x * factor, vector.y * factor, vector.z * factor)
    }

    /// Scales every component by `factor`.
    public static func * (factor: Double, vector: Vector3) -> Vector3 {
        vector * factor
    }

    /// Negates every component.
    public static prefix func - (vector: Vector3) -> Vector3 {
        Vector3(-vector.x, -vector.y, -vector.z)
    }

    /// "(x, y, z)" with the shortest round-tripping decimal form of each component.
    public var description: String {
        "(\(x), \(y), \(z))"
    }
}
