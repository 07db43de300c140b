"""The daemon side of Kit: the data-directory lock, the control socket (server and client),
the process runner and its log file. The process entry that adds the scheduler is `kit run`
(kit/commands/run.py), the one module of kit/ that imports `scheduler/`."""
