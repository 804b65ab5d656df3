#!/bin/sh
# hyprland-rotate.sh: turn a Hyprland monitor, its touchscreen and pen with the device.
# Start it once from hyprland.conf:
#
#     exec-once = MONITOR=eDP-1 /path/to/hyprland-rotate.sh
#
# It hands itself to `motion-orientation exec`, which runs this same file again for the
# current interface orientation and after every change, one run at a time, with the
# orientation in MOTION_ORIENTATION. MONITOR comes from `hyprctl monitors`; MODE,
# POSITION and SCALE are the other fields of the monitor rule (defaults: preferred,
# auto, auto).
set -eu
MONITOR=${MONITOR:-eDP-1}
MODE=${MODE:-preferred}
POSITION=${POSITION:-auto}
SCALE=${SCALE:-auto}

if [ -z "${MOTION_ORIENTATION:-}" ]; then
    exec motion-orientation exec --interface -- "$0" "$@"
fi

# Hyprland numbers the wl_output transforms: 0 normal, 1 = 90, 2 = 180, 3 = 270 degrees,
# the content turning counter-clockwise, the opposite way to the device.
case $MOTION_ORIENTATION in
    portrait) transform=0 ;;
    landscape-left) transform=1 ;;         # device turned clockwise
    portrait-upside-down) transform=2 ;;
    landscape-right) transform=3 ;;        # device turned counter-clockwise
    *) exit 0 ;;
esac

hyprctl keyword monitor "$MONITOR,$MODE,$POSITION,$SCALE,transform,$transform"
hyprctl keyword input:touchdevice:transform "$transform"
hyprctl keyword input:tablet:transform "$transform"
