import OrientationCore
import Testing

@Suite struct MountMatrixResolutionTests {
    @Test func singularMatrixIsUsedWithANotice() throws {
        let bush = "1, 0, 0; 0, -1, 0; 1, 0, 0"
        let result = MountMatrixResolution.resolve(
            override: nil, sources: [("udev property ACCEL_MOUNT_MATRIX", bush), ("mount_matrix", "1,0,0;0,1,0;0,0,1")])
        #expect(result.matrix == (try MountMatrix(parsing: bush)))
        #expect(result.source == "udev property ACCEL_MOUNT_MATRIX")
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("udev property ACCEL_MOUNT_MATRIX") == true)
        #expect(result.problems.first?.contains("singular") == true)
        #expect(result.problems.first?.contains("face-up and face-down are unavailable") == true)
        let override = MountMatrixResolution.resolve(override: try MountMatrix(parsing: bush), sources: [])
        #expect(override.source == MountMatrixResolution.overrideSource)
        #expect(override.problems.count == 1)
        #expect(override.problems.first?.contains("[Sensor] MountMatrix=") == true)
    }

    @Test func parallelUprightRowsFallThrough() throws {
        let result = MountMatrixResolution.resolve(
            override: nil, sources: [("udev property ACCEL_MOUNT_MATRIX", "1,0,0;1,0,0;0,0,1"), ("mount_matrix", nil)])
        #expect(result.matrix == .identity)
        #expect(
            result.problems == [
                "ignoring the mount matrix from udev property ACCEL_MOUNT_MATRIX: "
                    + "mount matrix rows 1 and 2 (x and y) are parallel"
            ])
    }

    let swapped = "0, 1, 0; 1, 0, 0; 0, 0, 1"
    let flipped = "-1, 0, 0; 0, -1, 0; 0, 0, 1"

    func sources(udev: String?, sysfs: String? = nil, accel: String? = nil, generic: String? = nil)
        -> [(source: String, text: String?)]
    {
        [
            ("udev property ACCEL_MOUNT_MATRIX", udev), ("sysfs mount_matrix", sysfs),
            ("sysfs in_accel_mount_matrix", accel), ("sysfs in_mount_matrix", generic),
        ]
    }

    @Test func takesTheFirstSourceInOrder() throws {
        let result = MountMatrixResolution.resolve(override: nil, sources: sources(udev: swapped, sysfs: flipped))
        #expect(result.matrix == (try MountMatrix(parsing: swapped)))
        #expect(result.source == "udev property ACCEL_MOUNT_MATRIX")
        #expect(result.problems.isEmpty)
        for (index, name) in ["sysfs mount_matrix", "sysfs in_accel_mount_matrix", "sysfs in_mount_matrix"].enumerated()
        {
            var texts: [String?] = [nil, nil, nil]
            texts[index] = flipped
            let found = MountMatrixResolution.resolve(
                override: nil, sources: sources(udev: nil, sysfs: texts[0], accel: texts[1], generic: texts[2]))
            #expect(found.source == name)
            #expect(found.matrix == (try MountMatrix(parsing: flipped)))
            #expect(found.problems.isEmpty)
        }
    }

    @Test func malformedSourcesFallThroughWithAProblemEach() throws {
        let result = MountMatrixResolution.resolve(
            override: nil, sources: sources(udev: "1, 0, 0; 0, 1, 0", sysfs: "1,0,0;0,0,0;0,0,1", accel: flipped))
        #expect(result.source == "sysfs in_accel_mount_matrix")
        #expect(result.matrix == (try MountMatrix(parsing: flipped)))
        #expect(
            result.problems == [
                "ignoring the mount matrix from udev property ACCEL_MOUNT_MATRIX: mount matrix needs 9 numbers, found 6",
                "ignoring the mount matrix from sysfs mount_matrix: mount matrix row 2 is all zeros",
            ])
    }

    @Test func identityWhenNothingUsable() {
        let none = MountMatrixResolution.resolve(override: nil, sources: sources(udev: nil))
        #expect(none.matrix == .identity)
        #expect(none.source == MountMatrixResolution.identitySource)
        #expect(none.problems.isEmpty)
        let bad = MountMatrixResolution.resolve(override: nil, sources: sources(udev: "", generic: "0,5 0 0"))
        #expect(bad.matrix == .identity)
        #expect(bad.problems.count == 2)
        #expect(bad.problems[1].contains("sysfs in_mount_matrix"))
        #expect(MountMatrixResolution.resolve(override: nil, sources: []).matrix == .identity)
    }

    @Test func theOverrideWins() throws {
        let override = try MountMatrix(parsing: flipped)
        let result = MountMatrixResolution.resolve(override: override, sources: sources(udev: swapped, sysfs: "junk"))
        #expect(result.matrix == override)
        #expect(result.source == "[Sensor] MountMatrix=")
        #expect(result.problems.isEmpty)
    }
}
