"""`python -m generator build|check|import`.

An unchanged `build` is answered from the last build's record before the compiler is even
imported (generator.incremental); any other plain `build` command line runs the build without
click (generator.build_args); anything else runs the full command line.
"""

import sys

from generator.build_args import parse_build
from generator.incremental import fast_build

args = parse_build(sys.argv[1:])
if args is None:
    from generator.cli import main

    main()
elif not fast_build(args):
    import gc

    # a build is one batch run: its objects are freed by reference counting, or at exit
    # (generator.gcpause); the collector's passes over the modules imported next are waste
    gc.disable()
    from generator.build_cmd import main as build

    build(args)
