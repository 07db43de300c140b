"""Kit's terminal UI (Textual). It talks only to a `kit.surface.KitClient`, so the same screens
work on an in-process engine and on a daemon reached over the control socket."""
