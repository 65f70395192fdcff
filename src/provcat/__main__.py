"""`python -m provcat`: the `provcat` command, for an environment whose scripts are not on PATH."""

from __future__ import annotations

from provcat.cli.main import main

if __name__ == "__main__":
    main(prog_name="provcat")
