"""Render a turtle recording (kidturtle's drawing model) to one self-contained SVG.

The recording is only data; this is the single place that turns it into
markup, so every value a child controls (colours, write() text, font
families) is escaped here. Colours arrive already normalised to #rrggbb by
the recorder; anything else is dropped rather than written out.
"""

import binascii

CJK_FONTS = ("'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', "
             "'PingFang SC', 'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif")

_HEX_DIGITS = frozenset("0123456789abcdef")
# Characters XML 1.0 cannot carry, plus lone surrogates: each becomes U+FFFD.
# Built on first use (text is rare), and without re, whose import costs a
# turtle run more than rendering a small drawing.
_BAD_XML = None
_PX_PER_PT = 4.0 / 3.0
# What lies outside the program's own window (the drawing's "area"), as the
# window's live canvas paints it too (frontend/src/lib/paint.ts OUTSIDE).
OUTSIDE = "#e6e3dc"
_TK_ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def esc(value):
    """Escape a string for an XML attribute value or text node."""
    global _BAD_XML
    if _BAD_XML is None:
        bad = list(range(0x09)) + [0x0b, 0x0c] + list(range(0x0e, 0x20)) + [0xfffe, 0xffff]
        _BAD_XML = dict.fromkeys(bad + list(range(0xd800, 0xe000)), "\ufffd")
    s = str(value).translate(_BAD_XML)
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _color(c):
    """c if it is a normalised colour, #rrggbb in lower case, else None."""
    if isinstance(c, str) and len(c) == 7 and c[0] == "#" and _HEX_DIGITS.issuperset(c[1:]):
        return c
    return None


def _num(v):
    s = "%.1f" % v
    if s.endswith(".0"):
        s = s[:-2]
    if s == "-0":
        s = "0"
    return s


class _Box(object):
    def __init__(self):
        self.x0 = self.y0 = float("inf")
        self.x1 = self.y1 = float("-inf")

    def add(self, x, y, pad=0.0):
        if x - pad < self.x0:
            self.x0 = x - pad
        if x + pad > self.x1:
            self.x1 = x + pad
        if y - pad < self.y0:
            self.y0 = y - pad
        if y + pad > self.y1:
            self.y1 = y + pad


_DRAWN = frozenset(("dot", "text", "stamp"))


def live_items(steps, plain=False):
    """Replay deletions: return the drawn steps still visible, in paint order.

    A fill is painted where its begin_fill happened (its "z"), as Tk stacks
    the polygon item it created then beneath lines drawn afterwards.
    plain: the recorder saw no fill, clear, undo or clearstamp, so every
    drawn step is still visible in recording order.
    """
    if plain:
        return [st for st in steps if (st[7] if st[0] == "move" else st[0] in _DRAWN)]
    items = []          # [paint key, step index, step]
    dead = set()
    by_turtle = {}      # turtle id -> indices into items since its last clear
    stamps = {}
    fills = False
    for i, st in enumerate(steps):
        k = st[0]
        if k == "move":
            if not st[7]:
                continue
            key = i
        elif k == "fill":
            key = st[5]
            fills = True
        elif k == "dot" or k == "text":
            key = i
        elif k == "stamp":
            key = i
            stamps[(st[1], _key(st[3]))] = i
        elif k == "unstamp":
            j = stamps.pop((st[1], _key(st[3])), None)
            if j is not None:
                dead.add(j)
            continue
        elif k == "del":
            dead.add(st[3])
            continue
        elif k == "clear":
            t = st[1]
            if t is None:
                items = []
                by_turtle = {}
                stamps = {}
                dead = set()
            else:
                for j in by_turtle.pop(t, ()):
                    dead.add(items[j][1])
                for key2 in [key2 for key2 in stamps if key2[0] == t]:
                    del stamps[key2]
            continue
        else:
            continue
        lst = by_turtle.get(st[1])
        if lst is None:
            lst = by_turtle[st[1]] = []
        lst.append(len(items))
        items.append((key, i, st))
    if dead:
        items = [it for it in items if it[1] not in dead]
    if fills:
        items.sort(key=lambda it: (it[0], it[1]))
    return [it[2] for it in items]


def _key(stamp_id):
    return tuple(stamp_id) if isinstance(stamp_id, list) else stamp_id


def render(drawing):
    """Return the SVG text for a drawing dict (kidturtle.TurtleScreen.drawing())."""
    return render_with_box(drawing)[0]


