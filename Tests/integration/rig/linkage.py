"""Which kind of build a binary is: the shared libraries its ELF dynamic section names.

`make build` (swift build -c release --static-swift-stdlib) links the Swift runtime into the
daemon; a plain `swift build -c release` writes into the same .build/release a daemon that
loads libswiftCore.so and the other runtime libraries at start, whose resident set is about
three times larger. The tests, the demo and the bench run the shipped kind and refuse the other.

Standalone (no import of the rest of the rig), so that the Makefile can run it as a script:

    /usr/bin/python3 Tests/integration/rig/linkage.py BINARY...

exits 1 with the reason when a binary links the Swift runtime dynamically.
"""

import os
import struct
import sys

SWIFT_RUNTIME = "libswiftCore.so"

_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_STRSZ = 0, 1, 5, 10


class WrongBuild(AssertionError):
    """The binary is not the kind `make build` makes."""


class NotELF(ValueError):
    pass


def needed_libraries(path):
    """The DT_NEEDED entries of an ELF file, in order ([] for a static executable)."""
    with open(path, "rb") as f:
        ident = f.read(16)
        if len(ident) < 16 or ident[:4] != b"\x7fELF" or ident[4] not in (1, 2) \
                or ident[5] not in (1, 2):
            raise NotELF("%s is not an ELF file" % path)
        wide = ident[4] == 2
        order = "<" if ident[5] == 1 else ">"
        # e_type .. e_phnum: the program header table's place and shape.
        header = struct.Struct(order + ("HHIQQQIHHH" if wide else "HHIIIIIHHH"))
        fields = header.unpack(f.read(header.size))
        phoff, phentsize, phnum = fields[4], fields[8], fields[9]
        if wide:  # p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, ...
            phdr = struct.Struct(order + "IIQQQQQQ")
            pick = lambda p: (p[0], p[2], p[3], p[5])  # noqa: E731
        else:  # p_type, p_offset, p_vaddr, p_paddr, p_filesz, ...
            phdr = struct.Struct(order + "IIIIIIII")
            pick = lambda p: (p[0], p[1], p[2], p[4])  # noqa: E731
        loads, dynamic = [], None
        for index in range(phnum):
            f.seek(phoff + index * phentsize)
            kind, offset, vaddr, filesz = pick(phdr.unpack(f.read(phdr.size)))
            if kind == _PT_LOAD:
                loads.append((vaddr, offset, filesz))
            elif kind == _PT_DYNAMIC:
                dynamic = (offset, filesz)
        if dynamic is None:
            return []
        entry = struct.Struct(order + ("qQ" if wide else "iI"))
        f.seek(dynamic[0])
        raw = f.read(dynamic[1])
        needed, strtab, strsz = [], None, None
        for tag, value in entry.iter_unpack(raw[:len(raw) - len(raw) % entry.size]):
            if tag == _DT_NULL:
                break
            if tag == _DT_NEEDED:
                needed.append(value)
            elif tag == _DT_STRTAB:
                strtab = value
            elif tag == _DT_STRSZ:
                strsz = value
        if not needed:
            return []
        if strtab is None or strsz is None:
            raise NotELF("%s: a dynamic section without a string table" % path)
        # DT_STRTAB is an address: find the file offset of the segment that holds it.
        for vaddr, offset, filesz in loads:
            if vaddr <= strtab < vaddr + filesz:
                f.seek(offset + strtab - vaddr)
                strings = f.read(strsz)
                break
        else:
            raise NotELF("%s: the dynamic string table lies in no loaded segment" % path)
        return [strings[i:strings.index(b"\0", i)].decode() for i in needed]


_checked = {}


def require_static_swift(path, what="daemon"):
    """Raise WrongBuild unless `path` carries the Swift runtime inside (make build)."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise WrongBuild("%s %s: %s (run `make build`)" % (what, path, err.strerror)) from None
    key = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    if key not in _checked:
        try:
            _checked[key] = needed_libraries(path)
        except (NotELF, struct.error) as err:
            raise WrongBuild("%s %s: cannot read its ELF dynamic section (%s)"
                             % (what, path, err)) from None
    swift = [name for name in _checked[key] if name.startswith(SWIFT_RUNTIME)]
    if swift:
        raise WrongBuild(
            "%s %s links the Swift runtime dynamically (it needs %s): that is a plain "
            "`swift build -c release`, not the shipped build, and its resident set is about "
            "three times larger. Run `make build` (swift build -c release "
            "--static-swift-stdlib), which relinks it statically." % (what, path, ", ".join(swift)))


def main(argv):
    if len(argv) < 2:
        print("usage: linkage.py BINARY...", file=sys.stderr)
        return 2
    status = 0
    for path in argv[1:]:
        try:
            require_static_swift(path, what=os.path.basename(path))
        except WrongBuild as err:
            print("linkage.py: %s" % err, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
