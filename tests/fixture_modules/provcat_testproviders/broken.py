"""A provider module that fails to import, with a secret-looking value in its message."""

raise RuntimeError("cannot reach the vendor with api key sk-testsecret0123456789abcdef")
