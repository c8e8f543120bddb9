"""The ``mallard`` command (mallard's own, not in pydrake): ``mallard inspect``, ``mallard
simulate``, ``mallard dynamics`` and ``mallard rollout`` on a URDF/SDFormat model, ``mallard
compile`` (the kernels, ahead of time), ``mallard cache`` (their on-disk cache's size, emptying
it); ``main(argv)`` runs it.

Errors print one line ``mallard: error: ...`` on stderr (a traceback too with --debug) and
exit with 2 for a bad command line, 1 for a model or run that failed.
"""

import argparse
import logging
import re
import sys
import traceback

from mallard import __version__
from mallard.cli import _cache, _compile, _dynamics, _inspect, _rollout, _simulate
from mallard.cli._model import CliError, UsageError

_SUBCOMMANDS = (_simulate, _inspect, _dynamics, _rollout, _compile, _cache)
_VECTOR_OPTIONS = ("--q0", "--v0", "--q", "--v")
# A logged message: "file:line: " (if any), then the message without its "warning: ".
_WHERE = re.compile(r"(.*?:\d+: )?(?:warning: )?(.*)")
_NEGATIVE_LIST = re.compile(r"-[\d.][\deE.+-]*([,\s]+[-+]?[\d.][\deE.+-]*)+")
DESCRIPTION = """\
mallard's command-line tool: inspect URDF and SDFormat models, simulate them and compute
their dynamics with mallard's MultibodyPlant."""
EPILOG = """\
examples:
  mallard simulate                      simulate mallard's acrobot (a chaotic double
                                        pendulum) for 10 s into ./mallard_out
  mallard simulate robot.urdf --duration 2 --q0 0.1,0.2 --out results
  mallard inspect package://mallard/cart_pole.urdf --graphviz cart_pole.dot
  mallard dynamics package://mallard/acrobot.urdf --q 0.3,-0.5 --v 1,2
  mallard rollout package://mallard/acrobot.urdf --n 10000 --duration 1
  mallard compile                       compile every kernel into numba's cache now
  mallard cache                         where that cache is and its size ('mallard cache
                                        clear' empties it)

Run 'mallard COMMAND --help' for the options of a command."""


class _ArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors raise UsageError (main() prints them as one line)."""

    def error(self, message):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _add_model_arguments(parser):
    parser.add_argument(
        "--package-path",
        action="append",
        default=[],
        metavar="DIR",
        help="where to find the packages of package:// URIs: DIR (searched for package.xml "
        "files) or NAME=DIR; repeatable. The package.xml files in the model's directory and "
        "above, and its ancestor directories named as a package, are found automatically",
    )
    parser.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )


def _make_parser():
    parser = _ArgumentParser(
        prog="mallard",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mallard {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the Python traceback of an error"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in _SUBCOMMANDS:
        module.add_parser(subparsers, _add_model_arguments)
    for subparser in subparsers.choices.values():
        subparser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _join_negative_lists(argv):
    """``--q0 -1,0.5`` as ``--q0=-1,0.5``: argparse would take "-1,0.5" for an option."""
    result = []
    for arg in argv:
        if result and result[-1] in _VECTOR_OPTIONS and _NEGATIVE_LIST.fullmatch(arg):
            result[-1] = f"{result[-1]}={arg}"
        else:
            result.append(arg)
    return result


def _one_line(error):
    text = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
    return text or type(error).__name__


class _WarningHandler(logging.Handler):
    """Prints mallard's logged warnings (e.g. the parser's) as ``mallard: warning: ...``, each
    message once: its repeats at other lines of a file are only counted."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self._seen = set()
        self.repeats = 0

    def emit(self, record):
        where, text = _WHERE.fullmatch(_one_line(record.getMessage())).groups()
        if text in self._seen:
            self.repeats += 1
            return
        self._seen.add(text)
        print(f"mallard: warning: {where or ''}{text}", file=sys.stderr)


def main(argv=None):
    """Runs the ``mallard`` command with ``argv`` (default: sys.argv[1:]); returns the exit
    status. Without a command it prints the help (exit 0)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    logger = logging.getLogger("mallard")
    handler = _WarningHandler()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        parser = _make_parser()
        args = parser.parse_args(_join_negative_lists(argv))
        if args.command is None:
            parser.print_help()
            return 0
        return args.run(args)
    except SystemExit as e:  # argparse's --help and --version
        return e.code or 0
    except CliError as e:
        if debug:
            traceback.print_exc()
        print(f"mallard: error: {_one_line(e)}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("mallard: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if debug:
            traceback.print_exc()
        print(f"mallard: error: {type(e).__name__}: {_one_line(e)}", file=sys.stderr)
        return 1
    finally:
        if handler.repeats:
            print(
                f"mallard: warning: ({handler.repeats} repeats of these warnings not shown)",
                file=sys.stderr,
            )
        logger.removeHandler(handler)
        logger.propagate = propagate
