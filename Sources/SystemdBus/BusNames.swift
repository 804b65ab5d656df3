/// A bus name with one of its objects and that object's interface: whom the daemon, the client
/// and the tests address. The interface is the bus name unless said otherwise.
public struct BusPeer: Sendable {
    /// The well-known bus name.
    public let name: String
    /// The object's path.
    public let path: String
    /// The interface of that object.
    public let interface: String

    public init(name: String, path: String, interface: String? = nil) {
        self.name = name
        self.path = path
        self.interface = interface ?? name
    }

    /// motion-orientationd's one object (docs/dbus-api.md).
    public static let motionOrientation = BusPeer(
        name: "io.github.MotionOrientation1", path: "/io/github/MotionOrientation1")
    /// iio-sensor-proxy's object, served in compatibility mode (`[Compatibility] SensorProxy=yes`).
    public static let sensorProxy = BusPeer(name: "net.hadess.SensorProxy", path: "/net/hadess/SensorProxy")
    /// iio-sensor-proxy's compass object, served with `sensorProxy`.
    public static let sensorProxyCompass = BusPeer(
        name: "net.hadess.SensorProxy", path: "/net/hadess/SensorProxy/Compass",
        interface: "net.hadess.SensorProxy.Compass")
    /// The message bus itself, sender of `NameOwnerChanged`.
    public static let messageBus = BusPeer(name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    /// sd-bus's local object, whose `Disconnected` signal is sent when the connection is lost.
    public static let local = BusPeer(
        name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus/Local", interface: "org.freedesktop.DBus.Local")

    /// The standard interface every object has: `Get`, `GetAll` and the `PropertiesChanged`
    /// signal.
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
}
