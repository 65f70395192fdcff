"""The `provcat` command: every subcommand in one package (:mod:`provcat.cli.main` is the entry)."""
