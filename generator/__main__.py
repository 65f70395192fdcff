"""`python -m generator build|check|import`.

An unchanged `build` is answered from the last build's record before the compiler is even
imported (generator.incremental); anything else runs the full command line.
"""

import sys

from generator.incremental import fast_build

if not fast_build(sys.argv[1:]):
    from generator.cli import main

    main()
