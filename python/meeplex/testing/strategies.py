"""Hypothesis strategies over the registry: game strings with varied parameters, and action choices.

A game's parameter space is discovered from the registry: ``game.params`` gives every key with its default,
and ``param_space`` probes ``meeplex.make`` (the oracle's for a game only the oracle has so far) with
candidate values to keep the ones the game accepts (booleans both ways; for ints, small values and the
neighbours of the default). Probing cannot guess a word's values, nor find a key a game leaves out of
``game.params`` at its default: the games with such parameters list them in ``EXTRA_PARAMS`` (the only place
here that names a game), and ``params`` draws them too. The seeded variants (``param_variants`` and the rest)
stay probe-only.

Action choices are drawn as indices into ``legal_actions()``, so a shrunk example means "the first legal
action" and the same choices drive the Rust state and the oracle state in lockstep.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from hypothesis import assume
from hypothesis import strategies as st

import meeplex

from .._params import ParamValue
from .._protocols import GameLike, StateLike
from ..errors import GameError

_Params = dict[str, ParamValue]

# Small ints find the edge cases (one player, one turn); the default's neighbours keep ordinary games.
_SMALL_INTS = (-1, 0, 1, 2, 3, 4, 5, 6, 8, 10)
# Index draws for one step: wide enough for any action space, and it shrinks towards legal_actions()[0].
_CHOICE_MAX = 2**16 - 1


def _make_for(game_id: str) -> Callable[..., GameLike]:
    """The ``make`` that knows ``game_id``: the Rust core's, or the oracle's for a game only it has so far."""
    from .. import oracle

    return meeplex.make if game_id in meeplex.games() else oracle.make


def _accepts(game_id: str, params: _Params) -> bool:
    try:
        _make_for(game_id)(game_id, **params)
    except GameError:
        return False
    return True


@functools.cache
def param_space(game_id: str) -> dict[str, tuple[ParamValue, ...]]:
    """Every parameter of ``game_id`` with the values to try, each accepted by ``meeplex.make`` on its own.

    The default is always first, so a strategy that shrinks to the first value shrinks to the default.
    """
    defaults = _make_for(game_id)(game_id).params
    space: dict[str, tuple[ParamValue, ...]] = {}
    for key, default in sorted(defaults.items()):
        if isinstance(default, bool):
            candidates: tuple[ParamValue, ...] = (default, not default)
        elif isinstance(default, int):
            near = (default, default - 1, default + 1, 2 * default)
            candidates = tuple(dict.fromkeys(near + _SMALL_INTS))
        else:
            candidates = (default,)
        space[key] = tuple(v for v in candidates if v == default or _accepts(game_id, {key: v}))
    return space


def param_variants(game_id: str) -> list[_Params]:
    """A small, fixed list of parameter dicts for seeded tests: the defaults, then each parameter moved to
    its lowest and highest accepted non-default value (booleans flipped), one parameter at a time."""
    variants: list[_Params] = [{}]
    for key, (default, *rest) in param_space(game_id).items():
        if not isinstance(default, bool) and rest:
            rest = sorted({min(rest), max(rest)})
        variants += [{key: v} for v in rest]
    return variants


def _pack(game_id: str, settings: _Params) -> list[_Params]:
    """Group ``settings`` into as few parameter dicts as the game accepts (first fit, in key order)."""
    packs: list[_Params] = []
    for key, value in settings.items():
        for pack in packs:
            if _accepts(game_id, {**pack, key: value}):
                pack[key] = value
                break
        else:
            packs.append({key: value})
    return packs


def combined_variants(game_id: str) -> list[_Params]:
    """Few parameter dicts that still move every parameter: the defaults; every int at its lowest accepted
    value with every boolean flipped; every int at its highest. Values the game refuses together are split
    into as few accepted dicts as first fit finds."""
    low: _Params = {}
    high: _Params = {}
    for key, (default, *rest) in param_space(game_id).items():
        if not rest:
            continue
        if isinstance(default, bool):
            low[key] = rest[0]
        else:
            low[key], high[key] = min(rest), max(rest)
    return [{}] + _pack(game_id, low) + _pack(game_id, high)


# A game's share of the seeded suites at effort 1 (CI): length parameters capped, so that a combined variant
# at its highest values (six winemakers for 40 years: some 5,000 actions a game) does not play whole games
# of its longest kind in every seeded suite. The higher efforts (``dev``, ``long``) play them in full.
CI_CAPS: dict[str, _Params] = {"viticulture": {"max_years": 3}}


def seeded_variants(game_id: str, effort: int = 1) -> list[_Params]:
    """The parameter sets seeded suites run: ``combined_variants`` at effort 1 (with ``CI_CAPS``), every
    single-parameter variant as well above it."""
    variants = combined_variants(game_id)
    if effort > 1:
        return variants + [v for v in param_variants(game_id) if v not in variants]
    capped = []
    for variant in variants:
        variant = dict(variant)
        for key, cap in CI_CAPS.get(game_id, {}).items():
            variant[key] = min(variant.get(key, cap), cap)
        if variant not in capped:
            capped.append(variant)
    return capped


# --- Parameters probing cannot find -------------------------------------------------------------------------

# The Flip City family (docs/rules/flip_city_wilderness.md §1): both ids take the same keys. The supply's pile
# codes (§1.1, canonical order) and the title-bar colour tables (§1.2), written from the contract rather than
# read from either engine, so that a supply is "valid" by the contract's word.
_FLIP_PILES = ("cs", "park", "hosp", "off", "fac", "log", "market", "wind", "camp")
_FLIP_COLOURS: dict[str, dict[str, str]] = {
    "cost": {"cs": "2", "log": "2", "off": "3", "market": "3", "hosp": "4", "camp": "4", "fac": "5",
             "wind": "5", "park": "7"},
    "size": {"cs": "A", "log": "A", "hosp": "B", "market": "B", "fac": "C", "wind": "C", "park": "D",
             "camp": "D", "off": "E"},
    "none": {code: code for code in _FLIP_PILES},
}  # fmt: skip
# The other words (default first) and the int keys ``flip_city`` leaves out of ``params`` at their default.
_FLIP_WORDS: dict[str, tuple[str, ...]] = {
    "colours": ("cost", "size", "none"),
    "logging_text": ("proposed", "printed"),
    "reservoir_recycle": ("limit", "cash", "both"),
}
_FLIP_HIDDEN_INTS: dict[str, tuple[int, ...]] = {
    "trailer_cash": (1, 0),
    "resort_unhappiness": (0, 1),
    "interchange_cash": (1, 0),
    "airport_points": (2, 0, 1, 3),
    "reservoir_points": (2, 0, 1, 3),
}


def _supply_word(draw: st.DrawFn, colours: str, office: bool) -> str:
    """A ``supply`` value: at most one pile per title-bar colour (FAQ Q4) and at least one pile, so that the
    game is played; mostly mixed (each colour drawn among its piles of both sets, or left empty); in any
    order, now and then in upper case (the value is read without regard to order or ASCII case). One draw in
    sixteen ignores the colours: such a game string may be refused, which ``params`` filters out."""
    table = _FLIP_COLOURS[colours]
    piles: list[str] = []
    if draw(st.integers(0, 15), label="ignore the colours") == 0:
        piles = draw(st.lists(st.sampled_from(_FLIP_PILES), min_size=1, max_size=9, unique=True))
    else:
        taken = {table["off"]} if office else set()
        for colour in dict.fromkeys(table[code] for code in _FLIP_PILES):
            if colour in taken:
                continue
            members = [code for code in _FLIP_PILES if table[code] == colour]
            index = draw(st.integers(-1, len(members) - 1), label=f"pile of colour {colour}")
            if index >= 0:
                piles.append(members[index])
        if not piles:
            piles = [draw(st.sampled_from([c for c in _FLIP_PILES if table[c] not in taken]))]
        piles = draw(st.permutations(piles))
    if draw(st.integers(0, 7), label="upper case") == 0:
        piles = [code.upper() for code in piles]
    return "+".join(piles)


@st.composite
def _flip_city_family(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """The Flip City family's words (``supply`` valid under the drawn ``colours``, ``logging_text``,
    ``reservoir_recycle``) and, for ``flip_city``, the int keys its ``params`` hides at their default; each
    left out (its default) half of the time."""
    extra: _Params = {}
    for key, (_, *others) in _FLIP_WORDS.items():
        if draw(st.booleans()):
            extra[key] = draw(st.sampled_from(others))
    if game_id == "flip_city":
        for key, (_, *values) in _FLIP_HIDDEN_INTS.items():
            if draw(st.booleans()):
                extra[key] = draw(st.sampled_from(values))
    # The supply more often than not: it decides which cards (of which set) are in the game.
    if draw(st.integers(0, 3)) > 0:
        colours = str(extra.get("colours", "cost"))
        extra["supply"] = _supply_word(draw, colours, drawn.get("office") is True)
    return extra


# Carcassonne (docs/rules/carcassonne.md §1): a custom land pile, letters A..X with counts, so that drawn
# games are short enough to reach the end-of-game field scoring often; and the expansions (§11, §12), which
# ``game.params`` lists only when they are on, so that probing cannot find them.
_CARCASSONNE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
_CARCASSONNE_EXPANSIONS = ("inns_cathedrals", "traders_builders", "princess_dragon")


@st.composite
def _carcassonne_tiles(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """Each expansion a third of the time (their 72 tiles always join the pile), a sixth seat now and then
    with Inns & Cathedrals; and a ``tiles`` word half of the time: a few letters (in order, as the contract
    asks) with counts 1..3, now and then in lower case (the word is read without regard to ASCII case)."""
    extra: _Params = {}
    for key in _CARCASSONNE_EXPANSIONS:
        if draw(st.integers(0, 2), label=key) == 0:
            extra[key] = True
    if extra.get("inns_cathedrals") and draw(st.integers(0, 3), label="six seats") == 0:
        extra["players"] = 6
    if draw(st.booleans()):
        return extra
    letters = sorted(draw(st.sets(st.sampled_from(_CARCASSONNE_LETTERS), min_size=1, max_size=10)))
    word = "".join(f"{letter}{draw(st.integers(1, 3))}" for letter in letters)
    if draw(st.integers(0, 7)) == 0:
        word = word.lower()
    return {**extra, "tiles": word}


# Forbidden Island (docs/rules/forbidden_island.md §1): the difficulty (the starting water level), the layout.
_FORBIDDEN_ISLAND_WORDS: dict[str, tuple[str, ...]] = {
    "difficulty": ("novice", "normal", "elite", "legendary"),
    "layout": ("standard", "treasure_island"),
}


@st.composite
def _forbidden_island_words(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """Each word left out (its default) half of the time, else one of its other values."""
    extra: _Params = {}
    for key, (_, *others) in _FORBIDDEN_ISLAND_WORDS.items():
        if draw(st.booleans()):
            extra[key] = draw(st.sampled_from(others))
    return extra


# Nidavellir's Thingvellir (docs/rules/thingvellir.md §1): ``game.params`` lists its keys only when
# it is on, so that probing cannot find them.
_THINGVELLIR_WORDS: dict[str, tuple[ParamValue, ...]] = {
    "enlist_each_turn": (False, True),
    "enlist_chooser": ("most", "lowest_gem"),
    "two_player_camp_discard": (True, False),
}


@st.composite
def _nidavellir_thingvellir(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """Thingvellir half of the time, each of its interpretation keys then left out (its default) half of the
    time, else its other value."""
    if not draw(st.booleans(), label="thingvellir"):
        return {}
    extra: _Params = {"thingvellir": True}
    for key, (_, *others) in _THINGVELLIR_WORDS.items():
        if draw(st.booleans()):
            extra[key] = draw(st.sampled_from(others))
    return extra


# Memoir '44 (docs/rules/memoir44.md §6.1): the shipped scenarios (a ``b64_`` file is any other).
_MEMOIR44_SCENARIOS = ("pegasus_bridge", "home_hills")


@st.composite
def _memoir44_scenario(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """The default scenario half of the time, else one drawn from the shipped ones."""
    if draw(st.booleans()):
        return {}
    return {"scenario": draw(st.sampled_from(_MEMOIR44_SCENARIOS))}


# Viticulture (docs/rules/viticulture.md §3): the word parameters, default first.
_VITICULTURE_WORDS: dict[str, tuple[str, ...]] = {
    "end_rule": ("reached", "year_end"),
    "harvest_expert": ("record", "harvest_both"),
    "importer": ("escrow", "draw"),
    "promoter": ("vp_residual", "vp_only"),
    "queen": ("on", "off"),
}


@st.composite
def _viticulture_words(draw: st.DrawFn, game_id: str, drawn: _Params) -> _Params:
    """Each word parameter left at its default or moved, and at most 3 years (a drawn game is played whole
    by the lockstep tests; random games seldom reach the points that end it sooner)."""
    extra: _Params = {"max_years": min(int(drawn.get("max_years", 3)), 3)}
    for key, (_, *others) in _VITICULTURE_WORDS.items():
        if draw(st.booleans()):
            extra[key] = draw(st.sampled_from(others))
    return extra


# game id -> a strategy of the parameters ``param_space`` cannot find, given the ones drawn from it.
EXTRA_PARAMS: dict[str, Callable[[str, _Params], st.SearchStrategy[_Params]]] = {
    "carcassonne": _carcassonne_tiles,
    "flip_city": _flip_city_family,
    "flip_city_wilderness": _flip_city_family,
    "forbidden_island": _forbidden_island_words,
    "memoir44": _memoir44_scenario,
    "nidavellir": _nidavellir_thingvellir,
    "viticulture": _viticulture_words,
}


@st.composite
def params(draw: st.DrawFn, game_id: str) -> _Params:
    """A parameter dict for ``game_id``: each parameter either left out (its default) or set to a probed
    value, then the game's ``EXTRA_PARAMS`` (words, hidden keys) if it has any. Joint validity is checked,
    since a game may refuse a combination it accepts piece by piece."""
    space = param_space(game_id)
    chosen: _Params = {}
    for key, values in space.items():
        if len(values) > 1 and draw(st.booleans()):
            chosen[key] = draw(st.sampled_from(values[1:]))
    if game_id in EXTRA_PARAMS:
        chosen.update(draw(EXTRA_PARAMS[game_id](game_id, chosen)))
    assume(_accepts(game_id, chosen))
    return chosen


def games_of_both_engines() -> list[str]:
    """The games both the Rust core and the oracle register, sorted: what the lockstep comparisons run on (a
    game one engine does not have yet is checked by the other engine's own suites alone)."""
    from .. import oracle

    return sorted(set(meeplex.games()) & set(oracle.games()))


@st.composite
def game_strings(draw: st.DrawFn, games: list[str] | None = None) -> str:
    """A game string (``"name(key=value,...)"``) with drawn parameters, for a game of ``games`` (by default
    one that both engines register, since the callers drive both)."""
    game_id = draw(st.sampled_from(sorted(games) if games else games_of_both_engines()))
    return meeplex.game_string(game_id, draw(params(game_id)))


def seeds() -> st.SearchStrategy[int]:
    """Seeds for the shared PRNG: any u64."""
    return st.integers(min_value=0, max_value=2**64 - 1)


def action_choices(max_steps: int = 200, min_steps: int = 0) -> st.SearchStrategy[list[int]]:
    """A list of choices, one per step; ``pick(state, c)`` turns each into a legal action of that state."""
    return st.lists(st.integers(min_value=0, max_value=_CHOICE_MAX), min_size=min_steps, max_size=max_steps)


def pick(state: StateLike, choice: int) -> int:
    """The legal action (or chance outcome) a choice selects: ``legal_actions()[choice % len]``."""
    legal = state.legal_actions()
    return legal[choice % len(legal)]


def draw_action(data: st.DataObject, state: StateLike) -> int:
    """Draw one legal action of ``state`` inside a test given ``st.data()`` (chance outcomes uniformly)."""
    legal = state.legal_actions()
    index = data.draw(st.integers(min_value=0, max_value=len(legal) - 1), label="action index")
    return legal[index]


@st.composite
def states(draw: st.DrawFn, game: GameLike, max_steps: int = 300) -> StateLike:
    """A state of ``game`` (either engine's) reached by random steps from its initial state.

    The steps are DESIGN's random step from a drawn seed, so that a long history costs two draws rather
    than one per action.
    """
    from .conformance import random_action, rng_class_for

    steps = draw(st.integers(min_value=0, max_value=max_steps))
    rng = rng_class_for(game)(draw(seeds()))
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        action = random_action(state, rng)
        assert action is not None, "a random step from a state that is not terminal"
        state.apply_action(action)
    return state


def junk() -> st.SearchStrategy[object]:
    """Values of the wrong kind for an int argument: none of these is an action, a seat or an outcome."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.floats(allow_nan=True),
        st.text(max_size=8),
        st.binary(max_size=8),
        st.lists(st.integers(0, 3), max_size=2),
        st.just(object()),
    )


def bad_ints(limit: int) -> st.SearchStrategy[int]:
    """Ints outside ``0..limit``: negative, just past the end, and far beyond 64 bits."""
    return st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=limit, max_value=limit + 4),
        st.integers(min_value=2**31 - 2, max_value=2**31 + 2),
        st.integers(min_value=2**63 - 2, max_value=2**64 + 2),
        st.integers(min_value=2**64),
    )


__all__ = [
    "EXTRA_PARAMS",
    "action_choices",
    "bad_ints",
    "combined_variants",
    "draw_action",
    "game_strings",
    "junk",
    "param_space",
    "param_variants",
    "params",
    "pick",
    "seeded_variants",
    "seeds",
    "states",
]
