"""`python -m generator build|check|import`."""

from generator.cli import main

main()
