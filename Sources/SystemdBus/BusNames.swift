/// motion-orientationd's names on the system bus (docs/dbus-api.md).
public enum MotionOrientationBus {
    /// The well-known bus name the daemon owns.
    public static let name = "io.github.MotionOrientation1"
    /// The daemon's one object.
    public static let path = "/io/github/MotionOrientation1"
    /// The interface of that object.
    public static let interface = "io.github.MotionOrientation1"
}

/// iio-sensor-proxy's names, served in compatibility mode (`[Compatibility] SensorProxy=yes`).
public enum SensorProxyBus {
    public static let name = "net.hadess.SensorProxy"
    public static let path = "/net/hadess/SensorProxy"
    public static let interface = "net.hadess.SensorProxy"
    public static let compassPath = "/net/hadess/SensorProxy/Compass"
    public static let compassInterface = "net.hadess.SensorProxy.Compass"
}

/// The message bus's own names, and the standard interfaces every object has.
public enum FreedesktopBus {
    /// The bus itself, sender of `NameOwnerChanged`.
    public static let name = "org.freedesktop.DBus"
    public static let path = "/org/freedesktop/DBus"
    public static let interface = "org.freedesktop.DBus"
    /// `Get`, `GetAll` and the `PropertiesChanged` signal.
    public static let properties = "org.freedesktop.DBus.Properties"
    /// sd-bus's local `Disconnected` signal, sent when the connection is lost.
    public static let localPath = "/org/freedesktop/DBus/Local"
    public static let localInterface = "org.freedesktop.DBus.Local"
}
