"""A matplotlib backend: Agg canvases, and show() hands the figures to kidplot.

Selected with MPLBACKEND=module://kidmplbackend, so a child's plt.show()
turns into PNG images in the run result instead of opening a window.
"""

import matplotlib
from matplotlib import font_manager
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

import kidplot

FigureCanvas = FigureCanvasAgg
FigureManager = FigureManagerBase

_PREFERRED = ["DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC",
              "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "PingFang SC", "Heiti SC",
              "Hiragino Sans GB", "Microsoft YaHei", "Arial Unicode MS"]


def _use_cjk_fallback():
    # matplotlib falls back glyph by glyph only across a list in font.family,
    # and logs a warning for each listed family it cannot find, so only
    # installed ones are listed. A family the program chose itself is kept.
    if [f.lower() for f in matplotlib.rcParams["font.family"]] != ["sans-serif"]:
        return
    have = {f.name for f in font_manager.fontManager.ttflist}
    families = [f for f in _PREFERRED if f in have]
    if len(families) > 1:
        matplotlib.rcParams["font.family"] = families + ["sans-serif"]


_use_cjk_fallback()


def show(*args, **kwargs):
    kidplot.show()
