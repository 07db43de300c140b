"""`kit` subcommands, one module each."""
