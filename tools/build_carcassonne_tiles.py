"""Builds python/meeplex/data/carcassonne_tiles.json, the tile table both engines read, from the facts files.

Base tiles from shared/rules/facts/carcassonne_base_tiles.json (hand-checked, letters A-X); river tiles from
the `river/1:1` set of carcassonne_jcz_tiles.json (JCloisterZone); the Inns & Cathedrals, Traders & Builders and
The Princess and the Dragon tiles from its `inns-and-cathedrals:1`, `traders-and-builders:1` and
`princess-and-dragon:1` sets (first printings, no gardens). Run from the repository root:
``python tools/build_carcassonne_tiles.py ../shared/rules/facts``. The output is committed; this script is
how it was made and how it is checked (``--check``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path("python/meeplex/data/carcassonne_tiles.json")
HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]
DIRS = "NESW"

# River tiles of river/1:1 in a fixed order, with readable names (JCZ id in "source").
RIVER = [
    ("RI/s", "river_spring"),
    ("RI.1/I.e", "river_lake"),
    ("RI.1/II", "river_curve"),
    ("RI.1/IFI", "river_straight"),
    ("RI.1/CICI", "river_cities"),
    ("RI.1/CIRI", "river_city_road"),
    ("RI.1/LIRI", "river_cloister_road"),
    ("RI.1/RIrI", "river_bridge"),
    ("RI.1/CcII", "river_city_curve"),
    ("RI.1/RrII", "river_road_curve"),
]


def sort_edges(edges: list[str]) -> list[str]:
    return sorted(edges, key=DIRS.index)


def sort_halves(halves: list[str]) -> list[str]:
    return sorted(halves, key=HALVES.index)


def base_tiles(facts: Path) -> list[dict]:
    data = json.loads((facts / "carcassonne_base_tiles.json").read_text())
    out = []
    for letter, t in data["tiles"].items():
        feats: list[dict] = []
        if t["cloister"]:
            feats.append({"kind": "cloister"})
        city_index = {}
        for i, edges in enumerate(t["city"]):
            city_index[i] = len(feats)
            f = {"kind": "city", "edges": sort_edges(edges)}
            if t["pennant"]:
                assert len(t["city"]) == 1, letter
                f["pennant"] = True
            feats.append(f)
        for edges in t["road"]:
            feats.append({"kind": "road", "edges": sort_edges(edges)})
        for farm in t["farms"]:
            feats.append(
                {
                    "kind": "field",
                    "halves": sort_halves(farm["halves"]),
                    "cities": [city_index[c] for c in farm["touches_city_segments"]],
                }
            )
        count = t["count"] - (1 if letter == data["start_tile"] else 0)
        out.append({"name": letter, "set": "base", "count": count, "edges": t["edges"], "features": feats,
                    "source": t["jcz"]})
    return out


def river_tiles(facts: Path) -> list[dict]:
    jcz = json.loads((facts / "carcassonne_jcz_tiles.json").read_text())["river"]
    counts = jcz["sets"]["river/1:1"]
    out = []
    for jid, name in RIVER:
        t = jcz["tiles"][jid]
        feats: list[dict] = []
        kinds = {k: [f for f in t["features"] if f["type"] == k] for k in ("cloister", "city", "road", "field")}
        assert all(f["type"] in ("cloister", "city", "road", "field", "river") for f in t["features"]), jid
        feats += [{"kind": "cloister"} for _ in kinds["cloister"]]
        city_at = {}
        for f in kinds["city"]:
            for e in f["edges"]:
                city_at[e] = len(feats)
            g = {"kind": "city", "edges": sort_edges(f["edges"])}
            if f.get("pennant"):
                g["pennant"] = True
            feats.append(g)
        feats += [{"kind": "road", "edges": sort_edges(f["edges"])} for f in kinds["road"]]
        for f in kinds["field"]:
            cities = sorted({city_at[e] for e in f.get("touches_city", [])})
            feats.append({"kind": "field", "halves": sort_halves(f["halves"]), "cities": cities})
        count = 0 if name == "river_spring" else counts[jid]
        out.append({"name": name, "set": "river", "count": count, "edges": t["edges"], "features": feats,
                    "source": jid})
    assert sum(counts[j] for j, _ in RIVER) == 12
    return out


# Expansion sets: (JCZ group, JCZ set, the set's name in the table, the prefix of its tile names).
EXPANSIONS = [
    ("inns_and_cathedrals", "inns-and-cathedrals:1", "inns_cathedrals", "ic"),
    ("traders_and_builders", "traders-and-builders:1", "traders_builders", "tb"),
    ("princess_and_dragon", "princess-and-dragon:1", "princess_dragon", "pd"),
]
# JCZ feature types of The Princess and the Dragon that mark the whole tile (section 12 of the rules document).
TILE_MARKS = ("volcano", "dragon", "portal")
# JCZ feature attributes that carry no rule of these expansions: the castle base (The Count) and the tunnel
# (the Tunnel expansion). Gardens come only with later printings, which are not used.
IGNORED = {"castle-base", "tunnel"}


def tile_name(prefix: str, jid: str) -> str:
    """A notation-friendly name from the JCZ id: IC/CcRr+.i -> ic_ccrrp_i (case folded: notation is)."""
    body = jid.split("/", 1)[1].lower().replace("+", "p").replace("!", "x").replace(".", "_")
    return f"{prefix}_{body}"


def expansion_tiles(facts: Path) -> list[dict]:
    jcz = json.loads((facts / "carcassonne_jcz_tiles.json").read_text())
    out = []
    for group, set_name, our_set, prefix in EXPANSIONS:
        data = jcz[group]
        counts = data["sets"][set_name]
        for jid, count in counts.items():
            t = data["tiles"][jid]
            kinds = {k: [f for f in t["features"] if f["type"] == k] for k in ("cloister", "city", "road", "field")}
            assert all(f["type"] in ("cloister", "city", "road", "field") + TILE_MARKS for f in t["features"]), jid
            marks = {f["type"] for f in t["features"] if f["type"] in TILE_MARKS}
            feats: list[dict] = [{"kind": "cloister"} for _ in kinds["cloister"]]
            city_at = {}
            for f in kinds["city"]:
                assert set(f) - IGNORED <= {"type", "edges", "pennant", "cathedral", "resource", "princess"}, jid
                for e in f["edges"]:
                    city_at[e] = len(feats)
                g: dict = {"kind": "city", "edges": sort_edges(f["edges"])}
                if f.get("pennant"):
                    g["pennant"] = True
                if f.get("cathedral"):
                    g["cathedral"] = True
                if f.get("resource"):
                    g["goods"] = f["resource"]
                if f.get("princess"):
                    g["princess"] = True
                feats.append(g)
            for f in kinds["road"]:
                assert set(f) - IGNORED <= {"type", "edges", "inn"}, jid
                r: dict = {"kind": "road", "edges": sort_edges(f["edges"])}
                if f.get("inn"):
                    r["inn"] = True
                feats.append(r)
            for f in kinds["field"]:
                cities = sorted({city_at[e] for e in f.get("touches_city", [])})
                # JCZ's INNER_FARM: a field enclosed by cities, on no edge (it never joins another tile's).
                halves = [] if f["halves"] == ["INNER_FARM"] else sort_halves(f["halves"])
                feats.append({"kind": "field", "halves": halves, "cities": cities})
            tile: dict = {"name": tile_name(prefix, jid), "set": our_set, "count": count, "edges": t["edges"],
                          "features": feats, "source": jid}
            for mark in sorted(marks):
                tile[mark] = True
            out.append(tile)
        assert sum(counts.values()) == data["set_totals"][set_name], set_name
    names = [t["name"] for t in out]
    assert len(names) == len(set(names)), "two expansion tiles share a name"
    return out


def build(facts: Path) -> dict:
    tiles = base_tiles(facts) + river_tiles(facts) + expansion_tiles(facts)
    for t in tiles:  # fields come in canonical order by their first half; check the halves partition
        halves = [h for f in t["features"] if f["kind"] == "field" for h in f["halves"]]
        assert len(halves) == len(set(halves)), t["name"]
        for h in halves:
            assert t["edges"][DIRS.index(h[0])] in "FRW", (t["name"], h)
    return {
        "about": "Carcassonne tile types (docs/rules/carcassonne.md section 2). Built by "
        "tools/build_carcassonne_tiles.py from shared/rules/facts/carcassonne_base_tiles.json (base, "
        "hand-checked against JCloisterZone basic:1 and RussCon's edge statistics) and "
        "carcassonne_jcz_tiles.json sets river/1:1, inns-and-cathedrals:1, traders-and-builders:1 and "
        "princess-and-dragon:1. Edges N,E,S,W clockwise as drawn: C city, R road, "
        "F field, W river. count = tiles in the draw piles (the start tile D and the spring excluded).",
        "start_tile": "D",
        "spring": "river_spring",
        "lake": "river_lake",
        "tiles": tiles,
    }


def main() -> None:
    facts = Path(sys.argv[1])
    text = json.dumps(build(facts), indent=1) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if OUT.read_text() == text else "carcassonne_tiles.json is stale")
    OUT.write_text(text)


if __name__ == "__main__":
    main()
