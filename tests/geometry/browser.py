"""Headless Chromium for the viewer tests: where it is, a page's screenshot and its DOM."""

import os
import shutil
import signal
import subprocess


def find_chromium():
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = find_chromium()
_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--use-gl=swiftshader",
    "--enable-unsafe-swiftshader",
    "--window-size=800,600",
)


def _run(arguments, profile, timeout=180):
    """Runs Chromium with ``arguments``; returns its stdout (its process group is killed if it
    has not finished in ``timeout`` s)."""
    command = [CHROMIUM, *_FLAGS, f"--user-data-dir={profile}", *arguments]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        out, _ = process.communicate(timeout=timeout)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return out.decode("utf-8", errors="replace")


def screenshot(url, path, profile):
    """The RGB pixels (floats in [0, 1]) of ``url`` rendered by headless Chromium."""
    from matplotlib import image

    _run([f"--screenshot={path}", "--virtual-time-budget=5000", url], profile)
    return image.imread(path)[:, :, :3]


def dump_dom(url, profile):
    """The DOM of ``url`` once loaded (its scripts run in real time), as HTML text."""
    return _run(["--dump-dom", url], profile)
