import OrientationCore
import Testing

/// Decodes with a byte array as the scan.
private func decode(_ type: IIOScanType, _ bytes: [UInt8], at offset: Int = 0) -> Int64? {
    bytes.withUnsafeBytes { type.decode($0, at: offset) }
}

private func parsed(_ text: String) throws -> IIOScanType {
    try IIOScanType(parsing: text)
}

@Suite struct IIOScanTypeParsingTests {
    @Test func readsTheKernelsForms() throws {
        #expect(
            try parsed("le:s16/32>>0")
                == IIOScanType(endianness: .little, isSigned: true, realBits: 16, storageBits: 32, shift: 0))
        #expect(
            try parsed("be:s12/16>>4")
                == IIOScanType(endianness: .big, isSigned: true, realBits: 12, storageBits: 16, shift: 4))
        #expect(
            try parsed("le:u10/16>>6")
                == IIOScanType(endianness: .little, isSigned: false, realBits: 10, storageBits: 16, shift: 6))
        #expect(
            try parsed("le:u8/8>>0")
                == IIOScanType(endianness: .little, isSigned: false, realBits: 8, storageBits: 8, shift: 0))
        #expect(
            try parsed("le:s64/64>>0")
                == IIOScanType(endianness: .little, isSigned: true, realBits: 64, storageBits: 64, shift: 0))
    }

    @Test func readsARepeatCount() throws {
        let type = try parsed("le:s12/16X2>>4")
        #expect(type.repeatCount == 2)
        #expect(type.realBits == 12 && type.storageBits == 16 && type.shift == 4)
        #expect(type.storageBytes == 2)
        #expect(type.totalBytes == 4)
        #expect(try parsed("le:s16/32>>0").repeatCount == 1)
    }

    @Test func toleratesSurroundingWhitespaceAndAMissingShift() throws {
        #expect(try parsed("  le:s16/32>>0\n") == parsed("le:s16/32>>0"))
        #expect(try parsed("be:s12/16>>4\n\0\0") == parsed("be:s12/16>>4"))
        #expect(try parsed("le:s16/16").shift == 0)
    }

    @Test(arguments: [
        ("", IIOScanTypeError.empty),
        (" \n", .empty),
        ("garbage", .malformed("garbage")),
        ("xe:s16/32>>0", .badEndianness("xe")),
        ("LE:s16/32>>0", .badEndianness("LE")),
        (":s16/32>>0", .badEndianness("")),
        ("le:", .badSignedness("")),
        ("le:f16/32>>0", .badSignedness("f")),
        ("le:s/32>>0", .badNumber(field: "significant bits", found: "")),
        ("le:s0/32>>0", .badNumber(field: "significant bits", found: "0")),
        ("le:s1a/32>>0", .badNumber(field: "significant bits", found: "1a")),
        ("le:s16", .malformed("le:s16")),
        ("le:s16/>>0", .badNumber(field: "storage bits", found: "")),
        ("le:s16/32X>>0", .badNumber(field: "repeat count", found: "")),
        ("le:s16/32X0>>0", .badNumber(field: "repeat count", found: "0")),
        ("le:s16/32>>", .badNumber(field: "shift", found: "")),
        ("le:s16/32>>-1", .badNumber(field: "shift", found: "-1")),
        ("le:s16/32>>0x", .badNumber(field: "shift", found: "0x")),
        ("le:s16/32>0", .malformed("le:s16/32>0")),
        ("le: s16/32>>0", .badSignedness(" ")),
        ("le:s16/99999>>0", .badNumber(field: "storage bits", found: "99999")),
        ("le:s17/16>>0", .realBitsExceedStorage(realBits: 17, storageBits: 16)),
        ("le:s12/12>>0", .unsupportedStorageBits(12)),
        ("le:s8/4>>0", .unsupportedStorageBits(4)),
        ("le:s16/128>>0", .unsupportedStorageBits(128)),
        ("be:s12/16>>5", .shiftTooBig(shift: 5, realBits: 12, storageBits: 16)),
        ("le:u8/8>>8", .shiftTooBig(shift: 8, realBits: 8, storageBits: 8)),
    ])
    func refusesMalformedTypes(_ text: String, _ error: IIOScanTypeError) {
        #expect(throws: error) { try IIOScanType(parsing: text) }
    }

    @Test func errorsSayWhichPartIsWrong() {
        #expect(
            IIOScanTypeError.badEndianness("xe").description
                == "scan element type endianness must be 'le' or 'be', found \"xe\"")
        #expect(
            IIOScanTypeError.shiftTooBig(shift: 5, realBits: 12, storageBits: 16).description
                == "scan element shift 5 plus 12 significant bits exceeds 16 storage bits")
        #expect(IIOScanTypeError.unsupportedStorageBits(12).description.contains("12 bits"))
        #expect(
            IIOScanTypeError.badNumber(field: "storage bits", found: "x").description.contains("storage bits"))
    }
}

