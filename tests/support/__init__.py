"""Helpers the tests of more than one directory share: fakes, servers and setups (a helper one
directory's tests use lives beside them)."""
