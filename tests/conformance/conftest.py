"""Every test of tests/conformance compares mallard with pydrake: each is marked
``conformance`` (left out by ``python -m pytest`` alone; see tests/conftest.py)."""

import pathlib

import pytest

_HERE = pathlib.Path(__file__).parent


def pytest_collection_modifyitems(items):
    # (this hook sees every collected test, not only this directory's)
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.conformance)
