"""Exit statuses and the misuse error, shared by the command line (cli.py) and what its
commands do (commands.py), so that neither imports the other for them."""

OK, DATA_ERROR, MISUSE = 0, 1, 2


class UsageError(Exception):
    """The command line asks for something that does not exist (exit status 2)."""
