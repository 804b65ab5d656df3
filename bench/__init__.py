"""make bench: motion-orientationd measured side by side with iio-sensor-proxy.

    make bench [BENCH_ARGS='--quick --runs N --output PATH --minute SECONDS ...']
    PYTHONPATH=Tests/integration /usr/bin/python3 -m bench [--quick] ...   (from the top directory)

Both daemons run at the same time on one umockdev testbed (one fake IIO accelerometer,
values written in place at up to 50 Hz), one private system bus (the integration rig,
Tests/integration/rig), and see the same motion. iio-sensor-proxy (Debian's
/usr/sbin/iio-sensor-proxy) is given the udev property its own rule would set
(IIO_SENSOR_PROXY_TYPE=iio-poll-accel) and claimed by its own client, `monitor-sensor`;
ours is claimed with Start() by a rig BusClient. Every bus message is read by
`busctl monitor`, whose receive timestamps (CLOCK_REALTIME, microseconds) time the
reactions against the moment the bench wrote the new reading.

What it measures (docs/dbus-api.md; docs/architecture.md, Figures):
  * reaction: a step quarter turn written into sysfs -> DeviceOrientationChanged (ours) /
    PropertiesChanged AccelerometerOrientation (theirs). "spaced": turns 1.5-3 s apart
    (seeded), after one unmeasured warm-up turn, i.e. a user turning the device now and
    then; "from rest": the device still for --rest seconds (default 10) before the turn;
    "smooth": --rotations quarter turns the way a hand turns a tablet (smoothstep over 0.3,
    0.45 or 0.6 s, leaning back 15 deg, written at 50 Hz), 2 s apart, timed from the turn's
    last write (negative: decided before the turn ended).
  * spurious orientation changes while the corpus traces Tests/traces/{shake-portrait,
    walking-landscape,free-fall-impact,dwell-45-tremor}.csv are replayed at their 50 Hz:
    changes beyond the ones Tests/traces/expected.txt lists (mapped to iio-sensor-proxy's
    names for theirs, which has no face-up/face-down orientation).
  * wakeups/s (voluntary context switches summed over /proc/PID/task/*/status) and CPU
    ms/s (sum_exec_runtime of /proc/PID/task/*/schedstat; utime+stime ticks in the JSON
    too) over --window seconds, a thread that ends in the window counted with its last
    values (procfs.Counting reads the threads every 0.25 s: iio-sensor-proxy's GLib pool
    thread ends about 15 s after its start): no claim; claimed and still; claimed and moving (a slow
    continuous rotation, 60 deg/s, leaning back 20 deg, 0.03 g noise); the same two claimed
    windows again with our low energy mode forced on ([Energy] LowEnergyMode=on, SIGHUP).
    Nothing talks to the daemons during these windows.
  * sensor reads/s (one read = the x, y and z channel files once): `strace -f -y` attached
    for a shorter window right after each claimed window, in the same state, counting
    read/pread64 calls on in_accel_x_raw. Optional: n/a without strace.
  * CPU microseconds per sample: CPU while moving / sensor reads while moving.
  * VmRSS idle (2 s after start) and after --minute seconds claimed, both binaries dropped
    from the page cache before each run's start (procfs.drop_cached; not before the timed
    start-ups); both daemons under
    umockdev's preload (which maps glib and umockdev into both), ours also without the
    preload (real /sys, so no accelerometer here) as a separate row.
  * a change-only HID sensor hub (Tests/integration/rig/drivers.py: buffered, reports only
    changes), each daemon in turn (one device node cannot feed both; theirs is given
    IIO_SENSOR_PROXY_TYPE=iio-buffer-accel): wakeups/s claimed and still over --window
    seconds after the hub's one report at power-up (goal 0), and the reaction from rest
    (--rest seconds, at most 5) to a turn the hub reports as three scans 40 ms apart,
    timed from its last report.
  * the mixed day (bench/day.py): both daemons claimed on the one device for a whole
    workload of --day-seconds (default 600, --quick 60) each: "desk", still with a quarter
    turn once a minute (a step and a smooth turn by turns), and "lap", a tablet on a lap
    (breathing, sway, a shift now and then, tremor) with one turn in 5 minutes; wakeups/s and
    CPU over all of it (goal: at most theirs), every turn timed on both, our seconds at each
    sampling interval. --variant NAME:Key=Value,... repeats it with [Sampling] keys given to
    ours (the shipped defaults first), each followed by --day-reactions spaced and smooth
    turns; one line per variant and workload in the trade table printed last. --day-only
    measures nothing else (a variant costs about 2 x --day-seconds + 1 minute).
  * start-up: exec -> the bus name's NameOwnerChanged at the monitor, --starts times each.
  * estimator-bench --json Tests/traces: throughput and the corpus table (its text output
    is printed first, as `make bench` always did).
  * binary sizes (and with their non-libc shared libraries).
  * tablet mode (ours only, bench/tablet.py, a rig of its own: a display and a base
    accelerometer, a fake /dev/uinput): wakeups/s with only the virtual tablet-mode switch
    on and the device still (no claim); the time from a fold from 120 to 250 degrees,
    written to sysfs while the hinge was still (the slow hinge interval), to the virtual
    switch's EV_SW write.

Noisy figures are shown as "median [min-max]" over --runs fresh starts of both daemons
(default 3); reactions and spurious counts are pooled from the first run. It asserts

Modules:
  __main__      the command line, the run, the exit status
  side_by_side  Bench: both daemons on one rig, the measured phases (start-up, energy
                windows, memory, reactions, spurious changes)
  day           the mixed day: whole workloads with turns, per [Sampling] variant
  change_only   the change-only HID hub phase, each daemon in turn on its own rig
  offline       the figures that need no running daemon (estimator-bench, the estimator's
                step delay through `replay`, binary sizes)
  daemons       Ours and SensorProxy: one interface to start, claim and read either daemon
  motion        motion written into the fake sensor: generated turns, recorded traces
  procfs        context switches, CPU and resident memory from /proc
  sensor_reads  sensor reads per second counted with strace
  table         statistics and the table of figures
  report        the table from the results, the text printed and bench/results.json
  progress      progress lines on stderr
"""
