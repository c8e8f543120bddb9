"""Meshcat's added controls (pydrake's AddSlider, AddButton, ...): sliders and buttons a live
viewer shows in a panel, whose values and clicks come back from the browser. The state lives
here (shared with the server's thread under a lock); the server sends ``state()`` to each
browser and passes its messages to ``receive``."""

import json
import math
import threading


def _rounded(value, low, high, step):
    """``value`` clamped to [low, high] then rounded to a multiple of ``step`` (halves away
    from zero), as Drake's sliders do."""
    value = min(max(float(value), low), high)
    n = value / step
    return math.copysign(math.floor(abs(n) + 0.5), n) * step


class MeshcatControls:
    """The sliders (name → [min, max, step, value, decrement key, increment key]) and buttons
    (name → [clicks, key]) of one Meshcat, in the order they were added. ``on_change()``
    is called (with the lock released) whenever they change."""

    def __init__(self, on_change):
        self._lock = threading.Lock()
        self._sliders = {}
        self._buttons = {}
        self._on_change = on_change

    def _changed(self):
        self._on_change()

    # ---- sliders -----------------------------------------------------------------------------
    def add_slider(self, name, low, high, step, value, decrement_keycode, increment_keycode):
        with self._lock:
            if name in self._buttons:
                raise RuntimeError(f"Meshcat already has a button named {name}.")
            if name in self._sliders:
                raise RuntimeError(f"Meshcat already has a slider named {name}.")
            low, high, step = float(low), float(high), float(step)
            value = _rounded(value, low, high, step)
            keys = (str(decrement_keycode), str(increment_keycode))
            self._sliders[name] = [low, high, step, value, *keys]
        self._changed()
        return value

    def _slider(self, name):
        slider = self._sliders.get(name)
        if slider is None:
            names = ", ".join(self._sliders)
            raise RuntimeError(
                f"Meshcat does not have any slider named {name}. The registered slider names "
                f"are ({names})."
            )
        return slider

    def set_slider(self, name, value):
        with self._lock:
            slider = self._slider(name)
            slider[3] = _rounded(value, *slider[:3])
            value = slider[3]
        self._changed()
        return value

    def slider_value(self, name):
        with self._lock:
            return self._slider(name)[3]

    def slider_names(self):
        with self._lock:
            return sorted(self._sliders)  # (as Drake lists them)

    def delete_slider(self, name, strict):
        with self._lock:
            if name not in self._sliders:
                if strict:
                    self._slider(name)
                return False
            del self._sliders[name]
        self._changed()
        return True

    # ---- buttons -----------------------------------------------------------------------------
    def add_button(self, name, keycode):
        keycode = str(keycode)
        with self._lock:
            if name in self._sliders:
                raise RuntimeError(f"Meshcat already has a slider named {name}.")
            button = self._buttons.get(name)
            if button is not None:  # (adding it again resets its clicks, as Drake's)
                if button[1] and button[1] != keycode:
                    raise RuntimeError(
                        f"Meshcat already has a button named `{name}`, but the previously "
                        f"assigned keycode `{button[1]}` does not match the current keycode "
                        f"`{keycode}`. To re-assign the keycode, you must first delete the "
                        "button."
                    )
                keycode = keycode or button[1]
            self._buttons[name] = [0, keycode]
        self._changed()

    def _button(self, name):
        button = self._buttons.get(name)
        if button is None:
            names = ", ".join(self._buttons)
            raise RuntimeError(
                f"Meshcat does not have any button named {name}. The registered button names "
                f"are ({names})."
            )
        return button

    def button_clicks(self, name):
        with self._lock:
            return self._button(name)[0]

    def button_names(self):
        with self._lock:
            return sorted(self._buttons)

    def delete_button(self, name, strict):
        with self._lock:
            if name not in self._buttons:
                if strict:
                    self._button(name)
                return False
            del self._buttons[name]
        self._changed()
        return True

    def delete_all(self):
        with self._lock:
            self._sliders.clear()
            self._buttons.clear()
        self._changed()

    # ---- the browser's side ------------------------------------------------------------------
    def state(self):
        """The controls as the viewer page draws them (a JSON text)."""
        with self._lock:
            sliders = [
                {"name": n, "min": s[0], "max": s[1], "step": s[2], "value": s[3],
                 "decrement": s[4], "increment": s[5]}
                for n, s in self._sliders.items()
            ]  # fmt: skip
            buttons = [{"name": n, "keycode": b[1]} for n, b in self._buttons.items()]
        return json.dumps({"sliders": sliders, "buttons": buttons})

    def receive(self, text):
        """A browser's message: ``{"slider": name, "value": v}`` (the user moved a slider) or
        ``{"button": name}`` (a click); unknown names (deleted meanwhile) and malformed
        messages are ignored."""
        try:
            message = json.loads(text)
            if "slider" in message:
                with self._lock:
                    slider = self._sliders.get(message["slider"])
                    if slider is None:
                        return
                    slider[3] = _rounded(float(message["value"]), *slider[:3])
                self._changed()
            elif "button" in message:
                with self._lock:
                    button = self._buttons.get(message["button"])
                    if button is not None:
                        button[0] += 1
        except (ValueError, TypeError, KeyError):
            return
