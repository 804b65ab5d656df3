/*
 * The C that Swift cannot express for motion-orientationd.
 *
 * sd-bus describes an object with a static vtable built from function-like macros
 * (SD_BUS_METHOD, SD_BUS_PROPERTY, ...), which Swift cannot expand. The vtables live
 * here; every entry points at one of two trampolines that forward the call to a
 * pair of Swift callbacks. Everything else (messages, tracking, signals, sd-event,
 * libudev) is called from Swift directly through the non-variadic APIs. The one
 * other macro Swift cannot call is the evdev ioctl request of an axis.
 */
#ifndef MO_SHIM_H
#define MO_SHIM_H

#include <linux/input.h>
#include <systemd/sd-bus.h>

/** The daemon's bus name, object path and interface (DESIGN.md section 5). */
#define MO_BUS_NAME "io.github.MotionOrientation1"
#define MO_BUS_PATH "/io/github/MotionOrientation1"
#define MO_BUS_INTERFACE "io.github.MotionOrientation1"

/** iio-sensor-proxy's names, served in compatibility mode. */
#define MO_SENSOR_PROXY_NAME "net.hadess.SensorProxy"
#define MO_SENSOR_PROXY_PATH "/net/hadess/SensorProxy"
#define MO_SENSOR_PROXY_INTERFACE "net.hadess.SensorProxy"
#define MO_SENSOR_PROXY_COMPASS_PATH "/net/hadess/SensorProxy/Compass"
#define MO_SENSOR_PROXY_COMPASS_INTERFACE "net.hadess.SensorProxy.Compass"

/** The interfaces this process can serve, each with its vtable. */
typedef enum mo_interface {
    MO_INTERFACE_ORIENTATION,        /* MO_BUS_INTERFACE */
    MO_INTERFACE_SENSOR_PROXY,       /* MO_SENSOR_PROXY_INTERFACE */
    MO_INTERFACE_SENSOR_PROXY_COMPASS, /* MO_SENSOR_PROXY_COMPASS_INTERFACE */
} mo_interface;

/** Callbacks that serve an object; `context` is handed back untouched. */
typedef struct mo_object_handlers {
    /** A method call; `member` is the method name. Reply to `call` (now or later) or fail. */
    int (*method)(void *context, mo_interface interface, const char *member, sd_bus_message *call,
                  sd_bus_error *error);
    /** A property read; append the value of `property` to `reply`. */
    int (*property)(void *context, mo_interface interface, const char *property,
                    sd_bus_message *reply, sd_bus_error *error);
} mo_object_handlers;

/**
 * Serves `interface` at `path` with the given handlers. The returned slot owns the
 * registration: unref it to withdraw the object.
 * Why C: the vtables are made of SD_BUS_* macros.
 */
int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, mo_interface interface,
                      const mo_object_handlers *handlers, void *context);

/**
 * Reads the state of absolute axis `code` (ABS_X, ...) of the evdev device open at `fd`:
 * its latest value, limits and resolution. Returns 0, or a negative errno.
 * Why C: the request, EVIOCGABS(code), is a function-like macro.
 */
int mo_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info);

#endif
