"""Warnings and errors of the parsers, located as ``file:line`` as Drake's parsers do.

Warnings go to the ``mallard.parsing`` logger (``logging``; each record as ``Logger.warning``
makes it, its caller taken as Diagnostics.warning without a walk of the stack), or become
errors with strict parsing; errors raise RuntimeError. The text is
``{file}:{line}: warning: {message}`` or ``{file}:{line}: error: {message}``.
"""

import logging

LOGGER = logging.getLogger("mallard.parsing")


class Diagnostics:
    """Reports problems found in one document, with its file name and strictness."""

    def __init__(self, strict=False):
        self.strict = strict
        self.warnings = 0  # (how many were reported)

    @staticmethod
    def _where(element, file=None, line=None):
        if element is not None:
            file, line = element.file, element.line
        if file is None:
            return ""
        return f"{file}:{line}: " if line is not None else f"{file}: "

    def error(self, element, message, file=None, line=None):
        """Raises RuntimeError for ``message`` at ``element`` (or at ``file``:``line``)."""
        raise RuntimeError(f"{self._where(element, file, line)}error: {message}")

    def warning(self, element, message, file=None, line=None):
        """Logs ``message`` at ``element`` as a warning (an error with strict parsing)."""
        self.warnings += 1
        if self.strict:
            self.error(element, message, file, line)
        if LOGGER.isEnabledFor(logging.WARNING):  # (LOGGER.warning without findCaller's walk)
            LOGGER.handle(LOGGER.makeRecord(
                LOGGER.name, logging.WARNING, __file__, _LINE, "%swarning: %s",
                (self._where(element, file, line), message), None, "warning",
            ))  # fmt: skip


#: The line a warning's record gives (its pathname: this file, its funcName: "warning"):
#: Diagnostics.warning's first.
_LINE = Diagnostics.warning.__code__.co_firstlineno
