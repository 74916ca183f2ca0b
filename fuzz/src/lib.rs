//! The checks behind the fuzz targets (issue 9), generic over the registry: nothing here names a game.
//!
//! - [`deserialize`]: arbitrary bytes as a serialized state, offered to every registered game (with its default
//!   parameters, and with the parameters the text itself claims). Nothing may panic; a refusal must be
//!   `InvalidState`; an accepted state must answer every query, re-serialize to a text that reads back as the
//!   same state, and play to the end by random steps within `max_game_length()`.
//! - [`actions`]: the bytes choose a game from the registry, its parameters (including bad ones) and a sequence
//!   of action ids, legal and not. Every legal action applies; every other id is refused with `IllegalAction`
//!   and leaves the state equal (`PartialEq`) to what it was; `is_legal` agrees with `legal_actions`.
//!
//! A failed check is a panic with a message naming the game and the check; libFuzzer and the plain driver
//! (src/bin/driver.rs) both save the input that caused it.

use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::registry::GAME_IDS;
use meeplex_engine::{
    AnyGame, AnyState, GameError, ParamValue, Params, Rng, State, CHANCE, TERMINAL,
};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Serialized states accepted by some game, over the life of the process (the driver reports it).
pub static ACCEPTED: AtomicU64 = AtomicU64::new(0);
/// Actions applied, over the life of the process.
pub static STEPS: AtomicU64 = AtomicU64::new(0);

/// Every registered game with its default parameters, in registry order.
pub fn default_games() -> &'static [AnyGame] {
    static GAMES: OnceLock<Vec<AnyGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        GAME_IDS
            .iter()
            .map(|id| {
                AnyGame::new(id, &Params::new())
                    .unwrap_or_else(|e| panic!("{id}: its default parameters are refused: {e}"))
            })
            .collect()
    })
}

/// Values to try for a parameter whose default is `default`: the default, its neighbours, small values and
/// absurd ones, and values of the wrong type.
pub fn candidates(default: &ParamValue) -> Vec<ParamValue> {
    let mut out = vec![default.clone()];
    match default {
        ParamValue::Int(d) => {
            let ints = [
                d.saturating_sub(1),
                d.saturating_add(1),
                d.saturating_mul(2),
                0,
                1,
                2,
                3,
                4,
                5,
                6,
                8,
                -1,
                1_000_000,
                i64::MIN,
                i64::MAX,
            ];
            out.extend(ints.iter().map(|&v| ParamValue::Int(v)));
            out.push(ParamValue::Bool(true));
        }
        ParamValue::Bool(b) => {
            out.push(ParamValue::Bool(!b));
            out.push(ParamValue::Int(1));
        }
        ParamValue::Str(_) => {
            out.push(ParamValue::Str(String::new()));
            out.push(ParamValue::Str("no_such_value".into()));
            out.push(ParamValue::Int(0));
        }
    }
    out.push(ParamValue::Str("x".into()));
    out
}

/// A game name and parameter map: the defaults, then each parameter set on its own to every candidate value
/// the game accepts. Used to seed corpora; `actions` draws its parameters from the bytes instead.
pub fn variants() -> Vec<AnyGame> {
    let mut out: Vec<AnyGame> = Vec::new();
    let mut seen = BTreeSet::new();
    for game in default_games() {
        for (key, default) in game.params().clone() {
            for value in candidates(&default) {
                let params = Params::from([(key.clone(), value)]);
                if let Ok(g) = AnyGame::new(game.id(), &params) {
                    if seen.insert(format!("{}{:?}", g.id(), g.params())) {
                        out.push(g);
                    }
                }
            }
        }
    }
    out
}

/// FNV-1a: a seed for the random steps that is a pure function of the input.
pub fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf29ce484222325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Reused buffers for the checks.
#[derive(Default)]
struct Buffers {
    legal: Vec<u32>,
    weights: Vec<(u32, u64)>,
    scratch: Scratch,
    returns: Vec<f64>,
    obs: Vec<f32>,
    obs_again: Vec<f32>,
}

/// A game named in a failure message: formatted only when a message is (checks run millions of times).
struct What<'a>(&'a AnyGame);

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{:?}", self.0.id(), self.0.params())
    }
}

fn what(game: &AnyGame) -> What<'_> {
    What(game)
}

