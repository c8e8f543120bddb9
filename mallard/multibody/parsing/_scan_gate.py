"""Whether a large document (a fast path's MIN_BYTES or more) is read by the compiled XML scan
(_xml_scan): not the first :data:`READER_FIRST` of a process, whatever their format (URDF,
MJCF), so that a process that parses one model does not load numba for it; from the next on."""

#: The large documents of a process read without the scan (URDF: by the reader; MJCF: by
#: expat's tables). The scan's load (0.35-0.43 s in a process that has loaded no kernel, ~10
#: ms in one that has) is repaid by 1-7 ms a document (~0.3 of the reader's time saved): never
#: by a process that parses one model (1-7 ms slower, not 0.4 s); a process that parses a
#: second (the benchmark's rounds, a batch) loads it then.
READER_FIRST = 1
_large = 0  # (the large documents counted in this process)


def scan_wanted():
    """Counts one large document; whether the scan reads it (from the process's
    READER_FIRST + 1-th on)."""
    global _large
    _large += 1
    return _large > READER_FIRST
