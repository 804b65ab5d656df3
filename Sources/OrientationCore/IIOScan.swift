// The byte format of the kernel's buffered IIO interface (`/dev/iio:deviceN`), as described by
// the `scan_elements/in_*_type` and `in_*_index` attributes (Documentation/ABI/testing/sysfs-bus-iio):
// each scan holds the enabled channels in ascending scan index, each element aligned to its own
// size, the whole scan padded to a multiple of its largest element.

/// Why a scan element type, or a scan layout, is not usable.
public enum IIOScanTypeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The type text is empty (or only whitespace).
    case empty
    /// The text does not have the shape `le:s16/32>>0` (the text, trimmed and cut to 32 bytes).
    case malformed(String)
    /// The part before `:` is not `le` or `be` (what was found).
    case badEndianness(String)
    /// The letter after `:` is not `s` or `u` (what was found).
    case badSignedness(String)
    /// A number field (`"significant bits"`, `"storage bits"`, `"repeat count"` or `"shift"`) is
    /// missing, not decimal, or zero where zero makes no sense (the field, what was found).
    case badNumber(field: String, found: String)
    /// Storage bits that are not a whole number of bytes between 8 and 64.
    case unsupportedStorageBits(Int)
    /// More significant bits than storage bits.
    case realBitsExceedStorage(realBits: Int, storageBits: Int)
    /// The shift moves significant bits out of the storage: shift + realBits > storageBits.
    case shiftTooBig(shift: Int, realBits: Int, storageBits: Int)
    /// A layout without channels: the kernel refuses to enable such a buffer.
    case noChannels
    /// Two channels of a layout with the same scan index (the index, both names).
    case duplicateIndex(Int, String, String)
    /// Two channels of a layout with the same name.
    case duplicateName(String)
    /// A negative scan index (the channel name, the index); the kernel's are unsigned.
    case negativeIndex(String, Int)

    /// A one-line English explanation naming the part that is wrong.
    public var description: String {
        switch self {
        case .empty: "scan element type is empty"
        case .malformed(let text):
            "scan element type \"\(text)\" does not have the form [le|be]:[s|u]BITS/STORAGE[Xrepeat][>>shift]"
        case .badEndianness(let found): "scan element type endianness must be 'le' or 'be', found \"\(found)\""
        case .badSignedness(let found): "scan element type sign must be 's' or 'u', found \"\(found)\""
        case .badNumber(let field, let found):
            "scan element type \(field) must be a \(field == "shift" ? "" : "positive ")decimal number, "
                + "found \"\(found)\""
        case .unsupportedStorageBits(let bits):
            "scan element storage of \(bits) bits is not a whole number of bytes from 8 to 64"
        case .realBitsExceedStorage(let realBits, let storageBits):
            "scan element has \(realBits) significant bits but only \(storageBits) storage bits"
        case .shiftTooBig(let shift, let realBits, let storageBits):
            "scan element shift \(shift) plus \(realBits) significant bits exceeds \(storageBits) storage bits"
        case .noChannels: "scan layout has no enabled channels"
        case .duplicateIndex(let index, let first, let second):
            "scan channels \(first) and \(second) share the scan index \(index)"
        case .duplicateName(let name): "scan channel \(name) is listed twice"
        case .negativeIndex(let name, let index): "scan channel \(name) has a negative scan index \(index)"
        }
    }
}

/// The format of one element of a buffered IIO scan, from `scan_elements/in_<channel>_type`.
///
/// The kernel writes it as `[be|le]:[s|u]<realbits>/<storagebits>[X<repeat>]>><shift>`, e.g.
/// "le:s16/32>>0" (a 16-bit signed value in the low half of a little-endian 32-bit word) or
/// "be:s12/16>>4" (a 12-bit signed value in the top of a big-endian 16-bit word).
public struct IIOScanType: Equatable, Sendable {
    /// Byte order of the stored element.
    public enum Endianness: Sendable {
        /// Least significant byte first (`le`).
        case little
        /// Most significant byte first (`be`).
        case big
    }

    /// Byte order of the stored element.
    public var endianness: Endianness
    /// Whether the significant bits are two's complement (`s`) or unsigned (`u`).
    public var isSigned: Bool
    /// Significant bits of the value, 1 to `storageBits`.
    public var realBits: Int
    /// Bits the element occupies in the scan: a whole number of bytes, 8 to 64.
    public var storageBits: Int
    /// Bits to shift right before masking to `realBits` (the value's position in its storage).
    public var shift: Int
    /// How many elements of this type follow each other (`X<n>`); 1 unless given.
    public var repeatCount: Int

