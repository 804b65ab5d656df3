"""Mount matrices and labels as systemd's hwdb and the kernel write them.

Two hwdb entries repeat a row of their mount matrix (singular): rotation must still follow
the x and y rows, with face-up and face-down unavailable and a warning. A sensor labelled
neither accel-display nor accel-base (the kernel's accel-camera on some Chromebooks) must
not drive rotation ahead of a display sensor. `[Sensor] MountMatrix=` takes the value
quoted, as the README prints it.
"""

import pytest

# The two singular entries of systemd's hwdb.d/60-sensor.hwdb, as udev sets them, and the
# raw readings (1000 = 1 g at the rig's default scale) the sensor of each device gives in
# each pose. The raw z axis is the real one, which the hwdb's repeated row does not describe.
HWDB_SINGULAR = {
    # Bush Windows tablet: the z row repeats the x row; corrected x = raw x, y = -raw y.
    "bush-windows-tablet": ("1, 0, 0; 0, -1, 0; 1, 0, 0", {
        "portrait": (0, 1000, 0),
        "landscape-right": (1000, 0, 0),
        "portrait-upside-down": (0, -1000, 0),
        "landscape-left": (-1000, 0, 0),
        "screen-up": (0, 0, -1000),
        "screen-down": (0, 0, 1000),
    }),
    # Hometech Wi101: the z row repeats the y row; corrected x = raw y, y = -raw x.
    "hometech-wi101": ("0, 1, 0; -1, 0, 0; -1, 0, 0", {
        "portrait": (1000, 0, 0),
        "landscape-right": (0, 1000, 0),
        "portrait-upside-down": (-1000, 0, 0),
        "landscape-left": (0, -1000, 0),
        "screen-up": (0, 0, -1000),
        "screen-down": (0, 0, 1000),
    }),
}


@pytest.mark.parametrize("device", sorted(HWDB_SINGULAR))
def test_singular_hwdb_matrix_rotates_from_x_and_y(make_rig, device):
    matrix, raw = HWDB_SINGULAR[device]
    rig = make_rig(accelerometer=False, start_daemon=False)
    accel = rig.add_accelerometer(extra_properties={"ACCEL_MOUNT_MATRIX": matrix})
    accel.set_raw_values(*raw["portrait"])
    rig.daemon.start()
    assert rig.read_orientation() == ("portrait", "portrait")
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    # Quarter and half turns, each way.
    for pose in ["landscape-right", "portrait-upside-down", "landscape-left", "portrait",
                 "portrait-upside-down", "landscape-right", "landscape-left"]:
        accel.set_raw_values(*raw[pose])
        rig.wait_for_property("DeviceOrientation", pose, 5.0)
    # Lying flat either way: face-up and face-down are unavailable, the orientation stays.
    for pose in ["screen-down", "screen-up"]:
        accel.set_raw_values(*raw[pose])
        rig.assert_property_stays("DeviceOrientation", "landscape-left", 1.5)
    accel.set_raw_values(*raw["portrait"])
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    notices = [line for line in rig.daemon.log_lines()
               if line.startswith("<4>") and "singular" in line]
    assert len(notices) == 1, rig.daemon.log()
    assert accel.syspath in notices[0]
    assert "ACCEL_MOUNT_MATRIX" in notices[0]
    assert "face-up and face-down are unavailable" in notices[0]


def test_full_rank_matrix_has_no_notice_and_keeps_face_up(make_rig):
    rig = make_rig(accelerometer=False, start_daemon=False)
    accel = rig.add_accelerometer(extra_properties={"ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, -1, 0; 0, 0, 1"})
    accel.set_raw_values(0, 1000, 0)
    rig.daemon.start()
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    accel.set_raw_values(0, 0, -1000)
    rig.wait_for_property("DeviceOrientation", "face-up", 5.0)
    assert not [line for line in rig.daemon.log_lines() if "singular" in line], rig.daemon.log()


# A Chromebook's cros-ec sensors: the camera module's one comes first in udev's order.
CAMERA = {"name": "cros-ec-accel", "label": "accel-camera", "location": "camera"}
DISPLAYS = {
    "accel-display": {"name": "cros-ec-accel", "label": "accel-display", "location": "lid"},
    "unlabelled": {"name": "accel_3d"},
}


@pytest.mark.parametrize("display_kind", sorted(DISPLAYS))
def test_camera_sensor_does_not_drive_rotation_ahead_of_the_display(make_rig, display_kind):
    rig = make_rig(accelerometer=False, start_daemon=False)
    camera = rig.add_accelerometer(name="iio:device0", gravity=(-9.80665, 0.0, 0.0),
                                   extra_attributes=CAMERA)
    display = rig.add_accelerometer(name="iio:device1", extra_attributes=DISPLAYS[display_kind])
    rig.daemon.start()
    assert rig.get_property("Sensor") == display.syspath
    choice = rig.get_property("SensorChoice")
    assert "accel-camera" in choice and camera.syspath in choice, choice
    assert rig.read_orientation()[0] == "portrait"
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    camera.set_pose("landscape-right")
    rig.assert_property_stays("DeviceOrientation", "portrait", 1.5)
    display.set_pose("landscape-right")
    rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)


def test_a_lone_camera_sensor_still_drives_rotation(make_rig):
    rig = make_rig(accelerometer=False, start_daemon=False)
    camera = rig.add_accelerometer(name="iio:device0", gravity=(9.80665, 0.0, 0.0),
                                   extra_attributes=CAMERA)
    rig.daemon.start()
    assert rig.get_property("Sensor") == camera.syspath
    assert "labelled accel-camera" in rig.get_property("SensorChoice")
    assert rig.read_orientation()[0] == "landscape-right"


@pytest.mark.parametrize("quote", ['"', "'"])
def test_config_mount_matrix_in_quotes(make_rig, quote):
    # As the README prints it; raw portrait turned into landscape-right by the matrix.
    config = "[Sensor]\nMountMatrix=%s0, -1, 0; 1, 0, 0; 0, 0, 1%s\n" % (quote, quote)
    rig = make_rig(accelerometer=False, start_daemon=False, config_text=config)
    accel = rig.add_accelerometer()
    accel.set_raw_values(0, -1000, 0)
    rig.daemon.start()
    assert rig.read_orientation() == ("landscape-right", "landscape-left")
    assert not [line for line in rig.daemon.log_lines() if "MountMatrix" in line
                and line[:3] in ("<3>", "<4>")], rig.daemon.log()
