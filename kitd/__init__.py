"""The Kit daemon process as a whole: kit's core + the scheduler + the channels.

This package sits beside `kit/`, `scheduler/` and `tui/` because it is the one place allowed
to import both `kit` and `scheduler`: the rule "kit/ never imports scheduler/ or tui/" keeps
the core free of the edges, so the process that wires them together lives at the edge too.
`kit run` reaches it through kit/cli.py's list of edge subcommands (loaded by module name).
"""
