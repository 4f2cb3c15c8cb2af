"""matplotlib support: a scratch config folder, CJK fonts, and figures captured as PNGs.

Decision: plt.show() behaves like the child looked at the windows and closed
them. Every open figure is rendered to one PNG and closed, so a figure is
never captured twice; drawing after show() starts a new figure (as it does
with a real window once closed). Figures still open when the program ends
are captured then. Images keep the order they were captured in, and within
one show() the figures' creation order (figure number).
"""

import io
import os
import shutil
import sys

MAX_FIGURES = 20
BACKEND = "module://kidmplbackend"
_RC = """backend: module://kidmplbackend
font.family: sans-serif
font.sans-serif: DejaVu Sans, Noto Sans CJK SC, Noto Sans CJK JP, Noto Sans SC, Source Han Sans SC, WenQuanYi Zen Hei, WenQuanYi Micro Hei, PingFang SC, Heiti SC, Hiragino Sans GB, Arial Unicode MS, Arial, sans-serif
axes.unicode_minus: False
"""


# matplotlib indexes a .ttc collection by its first face only, which for
# fonts-noto-cjk is "Noto Sans CJK JP"; every face holds the full Chinese set.


class _State:
    images = []          # PNG bytes, in capture order
    dropped = 0


def write_rc(folder):
    with open(os.path.join(folder, "matplotlibrc"), "w", encoding="utf-8") as f:
        f.write(_RC)


def prepare(scratch, cache=None):
    """Point matplotlib at a writable config folder seeded from the prebuilt font cache.

    Must run before the child's code can import matplotlib.
    """
    folder = os.path.join(scratch, "mplconfig")
    os.makedirs(folder, exist_ok=True)
    if cache and os.path.isdir(cache):
        for name in os.listdir(cache):
            src = os.path.join(cache, name)
            if os.path.isfile(src) and name != "matplotlibrc":
                try:
                    shutil.copyfile(src, os.path.join(folder, name))
                except OSError:
                    pass
    write_rc(folder)
    os.environ["MPLCONFIGDIR"] = folder
    os.environ["MPLBACKEND"] = BACKEND
    return folder


def build_cache(folder):
    """Build matplotlib's font cache in folder (the --build-mpl-cache mode)."""
    os.makedirs(folder, exist_ok=True)
    os.environ["MPLCONFIGDIR"] = folder
    os.environ["MPLBACKEND"] = "agg"
    import matplotlib
    matplotlib.use("agg")
    from matplotlib import font_manager
    font_manager.findfont("DejaVu Sans")
    found = [n for n in os.listdir(folder) if n.startswith("fontlist")]
    if not found:
        font_manager.json_dump(font_manager.fontManager,
                               os.path.join(folder, "fontlist-v%s.json" % font_manager.FontManager.__version__))
    return folder


def _capture(fig):
    if len(_State.images) >= MAX_FIGURES:
        _State.dropped += 1
        return
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    _State.images.append(buf.getvalue())


def show():
    """Capture and close every open figure."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    import matplotlib._pylab_helpers as helpers
    managers = sorted(helpers.Gcf.get_all_fig_managers(), key=lambda m: m.num)
    for manager in managers:
        try:
            _capture(manager.canvas.figure)
        finally:
            helpers.Gcf.destroy(manager)


def finish():
    """At the end of the run: capture figures still open; return all PNGs."""
    if "matplotlib.pyplot" in sys.modules:
        show()
    return list(_State.images), _State.dropped
