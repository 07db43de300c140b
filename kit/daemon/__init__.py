"""The daemon side of Kit: the data-directory lock, the control socket (server and client),
the process runner and its log file. The process entry that adds the scheduler lives in the
top-level `kitd` package, because `kit/` never imports `scheduler/`."""
