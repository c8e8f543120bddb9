"""Helpers of the Meshcat tests: the viewer commands a StaticHtml() page replays."""

import base64
import re


def html_commands(html):
    """The decoded viewer commands embedded in a StaticHtml() page, in order."""
    import umsgpack

    block = re.search(r"var commands = \[(.*?)\];", html, re.S).group(1)
    return [umsgpack.unpackb(base64.b64decode(s)) for s in re.findall(r'"([^"]+)"', block)]
