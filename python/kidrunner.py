"""Run one child's program and report the result to the host (docs/runner-protocol.md).

This file is only the entry point: Python compiles a script named on the
command line from source at every start, while an imported module can come
from bytecode compiled once per Python layer (see -X pycache_prefix in the
protocol). The work is in kidrunner_core and its parts (kidrunner_*.py).
"""

import sys

if sys.version_info < (3, 8):
    sys.stderr.write("kidrunner needs Python 3.8 or newer\n")
    sys.exit(2)

if sys.flags.no_site:
    # The host starts Python without site (-S) and does site's work here,
    # all but running the code of .pth files, which is no program's
    # business and costs every start: the site-packages folders go on
    # sys.path, and exit(), quit(), help() and friends are there, as in a
    # plain python3.
    import site
    for _d in site.getsitepackages():
        if _d not in sys.path and site.os.path.isdir(_d):
            sys.path.append(_d)
    site.setquit()
    site.setcopyright()
    site.sethelper()

sys.path.insert(0, __file__.rpartition("/")[0] or ".")
from kidrunner_core import _exit, main  # noqa: E402

# The runner's modules leave the module table just before the program
# starts (Runner.run), as when the runner itself was __main__.
_exit(main(sys.argv[1:]))
