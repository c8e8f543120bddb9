"""configure_logging and temp_directory (pydrake.common's)."""

import logging
import os
import sys
import tempfile

#: The format of configure_logging's messages (as Drake's C++ log lines).
_FORMAT = "[%(asctime)s] [%(name)s] [%(levelname)s] %(message)s"


def configure_logging():
    """Configures Python's root logger as Drake's log looks (time stamp, logger name, level)
    on stderr, at level INFO. Optional: mallard logs through ``logging.getLogger(name)``
    whether or not this is called."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_mallard_configured", False)]:
        root.removeHandler(old)
    handler._mallard_configured = True
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def temp_directory():
    """A new directory ``${parent}/robotlocomotion_drake_XXXXXX`` (no trailing "/"), parent
    being $TEST_TMPDIR, else $TMPDIR, else /tmp. RuntimeError if it cannot be created."""
    parent = os.environ.get("TEST_TMPDIR") or os.environ.get("TMPDIR") or "/tmp"
    try:
        return tempfile.mkdtemp(prefix="robotlocomotion_drake_", dir=parent).rstrip("/")
    except OSError as e:
        raise RuntimeError(f"temp_directory(): cannot create a directory in {parent}: {e}") from e
