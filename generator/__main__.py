"""`python -m generator build|check`."""

from generator.cli import main

main()
