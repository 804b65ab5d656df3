#!/bin/sh
# gdbus-listener.sh: follow the interface orientation with nothing but GLib's gdbus,
# which every GNOME system has. It prints "interface NAME" for the current orientation
# and for each change, and with a command also runs it for each, one run at a time,
# with MOTION_ORIENTATION and MOTION_ORIENTATION_VALUE in its environment:
#
#     gdbus-listener.sh [COMMAND [ARGS...]]
#
# gdbus only listens; it cannot hold a claim (a claim lasts as long as the caller's bus
# connection, and `gdbus call` leaves at once). The daemon samples while some other
# client holds one, GNOME through the compatibility interface for instance. A script
# that needs a claim of its own uses `motion-orientation exec` instead.
set -eu
DEST=io.github.MotionOrientation1
OBJECT=/io/github/MotionOrientation1

# The raw value of an interface orientation (Apple's numbers, as on the bus).
value_of() {
    case $1 in
        portrait) echo 1 ;;
        portrait-upside-down) echo 2 ;;
        landscape-right) echo 3 ;;
        landscape-left) echo 4 ;;
        *) echo 0 ;;
    esac
}

# gdbus monitor prints "The name ... is owned by :1.42" when the daemon is (or comes
# back) on the bus, which is when the current state is read, and each signal as
#   /io/github/MotionOrientation1: io.github.MotionOrientation1.InterfaceOrientationChanged ('landscape-left', uint32 4)
# The loop reads from a FIFO rather than a pipe, so that it runs in this shell and the
# monitor is this shell's to end: SIGTERM, SIGINT or the end of the loop take it along.
fifo=$(mktemp -u "${TMPDIR:-/tmp}/gdbus-listener.XXXXXX")
mkfifo -m 600 "$fifo"
gdbus monitor --system --dest "$DEST" --object-path "$OBJECT" > "$fifo" &
monitor=$!
trap 'kill "$monitor" 2>/dev/null || :; rm -f "$fifo"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT HUP
last=
while IFS= read -r line <&3; do
    case $line in
        *" is owned by "*)
            # The answer looks like (<'portrait'>,)
            name=$(gdbus call --system --dest "$DEST" --object-path "$OBJECT" \
                --method org.freedesktop.DBus.Properties.Get "$DEST" InterfaceOrientation) || continue
            name=${name#*\'}
            name=${name%%\'*}
            ;;
        *".InterfaceOrientationChanged ('"*)
            name=${line#*\(\'}
            name=${name%%\'*}
            ;;
        *) continue ;;
    esac
    # Nothing to say before the first decision, nor when a restarted daemon repeats itself.
    if [ "$name" = unknown ] || [ "$name" = "$last" ]; then
        continue
    fi
    last=$name
    echo "interface $name"
    if [ $# -gt 0 ]; then
        MOTION_ORIENTATION=$name MOTION_ORIENTATION_VALUE=$(value_of "$name") "$@" || true
    fi
done 3< "$fifo"
