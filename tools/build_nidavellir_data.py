"""Writes python/meeplex/data/nidavellir.json from the figures of shared/rules/facts/nidavellir.json (bga_games.md §5).

Run from anywhere: python tools/build_nidavellir_data.py
"""

from pathlib import Path
import json

kinds = []
kinds.append({"key": "blacksmith", "class": "blacksmith", "points": None, "offering": None})
kinds.append({"key": "hunter", "class": "hunter", "points": None, "offering": None})
for p in range(5, 13):
    kinds.append({"key": f"explorer{p}", "class": "explorer", "points": p, "offering": None})
for p in range(0, 3):
    kinds.append({"key": f"miner{p}", "class": "miner", "points": p, "offering": None})
for p in range(3, 11):
    kinds.append({"key": f"warrior{p}", "class": "warrior", "points": p, "offering": None})
kinds.append({"key": "offering3", "class": None, "points": None, "offering": 3})
kinds.append({"key": "offering5", "class": None, "points": None, "offering": 5})
idx = {k["key"]: i for i, k in enumerate(kinds)}


def deck(age, five):
    c = [0] * len(kinds)
    c[idx["blacksmith"]] = 10 if five else 8
    c[idx["hunter"]] = 8 if five else 6
    for p in [3, 4, 5, 6, 6, 7, 8, 9] + ([10] if five else []):
        c[idx[f"warrior{p}"]] += 1
    for p in [0, 0, 1, 1, 2, 2] + ([0, 1] if five else []):
        c[idx[f"miner{p}"]] += 1
    for p in [5, 6, 7, 8, 9, 10, 11] + ([12] if five else []):
        c[idx[f"explorer{p}"]] += 1
    if age == 1:
        c[idx["offering3"]] = 2 if five else 1
    else:
        c[idx["offering5"]] = 3 if five else 2
    return c


