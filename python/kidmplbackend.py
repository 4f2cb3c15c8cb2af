"""A matplotlib backend: Agg canvases, and show() hands the figures to kidplot.

Selected with MPLBACKEND=module://kidmplbackend, so a child's plt.show()
turns into PNG images in the run result instead of opening a window.
"""

from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

import kidplot

FigureCanvas = FigureCanvasAgg
FigureManager = FigureManagerBase


def show(*args, **kwargs):
    kidplot.show()
