"""The live side of Meshcat(port): an HTTP and websocket server (tornado, which the meshcat
package brings) on a daemon thread of this process. It serves the viewer page at "/" and its
JavaScript at "/main.min.js", sends each browser that connects to "/ws" the whole scene,
then every command the Meshcat issues."""

import asyncio
import pathlib
import threading

_PAGE = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>MeshCat</title>
<style>body { margin: 0; } #meshcat-pane { width: 100vw; height: 100vh; overflow: hidden; }
</style></head>
<body>
<div id="meshcat-pane"></div>
<script src="main.min.js"></script>
<script>
var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
viewer.connect("ws://" + window.location.host + "/ws");
</script>
<script>
// The added controls (Meshcat.AddSlider, AddButton): a panel of sliders and buttons whose
// changes go back to Python over "/controls"; Python sends the whole panel when it changes.
var panel = document.createElement("div");
panel.id = "mallard-controls";
panel.style.cssText = "position: fixed; top: 8px; left: 8px; z-index: 10; font: 13px sans-serif;" +
  " background: rgba(255, 255, 255, 0.85); padding: 4px 8px; border-radius: 4px;";
document.body.appendChild(panel);
var controls = new WebSocket("ws://" + window.location.host + "/controls");
var keys = {};
controls.onmessage = function (event) {
  var state = JSON.parse(event.data);
  panel.innerHTML = "";
  keys = {};
  state.buttons.forEach(function (b) {
    var button = document.createElement("button");
    button.textContent = b.name;
    button.onclick = function () { controls.send(JSON.stringify({button: b.name})); };
    panel.appendChild(button);
    panel.appendChild(document.createElement("br"));
    if (b.keycode) keys[b.keycode] = button.onclick;
  });
  state.sliders.forEach(function (s) {
    var row = document.createElement("div");
    var label = document.createElement("span");
    var input = document.createElement("input");
    input.type = "range"; input.min = s.min; input.max = s.max; input.step = s.step;
    input.value = s.value; input.title = s.name;
    label.textContent = s.name + " " + s.value.toPrecision(4) + " ";
    input.oninput = function () {
      label.textContent = s.name + " " + Number(input.value).toPrecision(4) + " ";
      controls.send(JSON.stringify({slider: s.name, value: Number(input.value)}));
    };
    function nudge(sign) {
      input.value = Number(input.value) + sign * s.step;
      input.oninput();
    }
    if (s.decrement) keys[s.decrement] = function () { nudge(-1); };
    if (s.increment) keys[s.increment] = function () { nudge(1); };
    row.appendChild(label); row.appendChild(input); panel.appendChild(row);
  });
  panel.style.display = state.buttons.length + state.sliders.length ? "block" : "none";
};
document.addEventListener("keydown", function (event) {
  if (keys[event.code]) keys[event.code]();
});
</script>
</body>
</html>
"""


class MeshcatServer:
    """Serves the viewer on ``host`` ("*": every interface; default 127.0.0.1) at ``port`` (0:
    an ephemeral port); ``scene()`` gives the
    packed commands that rebuild the scene for a new browser; ``controls`` (a
    MeshcatControls, or None) holds the added sliders and buttons, which browsers show and
    change over "/controls". RuntimeError if the port cannot be bound. close() stops it (the
    thread is a daemon: it does not keep Python alive)."""

    def __init__(self, port, scene, bundle, controls=None, host="127.0.0.1"):
        import tornado.httpserver
        import tornado.netutil
        import tornado.web
        import tornado.websocket

        server = self
        self._sockets = set()
        self._control_sockets = set()
        self._controls = controls

        class Page(tornado.web.RequestHandler):
            def get(self):
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.write(_PAGE)

        class Bundle(tornado.web.RequestHandler):
            def get(self):
                self.set_header("Content-Type", "application/javascript")
                self.write(pathlib.Path(bundle).read_bytes())

        class Socket(tornado.websocket.WebSocketHandler):
            def open(self):
                server._sockets.add(self)
                for packed in scene():
                    self.write_message(packed, binary=True)

            def on_close(self):
                server._sockets.discard(self)

        class Controls(tornado.websocket.WebSocketHandler):
            def open(self):
                server._control_sockets.add(self)
                if server._controls is not None:
                    self.write_message(server._controls.state())

            def on_message(self, message):
                if server._controls is not None:
                    server._controls.receive(message)

            def on_close(self):
                server._control_sockets.discard(self)

        try:
            bound = tornado.netutil.bind_sockets(port, None if host == "*" else host)
        except OSError as e:
            raise RuntimeError(f"Meshcat: cannot listen on port {port} ({e.strerror})") from None
        self._port = bound[0].getsockname()[1]
        self._loop = None
        started = threading.Event()

        def run():
            asyncio.set_event_loop(asyncio.new_event_loop())
            import tornado.ioloop

            self._loop = tornado.ioloop.IOLoop.current()
            app = tornado.web.Application(
                [("/", Page), ("/main.min.js", Bundle), ("/ws", Socket), ("/controls", Controls)],
                log_function=lambda handler: None,  # no access log
            )
            http = tornado.httpserver.HTTPServer(app)
            http.add_sockets(bound)
            started.set()
            self._loop.start()
            http.stop()
            self._loop.close(all_fds=True)

        self._thread = threading.Thread(target=run, name=f"meshcat:{self._port}", daemon=True)
        self._thread.start()
        started.wait()

    def port(self):
        return self._port

    def num_connections(self):
        return len(self._sockets)

    def send(self, packed):
        """Sends one packed command to every connected browser."""

        def broadcast():
            for socket in list(self._sockets):
                socket.write_message(packed, binary=True)

        self._loop.add_callback(broadcast)

    def send_controls(self):
        """Sends the controls' state to every connected browser."""
        if self._controls is None:
            return
        state = self._controls.state()

        def broadcast():
            for socket in list(self._control_sockets):
                socket.write_message(state)

        self._loop.add_callback(broadcast)

    def close(self):
        """Stops serving (closing the browsers' connections) and ends the thread."""
        if self._thread.is_alive():

            def stop():
                for socket in list(self._sockets) + list(self._control_sockets):
                    socket.close()
                self._loop.stop()

            self._loop.add_callback(stop)
            self._thread.join(timeout=10)
