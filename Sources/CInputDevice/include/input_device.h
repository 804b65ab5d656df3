/*
 * The evdev and uinput requests that Swift cannot call: ioctl(2) is variadic and the
 * requests are function-like macros. Used by SensorIO (the evdev accelerometer, the
 * tablet-mode switches, the virtual tablet-mode switch). `struct input_event` and the
 * event codes come from linux/input.h through this header.
 */
#ifndef MO_INPUT_DEVICE_H
#define MO_INPUT_DEVICE_H

#include <linux/input.h>
#include <stddef.h>

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
