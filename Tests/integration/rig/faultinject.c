/* Fault injection for motion-orientationd's integration tests (test_faults.py), an
 * LD_PRELOAD library built by the rig (rig/faults.py) and put in front of umockdev's preload.
 * While the file $MO_FAULT_CONTROL exists, each of its lines
 *     <path suffix> <open|read> <ERRNO name | sleep MSEC>
 * makes open()/openat() or read()/pread() of a file whose path ends in the suffix fail
 * with that errno, or sleep first. Every injected fault appends a line to
 * $MO_FAULT_CONTROL.log. While $MO_IIO_BUSY is set, a write(2) to an IIO device's
 * scan_elements/<channel>_en fails with EBUSY while its buffer/enable reads 1, as the kernel's
 * iio_scan_el_store does (drivers/iio/industrialio-buffer.c: scan elements change only with
 * the buffer disabled). Only raw system calls are used inside, so the wrappers never
 * recurse into each other or into umockdev's preload. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const struct { const char *name; int value; } errnos[] = {
    {"EIO", EIO}, {"EACCES", EACCES}, {"EAGAIN", EAGAIN}, {"ENOENT", ENOENT},
    {"ENODEV", ENODEV}, {"ETIMEDOUT", ETIMEDOUT}, {"EINTR", EINTR}, {"EPERM", EPERM},
};

/* Appends "<op> <path> <what>" to $MO_FAULT_CONTROL.log (when a control file is named). */
static void log_hit(const char *op, const char *path, const char *what) {
    const char *control = getenv("MO_FAULT_CONTROL");
    if (!control) return;
    char log[1100];
    snprintf(log, sizeof log, "%s.log", control);
    int lfd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (lfd < 0) return;
    char entry[4200];
    int m = snprintf(entry, sizeof entry, "%s %s %s\n", op, path, what);
    syscall(SYS_write, lfd, entry, m);
    syscall(SYS_close, lfd);
}

/* 0: no fault; >0: fail with that errno; <0: sleep -value milliseconds first. */
static int lookup(const char *path, const char *op) {
    const char *control = getenv("MO_FAULT_CONTROL");
    if (!control || !path) return 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, control, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[4096];
    ssize_t n = syscall(SYS_read, fd, text, sizeof text - 1);
    syscall(SYS_close, fd);
    if (n <= 0) return 0;
    text[n] = 0;
    size_t length = strlen(path);
    int result = 0;
    for (char *line = strtok(text, "\n"); line && !result; line = strtok(NULL, "\n")) {
        char suffix[1024], what[16], action[32];
        long msec = 0;
        int fields = sscanf(line, "%1023s %15s %31s %ld", suffix, what, action, &msec);
        if (fields < 3 || strcmp(what, op) != 0) continue;
        size_t s = strlen(suffix);
        if (s > length || strcmp(path + length - s, suffix) != 0) continue;
        if (strcmp(action, "sleep") == 0) {
            result = -(int)(msec > 0 ? msec : 1);
        } else {
            for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
                if (strcmp(action, errnos[i].name) == 0) result = errnos[i].value;
        }
    }
    if (result) {
        char number[16];
        snprintf(number, sizeof number, "%d", result);
        log_hit(op, path, number);
    }
    return result;
}

static int apply(int fault) {
    if (fault < 0) {
        struct timespec t = {-fault / 1000, (-fault % 1000) * 1000000L};
        nanosleep(&t, NULL);
        return 0;
    }
    if (fault > 0) { errno = fault; return -1; }
    return 0;
}

static int fd_path(int fd, char *path, size_t size);

static int fd_fault(int fd) {
    if (!getenv("MO_FAULT_CONTROL")) return 0;
    char path[4096];
    if (!fd_path(fd, path, sizeof path)) return 0;
    return lookup(path, "read");
}

static int fd_path(int fd, char *path, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = syscall(SYS_readlink, link, path, size - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    return 1;
}

/* EBUSY for a scan element of a device whose buffer is enabled (the kernel's rule). */
static int busy_fault(int fd) {
    if (!getenv("MO_IIO_BUSY")) return 0;
    char path[4096];
    if (!fd_path(fd, path, sizeof path - 32)) return 0;
    size_t length = strlen(path);
    char *element = strstr(path, "/scan_elements/");
    if (!element || length < 3 || strcmp(path + length - 3, "_en") != 0) return 0;
    strcpy(element, "/buffer/enable");
    int bfd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (bfd < 0) return 0;
    char state = 0;
    ssize_t n = syscall(SYS_read, bfd, &state, 1);
    syscall(SYS_close, bfd);
    if (n != 1 || state != '1') return 0;
    strcpy(element, "/scan_elements");
    log_hit("write", path, "busy");
    return EBUSY;
}

#define NEXT(name) static __typeof__(name) *next; if (!next) next = dlsym(RTLD_NEXT, #name)

ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
    NEXT(pread);
    if (apply(fd_fault(fd)) < 0) return -1;
    return next(fd, buf, count, offset);
}
ssize_t pread64(int fd, void *buf, size_t count, off_t offset) {
    NEXT(pread64);
    if (apply(fd_fault(fd)) < 0) return -1;
    return next(fd, buf, count, offset);
}
ssize_t read(int fd, void *buf, size_t count) {
    NEXT(read);
    if (apply(fd_fault(fd)) < 0) return -1;
    return next(fd, buf, count);
}

ssize_t write(int fd, const void *buf, size_t count) {
    NEXT(write);
    if (apply(busy_fault(fd)) < 0) return -1;
    return next(fd, buf, count);
}

#define OPEN_MODE \
    mode_t mode = 0; \
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }

int open(const char *path, int flags, ...) {
    OPEN_MODE NEXT(open);
    if (apply(lookup(path, "open")) < 0) return -1;
    return next(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    OPEN_MODE NEXT(open64);
    if (apply(lookup(path, "open")) < 0) return -1;
    return next(path, flags, mode);
}
int openat(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE NEXT(openat);
    if (apply(lookup(path, "open")) < 0) return -1;
    return next(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE NEXT(openat64);
    if (apply(lookup(path, "open")) < 0) return -1;
    return next(dirfd, path, flags, mode);
}
