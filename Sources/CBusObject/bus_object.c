#include "bus_object.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What an object registration carries as its sd-bus userdata: the vtable and the copies
 * of the strings it points at, freed with the slot. */
typedef struct mo_bus_object {
    mo_bus_handlers handlers;
    void *context;
    sd_bus_vtable *vtable;
    char **strings;
    size_t n_strings;
} mo_bus_object;

static int mo_method_trampoline(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    mo_bus_object *object = userdata;
    return object->handlers.method(object->context, sd_bus_message_get_member(call), call, error);
}

static int mo_property_trampoline(sd_bus *bus, const char *path, const char *interface,
                                  const char *property, sd_bus_message *reply, void *userdata,
                                  sd_bus_error *error) {
    (void)bus;
    (void)path;
    (void)interface;
    mo_bus_object *object = userdata;
    return object->handlers.property(object->context, property, reply, error);
}

static void mo_bus_object_free(void *userdata) {
    mo_bus_object *object = userdata;
    if (!object)
        return;
    for (size_t i = 0; i < object->n_strings; i++)
        free(object->strings[i]);
    free(object->strings);
    free(object->vtable);
    free(object);
}

/* Copies `length` bytes (or the string, when `length` is 0 and `text` is not NULL) into
 * the object; NULL when out of memory. A NULL `text` stays NULL. */
static const char *mo_keep(mo_bus_object *object, const char *text, size_t length, int *failed) {
    if (!text)
        return NULL;
    if (length == 0)
        length = strlen(text) + 1;
    char *copy = malloc(length + 1);
    if (!copy) {
        *failed = 1;
        return NULL;
    }
    memcpy(copy, text, length);
    copy[length] = '\0';
    object->strings[object->n_strings++] = copy;
    return copy;
}

int mo_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                      const mo_bus_property *properties, size_t n_properties,
                      const mo_bus_member *methods, size_t n_methods,
                      const mo_bus_member *signals, size_t n_signals,
                      const mo_bus_handlers *handlers, void *context) {
    if (!slot || !interface || !handlers || !handlers->method || !handlers->property ||
        (n_properties > 0 && !properties) || (n_methods > 0 && !methods) ||
        (n_signals > 0 && !signals))
        return -EINVAL;
    mo_bus_object *object = calloc(1, sizeof *object);
    if (!object)
        return -ENOMEM;
    object->handlers = *handlers;
    object->context = context;
    size_t n_entries = n_properties + n_methods + n_signals;
    /* START, the entries, END. */
    object->vtable = calloc(n_entries + 2, sizeof *object->vtable);
    /* At most four strings an entry. */
    object->strings = calloc(4 * n_entries + 1, sizeof *object->strings);
    if (!object->vtable || !object->strings) {
        mo_bus_object_free(object);
        return -ENOMEM;
    }
    int failed = 0;
    size_t n = 0;
    object->vtable[n++] = (sd_bus_vtable)SD_BUS_VTABLE_START(0);
    for (size_t i = 0; i < n_properties; i++) {
        const char *name = mo_keep(object, properties[i].name, 0, &failed);
        const char *signature = mo_keep(object, properties[i].signature, 0, &failed);
        object->vtable[n++] = (sd_bus_vtable)SD_BUS_PROPERTY(
            name, signature, mo_property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
    }
    /* Methods and signals are filled in field by field: the SD_BUS_METHOD_WITH_NAMES and
     * SD_BUS_SIGNAL_WITH_NAMES macros join their names as string literals. */
    for (size_t i = 0; i < n_methods; i++) {
        const mo_bus_member *m = &methods[i];
        sd_bus_vtable *entry = &object->vtable[n++];
        entry->type = _SD_BUS_VTABLE_METHOD;
        entry->flags = SD_BUS_VTABLE_UNPRIVILEGED;
        entry->x.method.member = mo_keep(object, m->name, 0, &failed);
        entry->x.method.signature = mo_keep(object, m->signature ? m->signature : "", 0, &failed);
        entry->x.method.result = mo_keep(object, m->result ? m->result : "", 0, &failed);
        entry->x.method.handler = mo_method_trampoline;
        entry->x.method.names = mo_keep(object, m->names ? m->names : "", m->names_length, &failed);
    }
    for (size_t i = 0; i < n_signals; i++) {
        const mo_bus_member *s = &signals[i];
        sd_bus_vtable *entry = &object->vtable[n++];
        entry->type = _SD_BUS_VTABLE_SIGNAL;
        entry->x.signal.member = mo_keep(object, s->name, 0, &failed);
        entry->x.signal.signature = mo_keep(object, s->signature ? s->signature : "", 0, &failed);
        entry->x.signal.names = mo_keep(object, s->names ? s->names : "", s->names_length, &failed);
    }
    object->vtable[n] = (sd_bus_vtable)SD_BUS_VTABLE_END;
    if (failed) {
        mo_bus_object_free(object);
        return -ENOMEM;
    }

    int r = sd_bus_add_object_vtable(bus, slot, path, interface, object->vtable, object);
    if (r < 0) {
        mo_bus_object_free(object);
        return r;
    }
    /* Cannot fail: the slot was just made and is ours. */
    (void)sd_bus_slot_set_destroy_callback(*slot, mo_bus_object_free);
    return r;
}
