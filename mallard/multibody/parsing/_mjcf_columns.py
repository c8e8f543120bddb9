"""An element kind's attributes, with their ``<default>``s, by columns, for the MJCF fast path
(_mjcf_fast): ``Columns`` over the attribute dicts of the expat tables (_mjcf_tables.Tables);
_mjcf_scan.ScanColumns answers the same questions from the compiled scan's attribute rows.

The questions: ``len``, ``names`` (the attribute names the elements hold), ``has(name)`` (a
bool array), ``any_of(names)`` (whether each holds one of ``names``), ``texts(name, default)``
(a list), ``numbers(name, count, default)`` (as _mjcf_frames.column: (n,) or (n, count),
Declined unless plain finite decimals; ``default`` "": required, None: NaN where absent),
``table(specs)`` (several numbers' columns at once), ``sizes(name, counts)`` (each text's 1 to
3 numbers, NaN past them), ``looks(names)`` (each element's tuple of texts), ``attrib(k)``
(one element's dict), ``take(places)`` and ``joined(parts)``."""

import numpy as np

from mallard.multibody.parsing._mjcf_frames import column, numbers
from mallard.multibody.parsing._mjcf_inertias import sizes


class Columns:
    """The attribute dicts ``dicts`` of a kind's elements (their defaults applied), by columns."""

    __slots__ = ("dicts", "_names", "_made")

    def __init__(self, dicts):
        self.dicts, self._names, self._made = dicts, None, {}

    def __len__(self):
        return len(self.dicts)

    @property
    def names(self):
        if self._names is None:
            self._names = set().union(*self.dicts)
        return self._names

    def has(self, name):
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = np.array([name in a for a in self.dicts], bool)
            made.flags.writeable = False
        return made

    def any_of(self, names):
        return np.array([not names.isdisjoint(a) for a in self.dicts], bool)

    def texts(self, name, default=None):
        return [a.get(name, default) for a in self.dicts]

    def numbers(self, name, count, default):
        if default is not None:
            return column(self.dicts, name, count, default)
        texts = [a.get(name) for a in self.dicts]
        present = [k for k, text in enumerate(texts) if text is not None]
        if len(present) == len(texts):
            return numbers(texts, count)
        out = np.full((len(texts), count) if count > 1 else len(texts), np.nan)
        if present:
            out[present] = numbers([texts[k] for k in present], count)
        return out

    def table(self, specs):
        return [self.numbers(name, count, default) for name, count, default in specs]

    def sizes(self, name, counts):
        """The numbers of ``name`` of each element (1 to 3, NaN past them: (n, 3)), ``counts``
        the expected count of each (_mjcf_inertias.sizes)."""
        return sizes(self.texts(name, ""), counts)

    def looks(self, names):
        return [tuple(map(a.get, names)) for a in self.dicts]

    def attrib(self, k):
        return self.dicts[k]

    def take(self, places):
        dicts = self.dicts
        return Columns([dicts[k] for k in places])

    @staticmethod
    def joined(parts):
        return Columns([a for part in parts for a in part.dicts])
