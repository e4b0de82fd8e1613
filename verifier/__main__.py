"""``python -m verifier`` and the ``trickspec`` command."""
import signal
import sys


def run() -> int:
    """Run the command line; Ctrl-C while it is still loading (or before it has set up
    its own handling of Ctrl-C) is exit 130 as well."""
    try:
        from verifier.cli import main

        code = main()
    except KeyboardInterrupt:
        print("trickspec: interrupted", file=sys.stderr)
        code = 130  # verifier.cli.EXIT_INTERRUPTED
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the answer is given: Ctrl-C changes nothing
    if code == 130:  # what Ctrl-C left half made is freed as Python ends: no reports of it
        sys.unraisablehook = lambda _report: None
    return code


if __name__ == "__main__":
    sys.exit(run())