/// The sizes of a game the engine accepted must be usable.
fn check_game(game: &AnyGame) {
    let g = what(game);
    assert!(game.num_players() >= 1, "{g}: num_players() is 0");
    assert!(
        game.num_distinct_actions() >= 1,
        "{g}: num_distinct_actions() is 0"
    );
    assert!(game.max_game_length() >= 1, "{g}: max_game_length() is 0");
    assert!(
        game.num_distinct_actions() <= u32::MAX as usize,
        "{g}: action ids beyond u32"
    );
}

/// The cheap per-node checks: current player, legal actions, chance weights.
fn check_node(game: &AnyGame, state: &AnyState, buf: &mut Buffers) {
    let g = what(game);
    let n = game.num_players() as i32;
    let cp = state.current_player();
    assert!(
        cp == CHANCE || cp == TERMINAL || (0..n).contains(&cp),
        "{g}: current_player() = {cp} with {n} seats"
    );
    assert_eq!(state.is_terminal(), cp == TERMINAL, "{g}: is_terminal()");
    assert_eq!(
        state.is_chance_node(),
        cp == CHANCE,
        "{g}: is_chance_node()"
    );
    state.legal_actions(&mut buf.legal);
    let legal = &buf.legal;
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "{g}: legal_actions() not strictly sorted: {legal:?}"
    );
    if cp == TERMINAL {
        assert!(
            legal.is_empty(),
            "{g}: legal actions at a terminal state: {legal:?}"
        );
    } else {
        assert!(
            !legal.is_empty(),
            "{g}: no legal action at a non-terminal state (player {cp})"
        );
        let bound = if cp == CHANCE {
            game.max_chance_outcomes()
        } else {
            game.num_distinct_actions()
        };
        let last = *legal.last().unwrap() as usize;
        assert!(
            last < bound,
            "{g}: legal action {last} out of 0..{bound} (player {cp})"
        );
    }
    state.chance_weights(&mut buf.weights);
    if cp == CHANCE {
        let ids: Vec<u32> = buf.weights.iter().map(|&(a, _)| a).collect();
        assert_eq!(
            &ids, legal,
            "{g}: chance_weights() outcomes differ from legal_actions()"
        );
        assert!(
            buf.weights.iter().all(|&(_, w)| w > 0),
            "{g}: a chance weight is 0"
        );
        let total = buf
            .weights
            .iter()
            .try_fold(0u64, |t, &(_, w)| t.checked_add(w));
        assert!(total.is_some(), "{g}: chance weights overflow u64");
    } else {
        assert!(
            buf.weights.is_empty(),
            "{g}: chance weights at a non-chance node"
        );
    }
}