def render_with_box(drawing):
    """Return (svg, [x0, y0, x1, y1]) where the box is in SVG pixels (y down)."""
    xs, ys = drawing.get("scale", [1.0, 1.0])
    box = _Box()
    out = []
    W, H = drawing["width"], drawing["height"]
    box.add(-W / 2.0, -H / 2.0)
    box.add(W / 2.0, H / 2.0)

    def P(x, y):
        return x * xs, -y * ys

    # Lines are written in tenths of a pixel (integers, relative moves) inside
    # a scale(.1) transform: the most compact exact-enough form. A path is a
    # run of moves of one colour and width; a move that starts where the last
    # one ended continues its line ("l"), any other starts a new one ("M").
    # A path's numbers are collected and formatted in one go at its end, and
    # the commands of n joined moves are one "l%d %d" * n: this loop is the
    # cost of a big drawing, so it does as little per move as it can.
    xs10, ys10 = xs * 10.0, -ys * 10.0
    inf = float("inf")
    lx0 = ly0 = inf             # the box of every line point written (tenths)
    lx1 = ly1 = -inf
    maxw = 0.0
    cur_c = cur_w = None
    fmt = vals = None           # the current line path's commands and numbers
    n = 0                       # moves joined since its last "M"
    px = py = 0                 # last point written (tenths)
    lex = ley = None            # last raw end point, to chain segments
    for st in live_items(drawing["steps"], drawing.get("plain", False)):
        k = st[0]
        if k == "move":
            _, _, _, x1, y1, x2, y2, c, w = st
            # The recorder hands a run the same colour and width objects.
            if c is not cur_c or w is not cur_w:
                if fmt is None or c != cur_c or w != cur_w:
                    if fmt is not None:
                        if n:
                            fmt.append("l%d %d" * n)
                        out.append(_line_path("".join(fmt) % tuple(vals), cur_c, cur_w))
                    fmt, vals, n = [], [], 0
                    lex = ley = None
                    ww = _width(w)
                    if ww > maxw:
                        maxw = ww
                cur_c, cur_w = c, w
            if x1 != lex or y1 != ley or lex is None:
                if n:
                    fmt.append("l%d %d" * n)
                    n = 0
                px = round(x1 * xs10)
                py = round(y1 * ys10)
                fmt.append("M%d %d")
                vals.append(px)
                vals.append(py)
                if px < lx0:
                    lx0 = px
                if px > lx1:
                    lx1 = px
                if py < ly0:
                    ly0 = py
                if py > ly1:
                    ly1 = py
            X = round(x2 * xs10)
            Y = round(y2 * ys10)
            vals.append(X - px)
            vals.append(Y - py)
            if X < lx0:
                lx0 = X
            elif X > lx1:
                lx1 = X
            if Y < ly0:
                ly0 = Y
            elif Y > ly1:
                ly1 = Y
            px = X
            py = Y
            lex = x2
            ley = y2
            n += 1
            continue
        if fmt is not None:
            if n:
                fmt.append("l%d %d" * n)
            out.append(_line_path("".join(fmt) % tuple(vals), cur_c, cur_w))
            fmt = vals = None
            n = 0
            cur_c = cur_w = None
        if k == "fill":
            c = _color(st[3])
            if c is None or len(st[4]) < 3:
                continue
            pts = [P(x, y) for x, y in st[4]]
            for x, y in pts:
                box.add(x, y)
            out.append('<path d="%s" fill="%s" fill-rule="evenodd"/>' % (_poly_d(pts), c))
        elif k == "dot":
            c = _color(st[6])
            if c is None:
                continue
            x, y = P(st[3], st[4])
            r = _width(st[5]) / 2.0
            box.add(x, y, r)
            out.append('<circle cx="%s" cy="%s" r="%s" fill="%s"/>' % (_num(x), _num(y), _num(r), c))
        elif k == "text":
            out.append(_text(st, P, box))
        elif k == "stamp":
            out.extend(_parts(st[10], P, box, drawing))
    if fmt is not None:
        if n:
            fmt.append("l%d %d" * n)
        out.append(_line_path("".join(fmt) % tuple(vals), cur_c, cur_w))
    if lx0 != inf:
        box.add(lx0 / 10.0, ly0 / 10.0, maxw / 2.0)
        box.add(lx1 / 10.0, ly1 / 10.0, maxw / 2.0)
    for t in drawing.get("turtles", []):
        if t.get("visible"):
            out.extend(_parts([p + [t.get("ow", 1)] for p in t.get("parts", [])], P, box, drawing))
    pad = 10.0
    x0, y0 = box.x0 - pad, box.y0 - pad
    w, h = box.x1 - box.x0 + 2 * pad, box.y1 - box.y0 + 2 * pad
    bg = _color(drawing.get("bg")) or "#ffffff"
    head = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s %s %s %s" width="%s" height="%s">'
            % (_num(x0), _num(y0), _num(w), _num(h), _num(w), _num(h)))
    area = _area_px(drawing.get("area"), xs, ys)
    if area is None:
        head += ('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                 % (_num(x0), _num(y0), _num(w), _num(h), bg))
    else:
        # The background only over the program's own window, as CPython
        # shows it: its walls are where the child sees them.
        head += ('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                 '<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                 % (_num(x0), _num(y0), _num(w), _num(h), OUTSIDE,
                    _num(area[0]), _num(area[1]), _num(area[2]), _num(area[3]), bg))
    return head + "".join(out) + "</svg>", [box.x0, box.y0, box.x1, box.y1]


def _area_px(area, xs, ys):
    """The drawing's area [minx, miny, w, h] (world, y up) as SVG pixels [x, y, w, h] (y down), or None."""
    try:
        minx, miny, w, h = [float(v) for v in area]
    except (TypeError, ValueError):
        return None
    if not all(abs(v) < 1e9 for v in (minx, miny, w, h)) or w <= 0 or h <= 0:
        return None
    return [minx * xs, -(miny + h) * ys, w * xs, h * ys]


def _line_path(d, c, w):
    c = _color(c)
    if c is None:
        return ""
    return ('<path transform="scale(.1)" d="%s" stroke="%s" stroke-width="%s" fill="none" '
            'stroke-linecap="round" stroke-linejoin="round"/>'
            % (d, c, _num(_width(w) * 10.0)))


def _width(w):
    try:
        w = float(w)
    except (TypeError, ValueError):
        return 1.0
    if w != w or w < 0:
        return 1.0
    return min(w, 10000.0)


def _poly_d(pts):
    d = ["M%s %s" % (_num(pts[0][0]), _num(pts[0][1]))]
    for x, y in pts[1:]:
        d.append("L%s %s" % (_num(x), _num(y)))
    return "".join(d) + "Z"


def _parts(parts, P, box, drawing):
    out = []
    for part in parts:
        if not part:
            continue
        if part[0] == "image":
            # GIF shapes are not drawn yet: the turtle is left out.
            continue
        pts, fc, oc = part[0], _color(part[1]), _color(part[2])
        ow = _width(part[3] if len(part) > 3 else 1)
        if len(pts) < 2:
            continue
        pp = [P(x, y) for x, y in pts]
        for x, y in pp:
            box.add(x, y, ow)
        out.append('<path d="%s" fill="%s" stroke="%s" stroke-width="%s" stroke-linejoin="round"/>'
                   % (_poly_d(pp), fc or "none", oc or "none", _num(ow)))
    return out


def _text(st, P, box):
    _, _, _, x, y, text, align, font, c = st
    c = _color(c) or "#000000"
    family, size, style = (list(font) + ["Arial", 8, "normal"])[:3] if font else ("Arial", 8, "normal")
    try:
        size = float(size)
    except (TypeError, ValueError):
        size = 8.0
    px = -size if size < 0 else size * _PX_PER_PT
    px = min(max(px, 1.0), 2000.0)
    style = str(style).lower()
    X, Y = P(x, y)
    # Tk anchors text by its bottom edge ("sw"/"s"/"se") one pixel left of the
    # turtle; SVG places the baseline, so lift it by the descent.
    X -= 1
    lines = str(text).split("\n")
    n = len(lines)
    base = Y - px * 0.25 - (n - 1) * px * 1.2
    anchor = _TK_ANCHOR.get(align, "start")
    widths = [sum(px if _wide(ch) else px * 0.6 for ch in line) for line in lines]
    wmax = max(widths) if widths else 0
    left = {"start": X, "middle": X - wmax / 2.0, "end": X - wmax}[anchor]
    box.add(left, base - px)
    box.add(left + wmax, Y)
    attrs = ['x="%s"' % _num(X), 'y="%s"' % _num(base),
             'font-family="%s, %s"' % (esc(_family(family)), CJK_FONTS),
             'font-size="%s"' % _num(px), 'fill="%s"' % c]
    if anchor != "start":
        attrs.append('text-anchor="%s"' % anchor)
    if "bold" in style:
        attrs.append('font-weight="bold"')
    if "italic" in style:
        attrs.append('font-style="italic"')
    if "underline" in style:
        attrs.append('text-decoration="underline"')
    if n == 1:
        body = esc(lines[0])
    else:
        body = "".join('<tspan x="%s" dy="%s">%s</tspan>'
                       % (_num(X), "0" if i == 0 else _num(px * 1.2), esc(line))
                       for i, line in enumerate(lines))
    return "<text %s>%s</text>" % (" ".join(attrs), body)


def _family(family):
    # Quote the child's family name so commas or quotes in it stay one name.
    f = str(family).replace("'", "").replace('"', "").replace(";", "")
    return "'%s'" % f


def _wide(ch):
    o = ord(ch)
    return (0x1100 <= o <= 0x115F or 0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7A3
            or 0xF900 <= o <= 0xFAFF or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFF60
            or 0xFFE0 <= o <= 0xFFE6 or o >= 0x1F300)


def to_base64(svg):
    return binascii.b2a_base64(svg.encode("utf-8"), newline=False).decode("ascii")
