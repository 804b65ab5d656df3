#!/bin/sh
# sway-rotate.sh: turn a sway output, and the touchscreen and pen mapped to it, with the
# device. Start it once from the sway configuration:
#
#     exec OUTPUT=eDP-1 /path/to/sway-rotate.sh
#
# It hands itself to `motion-orientation exec`, which runs this same file again for the
# current interface orientation and after every change, one run at a time, with the
# orientation in MOTION_ORIENTATION. OUTPUT is the panel (`swaymsg -t get_outputs`).
set -eu
OUTPUT=${OUTPUT:-eDP-1}

if [ -z "${MOTION_ORIENTATION:-}" ]; then
    exec motion-orientation exec --interface -- "$0" "$@"
fi

# sway's transforms are those of wl_output: the content turns counter-clockwise, the
# opposite way to the device.
case $MOTION_ORIENTATION in
    portrait) transform=normal ;;
    landscape-left) transform=90 ;;        # device turned clockwise
    portrait-upside-down) transform=180 ;;
    landscape-right) transform=270 ;;      # device turned counter-clockwise
    *) exit 0 ;;
esac

swaymsg output "$OUTPUT" transform "$transform"
# Touch and pen input mapped to an output follow its transform.
swaymsg input type:touch map_to_output "$OUTPUT"
swaymsg input type:tablet_tool map_to_output "$OUTPUT"