/// Everything a caller can ask of a state: returns, scores, observations (also into a dirty buffer),
/// notation, resampling. None may panic; the answers must be well-formed.
fn check_views(game: &AnyGame, state: &AnyState, history: &[u32], buf: &mut Buffers, seed: u64) {
    check_node(game, state, buf);
    let g = what(game);
    let n = game.num_players();
    let cp = state.current_player();

    buf.returns.clear();
    buf.returns.resize(n, f64::NAN);
    state.returns(&mut buf.returns);
    let returns = buf.returns.clone();
    if cp == TERMINAL {
        assert!(
            returns.iter().all(|r| (0.0..=1.0).contains(r)),
            "{g}: returns {returns:?}"
        );
        // A share of the win (sum 1, or 0 when nobody wins), or a co-operative result (all equal).
        let sum: f64 = returns.iter().sum();
        let shared = sum.abs() < 1e-9 || (sum - 1.0).abs() < 1e-9;
        assert!(
            shared || returns.iter().all(|&r| r == returns[0]),
            "{g}: returns {returns:?}"
        );
    } else {
        assert!(
            returns.iter().all(|&r| r == 0.0),
            "{g}: returns before the end: {returns:?}"
        );
    }
    buf.returns.iter_mut().for_each(|r| *r = f64::NAN);
    state.scores(&mut buf.returns);
    assert!(
        buf.returns.iter().all(|s| s.is_finite()),
        "{g}: scores {:?}",
        buf.returns
    );
    buf.returns.iter_mut().for_each(|r| *r = 0.0);
    state.heuristic_value(&mut buf.returns);
    assert!(
        buf.returns.iter().all(|s| s.is_finite()),
        "{g}: heuristic_value {:?}",
        buf.returns
    );

    let len = game.observation_len();
    for seat in 0..n {
        // A zeroed buffer and one full of garbage must come out the same: the bindings pass the caller's
        // `out=` array as it is, so an observation must write every entry.
        buf.obs.clear();
        buf.obs.resize(len, 0.0);
        state.observation_tensor(seat, &mut buf.obs);
        assert!(
            buf.obs.iter().all(|x| x.is_finite()),
            "{g}: observation_tensor({seat}) not finite"
        );
        buf.obs_again.clear();
        buf.obs_again.resize(len, 7.5);
        state.observation_tensor(seat, &mut buf.obs_again);
        assert!(
            buf.obs == buf.obs_again,
            "{g}: observation_tensor({seat}) leaves entries of its buffer unwritten"
        );
        let _ = state.observation_string(seat);
        let _ = state.information_state_string(seat, history);
    }
    let _ = state.to_text();

    // Notation: every legal action has a unique text that reads back; any other id is refused or named.
    let legal = buf.legal.clone();
    let mut texts = BTreeSet::new();
    for &a in &legal {
        let text = state
            .action_to_string(a)
            .unwrap_or_else(|e| panic!("{g}: action_to_string({a}) of a legal action: {e:?}"));
        assert!(
            texts.insert(text.clone()),
            "{g}: two legal actions are written {text:?}"
        );
        match state.string_to_action(&text) {
            Ok(back) => assert_eq!(back, a, "{g}: string_to_action({text:?})"),
            Err(e) => panic!("{g}: string_to_action({text:?}) of action {a}: {e:?}"),
        }
    }
    let bound = game.num_distinct_actions().max(game.max_chance_outcomes()) as u32;
    for a in [
        bound,
        bound.wrapping_add(1),
        u32::MAX,
        (seed as u32) % bound.max(1),
    ] {
        match state.action_to_string(a) {
            Ok(_) | Err(GameError::IllegalAction(_)) => {}
            Err(e) => panic!("{g}: action_to_string({a}) raised {e:?}, not IllegalAction"),
        }
    }

    // Resampling: for each seat, a state at the same kind of node that looks the same to that seat; with the
    // history that leads to it (what Python's resample_from_infostate returns), a valid state: it serializes
    // and reads back as itself.
    let mut rng = Rng::new(seed);
    for seat in 0..n {
        let other = state.resample_from_infostate(seat, &mut rng);
        let (drawn, drawn_history) = state.resample_with_history(seat, history, &mut rng);
        for (which, other) in [
            ("resample_from_infostate", &other),
            ("resample_with_history", &drawn),
        ] {
            assert_eq!(
                other.current_player(),
                cp,
                "{g}: {which}({seat}) changed current_player()"
            );
            buf.obs.clear();
            buf.obs.resize(len, 0.0);
            state.observation_tensor(seat, &mut buf.obs);
            buf.obs_again.clear();
            buf.obs_again.resize(len, 0.0);
            other.observation_tensor(seat, &mut buf.obs_again);
            assert!(
                buf.obs == buf.obs_again,
                "{g}: {which}({seat}) gives seat {seat} a different observation_tensor"
            );
            assert_eq!(
                other.observation_string(seat),
                state.observation_string(seat),
                "{g}: {which}({seat}) gives seat {seat} a different observation_string"
            );
        }
        let text = drawn.serialize(&drawn_history);
        match game.deserialize_state(&text) {
            Ok((back, back_history)) => {
                assert!(
                    back == drawn,
                    "{g}: a resampled state does not round-trip\n{text}"
                );
                assert_eq!(
                    back_history, drawn_history,
                    "{g}: a resampled history does not round-trip"
                );
            }
            Err(e) => panic!(
                "{g}: resample_with_history({seat}) made a state that is refused: {e}\n{text}"
            ),
        }
    }
}

/// serialize -> deserialize_state gives the same state and history, and serializing again the same text.
fn round_trip(game: &AnyGame, state: &AnyState, history: &[u32]) {
    let g = what(game);
    let text = state.serialize(history);
    let (back, back_history) = game
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{g}: its own serialization is refused: {e}\n{text}"));
    assert!(
        back == *state,
        "{g}: serialize -> deserialize_state changed the state\n{text}"
    );
    assert_eq!(
        back_history, history,
        "{g}: serialize -> deserialize_state changed the history"
    );
    assert_eq!(
        back.serialize(&back_history),
        text,
        "{g}: the serialization is not canonical"
    );
}

