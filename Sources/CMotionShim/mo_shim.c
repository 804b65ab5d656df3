#include "mo_shim.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

/* What an object registration carries as its sd-bus userdata. */
typedef struct mo_object {
    mo_object_handlers handlers;
    mo_interface interface;
    void *context;
} mo_object;

static int mo_method_trampoline(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    mo_object *object = userdata;
    return object->handlers.method(object->context, object->interface,
                                   sd_bus_message_get_member(call), call, error);
}

static int mo_property_trampoline(sd_bus *bus, const char *path, const char *interface,
                                  const char *property, sd_bus_message *reply, void *userdata,
                                  sd_bus_error *error) {
    (void)bus;
    (void)path;
    (void)interface;
    mo_object *object = userdata;
    return object->handlers.property(object->context, object->interface, property, reply, error);
}

#define MO_PROPERTY(name, signature)                                                   \
    SD_BUS_PROPERTY(name, signature, mo_property_trampoline, 0,                         \
                    SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
/* Public methods are unprivileged for sd-bus: access is the bus policy's business, and
 * the daemon checks the caller where a method is privileged. */
#define MO_METHOD(name) SD_BUS_METHOD(name, "", "", mo_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED)

static const sd_bus_vtable mo_orientation_vtable[] = {
    SD_BUS_VTABLE_START(0),
    MO_PROPERTY("DeviceOrientation", "s"),
    MO_PROPERTY("InterfaceOrientation", "s"),
    MO_PROPERTY("HasAccelerometer", "b"),
    MO_PROPERTY("Sensor", "s"),
    MO_PROPERTY("SensorChoice", "s"),
    MO_PROPERTY("Active", "b"),
    MO_PROPERTY("LowEnergyMode", "b"),
    MO_PROPERTY("LowEnergyModeSetting", "s"),
    MO_PROPERTY("LowEnergyReasons", "as"),
    MO_PROPERTY("ThermalState", "s"),
    MO_PROPERTY("SampleIntervalMsec", "u"),
    MO_METHOD("Start"),
    MO_METHOD("Stop"),
    SD_BUS_METHOD_WITH_ARGS("ReadOrientation", SD_BUS_NO_ARGS,
                            SD_BUS_RESULT("s", device, "s", interface), mo_method_trampoline,
                            SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("SetLowEnergyMode", SD_BUS_ARGS("s", setting), SD_BUS_NO_RESULT,
                            mo_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_ARGS("DeviceOrientationChanged", SD_BUS_ARGS("s", orientation, "u", value),
                            0),
    SD_BUS_SIGNAL_WITH_ARGS("InterfaceOrientationChanged",
                            SD_BUS_ARGS("s", orientation, "u", value), 0),
    SD_BUS_VTABLE_END,
};

/* iio-sensor-proxy's interface as GNOME, KDE and monitor-sensor use it. */
static const sd_bus_vtable mo_sensor_proxy_vtable[] = {
    SD_BUS_VTABLE_START(0),
    MO_PROPERTY("HasAccelerometer", "b"),
    MO_PROPERTY("AccelerometerOrientation", "s"),
    MO_PROPERTY("AccelerometerTilt", "s"),
    MO_PROPERTY("HasAmbientLight", "b"),
    MO_PROPERTY("LightLevelUnit", "s"),
    MO_PROPERTY("LightLevel", "d"),
    MO_PROPERTY("HasProximity", "b"),
    MO_PROPERTY("ProximityNear", "b"),
    MO_METHOD("ClaimAccelerometer"),
    MO_METHOD("ReleaseAccelerometer"),
    MO_METHOD("ClaimLight"),
    MO_METHOD("ReleaseLight"),
    MO_METHOD("ClaimProximity"),
    MO_METHOD("ReleaseProximity"),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable mo_sensor_proxy_compass_vtable[] = {
    SD_BUS_VTABLE_START(0),
    MO_PROPERTY("HasCompass", "b"),
    MO_PROPERTY("CompassHeading", "d"),
    MO_METHOD("ClaimCompass"),
    MO_METHOD("ReleaseCompass"),
    SD_BUS_VTABLE_END,
};

static void mo_object_free(void *userdata) { free(userdata); }

int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, mo_interface interface,
                      const mo_object_handlers *handlers, void *context) {
    const char *name;
    const sd_bus_vtable *vtable;
    switch (interface) {
    case MO_INTERFACE_ORIENTATION:
        name = MO_BUS_INTERFACE;
        vtable = mo_orientation_vtable;
        break;
    case MO_INTERFACE_SENSOR_PROXY:
        name = MO_SENSOR_PROXY_INTERFACE;
        vtable = mo_sensor_proxy_vtable;
        break;
    case MO_INTERFACE_SENSOR_PROXY_COMPASS:
        name = MO_SENSOR_PROXY_COMPASS_INTERFACE;
        vtable = mo_sensor_proxy_compass_vtable;
        break;
    default:
        return -EINVAL;
    }
    if (!slot || !handlers || !handlers->method || !handlers->property)
        return -EINVAL;
    mo_object *object = malloc(sizeof *object);
    if (!object)
        return -ENOMEM;
    object->handlers = *handlers;
    object->interface = interface;
    object->context = context;
    int r = sd_bus_add_object_vtable(bus, slot, path, name, vtable, object);
    if (r < 0) {
        free(object);
        return r;
    }
    sd_bus_slot_set_destroy_callback(*slot, mo_object_free);
    return r;
}

int mo_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info) {
    if (code > ABS_MAX)
        return -EINVAL;
    return ioctl(fd, EVIOCGABS(code), info) < 0 ? -errno : 0;
}
