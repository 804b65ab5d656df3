/*
 * The C that Swift cannot express for motion-orientationd.
 *
 * sd-bus describes an object with a vtable built from function-like macros
 * (SD_BUS_METHOD, SD_BUS_PROPERTY, ...), which Swift cannot expand. The methods and
 * signals of each interface live here; its properties are named by Swift (each name
 * written once, in an enum) and the vtable is put together when the object is added.
 * Every entry points at one of two trampolines that forward the call to a pair of
 * Swift callbacks. The names of buses, objects and interfaces are Swift's too. Everything else (messages, tracking, signals, sd-event,
 * libudev) is called from Swift directly through the non-variadic APIs. The other
 * macros Swift cannot call are ioctl requests: evdev's (an axis, the switch bits and
 * state) and uinput's (the virtual tablet-mode switch).
 */
#ifndef MO_SHIM_H
#define MO_SHIM_H

#include <linux/input.h>
#include <systemd/sd-bus.h>

/** The interfaces this process can serve, each with its vtable. */
typedef enum mo_interface {
    MO_INTERFACE_ORIENTATION,          /* io.github.MotionOrientation1 */
    MO_INTERFACE_SENSOR_PROXY,         /* net.hadess.SensorProxy */
    MO_INTERFACE_SENSOR_PROXY_COMPASS, /* net.hadess.SensorProxy.Compass */
} mo_interface;

/** A property of an object: its name and D-Bus signature. It emits PropertiesChanged. */
typedef struct mo_property {
    const char *name;
    const char *signature;
} mo_property;

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
 * Serves `interface`, named `interface_name` on the bus, at `path`: its `n_properties`
 * properties in the order given (names and signatures are copied), then its methods and
 * signals. The returned slot owns the registration and the vtable: unref it to withdraw
 * the object.
 * Why C: vtable entries are made with SD_BUS_* macros.
 */
int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface_name,
                      mo_interface interface, const mo_property *properties, size_t n_properties,
                      const mo_object_handlers *handlers, void *context);

/**
 * Reads the state of absolute axis `code` (ABS_X, ...) of the evdev device open at `fd`:
 * its latest value, limits and resolution. Returns 0, or a negative errno.
 * Why C: the request, EVIOCGABS(code), is a function-like macro.
 */
int mo_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info);

/**
 * Reads the bitmap of the event codes of type `type` (0: the event types themselves) that
 * the evdev device open at `fd` supports, into `bits` (`length` bytes). Returns the number
 * of bytes the kernel wrote, or a negative errno.
 * Why C: the request, EVIOCGBIT(type, length), is a function-like macro.
 */
int mo_evdev_get_bits(int fd, unsigned int type, unsigned char *bits, size_t length);

/**
 * Reads the current state of the switches (SW_LID, SW_TABLET_MODE, ...) of the evdev
 * device open at `fd`, one bit per switch code, into `bits` (`length` bytes). Returns the
 * number of bytes the kernel wrote, or a negative errno.
 * Why C: the request, EVIOCGSW(length), is a function-like macro.
 */
int mo_evdev_get_switches(int fd, unsigned char *bits, size_t length);

/**
 * Makes the uinput device open at `fd` (/dev/uinput, open for writing) a switch device that
 * has SW_TABLET_MODE and nothing else (no keys: see docs on what uinput access means), on
 * BUS_VIRTUAL with the given name (at most 79 bytes are used) and phys, and creates it.
 * Returns 0, or a negative errno with `failed` set to the request that failed.
 * Why C: the uinput requests (UI_SET_EVBIT, UI_DEV_SETUP, ...) are _IOW macros that Swift
 * does not import, and ioctl(2) is variadic.
 */
int mo_uinput_create_tablet_mode_switch(int fd, const char *name, const char *phys,
                                        const char **failed);

/**
 * Destroys the uinput device made on `fd` (the caller closes `fd`). Returns 0, or a
 * negative errno.
 * Why C: UI_DEV_DESTROY is an _IO macro, and ioctl(2) is variadic.
 */
int mo_uinput_destroy(int fd);

#endif
