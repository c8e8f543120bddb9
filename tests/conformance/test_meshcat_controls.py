"""Meshcat's added controls against pydrake's: slider values clamped and rounded as Drake's,
the names, the deletions and the errors."""

import importlib

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("meshcat")


def session(root):
    m = importlib.import_module(f"{root}.geometry")
    meshcat = m.Meshcat()
    out = [
        meshcat.AddSlider("a", 0, 1, 0.3, 0.5),
        meshcat.SetSliderValue("a", 2.0),
        meshcat.SetSliderValue("a", -1),
        meshcat.SetSliderValue("a", 0.44),
        meshcat.AddSlider(name="b", min=-1, max=1, step=0.1, value=0.123,
                          decrement_keycode="ArrowLeft", increment_keycode="ArrowRight"),
        meshcat.GetSliderValue("b"),
        meshcat.GetSliderNames(),
    ]  # fmt: skip
    meshcat.AddButton("Stop", "Escape")
    meshcat.AddButton("Stop", "Escape")
    out += [meshcat.GetButtonClicks("Stop"), meshcat.GetButtonNames()]
    errors = []
    for call in (
        lambda: meshcat.AddSlider("a", 0, 1, 0.1, 0.5),
        lambda: meshcat.AddSlider("Stop", 0, 1, 0.1, 0.5),
        lambda: meshcat.AddButton("a"),
        lambda: meshcat.AddButton("Stop", "Enter"),
        lambda: meshcat.GetSliderValue("zz"),
        lambda: meshcat.GetButtonClicks("zz"),
    ):
        with pytest.raises(RuntimeError) as info:
            call()
        errors.append(str(info.value))
    out += [
        meshcat.DeleteSlider("a"),
        meshcat.DeleteSlider("a", strict=False),
        meshcat.DeleteButton("Stop"),
        meshcat.DeleteButton("Stop", strict=False),
    ]
    with pytest.raises(RuntimeError) as info:
        meshcat.DeleteSlider("a")
    errors.append(str(info.value))
    meshcat.DeleteAddedControls()
    out += [meshcat.GetSliderNames(), meshcat.GetButtonNames()]
    return out, errors


def test_controls_agree_with_pydrake():
    (d, d_errors), (m, m_errors) = session("pydrake"), session("mallard")
    assert m == d
    assert m_errors == d_errors
