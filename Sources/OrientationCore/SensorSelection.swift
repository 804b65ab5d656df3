// Which accelerometer drives rotation: the decision of discovery, made from what the daemon
// read about each candidate (see also `MountMatrixResolution` and `ChannelCalibration`).

/// Where an accelerometer sits in a device: in the display (it turns with the screen) or in the
/// base of a 2-in-1 (it does not, so it must never drive rotation).
public enum AccelerometerLocation: String, Sendable {
    /// In the display (or lid): the one that tells the screen's orientation.
    case display
    /// In the base (keyboard half) of a convertible.
    case base
}

/// The kernel interface an accelerometer is read through.
public enum SensorSubsystem: String, Sendable {
    /// An IIO device (`/sys/bus/iio`): the usual kind, and always preferred.
    case iio
    /// An input device with `ID_INPUT_ACCELEROMETER=1` (evdev `ABS_X/Y/Z`), as some older
    /// tablets and laptops have: a fallback, used only when no IIO accelerometer qualifies.
    case input
}

/// What discovery found out about one accelerometer. Text fields are as read (the
/// selection trims whitespace itself); nil means the attribute or property is absent.
public struct AccelerometerCandidate: Equatable, Sendable {
    /// The device's sysfs path, e.g. `/sys/devices/platform/.../iio:device0` or, for an input
    /// accelerometer, its event device `/sys/devices/.../input/input5/event5`.
    public var syspath: String
    /// Whether it is an IIO or an input-subsystem accelerometer.
    public var subsystem: SensorSubsystem
    /// The sysfs `name` attribute (the driver's name, e.g. `accel_3d`, `bmc150_accel`).
    public var name: String?
    /// The sysfs `label` attribute (standardized: `accel-display`, `accel-base`).
    public var label: String?
    /// The udev property `ACCEL_LOCATION` (systemd's hwdb: `display` or `base`).
    public var udevLocation: String?
    /// The sysfs `location` attribute (ChromeOS EC sensors: `lid` or `base`).
    public var sysfsLocation: String?

    /// Creates a candidate from what discovery read.
    public init(
        syspath: String, subsystem: SensorSubsystem = .iio, name: String? = nil, label: String? = nil,
        udevLocation: String? = nil, sysfsLocation: String? = nil
    ) {
        self.syspath = syspath
        self.subsystem = subsystem
        self.name = name
        self.label = label
        self.udevLocation = udevLocation
        self.sysfsLocation = sysfsLocation
    }

    /// "name (syspath)", or the syspath alone for a sensor without a name, for messages.
    public var displayName: String {
        if let name = SensorSelection.present(name) { return "\(name) (\(syspath))" }
        return syspath
    }
}

/// `[Sensor] Device=`: pins the sensor that drives rotation, by IIO name, sysfs path or label.
public enum SensorPin: Equatable, Sendable, CustomStringConvertible {
    /// The sysfs `name` attribute must equal this.
    case name(String)
    /// The device's sysfs path must equal this (see `matches(_:)`).
    case path(String)
    /// The sysfs `label` attribute must equal this.
    case label(String)

    /// Reads a `Device=` value:
    /// - "/sys/..." is a sysfs path;
    /// - "label:xyz" is a label, "name:xyz" an IIO name, "path:/sys/..." a path;
    /// - a bare word is an IIO name, except the kernel's standardized accelerometer labels
    ///   "accel-display" and "accel-base", which are labels (no driver is called that, and
    ///   writing the label alone is what people do);
    /// - nil for an empty value, an empty name or label, a path outside /sys/, or text with
    ///   whitespace or control characters inside.
    ///
    /// Matching is exact and case-sensitive, as sysfs is.
    public init?(configValue: String) {
        let text = String(configValue.trimmingASCIIWhitespace())
        guard !text.isEmpty, !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        if let rest = Self.dropPrefix("label:", text) {
            guard !rest.isEmpty else { return nil }
            self = .label(rest)
        } else if let rest = Self.dropPrefix("name:", text) {
            guard !rest.isEmpty else { return nil }
            self = .name(rest)
        } else if let rest = Self.dropPrefix("path:", text) {
            guard Self.dropPrefix("/sys/", rest).map({ !$0.isEmpty }) == true else { return nil }
            self = .path(rest)
        } else if text.hasPrefix("/") {
            guard Self.dropPrefix("/sys/", text).map({ !$0.isEmpty }) == true else { return nil }
            self = .path(text)
        } else if text == "accel-display" || text == "accel-base" {
            self = .label(text)
        } else {
            self = .name(text)
        }
    }