heroes = [
    {
        "key": "kraal",
        "name": "Kraal the Venal",
        "class": "warrior",
        "ranks": [7, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "tarah",
        "name": "Tarah Lethal Strike",
        "class": "warrior",
        "ranks": [14],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "aral",
        "name": "Aral Eagle Claws",
        "class": "hunter",
        "ranks": [0, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "dagda",
        "name": "Dagda the Explosive",
        "class": "hunter",
        "ranks": [0, 0, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "aegur",
        "name": "Aegur Fist of Steel",
        "class": "blacksmith",
        "ranks": [0, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "bonfur",
        "name": "Bonfur the Tyrannical",
        "class": "blacksmith",
        "ranks": [0, 0, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "zoral",
        "name": "Zoral the Foreman",
        "class": "miner",
        "ranks": [1, 0, 0],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "lokdur",
        "name": "Lokdur Greedy Heart",
        "class": "miner",
        "ranks": [3],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "hourya",
        "name": "Hourya the Elusive",
        "class": "explorer",
        "ranks": [20],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "idunn",
        "name": "Idunn the Furtive",
        "class": "explorer",
        "ranks": [7],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "dwerg",
        "name": "Dwerg, one of the 5 Brothers",
        "class": None,
        "ranks": [],
        "copies": 5,
        "advanced": False,
    },
    {
        "key": "skaa",
        "name": "Skaa the Unfathomable",
        "class": None,
        "ranks": [],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "astrid",
        "name": "Astrid the Wealthy",
        "class": None,
        "ranks": [],
        "copies": 1,
        "advanced": False,
    },
    {
        "key": "grid",
        "name": "Grid the Mercantile",
        "class": None,
        "ranks": [],
        "copies": 1,
        "advanced": False,
    },
    {"key": "uline", "name": "Uline the Seer", "class": None, "ranks": [], "copies": 1, "advanced": True},
    {
        "key": "ylud",
        "name": "Ylud the Unpredictable",
        "class": None,
        "ranks": [],
        "copies": 1,
        "advanced": True,
    },
    {
        "key": "thrud",
        "name": "Thrud the Headhunter",
        "class": None,
        "ranks": [],
        "copies": 1,
        "advanced": True,
    },
]
neutral_points = {"skaa": 17, "grid": 7, "uline": 9, "thrud": 13}
for h in heroes:
    h["points"] = neutral_points.get(h["key"])
coins = [
    {"key": "b0", "value": 0, "origin": "basic"},
    {"key": "b2", "value": 2, "origin": "basic"},
    {"key": "b3", "value": 3, "origin": "basic"},
    {"key": "b4", "value": 4, "origin": "basic"},
    {"key": "b5", "value": 5, "origin": "basic"},
    {"key": "s3", "value": 3, "origin": "special"},
]
coins += [{"key": f"t{v}", "value": v, "origin": "treasure"} for v in range(5, 26)]
treasure = {5: 2, 6: 2, 7: 3, 8: 2, 9: 3, 10: 2, 11: 3, 12: 2, 13: 2, 14: 2}
# Thingvellir (docs/rules/thingvellir.md §2; facts thingvellir_camp and heroes_thingvellir, BGA-NID Artifacts/*.php
# and Mercenary0-11.php). A mercenary lists its two classes with its points in each (None: no points).
_MERCENARIES = {
    "w6e8": [["warrior", 6], ["explorer", 8]],
    "w6b": [["warrior", 6], ["blacksmith", None]],
    "he8": [["hunter", None], ["explorer", 8]],
    "hm1": [["hunter", None], ["miner", 1]],
    "bm1": [["blacksmith", None], ["miner", 1]],
    "w9e11": [["warrior", 9], ["explorer", 11]],
    "hb": [["hunter", None], ["blacksmith", None]],
    "w6m1": [["warrior", 6], ["miner", 1]],
    "be8": [["blacksmith", None], ["explorer", 8]],
    "w6h": [["warrior", 6], ["hunter", None]],
    "e8m1": [["explorer", 8], ["miner", 1]],
    "w9e11b": [["warrior", 9], ["explorer", 11]],
}
_CAMP = [
    (
        1,
        ["draupnir", "fafnir", "megingjord", "svalinn", "vegvisir", "vidofnir"],
        ["w6e8", "w6b", "he8", "hm1", "bm1", "w9e11"],
    ),
    (
        2,
        ["brisingamens", "gjallarhorn", "hofud", "hrafnsmerki", "jarnglofi", "mjollnir"],
        ["hb", "w6m1", "be8", "w6h", "e8m1", "w9e11b"],
    ),
]
thingvellir = {
    "camp": [
        card
        for age, artifacts, mercenaries in _CAMP
        for card in [{"key": k, "age": age, "type": "artifact"} for k in artifacts]
        + [{"key": k, "age": age, "type": "mercenary", "classes": _MERCENARIES[k]} for k in mercenaries]
    ],
    "heroes": [
        {"key": "andumia", "points": 12},
        {"key": "holda", "points": 12},
        {"key": "khrad", "points": 4},
        {"key": "jarika", "points": 8},
        {"key": "olwyn", "points": 9},
        {"key": "zolkur", "points": 10},
    ],
    "camp_size": 5,
}
data = {
    "_comment": "Nidavellir components for both engines (docs/rules/nidavellir.md section 2). Sources: shared/rules/facts/nidavellir.json and bga_games.md section 5 (BGA-NID Cards.php / Coins.php / Heroes, GP-NID CardsMinPlayers.ts, the publisher's aide-memoire, the rulespal rulebook transcription). Card kinds are (class, bravery points) or a royal offering (+value); decks are counts per kind, ordered as 'kinds'.",
    "classes": ["blacksmith", "hunter", "explorer", "miner", "warrior"],
    "kinds": kinds,
    "decks": {
        "age1": {"2-4": deck(1, False), "5": deck(1, True)},
        "age2": {"2-4": deck(2, False), "5": deck(2, True)},
    },
    "coins": coins,
    "player_coins": ["b0", "b2", "b3", "b4", "b5"],
    "treasure": {
        "4-5": [treasure.get(v, 1) for v in range(5, 26)],
        "2-3": [(1 if v in (7, 9, 11) else treasure.get(v, 1)) for v in range(5, 26)],
    },
    "gems": {"2": [4, 5], "3": [3, 4, 5], "4": [2, 3, 4, 5], "5": [1, 2, 3, 4, 5]},
    "turns_per_age": {"2": 4, "3": 4, "4": 3, "5": 3},
    "cards_per_tavern": {"2": 3, "3": 3, "4": 4, "5": 5},
    "taverns": ["goblin", "dragon", "horse"],
    "heroes": heroes,
    "dwerg_points": [0, 13, 40, 81, 108, 135],
    "distinctions": ["warrior", "hunter", "miner", "blacksmith", "explorer"],
    "thingvellir": thingvellir,
}
for a in ("age1", "age2"):
    for k, v in data["decks"][a].items():
        print(a, k, sum(v))
print(sum(data["treasure"]["4-5"]), sum(data["treasure"]["2-3"]))
with (Path(__file__).resolve().parents[1] / "python/meeplex/data/nidavellir.json").open("w") as out:
    json.dump(data, out, indent=1)
