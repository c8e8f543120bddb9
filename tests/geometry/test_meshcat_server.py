"""Meshcat(port): the live viewer served from a thread of this process (on an ephemeral
port): its page and script over HTTP, the scene then each change over the websocket."""

import asyncio
import gc
import socket
import urllib.request

import numpy as np
import pytest

pytest.importorskip("meshcat")
websocket = pytest.importorskip("tornado.websocket")

import umsgpack  # noqa: E402

from mallard.geometry import Box, Meshcat  # noqa: E402
from mallard.math import RigidTransform  # noqa: E402


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def test_page_and_script_are_served():
    meshcat = Meshcat(port=0)
    url = meshcat.web_url()
    assert url == f"http://localhost:{meshcat.port()}" and meshcat.port() > 0
    page = get(url).decode()
    assert "new MeshCat.Viewer" in page and '"/ws"' in page
    assert get(url + "/main.min.js") == meshcat._bundle.read_bytes()


def test_websocket_gets_the_scene_then_each_change():
    meshcat = Meshcat(port=0)
    meshcat.SetObject("box", Box(1, 2, 3))
    meshcat.SetTransform("box", RigidTransform([1.0, 2.0, 3.0]))

    async def session():
        connection = await websocket.websocket_connect(f"ws://localhost:{meshcat.port()}/ws")
        first = [umsgpack.unpackb(await connection.read_message()) for _ in range(2)]
        assert meshcat.GetNumActiveConnections() == 1
        meshcat.SetTransform("box", RigidTransform([4.0, 5.0, 6.0]))
        meshcat.Delete("box")
        later = [umsgpack.unpackb(await connection.read_message()) for _ in range(2)]
        connection.close()
        return first, later

    first, later = asyncio.run(asyncio.wait_for(session(), timeout=60))
    assert [c["type"] for c in first] == ["set_object", "set_transform"]
    assert first[0]["path"] == "/drake/box"
    assert [c["type"] for c in later] == ["set_transform", "delete"]
    matrix = np.array(later[0]["matrix"]).reshape(4, 4).T
    np.testing.assert_array_equal(matrix[:3, 3], [4.0, 5.0, 6.0])


def test_the_server_stops_with_its_meshcat():
    meshcat = Meshcat(port=0)
    thread, port = meshcat._server._thread, meshcat.port()
    assert thread.is_alive()
    del meshcat
    gc.collect()
    assert not thread.is_alive()
    with socket.socket() as s:  # the port is free again
        s.bind(("127.0.0.1", port))


def test_port_errors():
    with pytest.raises(RuntimeError, match="the port must be 0 or >= 1024"):
        Meshcat(port=80)
    meshcat = Meshcat(port=0)
    with pytest.raises(RuntimeError, match=f"cannot listen on port {meshcat.port()}"):
        Meshcat(port=meshcat.port())


def test_controls_go_to_the_browser_and_come_back():
    """The added sliders and buttons reach a browser over "/controls" (the whole panel, then
    again at each change); its slider moves and clicks come back to Get*."""
    import json

    meshcat = Meshcat(port=0)
    meshcat.AddSlider("q", -1.0, 1.0, 0.01, 0.25, "ArrowLeft", "ArrowRight")
    meshcat.AddButton("Stop", "Escape")

    async def session():
        url = f"ws://localhost:{meshcat.port()}/controls"
        connection = await websocket.websocket_connect(url)
        first = json.loads(await connection.read_message())
        await connection.write_message(json.dumps({"slider": "q", "value": 0.503}))
        await connection.write_message(json.dumps({"button": "Stop"}))
        await connection.write_message(json.dumps({"button": "Stop"}))
        await connection.write_message("not json")
        await connection.write_message(json.dumps({"slider": "gone", "value": 1}))
        after_move = json.loads(await connection.read_message())  # (the moved slider)
        while meshcat.GetButtonClicks("Stop") < 2:
            await asyncio.sleep(0.01)
        meshcat.DeleteSlider("q")
        after_delete = json.loads(await connection.read_message())
        connection.close()
        return first, after_move, after_delete

    first, after_move, after_delete = asyncio.run(asyncio.wait_for(session(), timeout=60))
    assert first["sliders"] == [
        {"name": "q", "min": -1.0, "max": 1.0, "step": 0.01, "value": 0.25,
         "decrement": "ArrowLeft", "increment": "ArrowRight"}
    ]  # fmt: skip
    assert first["buttons"] == [{"name": "Stop", "keycode": "Escape"}]
    assert after_move["sliders"][0]["value"] == pytest.approx(0.5)
    assert after_delete["sliders"] == [] and meshcat.GetButtonClicks("Stop") == 2
    page = get(meshcat.web_url()).decode()
    assert '"/controls"' in page and "mallard-controls" in page