/// The parameters a serialized state claims (its top-level "params" object), as far as they are typed values.
fn embedded_params(text: &str) -> Option<Params> {
    let value: Value = serde_json::from_str(text).ok()?;
    let map = value.get("params")?.as_object()?;
    let mut params = Params::new();
    for (key, v) in map {
        let p = match v {
            Value::Bool(b) => ParamValue::Bool(*b),
            Value::Number(x) => ParamValue::Int(x.as_i64()?),
            Value::String(s) => ParamValue::Str(s.clone()),
            _ => return None,
        };
        params.insert(key.clone(), p);
    }
    Some(params)
}

fn expect_invalid_state(context: &str, e: GameError) {
    assert!(
        matches!(e, GameError::InvalidState(_)),
        "{context}: refused with {e:?}, not InvalidState"
    );
}

/// Fuzz target `deserialize`: see the crate documentation.
pub fn deserialize(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut games: Vec<AnyGame> = default_games().to_vec();
    if let Some(params) = embedded_params(&text) {
        for id in GAME_IDS {
            match AnyGame::new(id, &params) {
                Ok(g) => games.push(g),
                Err(e) => expect_invalid_state(&format!("{id}: AnyGame::new({params:?})"), e),
            }
        }
    }
    let seed = fnv(data);
    for game in &games {
        match game.deserialize_state(&text) {
            Ok((state, history)) => {
                ACCEPTED.fetch_add(1, Ordering::Relaxed);
                play_accepted(game, state, history, seed);
            }
            Err(e) => expect_invalid_state(&format!("{}: deserialize_state", what(game)), e),
        }
    }
}

/// An accepted state: every query, the round trip, then random steps to the end within max_game_length().
fn play_accepted(game: &AnyGame, mut state: AnyState, mut history: Vec<u32>, seed: u64) {
    check_game(game);
    let g = what(game);
    let mut buf = Buffers::default();
    round_trip(game, &state, &history);
    check_views(game, &state, &history, &mut buf, seed);
    let bound = game.max_game_length();
    let mut rng = Rng::new(seed);
    let mut steps = 0u64;
    loop {
        check_node(game, &state, &mut buf);
        if steps % 64 == 63 {
            check_views(game, &state, &history, &mut buf, seed ^ steps);
            round_trip(game, &state, &history);
        }
        let Some(action) = random_action(&state, &mut rng, &mut buf.scratch) else {
            break;
        };
        assert!(
            state.is_legal(action),
            "{g}: the random step chose {action}, which is_legal refuses"
        );
        if let Err(e) = state.apply_action(action) {
            panic!("{g}: the random step's action {action} is refused: {e}");
        }
        history.push(action);
        steps += 1;
        assert!(
            steps <= bound,
            "{g}: no end within max_game_length() = {bound} random steps from an accepted state"
        );
    }
    STEPS.fetch_add(steps, Ordering::Relaxed);
    assert!(
        state.is_terminal(),
        "{g}: the random step found nothing to do at a live state"
    );
    check_views(game, &state, &history, &mut buf, seed);
    round_trip(game, &state, &history);
}

/// The input of the `actions` target, read front to back; zeros once it runs out.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// Up to `max` bytes as (lossy) text.
    pub fn text(&mut self, max: usize) -> String {
        let len = (self.u8() as usize) % (max + 1);
        let start = self.pos.min(self.data.len());
        let end = (self.pos + len).min(self.data.len());
        self.pos += len;
        String::from_utf8_lossy(&self.data[start..end]).into_owned()
    }
}

/// One action id against the state: applied if legal, else refused with no change.
fn try_action(
    game: &AnyGame,
    state: &mut AnyState,
    history: &mut Vec<u32>,
    action: u32,
    legal: &[u32],
) {
    let g = what(game);
    let is_in = legal.binary_search(&action).is_ok();
    assert_eq!(
        state.is_legal(action),
        is_in,
        "{g}: is_legal({action}) disagrees with legal_actions() = {legal:?}"
    );
    match state.action_to_string(action) {
        Ok(_) | Err(GameError::IllegalAction(_)) => {}
        Err(e) => panic!("{g}: action_to_string({action}) raised {e:?}, not IllegalAction"),
    }
    let before = state.clone();
    match state.apply_action(action) {
        Ok(()) => {
            assert!(
                is_in,
                "{g}: apply_action({action}) accepted an action not in {legal:?}"
            );
            history.push(action);
            STEPS.fetch_add(1, Ordering::Relaxed);
        }
        Err(e) => {
            assert!(
                !is_in,
                "{g}: apply_action({action}) refused a legal action: {e}"
            );
            assert!(
                matches!(e, GameError::IllegalAction(_)),
                "{g}: apply_action({action}) refused with {e:?}, not IllegalAction"
            );
            assert!(
                *state == before,
                "{g}: a refused apply_action({action}) changed the state"
            );
        }
    }
}