@Suite struct IIOScanTypeDecodingTests {
    @Test func decodesLittleEndianSigned16In32() throws {
        let type = try parsed("le:s16/32>>0")
        #expect(decode(type, [0x00, 0x02, 0x00, 0x00]) == 512)
        #expect(decode(type, [0x00, 0xFE, 0xFF, 0xFF]) == -512)
        // The upper half is not part of the value: masked away before sign extension.
        #expect(decode(type, [0xFF, 0xFF, 0x12, 0x34]) == -1)
        #expect(decode(type, [0x00, 0x80, 0x00, 0x00]) == -32768)
        #expect(decode(type, [0xFF, 0x7F, 0xAA, 0xAA]) == 32767)
    }

    @Test func decodesBigEndian12BitsShiftedBy4() throws {
        let type = try parsed("be:s12/16>>4")
        // 0x7FF = 2047 in the top 12 bits; the low nibble is noise.
        #expect(decode(type, [0x7F, 0xF5]) == 2047)
        // 0x800 = -2048.
        #expect(decode(type, [0x80, 0x0F]) == -2048)
        // -1 = 0xFFF.
        #expect(decode(type, [0xFF, 0xF0]) == -1)
        // 0x3E8 = 1000 (about 1 g at 1 mg per count).
        #expect(decode(type, [0x3E, 0x80]) == 1000)
        // -1000 = 0xC18.
        #expect(decode(type, [0xC1, 0x80]) == -1000)
    }

    @Test func decodesUnsignedAndEightBitElements() throws {
        #expect(decode(try parsed("le:u10/16>>6"), [0xC0, 0xFF]) == 1023)
        #expect(decode(try parsed("le:u10/16>>6"), [0x3F, 0x00]) == 0)
        #expect(decode(try parsed("le:u8/8>>0"), [0xFF]) == 255)
        #expect(decode(try parsed("le:s8/8>>0"), [0xFF]) == -1)
        #expect(decode(try parsed("be:u16/16>>0"), [0x12, 0x34]) == 0x1234)
        #expect(decode(try parsed("le:u16/16>>0"), [0x12, 0x34]) == 0x3412)
    }

    @Test func decodesSixtyFourBitTimestamps() throws {
        let type = try parsed("le:s64/64>>0")
        let nanoseconds: Int64 = 1_234_567_890_123_456_789
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: nanoseconds >> (8 * $0)) }
        #expect(decode(type, bytes) == nanoseconds)
        #expect(decode(type, [UInt8](repeating: 0xFF, count: 8)) == -1)
        // An unsigned 64-bit value beyond Int64.max does not fit.
        #expect(decode(try parsed("le:u64/64>>0"), [UInt8](repeating: 0xFF, count: 8)) == nil)
        #expect(decode(try parsed("be:u64/64>>0"), [0x7F] + [UInt8](repeating: 0xFF, count: 7)) == Int64.max)
    }

    @Test func decodingIsBoundsChecked() throws {
        let type = try parsed("le:s16/32>>0")
        #expect(decode(type, [0x01, 0x00, 0x00]) == nil)
        #expect(decode(type, [0x01, 0x00, 0x00, 0x00], at: 1) == nil)
        #expect(decode(type, [0x01, 0x00, 0x00, 0x00], at: -1) == nil)
        #expect(decode(type, [0, 0, 0, 0, 0x02, 0x00, 0x00, 0x00], at: 4) == 2)
        #expect(decode(type, []) == nil)
    }

    @Test func decodesEachElementOfARepeatedChannel() throws {
        let type = try parsed("le:s12/16X2>>4")
        let bytes: [UInt8] = [0x10, 0x00, 0xF0, 0xFF]
        #expect(bytes.withUnsafeBytes { type.decode($0, at: 0, element: 0) } == 1)
        #expect(bytes.withUnsafeBytes { type.decode($0, at: 0, element: 1) } == -1)
        #expect(bytes.withUnsafeBytes { type.decode($0, at: 0, element: 2) } == nil)
    }

    @Test func refusesUncheckedTypesOutsideTheGrammar() {
        let bad = IIOScanType(endianness: .little, isSigned: true, realBits: 20, storageBits: 16)
        #expect(decode(bad, [0, 0]) == nil)
    }
}

@Suite struct IIOScanLayoutTests {
    let s16 = IIOScanType(endianness: .little, isSigned: true, realBits: 16, storageBits: 16)
    let s64 = IIOScanType(endianness: .little, isSigned: true, realBits: 64, storageBits: 64)

