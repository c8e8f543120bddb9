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
</body>
</html>
"""


class MeshcatServer:
    """Serves the viewer on 127.0.0.1:``port`` (0: an ephemeral port); ``scene()`` gives the
    packed commands that rebuild the scene for a new browser. RuntimeError if the port cannot
    be bound. close() stops it (the thread is a daemon: it does not keep Python alive)."""

    def __init__(self, port, scene, bundle):
        import tornado.httpserver
        import tornado.netutil
        import tornado.web
        import tornado.websocket

        server = self
        self._sockets = set()

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

        try:
            bound = tornado.netutil.bind_sockets(port, "127.0.0.1")
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
                [("/", Page), ("/main.min.js", Bundle), ("/ws", Socket)],
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

    def close(self):
        """Stops serving (closing the browsers' connections) and ends the thread."""
        if self._thread.is_alive():

            def stop():
                for socket in list(self._sockets):
                    socket.close()
                self._loop.stop()

            self._loop.add_callback(stop)
            self._thread.join(timeout=10)
