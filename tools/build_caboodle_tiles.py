"""Builds python/meeplex/data/caboodle_tiles.json, the UNVERIFIED placeholder tile set both engines read.

Source: the PROPOSAL_tile_model of shared/rules/facts/caboodle_placeholder.json (the real tile faces are not
public; docs/rules/caboodle.md §3). Facts tile id k becomes tile id k - 1. Run from the repository root:
``python tools/build_caboodle_tiles.py ../shared/rules/facts`` (``--check`` compares with the committed file).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

OUT = Path("python/meeplex/data/caboodle_tiles.json")

NOTES = [
    "UNVERIFIED PLACEHOLDER. The faces of Caboodle's 40 tiles are not public "
    "(shared/rules/facts/bga_games.md",
    "section 4): the shape names, their number and every tile below are the facts file's invented proposal",
    "(all 36 rotation classes of the pattern aabc plus 4 of the 6 classes abcd; each shape on 40 of the 160",
    "sides). The linking rule 'adjacent' is the facts file's proposal too. An owner of the game can describe",
    "the real tiles in this format (docs/rules/caboodle.md section 3) and play with them (tiles=b64_...).",
]


def build(facts: Path) -> str:
    data = json.loads((facts / "caboodle_placeholder.json").read_text(encoding="utf-8"))
    model = data["PROPOSAL_tile_model"]
    shapes = list(model["shapes"])
    tiles = []
    for i, t in enumerate(model["tiles"]):
        assert t["id"] == i + 1
        tiles.append([t["edges"][d] for d in "NESW"])
    assert len(tiles) == 40
    counts = Counter(s for t in tiles for s in t)
    assert all(counts[s] == 40 for s in shapes), counts
    # distinct up to rotation
    classes = {min(tuple(t[r:] + t[:r]) for r in range(4)) for t in tiles}
    assert len(classes) == 40
    lines = [
        "{",
        '  "format": "meeplex caboodle tiles",',
        '  "version": 1,',
        '  "name": "placeholder",',
        '  "verified": false,',
        '  "notes": [',
        ",\n".join("    " + json.dumps(n) for n in NOTES),
        "  ],",
        '  "shapes": ' + json.dumps(shapes) + ",",
        '  "links": "adjacent",',
        '  "tiles": [',
        ",\n".join("    " + json.dumps(t) for t in tiles),
        "  ]",
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    facts = Path(sys.argv[1])
    text = build(facts)
    if "--check" in sys.argv:
        if OUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUT} differs from what the facts give")
        print(f"{OUT} is up to date")
    else:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
