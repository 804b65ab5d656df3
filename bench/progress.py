"""Progress lines on stderr, stamped with the seconds since the bench started."""

import sys
import time


def log(message):
    sys.stderr.write("[bench %6.1fs] %s\n" % (time.monotonic() - STARTED, message))
    sys.stderr.flush()


STARTED = time.monotonic()
