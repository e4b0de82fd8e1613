"""The small test games of the general constructs, for the tests run over every game.

Each ``tests/constructs/*_game.py`` states one game (``GAME``) the way a game module
does; the registry does not list them, so the tests over every game add them from here.
Importable from any test: pytest puts ``tests/`` on the path for its ``conftest.py``.
"""
from __future__ import annotations

import importlib
import pathlib
import sys

from spec.dsl._build import Game

HERE = pathlib.Path(__file__).resolve().parent / "constructs"


def construct_games() -> dict[str, Game]:
    """Each test game by its key, imported as the construct tests import it."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    games = [importlib.import_module(path.stem).GAME for path in sorted(HERE.glob("*_game.py"))]
    return {game.key: game for game in games}
