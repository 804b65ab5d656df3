#!/bin/sh
# x11-rotate.sh: turn an X11 output and its touchscreen with the device. Start it once
# with the session, e.g. from ~/.xprofile:
#
#     OUTPUT=eDP-1 TOUCHSCREEN="ELAN9008:00 04F3:2C82" /path/to/x11-rotate.sh &
#
# It hands itself to `motion-orientation exec`, which runs this same file again for the
# current interface orientation and after every change, one run at a time, with the
# orientation in MOTION_ORIENTATION. OUTPUT comes from `xrandr`, TOUCHSCREEN (a name or
# an id) from `xinput list`; without TOUCHSCREEN only the picture turns.
set -eu
OUTPUT=${OUTPUT:-eDP-1}
TOUCHSCREEN=${TOUCHSCREEN:-}

if [ -z "${MOTION_ORIENTATION:-}" ]; then
    exec motion-orientation exec --interface -- "$0" "$@"
fi

# xrandr names the way the picture turns; the matrix maps touch coordinates (0..1) the
# same way, row by row.
case $MOTION_ORIENTATION in
    portrait) rotate=normal matrix="1 0 0 0 1 0 0 0 1" ;;
    landscape-left) rotate=left matrix="0 -1 1 1 0 0 0 0 1" ;;      # device turned clockwise
    portrait-upside-down) rotate=inverted matrix="-1 0 1 0 -1 1 0 0 1" ;;
    landscape-right) rotate=right matrix="0 1 0 -1 0 1 0 0 1" ;;    # device turned counter-clockwise
    *) exit 0 ;;
esac

xrandr --output "$OUTPUT" --rotate "$rotate"
if [ -n "$TOUCHSCREEN" ]; then
    # The matrix is nine separate arguments, hence no quotes.
    # shellcheck disable=SC2086
    xinput set-prop "$TOUCHSCREEN" "Coordinate Transformation Matrix" $matrix
fi