    /// Whether `candidate` is the pinned sensor.
    ///
    /// A path matches the syspath exactly (trailing slashes ignored); a path under
    /// `/sys/bus/iio/devices/`, `/sys/class/iio/` or `/sys/class/input/` (a symlink to the real
    /// device directory, which pure logic cannot resolve) matches the device whose syspath ends
    /// in the same component (`iio:deviceN`, `eventN`).
    public func matches(_ candidate: AccelerometerCandidate) -> Bool {
        switch self {
        case .name(let name): return SensorSelection.present(candidate.name) == name
        case .label(let label): return SensorSelection.present(candidate.label) == label
        case .path(let path):
            let wanted = Self.withoutTrailingSlashes(path)
            let have = Self.withoutTrailingSlashes(candidate.syspath)
            if wanted == have { return true }
            for alias in ["/sys/bus/iio/devices/", "/sys/class/iio/", "/sys/class/input/"] {
                if let node = Self.dropPrefix(alias, wanted), !node.isEmpty, !node.contains("/") {
                    return have.hasSuffix("/" + node)
                }
            }
            return false
        }
    }

    /// The pin as it would be written in the configuration, e.g. "label:accel-display".
    public var description: String {
        switch self {
        case .name(let name): "name:\(name)"
        case .path(let path): path
        case .label(let label): "label:\(label)"
        }
    }

    private static func dropPrefix(_ prefix: String, _ text: String) -> String? {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}

/// Which accelerometer drives rotation.
public enum SensorSelection {
    /// The location of `candidate`, by precedence:
    /// 1. the udev property `ACCEL_LOCATION` (`display` or `base`, systemd's hwdb),
    /// 2. the sysfs `label` (`accel-display` or `accel-base`, the kernel's standardized labels),
    /// 3. the sysfs `location` attribute (the kernel ABI's values are `lid` and `base`; `lid`
    ///    means display, and `display` is accepted too),
    /// 4. else the display: a lone accelerometer without any hint is the screen's.
    ///
    /// Words are compared without surrounding whitespace and without regard to case. An unknown
    /// word at a level falls through to the next, noted in the reason, e.g.
    /// "label accel-base (ignored: udev property ACCEL_LOCATION=lid is not display or base)".
    /// A label that is not one of the two location labels is not noted: labels are free-form
    /// (but see `otherLabel(of:)`).
    public static func location(of candidate: AccelerometerCandidate) -> (
        location: AccelerometerLocation, reason: String
    ) {
        var ignored: [String] = []
        func reason(_ text: String) -> String {
            ignored.isEmpty ? text : text + " (ignored: " + ignored.joined(separator: "; ") + ")"
        }

        if let value = present(candidate.udevLocation) {
            if let location = udevLocationWords[value.lowercased()] {
                return (location, reason("udev property ACCEL_LOCATION=\(value)"))
            }
            ignored.append("udev property ACCEL_LOCATION=\(value) is not display or base")
        }
        if let value = present(candidate.label), let location = locationLabels[value.lowercased()] {
            return (location, reason("label \(value)"))
        }
        if let value = present(candidate.sysfsLocation) {
            if let location = locationAttributeWords[value.lowercased()] {
                return (location, reason("location attribute \(value)"))
            }
            ignored.append("location attribute \(value) is not lid or base")
        }
        return (.display, reason("no ACCEL_LOCATION, location label or location attribute, taken as the display's"))
    }

    /// The words of the udev property `ACCEL_LOCATION` (systemd's hwdb), lower case.
    static let udevLocationWords: [String: AccelerometerLocation] = ["display": .display, "base": .base]
    /// The kernel's standardized location labels, lower case.
    static let locationLabels: [String: AccelerometerLocation] = ["accel-display": .display, "accel-base": .base]
    /// The words of the sysfs `location` attribute (the kernel ABI's `lid` and `base`; `display`
    /// is accepted too), lower case.
    static let locationAttributeWords: [String: AccelerometerLocation] = [
        "lid": .display, "display": .display, "base": .base,
    ]

    /// The label of a sensor that is labelled as something else than the display or the base
    /// (the kernel labels the camera module's sensor of some Chromebooks `accel-camera`) and
    /// that no udev property or location attribute places; nil for any other sensor. Such a
    /// sensor counts as a display sensor only when there is no other: it may not turn with the
    /// screen, and never drives rotation ahead of a display sensor.
    public static func otherLabel(of candidate: AccelerometerCandidate) -> String? {
        guard let label = present(candidate.label), locationLabels[label.lowercased()] == nil else { return nil }
        if let value = present(candidate.udevLocation), udevLocationWords[value.lowercased()] != nil { return nil }
        if let value = present(candidate.sysfsLocation), locationAttributeWords[value.lowercased()] != nil {
            return nil
        }
        return label
    }

