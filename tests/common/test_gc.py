"""paused_collection: the collector paused for the block and left as it was after it."""

import gc

import pytest

from mallard.common._gc import paused_collection


@pytest.fixture
def restore_collector():
    enabled = gc.isenabled()
    yield
    (gc.enable if enabled else gc.disable)()


def test_pauses_and_resumes(restore_collector):
    gc.enable()
    with paused_collection():
        assert not gc.isenabled()
        with paused_collection():  # (Finalize inside a parse's block, say)
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_resumes_after_an_error(restore_collector):
    gc.enable()
    with pytest.raises(ValueError), paused_collection():
        raise ValueError("a model that fails")
    assert gc.isenabled()


def test_leaves_a_disabled_collector_disabled(restore_collector):
    gc.disable()
    with paused_collection():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_the_collection_due_runs_as_the_block_ends(restore_collector):
    """The young objects the block made (alive: 2,000 lists) are collected (scanned) once, as
    the block ends, not at the next allocation after it (in the caller's time)."""
    events = []

    def record(phase, info):
        events.append(phase)

    gc.enable()
    gc.collect()
    gc.callbacks.append(record)
    try:
        with paused_collection():
            alive = [[] for _ in range(2000)]
        events.append("after the block")
    finally:
        gc.callbacks.remove(record)
    assert events == ["start", "stop", "after the block"] and len(alive) == 2000