    /// Parses `in_accel_x_type` text: "le:s16/32>>0", "be:s12/16>>4", "le:u10/16>>6", with an
    /// optional repeat such as "le:s12/16X2>>4".
    ///
    /// Leading and trailing whitespace (and trailing NULs) are ignored. The shift may be left out
    /// (the ABI marks it optional; the kernel always writes it) and is then 0. Checks: the
    /// shape, `le`/`be`, `s`/`u`, each number (decimal, positive; the shift may be 0), the
    /// storage (a whole number of bytes, 8 to 64 bits, so that an element fits an Int64), that
    /// realBits <= storageBits and shift + realBits <= storageBits.
    public init(parsing text: String) throws(IIOScanTypeError) {
        let token = text.trimmingASCIIWhitespace()
        if token.isEmpty { throw .empty }
        let bytes = Array(token.utf8)
        let excerpt = NumberText.excerpt(token)

        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .malformed(excerpt) }
        let endianText = String(decoding: bytes[..<colon], as: UTF8.self)
        switch endianText {
        case "le": endianness = .little
        case "be": endianness = .big
        default: throw .badEndianness(NumberText.excerpt(endianText[...]))
        }

        var index = colon + 1
        guard index < bytes.count else { throw .badSignedness("") }
        switch bytes[index] {
        case UInt8(ascii: "s"): isSigned = true
        case UInt8(ascii: "u"): isSigned = false
        default: throw .badSignedness(String(decoding: bytes[index...index], as: UTF8.self))
        }
        index += 1

        /// Reads the decimal digits at `index` (at most 4, more is never a bit count).
        func number(_ field: String, allowZero: Bool = false) throws(IIOScanTypeError) -> Int {
            let start = index
            while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            var end = index
            while end < bytes.count && !Self.isFieldEnd(bytes[end]) { end += 1 }
            let found = String(decoding: bytes[start..<end], as: UTF8.self)
            guard index == end, index > start, index - start <= 4, let value = Int(found),
                allowZero || value > 0
            else {
                throw .badNumber(field: field, found: NumberText.excerpt(found[...]))
            }
            return value
        }

        realBits = try number("significant bits")
        guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { throw .malformed(excerpt) }
        index += 1
        storageBits = try number("storage bits")
        repeatCount = 1
        if index < bytes.count && bytes[index] == UInt8(ascii: "X") {
            index += 1
            repeatCount = try number("repeat count")
        }
        shift = 0
        if index < bytes.count {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: ">"), bytes[index + 1] == UInt8(ascii: ">")
            else { throw .malformed(excerpt) }
            index += 2
            shift = try number("shift", allowZero: true)
        }
        if index != bytes.count { throw .malformed(excerpt) }

        guard storageBits % 8 == 0, (8...64).contains(storageBits) else { throw .unsupportedStorageBits(storageBits) }
        guard realBits <= storageBits else {
            throw .realBitsExceedStorage(realBits: realBits, storageBits: storageBits)
        }
        guard shift + realBits <= storageBits else {
            throw .shiftTooBig(shift: shift, realBits: realBits, storageBits: storageBits)
        }
    }

    /// Creates a type from its parts, unchecked; `init(parsing:)` is the checked way.
    public init(
        endianness: Endianness, isSigned: Bool, realBits: Int, storageBits: Int, shift: Int = 0, repeatCount: Int = 1
    ) {
        self.endianness = endianness
        self.isSigned = isSigned
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Bytes one element occupies.
    public var storageBytes: Int { storageBits / 8 }

    /// Bytes the channel occupies in a scan: one element per repeat. The kernel also aligns
    /// the channel to this size.
    public var totalBytes: Int { storageBytes * repeatCount }

    /// Decodes one element at `offset` in `scan`: reads `storageBytes` bytes in the type's
    /// endianness, shifts right by `shift`, keeps the low `realBits` bits and sign-extends them
    /// when signed.
    ///
    /// nil when the element does not fit in `scan` (a short read), when the type is outside what
    /// `init(parsing:)` accepts, or for an unsigned 64-bit value beyond `Int64.max`.
    public func decode(_ scan: UnsafeRawBufferPointer, at offset: Int) -> Int64? {
        let size = storageBytes
        guard storageBits % 8 == 0, (1...8).contains(size), (1...storageBits).contains(realBits),
            shift >= 0, shift + realBits <= storageBits,
            offset >= 0, offset <= scan.count - size
        else { return nil }
        var word: UInt64 = 0
        for byte in 0..<size {
            let position = endianness == .little ? offset + size - 1 - byte : offset + byte
            word = word << 8 | UInt64(scan[position])
        }
        word >>= UInt64(shift)
        if realBits < 64 { word &= (1 << UInt64(realBits)) - 1 }
        if isSigned {
            // Move the sign bit to bit 63, then shift back arithmetically.
            let unused = UInt64(64 - realBits)
            return Int64(bitPattern: word << unused) >> unused
        }
        return word <= UInt64(Int64.max) ? Int64(word) : nil
    }

    /// Decodes element `element` (0-based, below `repeatCount`) of a repeated channel that starts
    /// at `offset`; nil as for `decode(_:at:)` or when `element` is out of range.
    public func decode(_ scan: UnsafeRawBufferPointer, at offset: Int, element: Int) -> Int64? {
        guard (0..<repeatCount).contains(element) else { return nil }
        return decode(scan, at: offset + element * storageBytes)
    }

    /// Whether `byte` ends a number field of the type text.
    private static func isFieldEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "X") || byte == UInt8(ascii: ">")
    }
}

