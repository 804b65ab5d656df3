#include "input_device.h"

#include <errno.h>
#include <string.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

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
