"""The default selection of tests.

``python -m pytest`` alone (no paths, no ``-m``) runs the fast subset: it deselects the tests
marked ``slow``, ``conformance`` or ``browser`` (the markers are declared in pyproject.toml).
``python -m pytest --all`` runs everything (CI and the README's test command do); paths or a
``-m`` expression select as usual (``python -m pytest tests/conformance``, ``-m "not slow"``).

A test that takes more than ~5 s with a warm numba cache is marked ``@pytest.mark.slow`` (a
whole module: ``pytestmark = pytest.mark.slow``); ``python -m pytest --durations=20`` finds them.
"""

import pytest

#: The markers of the tests that ``python -m pytest`` alone leaves out.
NOT_BY_DEFAULT = ("slow", "conformance", "browser")


def pytest_addoption(parser):
    parser.addoption(
        "--all",
        action="store_true",
        dest="run_all",
        help=f"run every test, also those marked {', '.join(NOT_BY_DEFAULT)}",
    )


def _default_selection(config):
    """Whether this run takes the default selection: no --all, no -m, no paths."""
    return (
        not config.option.run_all
        and not config.option.markexpr
        and config.args_source == pytest.Config.ArgsSource.TESTPATHS
    )


@pytest.hookimpl(trylast=True)  # (after tests/conformance/conftest.py has marked its tests)
def pytest_collection_modifyitems(config, items):
    if not _default_selection(config):
        return
    kept, deselected = [], []
    for item in items:
        marked = any(item.get_closest_marker(name) for name in NOT_BY_DEFAULT)
        (deselected if marked else kept).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept
        config.stash[_DESELECTED] = len(deselected)


_DESELECTED = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, config):
    count = config.stash.get(_DESELECTED, 0)
    if count:
        terminalreporter.write_line(
            f"{count} tests marked {', '.join(NOT_BY_DEFAULT)} were left out; "
            "`python -m pytest --all` runs every test."
        )