/// Whether `actions` also applies illegal ids with `apply_unchecked` to a scrap copy (MEEPLEX_FUZZ_UNCHECKED=1).
fn unchecked_mode() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("MEEPLEX_FUZZ_UNCHECKED").is_ok_and(|v| v == "1"))
}

/// Fuzz target `actions`: see the crate documentation.
pub fn actions(data: &[u8]) {
    let mut b = Bytes::new(data);
    let defaults = &default_games()[b.u8() as usize % GAME_IDS.len()];
    let id = defaults.id();
    let mut params = Params::new();
    for (key, default) in defaults.params() {
        let pick = b.u8() as usize;
        if pick % 4 != 0 {
            let values = candidates(default);
            params.insert(key.clone(), values[(pick / 4) % values.len()].clone());
        }
    }
    if b.u8() == 0xff {
        params.insert("no_such_parameter".into(), ParamValue::Int(1));
    }
    let game = match AnyGame::new(id, &params) {
        Ok(g) => g,
        Err(e) => {
            expect_invalid_state(&format!("{id}: AnyGame::new({params:?})"), e);
            defaults.clone()
        }
    };
    check_game(&game);
    let g = what(&game);
    let mut buf = Buffers::default();
    let seed = fnv(data);
    let mut state = game.new_initial_state();
    let mut history: Vec<u32> = Vec::new();
    round_trip(&game, &state, &history);
    check_views(&game, &state, &history, &mut buf, seed);
    let mut legal = Vec::new();
    while !b.is_empty() {
        let op = b.u8();
        check_node(&game, &state, &mut buf);
        state.legal_actions(&mut legal);
        let bound = if state.is_chance_node() {
            game.max_chance_outcomes()
        } else {
            game.num_distinct_actions()
        } as u32;
        let action = match op % 8 {
            0..=3 if !legal.is_empty() => legal[b.u16() as usize % legal.len()],
            0..=4 => b.u8() as u32,
            5 => b.u16() as u32 % bound.saturating_add(8),
            6 => b.u32(),
            _ => match (op >> 3) % 4 {
                0 => bound.wrapping_add(b.u8() as u32 % 4),
                1 => u32::MAX - b.u8() as u32,
                2 => {
                    // Text to the notation reader: a parse is an id in range, a refusal InvalidNotation.
                    let text = b.text(24);
                    match state.string_to_action(&text) {
                        Ok(a) => {
                            let limit = game.num_distinct_actions().max(game.max_chance_outcomes());
                            assert!(
                                (a as usize) < limit,
                                "{g}: string_to_action({text:?}) = {a}"
                            );
                            a
                        }
                        Err(GameError::InvalidNotation(_)) => continue,
                        Err(e) => panic!("{g}: string_to_action({text:?}) raised {e:?}"),
                    }
                }
                _ if unchecked_mode() => {
                    // Applying an illegal id unchecked is a caller's logic error, but the State trait says it
                    // must still not panic. Off by default (MEEPLEX_FUZZ_UNCHECKED=1 turns it on), so that a
                    // known panic here does not hide everything else.
                    let mut scrap = state.clone();
                    if let Some(a) =
                        (0..bound.saturating_add(2)).find(|a| legal.binary_search(a).is_err())
                    {
                        scrap.apply_unchecked(a);
                    }
                    continue;
                }
                _ => bound.wrapping_add(b.u8() as u32),
            },
        };
        try_action(&game, &mut state, &mut history, action, &legal);
        assert!(
            history.len() as u64 <= game.max_game_length(),
            "{g}: more than max_game_length() = {} actions applied",
            game.max_game_length()
        );
        if op >= 0xf8 {
            check_views(
                &game,
                &state,
                &history,
                &mut buf,
                seed ^ history.len() as u64,
            );
            round_trip(&game, &state, &history);
        }
    }
    check_views(&game, &state, &history, &mut buf, seed);
    round_trip(&game, &state, &history);
}
