"""The step machine of a game drawn from its steps (``.. rulebook-steps:: GAME``).

The drawing is made at build time from :attr:`Game.steps <spec.dsl._build.Game.steps>`,
the same steps the engine walks, as an inline SVG (no tool beyond Sphinx is needed): one
box per step with who acts, what the step offers, when it takes place and what its entry
does; an arrow to the step that follows, and a dashed one past a step that may not take
place.  Builders other than HTML get the same content as a list.
"""
from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

from spec.dsl._steps import Step, action_text, effects_text, options_text
from spec.registry import GAMES

WIDTH, PAD, LINE, GAP, SKIP = 460, 10, 16, 34, 60


def _lines(step: Step) -> list[tuple[str, str]]:
    """A box's lines, each with its style: the name, who acts, when, the entry."""
    out = [(step.name, "title")]
    if step.actor is None:
        out.append(("nobody acts: its entry runs and the next step begins", "note"))
    else:
        out.append((f"{step.actor} acts: {step.action}", "plain"))
    if step.when is not None:
        out.append((f"only when: {step.when}", "when"))
    out += [(f"· {text}", "effect") for text in effects_text(step)]
    acts = action_text(step)
    if acts:
        out.append(("each action:", "plain"))
        out += [(f"  {text}", "effect") for text in acts]
    options = options_text(step)
    if options:
        out.append(("the options:", "plain"))
        out += [(f"  {text}", "effect") for text in options]
    if step.ends is not None:
        out.append((f"ends when: {step.ends}", "when"))
    if step.legal:
        rules = ", ".join(step.legal)
        out.append((f"actions judged by: {rules}", "rules"))
    return out


def _wrap(text: str, width: int = 70) -> list[str]:
    """``text`` in rows of at most about ``width`` characters, its indentation kept and
    each continuation indented two more."""
    lead = text[:len(text) - len(text.lstrip(" "))]
    rows, row = [], lead
    for word in text.split():
        if row.strip() and len(row) + 1 + len(word) > width:
            rows.append(row)
            row = lead + "  " + word
        else:
            row = f"{row} {word}" if row.strip() else row + word
    return rows + [row]


_STYLE = {"title": 'font-weight="bold" font-size="14"', "plain": 'font-size="12"',
          "note": 'font-size="12" font-style="italic"', "when": 'font-size="12" fill="#8a4b00"',
          "effect": 'font-size="11" fill="#23395d"', "rules": 'font-size="10" fill="#666"'}


def svg(steps: tuple[Step, ...], name: str = "steps") -> str:
    """The steps drawn top to bottom, as the text of an SVG element (``name`` makes its
    arrowhead's id its own, for several drawings on one page)."""
    boxes: list[tuple[int, int, list[tuple[str, str]]]] = []
    y = PAD
    for step in steps:
        rows = [(piece, style) for text, style in _lines(step) for piece in _wrap(text)]
        height = 2 * PAD + LINE * len(rows)
        boxes.append((y, height, rows))
        y += height + GAP
    total_w, total_h = WIDTH + SKIP + 2 * PAD, y - GAP + PAD
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rulebook-steps" width="{total_w}" '
           f'height="{total_h}" viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
           f'<defs><marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>']
    for i, (step, (top, height, rows)) in enumerate(zip(steps, boxes)):
        fill = "#f4f4f4" if step.actor is None else "#eef4fb"
        out.append(f'<rect x="{PAD}" y="{top}" width="{WIDTH}" height="{height}" rx="6" '
                   f'fill="{fill}" stroke="#333"/>')
        for j, (text, style) in enumerate(rows):
            out.append(f'<text x="{2 * PAD}" y="{top + PAD + LINE * (j + 1) - 4}" '
                       f'xml:space="preserve" {_STYLE[style]}>{escape(text)}</text>')
        if i + 1 < len(steps):
            x, y0, y1 = PAD + WIDTH // 2, top + height, boxes[i + 1][0]
            out.append(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y1}" stroke="#333" '
                       f'marker-end="url(#arrow-{name})"/>')
        if step.when is not None and 0 < i < len(steps) - 1:  # the way past it
            before, after = boxes[i - 1], boxes[i + 1]
            # alternate ways past stand apart, so that two in a row do not overlap
            x0, x1 = PAD + WIDTH, PAD + WIDTH + SKIP - 10 - 24 * (i % 2)
            ya, yb = before[0] + before[1] // 2, after[0] + after[1] // 2
            out.append(f'<path d="M{x0},{ya} L{x1},{ya} L{x1},{yb} L{x0 + 2},{yb}" fill="none" '
                       f'stroke="#8a4b00" stroke-dasharray="5,4" marker-end="url(#arrow-{name})"/>')
            out.append(f'<text x="{x1 - 4}" y="{(ya + yb) // 2}" font-size="11" fill="#8a4b00" '
                       f'text-anchor="end">else</text>')
    out.append("</svg>")
    return "\n".join(out)


class StepsDirective(Directive):
    """``.. rulebook-steps:: GAME``: the game's step machine, drawn from its steps."""

    required_arguments = 1

    def run(self) -> list[Any]:
        key = self.arguments[0]
        if key not in GAMES:
            raise self.error(f"rulebook-steps: no game {key!r} (one of {', '.join(GAMES)})")
        steps = GAMES[key].steps
        figure = nodes.container(classes=["rulebook-steps"])
        figure += nodes.raw("", svg(steps, key), format="html")
        # other builders: the same steps as a list
        listing = nodes.bullet_list()
        for step in steps:
            item = nodes.list_item()
            item += nodes.paragraph(text="; ".join(text for text, _s in _lines(step))
                                    + (f" → {step.next}" if step.next else " → the deal ends"))
            listing += item
        only = nodes.container(classes=["rulebook-steps-text"])
        only += listing
        return [figure, *_for_other_builders(only)]


def _for_other_builders(node: nodes.Element) -> list[Any]:
    """``node`` shown by every builder but HTML (which draws the steps instead)."""
    from sphinx import addnodes

    only = addnodes.only(expr="not html")
    only += node
    return [only]