    @Test func threeAxesAndATimestamp() throws {
        let layout = try IIOScanLayout(channels: [
            .init(name: "timestamp", index: 3, type: s64),
            .init(name: "accel_z", index: 2, type: s16),
            .init(name: "accel_x", index: 0, type: s16),
            .init(name: "accel_y", index: 1, type: s16),
        ])
        #expect(layout.channels.map(\.name) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(layout.offsets == [0, 2, 4, 8])
        #expect(layout.scanSize == 16)
        #expect(layout.offset(of: "accel_z") == 4)
        #expect(layout.offset(of: "anglvel_x") == nil)
        #expect(layout.channel(named: "timestamp")?.index == 3)

        var scan = [UInt8](repeating: 0, count: 16)
        scan[0] = 0x18
        scan[1] = 0xFC  // -1000
        scan[2] = 0xE8
        scan[3] = 0x03  // 1000
        scan[4] = 0x05
        scan[5] = 0x00  // 5
        scan[8] = 0x2A  // timestamp 42 ns
        scan.withUnsafeBytes { raw in
            #expect(layout.value(of: "accel_x", in: raw) == -1000)
            #expect(layout.value(of: "accel_y", in: raw) == 1000)
            #expect(layout.value(of: "accel_z", in: raw) == 5)
            #expect(layout.value(of: "timestamp", in: raw) == 42)
            #expect(layout.value(of: "magn_x", in: raw) == nil)
        }
        // A short scan: the timestamp does not fit.
        scan.prefix(12).withUnsafeBytes { raw in
            #expect(layout.value(of: "accel_x", in: raw) == -1000)
            #expect(layout.value(of: "timestamp", in: raw) == nil)
        }
    }

    @Test func thirtyTwoBitStorageWithATimestamp() throws {
        let s16in32 = try IIOScanType(parsing: "le:s16/32>>0")
        let layout = try IIOScanLayout(channels: [
            .init(name: "accel_x", index: 0, type: s16in32),
            .init(name: "accel_y", index: 1, type: s16in32),
            .init(name: "accel_z", index: 2, type: s16in32),
            .init(name: "timestamp", index: 3, type: s64),
        ])
        #expect(layout.offsets == [0, 4, 8, 16])
        #expect(layout.scanSize == 24)
    }

    @Test func bigEndianTwelveBitWithoutTimestampIsPaddedToTheLargest() throws {
        let be12 = try IIOScanType(parsing: "be:s12/16>>4")
        let layout = try IIOScanLayout(channels: [
            .init(name: "accel_x", index: 0, type: be12),
            .init(name: "accel_y", index: 1, type: be12),
            .init(name: "accel_z", index: 2, type: be12),
        ])
        #expect(layout.offsets == [0, 2, 4])
        #expect(layout.scanSize == 6)
        let u8 = try IIOScanType(parsing: "le:u8/8>>0")
        let mixed = try IIOScanLayout(channels: [
            .init(name: "a", index: 0, type: u8), .init(name: "b", index: 5, type: s16),
            .init(name: "c", index: 7, type: u8),
        ])
        // a at 0, b aligned to 2, c at 4, then padded to a multiple of 2.
        #expect(mixed.offsets == [0, 2, 4])
        #expect(mixed.scanSize == 6)
    }

    @Test func skippedIndicesOnlyOrderChannels() throws {
        // Disabled channels (gaps in the indices) take no room.
        let layout = try IIOScanLayout(channels: [
            .init(name: "accel_x", index: 4, type: s16), .init(name: "timestamp", index: 9, type: s64),
        ])
        #expect(layout.offsets == [0, 8])
        #expect(layout.scanSize == 16)
    }

    @Test func refusesDuplicateIndicesNamesAndEmptyLayouts() {
        #expect(throws: IIOScanTypeError.duplicateIndex(1, "accel_x", "accel_y")) {
            try IIOScanLayout(channels: [
                .init(name: "accel_x", index: 1, type: s16), .init(name: "accel_y", index: 1, type: s16),
            ])
        }
        #expect(throws: IIOScanTypeError.duplicateName("accel_x")) {
            try IIOScanLayout(channels: [
                .init(name: "accel_x", index: 0, type: s16), .init(name: "accel_x", index: 1, type: s16),
            ])
        }
        #expect(throws: IIOScanTypeError.noChannels) { try IIOScanLayout(channels: []) }
        #expect(throws: IIOScanTypeError.negativeIndex("accel_x", -1)) {
            try IIOScanLayout(channels: [.init(name: "accel_x", index: -1, type: s16)])
        }
    }

    @Test func splitsAReadIntoScans() throws {
        let layout = try IIOScanLayout(channels: [
            .init(name: "accel_x", index: 0, type: s16), .init(name: "timestamp", index: 1, type: s64),
        ])
        #expect(layout.scanSize == 16)
        #expect(layout.scanCount(inBytes: 48) == (3, 0))
        #expect(layout.scanCount(inBytes: 50) == (3, 2))
        #expect(layout.scanCount(inBytes: 0) == (0, 0))
        var bytes = [UInt8](repeating: 0, count: 40)
        bytes[0] = 1
        bytes[16] = 2
        bytes[24] = 0x10
        bytes.withUnsafeBytes { raw in
            #expect(layout.scan(0, in: raw).flatMap { layout.value(of: "accel_x", in: $0) } == 1)
            #expect(layout.scan(1, in: raw).flatMap { layout.value(of: "accel_x", in: $0) } == 2)
            #expect(layout.scan(1, in: raw).flatMap { layout.value(of: "timestamp", in: $0) } == 16)
            #expect(layout.scan(2, in: raw) == nil)
            #expect(layout.scan(-1, in: raw) == nil)
        }
    }
}
