"""Frames to the host (docs/runner-protocol.md, "Frames"): length-prefixed
JSON on a private copy of the frame pipe, written by a small exact encoder
so the json package stays unloaded, and the drawing's steps as JSON within
a byte budget (the result's replay steps, a live run's draw frames).
"""

from kidrunner_base import _b2a, _close, _write

RESULT_BUDGET = 15 * 1024 * 1024   # the host drops frames over 16 MiB
DRAWING_BUDGET = 4 * 1024 * 1024   # the steps the checks read, at most
# No step's JSON is shorter than this, comma included ('{"k":"clear","s":0},'),
# and no move's than _MIN_MOVE ('{"k":"move","t":0,"s":0,"x1":0,"y1":0,"x2":0,"y2":0},'):
# a drawing too big for its budget is known to be before anything is encoded.
_MIN_STEP = 20
_MIN_MOVE = 53


# -- JSON out: small and exact, so the json package stays unloaded

class RawJSON(str):
    """Text that is already JSON, written into a frame as it is."""


_ESCAPES = {i: "\\u%04x" % i for i in range(32)}
_ESCAPES.update({0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t",
                 0x08: "\\b", 0x0c: "\\f"})


def _jstr(s):
    return '"' + str.translate(s, _ESCAPES) + '"'


def _jfloat(v):
    # NaN and infinities are not JSON: a frame holding them would be dropped whole.
    if v - v == 0:
        return float.__repr__(v)
    return "null"