    /// The sensor that drives rotation, as an index into `candidates` (in discovery order).
    ///
    /// - With a pin that matches: the first matching candidate, even a base sensor (the user
    ///   asked for it; the reason says so).
    /// - Else the first display sensor, IIO sensors before input-subsystem ones (those are a
    ///   fallback), and sensors with another label (`otherLabel(of:)`) after all of them; base
    ///   sensors never drive rotation otherwise. A pin that matches nothing is
    ///   named in the reason, with the automatic choice that replaces it.
    /// - nil when nothing qualifies, with the reason: no accelerometer at all, or only base
    ///   ones (named, with why each counts as base).
    public static func choose(_ candidates: [AccelerometerCandidate], pin: SensorPin?) -> (
        index: Int?, reason: String
    ) {
        var prefix = ""
        if let pin {
            if let index = candidates.firstIndex(where: { pin.matches($0) }) {
                let candidate = candidates[index]
                let (location, why) = location(of: candidate)
                var text = "\(candidate.displayName), pinned by [Sensor] Device=\(pin)"
                if location == .base {
                    text += "; it is a base accelerometer (\(why)), used because the configuration asks for it"
                }
                return (index, text)
            }
            let known = candidates.isEmpty ? "none found" : candidates.map(\.displayName).joined(separator: ", ")
            prefix = "[Sensor] Device=\(pin) matches no accelerometer (\(known)); "
        }

        var bases: [String] = []
        let others = candidates.indices.filter { otherLabel(of: candidates[$0]) != nil }
        let placed = candidates.indices.filter { !others.contains($0) }
        let order =
            placed.filter { candidates[$0].subsystem == .iio } + placed.filter { candidates[$0].subsystem != .iio }
            + others.filter { candidates[$0].subsystem == .iio } + others.filter { candidates[$0].subsystem != .iio }
        for index in order {
            let candidate = candidates[index]
            let (location, why) = location(of: candidate)
            if location == .display {
                var text = prefix + "\(candidate.displayName), the display accelerometer (\(why))"
                if let label = otherLabel(of: candidate) {
                    text +=
                        "; labelled \(label), not accel-display: used because no other display accelerometer was found"
                } else if !others.isEmpty {
                    let names = others.compactMap { other in
                        otherLabel(of: candidates[other]).map { "\(candidates[other].displayName), label \($0)" }
                    }
                    text += "; not a display accelerometer: " + names.joined(separator: ", ")
                }
                if candidate.subsystem == .input {
                    text += "; an input-subsystem accelerometer, used because no IIO accelerometer qualifies"
                }
                if !bases.isEmpty { text += "; base accelerometer ignored: " + bases.joined(separator: ", ") }
                return (index, text)
            }
            bases.append("\(candidate.displayName): \(why)")
        }
        if candidates.isEmpty { return (nil, prefix + "no accelerometer was found") }
        let list = bases.joined(separator: "; ")
        let what =
            bases.count == 1
            ? "only a base accelerometer (\(list)) was found" : "only base accelerometers (\(list)) were found"
        return (nil, prefix + what + "; a base accelerometer does not turn with the screen")
    }

    /// The base accelerometer that pairs with the display sensor `display` for the hinge
    /// angle, as an index into `candidates`: the first sensor placed in the base by the
    /// rules of `location(of:)`, IIO sensors before input-subsystem ones, never the display
    /// sensor itself (a pinned base sensor drives rotation, so there is no pair); nil
    /// without a display sensor or without a base sensor, with the reason.
    public static func base(_ candidates: [AccelerometerCandidate], display: Int?) -> (index: Int?, reason: String) {
        guard let display else { return (nil, "no display accelerometer to pair a base accelerometer with") }
        let order =
            candidates.indices.filter { candidates[$0].subsystem == .iio }
            + candidates.indices.filter { candidates[$0].subsystem != .iio }
        for index in order where index != display {
            let (location, why) = location(of: candidates[index])
            if location == .base { return (index, "\(candidates[index].displayName), the base accelerometer (\(why))") }
        }
        return (nil, "no base accelerometer")
    }

    /// `text` without surrounding whitespace, or nil when that leaves nothing.
    static func present(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
