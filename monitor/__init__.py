"""Monitor: the command line, outputs and (later) the live and replay pipelines."""