def _enc(o, out):
    """Append the JSON for o to out, as json.dumps(ensure_ascii=False) writes it."""
    t = type(o)
    if t is str:
        out.append(_jstr(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float:
        out.append(_jfloat(o))
    elif t is dict:
        out.append("{")
        first = True
        for k, v in o.items():
            if not isinstance(k, str):
                raise TypeError("keys must be str")
            if not first:
                out.append(",")
            first = False
            out.append(_jstr(k))
            out.append(":")
            _enc(v, out)
        out.append("}")
    elif t is list or t is tuple:
        out.append("[")
        first = True
        for v in o:
            if not first:
                out.append(",")
            first = False
            _enc(v, out)
        out.append("]")
    elif t is RawJSON:
        out.append(str.__str__(o))
    elif isinstance(o, str):
        out.append(_jstr(o))
    elif isinstance(o, int):
        out.append(int.__repr__(o))
    elif isinstance(o, float):
        out.append(_jfloat(o))
    elif isinstance(o, (list, tuple, dict)):
        _enc(dict(o) if isinstance(o, dict) else list(o), out)
    else:
        raise TypeError("not JSON: %s" % t.__name__)


def to_json(o):
    out = []
    _enc(o, out)
    return "".join(out)


class Frames(object):
    """Length-prefixed JSON frames on a private copy of the frame pipe."""

    def __init__(self, fd):
        self.fd = None
        self.sent = 0   # bytes written, frame heads included (the host reads 64 MiB at most)
        if fd is None:
            return
        try:
            import fcntl
            self.fd = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64)
            if fd > 2:
                _close(fd)
        except (OSError, ImportError):
            self.fd = fd

    def send(self, obj):
        """Send obj as one frame; False if it could not be encoded or written."""
        if self.fd is None:
            return False
        try:
            text = to_json(obj)
        except Exception:
            return False
        return self.send_text(text)

    def send_text(self, text):
        """Send text, already one JSON object, as one frame."""
        if self.fd is None:
            return False
        return self.send_bytes(text.encode("utf-8", "replace"))

    def send_bytes(self, data):
        """Send data, one JSON object's UTF-8, as one frame."""
        if self.fd is None:
            return False
        head = len(data).to_bytes(4, "big")
        # Small frames (most live ones) go out in one write.
        parts = (head + data,) if len(data) < 65536 else (head, data)
        try:
            for part in parts:
                view = memoryview(part)
                while view:
                    n = _write(self.fd, view)
                    view = view[n:]
        except OSError:
            return False
        self.sent += len(data) + 4
        return True

def _b64_bytes(data):
    # Base64 is pure ASCII, so it goes into the frame without JSON escaping.
    return _b2a(data, newline=False).decode("ascii")


def _num2(v):
    """A coordinate as JSON, rounded to 2 decimals as the drawing model says."""
    if type(v) is float:
        return _jfloat(round(v, 2))
    if type(v) is int:
        return int.__repr__(v)
    return to_json(v)


def _move_json(t, s, x1, y1, x2, y2):
    head = '{"k":"move",' if t is None else '{"k":"move","t":%s,' % to_json(t)
    return head + '"s":%s,"x1":%s,"y1":%s,"x2":%s,"y2":%s' % (
        to_json(s), _num2(x1), _num2(y1), _num2(x2), _num2(y2))


_NAMES = {}


def _field_names(fields):
    """Each step kind's field names as JSON keys with their colon, worked out once per table."""
    names = _NAMES.get(id(fields))
    if names is None or names[0] is not fields:
        names = _NAMES[id(fields)] = (fields, {k: [_jstr(f) + ":" for f in fs] for k, fs in fields.items()})
    return names[1]


def steps_json(steps, budget, fields):
    """The steps as one JSON array of at most budget bytes: (text, cut)."""
    out, cut = step_texts(steps, budget, fields)
    return "[" + ",".join(out) + "]", cut


def step_texts(steps, budget, fields):
    """Each step's JSON object text, while the array of them stays within budget bytes: (texts, cut).

    Built in one pass with the common kinds formatted directly; a step that
    would cross the budget ends the list there.
    """
    out = []
    size = 1             # "[" and "]", and each step's text with its comma, less one comma
    cut = False
    names = _field_names(fields)
    scalar = {}          # colours and widths repeat: encode each once
    # "%.2f" reads back as exactly round(v, 2), and costs one C call for the lot.
    move_fmt = '{"k":"move","t":%d,"s":%d,"x1":%.2f,"y1":%.2f,"x2":%.2f,"y2":%.2f%s'
    last_c = last_w = last_tail = None     # the last move's colour and width, and their text
    for st in steps:
        k = st[0]
        if k == "move":
            _, t, s, x1, y1, x2, y2, c, w = st
            # Runs of moves share one colour and width (the same objects).
            if c is last_c and w is last_w and last_tail is not None:
                tail = last_tail
            else:
                key = (c, w, type(w))
                try:
                    tail = scalar.get(key)
                except TypeError:       # a width the program made unhashable
                    key = tail = None
                if tail is None:
                    tail = "}" if c is None else ',"c":%s,"w":%s}' % (to_json(c), to_json(w))
                    if key is not None:
                        scalar[key] = tail
                if key is not None and (type(w) is int or type(w) is float):
                    last_c, last_w, last_tail = c, w, tail
                else:
                    last_tail = None
            if (type(x1) is float and type(y1) is float and type(x2) is float and type(y2) is float
                    and type(t) is int and type(s) is int):
                total = x1 + y1 + x2 + y2
                if total - total == 0:      # all finite, so valid JSON numbers
                    text = move_fmt % (t, s, x1, y1, x2, y2, tail)
                else:
                    text = _move_json(t, s, x1, y1, x2, y2) + tail
            else:
                text = _move_json(t, s, x1, y1, x2, y2) + tail
        else:
            vals = list(st[1:])
            if k == "dot":
                vals[2], vals[3] = RawJSON(_num2(vals[2])), RawJSON(_num2(vals[3]))
            parts = ['{"k":', _jstr(k)]
            for name, v in zip(names.get(k, ()), vals):
                if name == '"t":' and v is None:
                    continue
                parts.append(",")
                parts.append(name)
                _enc(v, parts)
            parts.append("}")
            text = "".join(parts)
        size += len(text) + 1
        if size > budget:
            cut = True
            break
        out.append(text)
    return out, cut


def drawing_json(model, budget, box, fields, cut=False):
    """The drawing model for the result frame, its steps' JSON within budget bytes.

    None when the steps do not fit, unless cut: then they are cut to fit
    (the checks read the first part). Whether they fit is known before
    encoding when even the shortest steps could not.
    box: the SVG's [x0, y0, x1, y1] in pixels, which frames everything drawn
    (None: the canvas).
    fields: the recorder's STEP_FIELDS. The steps come back as RawJSON.
    """
    steps = model["steps"]
    if not cut:
        least = 1 + len(steps) * _MIN_STEP
        if least > budget:
            return None
        moves = [st[0] for st in steps].count("move")
        if least + moves * (_MIN_MOVE - _MIN_STEP) > budget:
            return None
    text, was_cut = steps_json(steps, budget, fields)
    if was_cut and not cut:
        return None
    xs, ys = model["scale"]
    w, h = model["width"], model["height"]
    if box is None:
        box = [-w / 2.0, -h / 2.0, w / 2.0, h / 2.0]
    x0, x1 = box[0] / xs, box[2] / xs
    y0, y1 = -box[3] / ys, -box[1] / ys
    view = [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)]
    return {"width": w, "height": h, "view": view, "bg": model["bg"], "area": model.get("area"),
            "scale": [xs, ys], "steps": RawJSON(text), "turtles": model["turtles"],
            "truncated": model["truncated"]}
