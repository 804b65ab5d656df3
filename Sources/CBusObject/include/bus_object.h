/*
 * An sd-bus object whose vtable is built at run time from lists Swift gives: sd-bus
 * describes an object with a vtable made by function-like macros (SD_BUS_METHOD,
 * SD_BUS_PROPERTY, ...), which Swift cannot expand. Every name, signature and argument
 * name comes from Swift (each written once, in the typed lists of SystemdBus); every
 * method and property entry points at one of two trampolines that forward to a pair of
 * Swift callbacks. Everything else of sd-bus is called from Swift directly.
 */
#ifndef MO_BUS_OBJECT_H
#define MO_BUS_OBJECT_H

#include <systemd/sd-bus.h>

/** A property of an object: its name and D-Bus signature. It emits PropertiesChanged. */
typedef struct mo_bus_property {
    const char *name;
    const char *signature;
} mo_bus_property;

/**
 * A method or a signal: its name, the signature of its arguments, for a method the
 * signature of its result (NULL for a signal), and the names of the arguments (then of
 * the results), each ending with a NUL, `names_length` bytes in all.
 */
typedef struct mo_bus_member {
    const char *name;
    const char *signature;
    const char *result;
    const char *names;
    size_t names_length;
} mo_bus_member;

/** Callbacks that serve an object; `context` is handed back untouched. */
typedef struct mo_bus_handlers {
    /** A method call; `member` is the method name. Reply to `call` (now or later) or fail. */
    int (*method)(void *context, const char *member, sd_bus_message *call, sd_bus_error *error);
    /** A property read; append the value of `property` to `reply`. */
    int (*property)(void *context, const char *property, sd_bus_message *reply,
                    sd_bus_error *error);
} mo_bus_handlers;

/**
 * Serves `interface` at `path`: its properties, methods and signals in the order given
 * (all strings are copied; methods are unprivileged for sd-bus, the bus policy and the
 * daemon check callers). The returned slot owns the registration and the vtable: unref
 * it to withdraw the object. Returns >= 0, or a negative errno.
 * Why C: vtable entries are made with SD_BUS_* macros.
 */
int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                      const mo_bus_property *properties, size_t n_properties,
                      const mo_bus_member *methods, size_t n_methods,
                      const mo_bus_member *signals, size_t n_signals,
                      const mo_bus_handlers *handlers, void *context);

#endif
