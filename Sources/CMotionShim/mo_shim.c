#include "mo_shim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* What an object registration carries as its sd-bus userdata: the vtable and the copies
 * of the property names and signatures it points at, freed with the slot. */
typedef struct mo_object {
    mo_object_handlers handlers;
    mo_interface interface;
    void *context;
    sd_bus_vtable *vtable;
    char **strings;
    size_t n_strings;
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

/* Public methods are unprivileged for sd-bus: access is the bus policy's business, and
 * the daemon checks the caller where a method is privileged. */
#define MO_METHOD(name) SD_BUS_METHOD(name, "", "", mo_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED)

/* The methods and signals of each interface, after its properties; each list ends with
 * SD_BUS_VTABLE_END. */
static const sd_bus_vtable mo_orientation_members[] = {
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
    SD_BUS_SIGNAL_WITH_ARGS("TabletModeChanged", SD_BUS_ARGS("b", tablet_mode), 0),
    SD_BUS_VTABLE_END,
};

/* iio-sensor-proxy's interface as GNOME, KDE and monitor-sensor use it. */
static const sd_bus_vtable mo_sensor_proxy_members[] = {
    MO_METHOD("ClaimAccelerometer"),
    MO_METHOD("ReleaseAccelerometer"),
    MO_METHOD("ClaimLight"),
    MO_METHOD("ReleaseLight"),
    MO_METHOD("ClaimProximity"),
    MO_METHOD("ReleaseProximity"),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable mo_sensor_proxy_compass_members[] = {
    MO_METHOD("ClaimCompass"),
    MO_METHOD("ReleaseCompass"),
    SD_BUS_VTABLE_END,
};

static void mo_object_free(void *userdata) {
    mo_object *object = userdata;
    if (!object)
        return;
    for (size_t i = 0; i < object->n_strings; i++)
        free(object->strings[i]);
    free(object->strings);
    free(object->vtable);
    free(object);
}

int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface_name,
                      mo_interface interface, const mo_property *properties, size_t n_properties,
                      const mo_object_handlers *handlers, void *context) {
    const sd_bus_vtable *members;
    switch (interface) {
    case MO_INTERFACE_ORIENTATION:
        members = mo_orientation_members;
        break;
    case MO_INTERFACE_SENSOR_PROXY:
        members = mo_sensor_proxy_members;
        break;
    case MO_INTERFACE_SENSOR_PROXY_COMPASS:
        members = mo_sensor_proxy_compass_members;
        break;
    default:
        return -EINVAL;
    }
    if (!slot || !interface_name || !handlers || !handlers->method || !handlers->property ||
        (n_properties > 0 && !properties))
        return -EINVAL;
    size_t n_members = 0;
    while (members[n_members].type != _SD_BUS_VTABLE_END)
        n_members++;

    mo_object *object = calloc(1, sizeof *object);
    if (!object)
        return -ENOMEM;
    object->handlers = *handlers;
    object->interface = interface;
    object->context = context;
    /* START, the properties, the members, END. */
    object->vtable = calloc(n_properties + n_members + 2, sizeof *object->vtable);
    object->strings = calloc(2 * n_properties + 1, sizeof *object->strings);
    if (!object->vtable || !object->strings) {
        mo_object_free(object);
        return -ENOMEM;
    }
    size_t n = 0;
    object->vtable[n++] = (sd_bus_vtable)SD_BUS_VTABLE_START(0);
    for (size_t i = 0; i < n_properties; i++) {
        char *name = strdup(properties[i].name);
        char *signature = name ? strdup(properties[i].signature) : NULL;
        if (name)
            object->strings[object->n_strings++] = name;
        if (signature)
            object->strings[object->n_strings++] = signature;
        if (!name || !signature) {
            mo_object_free(object);
            return -ENOMEM;
        }
        object->vtable[n++] = (sd_bus_vtable)SD_BUS_PROPERTY(
            name, signature, mo_property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
    }
    memcpy(&object->vtable[n], members, n_members * sizeof *members);
    n += n_members;
    object->vtable[n] = (sd_bus_vtable)SD_BUS_VTABLE_END;

    int r = sd_bus_add_object_vtable(bus, slot, path, interface_name, object->vtable, object);
    if (r < 0) {
        mo_object_free(object);
        return r;
    }
    /* Cannot fail: the slot was just made and is ours. */
    (void)sd_bus_slot_set_destroy_callback(*slot, mo_object_free);
    return r;
}

int mo_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info) {
    if (code > ABS_MAX)
        return -EINVAL;
    return ioctl(fd, EVIOCGABS(code), info) < 0 ? -errno : 0;
}

int mo_evdev_get_bits(int fd, unsigned int type, unsigned char *bits, size_t length) {
    if (type > EV_MAX || !bits || length == 0 || length > 512)
        return -EINVAL;
    int r = ioctl(fd, EVIOCGBIT(type, length), bits);
    return r < 0 ? -errno : r;
}

int mo_evdev_get_switches(int fd, unsigned char *bits, size_t length) {
    if (!bits || length == 0 || length > 512)
        return -EINVAL;
    int r = ioctl(fd, EVIOCGSW(length), bits);
    return r < 0 ? -errno : r;
}

int mo_uinput_create_tablet_mode_switch(int fd, const char *name, const char *phys,
                                        const char **failed) {
    const char *ignored;
    if (!failed)
        failed = &ignored;
    *failed = NULL;
    if (!name)
        return -EINVAL;
    if (ioctl(fd, UI_SET_EVBIT, EV_SW) < 0) {
        *failed = "UI_SET_EVBIT(EV_SW)";
        return -errno;
    }
    if (ioctl(fd, UI_SET_SWBIT, SW_TABLET_MODE) < 0) {
        *failed = "UI_SET_SWBIT(SW_TABLET_MODE)";
        return -errno;
    }
    if (phys && ioctl(fd, UI_SET_PHYS, phys) < 0) {
        *failed = "UI_SET_PHYS";
        return -errno;
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.version = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) {
        *failed = "UI_DEV_SETUP";
        return -errno;
    }
    if (ioctl(fd, UI_DEV_CREATE) < 0) {
        *failed = "UI_DEV_CREATE";
        return -errno;
    }
    return 0;
}

int mo_uinput_destroy(int fd) {
    return ioctl(fd, UI_DEV_DESTROY) < 0 ? -errno : 0;
}
