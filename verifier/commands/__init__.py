"""The commands of ``trickspec``, a module each: its options and what it does.

Each module has ``add_parser(commands)``, which adds the command and its options to the
parser :func:`verifier.cli.build_parser` builds, and ``run(args)``, which carries out the
command and returns its exit code (one of :data:`verifier.cli.EXIT_CODES`):

- :mod:`~verifier.commands.check`: prove the properties of games with Z3;
- :mod:`~verifier.commands.play`: play a deal, a whole game, a rubber or a session for a
  pot with bots (sensible ones by default);
- :mod:`~verifier.commands.pbn`: write deals in PBN, or read a PBN file;
- :mod:`~verifier.commands.deals`: deals that satisfy a constraint, or a proof that none do;
- :mod:`~verifier.commands.fixtures`: a deal for each rule, in which the rule fires;
- :mod:`~verifier.commands.replay`: re-run a record through the engine;
- :mod:`~verifier.commands.solve`: the double-dummy values of a deal, and what each card of
  its play cost;
- :mod:`~verifier.commands.mutate`: how many wrong versions of the rules the checks catch;
- :mod:`~verifier.commands.rules`: a game's rules, each with its source, variants,
  covering properties and fixture;
- :mod:`~verifier.commands.games`: the registered games and what each variant does;
- :mod:`~verifier.commands.stats`: what many deals say (contracts, scores, rules that fire),
  and where a variant changes them.

``_common`` holds what several commands share: the exit codes, the checks of the numbers
typed on the command line, and the writing of what a command prints.  How a deal is shown
as text is :mod:`spec.text`.
"""
