// libFuzzer target: buffered IIO scan descriptions (`scan_elements/in_*_type`, `in_*_index`)
// and scan decoding. Input: lines "name index type" (at most 8 channels), then a line "--",
// then the raw bytes of a buffer read. Checks IIOScanType's documented bounds, the layout's
// alignment and size rules, and decodes every channel of every whole scan in the buffer
// (an element past the end must give nil, never a read out of bounds).
import OrientationCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScanType(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // The description part ends at the first "\n--\n"; the rest is the buffer.
    var split = bytes.count
    if bytes.count >= 4 {
        for index in 0...(bytes.count - 4)
        where bytes[index] == 0x0A && bytes[index + 1] == 0x2D && bytes[index + 2] == 0x2D && bytes[index + 3] == 0x0A {
            split = index
            break
        }
    }
    let description = fuzzText(UnsafeRawBufferPointer(rebasing: bytes[0..<split]))
    let buffer = UnsafeRawBufferPointer(rebasing: bytes[min(split + 4, bytes.count)..<bytes.count])

    var channels: [IIOScanLayout.Channel] = []
    for line in description.split(separator: "\n").prefix(8) {
        let words = line.split(separator: " ", maxSplits: 2)
        // A single word is a type alone (scan_elements/in_accel_x_type's text).
        let typeText = String(words.count == 3 ? words[2] : line)
        let type: IIOScanType
        do {
            type = try IIOScanType(parsing: typeText)
        } catch {
            _ = error.description
            continue
        }
        check(type, typeText)
        for offset in [-1, 0, 1, buffer.count - type.storageBytes, buffer.count] {
            if let value = type.decode(buffer, at: offset) { checkValue(value, type) }
        }
        _ = type.decode(buffer, at: 0, element: type.repeatCount - 1)
        _ = type.decode(buffer, at: 0, element: type.repeatCount)
        if words.count == 3, let index = try? SysfsNumber.parseInteger(String(words[1])),
            let small = Int(exactly: index)
        {
            channels.append(.init(name: String(words[0]), index: small, type: type))
        }
    }
    guard !channels.isEmpty else { return 0 }
    let layout: IIOScanLayout
    do {
        layout = try IIOScanLayout(channels: channels)
    } catch {
        _ = error.description
        return 0
    }
    fuzzCheck(layout.scanSize > 0, "scan size \(layout.scanSize)")
    for (channel, offset) in zip(layout.channels, layout.offsets) {
        let length = channel.type.totalBytes
        fuzzCheck(offset >= 0 && offset + length <= layout.scanSize, "\(channel.name) at \(offset) outside the scan")
        fuzzCheck(offset % max(length, 1) == 0, "\(channel.name) at \(offset) not aligned to \(length)")
    }
    let (scans, leftover) = layout.scanCount(inBytes: buffer.count)
    fuzzCheck(scans * layout.scanSize + leftover == buffer.count, "scan count \(scans) + \(leftover)")
    for number in 0..<min(scans, 64) {
        guard let scan = layout.scan(number, in: buffer) else {
            fuzzCheck(false, "scan \(number) of \(scans) missing")
            return 0
        }
        for channel in layout.channels {
            if let value = layout.value(of: channel.name, in: scan) { checkValue(value, channel.type) }
        }
    }
    fuzzCheck(layout.scan(scans, in: buffer) == nil, "a scan past the end")
    fuzzCheck(layout.scan(-1, in: buffer) == nil, "scan -1")
    _ = layout.scan(Int.max, in: buffer)
    return 0
}

func check(_ type: IIOScanType, _ text: String) {
    fuzzCheck(type.storageBits % 8 == 0 && (8...64).contains(type.storageBits), "storage \(type.storageBits) for \(text)")
    fuzzCheck((1...type.storageBits).contains(type.realBits), "real bits \(type.realBits) for \(text)")
    fuzzCheck(type.shift >= 0 && type.shift + type.realBits <= type.storageBits, "shift \(type.shift) for \(text)")
    fuzzCheck(type.repeatCount >= 1, "repeat \(type.repeatCount) for \(text)")
}

/// A decoded value fits the type's significant bits.
func checkValue(_ value: Int64, _ type: IIOScanType) {
    guard type.realBits < 64 else { return }
    if type.isSigned {
        let limit = Int64(1) << (type.realBits - 1)
        fuzzCheck(value >= -limit && value < limit, "\(value) outside s\(type.realBits)")
    } else {
        fuzzCheck(value >= 0 && UInt64(value) < UInt64(1) << UInt64(type.realBits), "\(value) outside u\(type.realBits)")
    }
}