/// Byte layout of one scan: enabled channels in ascending `index` order (from
/// `scan_elements/in_*_index`), each aligned to its size (`storageBytes` x `repeatCount`), the
/// scan size padded to a multiple of the largest channel's size: the kernel's rule
/// (`iio_compute_scan_bytes`). The timestamp is an ordinary channel here; its index is the
/// highest, so it comes last as in the kernel.
public struct IIOScanLayout: Equatable, Sendable {
    /// One enabled channel of the scan.
    public struct Channel: Equatable, Sendable {
        /// The channel's name as in its sysfs files, e.g. `accel_x`, `timestamp`.
        public var name: String
        /// Its scan index (`in_accel_x_index`), which orders the scan.
        public var index: Int
        /// Its element format (`in_accel_x_type`).
        public var type: IIOScanType

        /// Creates a channel description.
        public init(name: String, index: Int, type: IIOScanType) {
            self.name = name
            self.index = index
            self.type = type
        }
    }

    /// The enabled channels, sorted by scan index.
    public private(set) var channels: [Channel]
    /// Byte offset of each channel within a scan, in the order of `channels`.
    public private(set) var offsets: [Int]
    /// Bytes per scan: each read of the device node returns whole multiples of this.
    public private(set) var scanSize: Int

    /// Computes the layout of the enabled `channels` (in any order).
    ///
    /// Throws `noChannels` for an empty list, `duplicateIndex`, `duplicateName` or
    /// `negativeIndex` for inconsistent sysfs data. Channel sizes that are not powers of two
    /// (only possible with a repeat count like X3) are aligned by rounding up to a multiple of
    /// the size, as the kernel's demultiplexer does.
    public init(channels: [Channel]) throws(IIOScanTypeError) {
        guard !channels.isEmpty else { throw .noChannels }
        for channel in channels where channel.index < 0 { throw .negativeIndex(channel.name, channel.index) }
        let sorted = channels.sorted { $0.index < $1.index }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.index == next.index {
            throw .duplicateIndex(next.index, previous.name, next.name)
        }
        var names: Set<String> = []
        for channel in sorted where !names.insert(channel.name).inserted { throw .duplicateName(channel.name) }

        var offsets: [Int] = []
        var size = 0
        var largest = 1
        for channel in sorted {
            let length = max(channel.type.totalBytes, 1)
            size = Self.roundUp(size, to: length)
            offsets.append(size)
            size += length
            largest = max(largest, length)
        }
        self.channels = sorted
        self.offsets = offsets
        self.scanSize = Self.roundUp(size, to: largest)
    }

    /// Byte offset of the channel called `name` within a scan, or nil when it is not enabled.
    public func offset(of name: String) -> Int? {
        channels.firstIndex { $0.name == name }.map { offsets[$0] }
    }

    /// The channel called `name`, or nil when it is not enabled.
    public func channel(named name: String) -> Channel? {
        channels.first { $0.name == name }
    }

    /// The decoded value of channel `name` (its first element when repeated) in one scan; nil
    /// when the channel is not enabled or the scan is too short.
    public func value(of name: String, in scan: UnsafeRawBufferPointer) -> Int64? {
        guard let position = channels.firstIndex(where: { $0.name == name }) else { return nil }
        return channels[position].type.decode(scan, at: offsets[position])
    }

    /// How many whole scans `byteCount` bytes of a read hold, and the bytes left over (a
    /// partial scan, which the kernel never returns; a non-zero remainder means the layout does
    /// not match the device).
    public func scanCount(inBytes byteCount: Int) -> (scans: Int, leftover: Int) {
        guard byteCount > 0 else { return (0, 0) }
        return (byteCount / scanSize, byteCount % scanSize)
    }

    /// Scan number `number` (0-based) of a buffer holding consecutive scans, as its own
    /// zero-based buffer; nil when that scan is not wholly inside `buffer`.
    public func scan(_ number: Int, in buffer: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard number >= 0 else { return nil }
        let (start, overflow) = number.multipliedReportingOverflow(by: scanSize)
        guard !overflow, start <= buffer.count - scanSize else { return nil }
        return UnsafeRawBufferPointer(rebasing: buffer[start..<start + scanSize])
    }

    /// `value` rounded up to a multiple of `size` (`size` > 0).
    private static func roundUp(_ value: Int, to size: Int) -> Int {
        (value + size - 1) / size * size
    }
}
