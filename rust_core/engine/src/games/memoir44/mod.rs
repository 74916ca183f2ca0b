//! Memoir '44 (issue 19): the game of docs/rules/memoir44.md §6, on the board layer below.
//! Rules: the BGA game-help page (`rules/bga_memoir44.txt`) and the facts `memoir44_core.json`,
//! `memoir44_pegasus_bridge.json`, `bga_games.md` §7. Registered as `memoir44` with `scenario`
//! (`pegasus_bridge` or `b64_<base64url of a scenario file>`) and `turn_limit` (1..=1000, default 80).
//!
//! Readings: where §6 is silent or ambiguous, this engine reads it so (to reconcile with the oracle):
//!
//! 1. **Take ground's hex** is `battle.origin` (§6.6): the target's hex when the attack was declared.
//!    During `advance` the attack stays in `battle`, `unit` its attacker; `advance` or `done` clears it.
//! 2. **Special forces under infantry_assault** may battle after moving 3 (the effect table "special forces:
//!    3 and battles" over the may-battle summary "special forces and infantry_assault ≤ 2").
//! 3. **Overrun does not count in `battles`**: only `overrun = true` is set when the overrun is declared.
//! 4. **`moved` adds up**: behind_enemy_lines' second move adds its distance to `moved`.
//! 5. **`unit`**: set while a unit is picked (`move_to`, `target`), battling (`dice` … of its attack),
//!    advancing, overrunning, moving again (`move_again`, the behind_enemy_lines unit) and healed
//!    (`roll` under Medics); null in `order`, `move`, `battle` and between turns. It follows the unit when
//!    the attacker itself retreats (an ambush). After `move_to` it is null before the arrival is checked
//!    (so a game won by moving keeps `unit = null`).
//! 6. **Deal**: `active` is the starting seat and `turns` `[0,0]` during `deal`; `drawer`/`draws` stay
//!    null/0 (the hands' sizes drive the deal).
//! 7. **Draw order at the end of a turn**: the due draws (Recon's, then the plain and extra ones) all come
//!    before `keep`, as §6.9 step 4 lists its clauses. A Recon pair cut short by empty piles (one card) is
//!    still offered to `keep`.
//! 8. **A seat reaching its medals**: checked for the active seat first, then the other.
//! 9. **Air Power**: `targets[0]` follows its unit when it retreats, like `battle.target`; a pick whose unit
//!    is gone is skipped. Barrage with no enemy unit ends the turn, as Air Power does.
//! 10. **LOS plateau**: a unit on a plateau hill hex still blocks; the exemption lifts only the hill's own
//!     blocking. Hill protection (1/1/0) applies when the attacker's hex is not a hill, for every type.
//! 11. **Ambush's back dice** use the hill rule too (the ambusher's hex a hill: no hill protection for the
//!     attacker's hill hex).
//! 12. **Serialization** is the canonical JSON of every game (keys sorted; `game`, `params`, `version`,
//!     `history` with §6.6's fields); the history is only range-checked (0..=408).
//! 13. **Public history** (`information_state_string`): the other seat's draws, deal cards and Recon keep
//!     are shown as `draw ?` / `keep ?`.
//!
//! # Coordinates (shared with the Python oracle)
//!
//! A hex is `(row, col)` exactly as in the BGA scenario files (`bga-devs/bga-memoir`, `x` = col, `y` = row):
//!
//! * `row` 0..=8, row 0 is the top edge of the board. In Pegasus Bridge player 1 (`side_player1`, the Axis)
//!   sits at the top and player 2 (the Allies) at the bottom (row 8); BGA's `Scenario::getTopTeam()` is
//!   `game_info.side_player1`.
//! * `col` 0..=24 "doubled": `row + col` is even. Even rows hold cols 0, 2, .., 24 (13 hexes), odd rows
//!   cols 1, 3, .., 23 (12 hexes): 5 × 13 + 4 × 12 = 113 hexes, densely indexed 0..113 row by row
//!   ([`hex::Hex::index`]).
//! * Neighbours: `(r, c ± 2)`, `(r ± 1, c ± 1)`. Distance: `dr + max(0, (dc − dr) / 2)` with
//!   `dr = |Δrow|`, `dc = |Δcol|`.
//!
//! # Line of sight (exact integer geometry, [`hex::los_clear`])
//!
//! The page: "Draw a line between the centres of the hexes; LOS is blocked if any part of a hex containing an
//! obstruction or unit crosses this line. If the line runs along the edge of one or more hexes it is only
//! blocked if they stand along both sides of the line segment." LOS questions are affine-invariant, so the
//! centre of `(row, col)` is mapped to `X = col, Y = 3·row` (screen orientation: Y grows downwards); a
//! pointy-top hex then has the integer vertices `(X, Y ± 2)`, `(X ± 1, Y ± 1)`. With the segment between
//! the two centres:
//!
//! * a hex whose interior the segment passes through blocks if it holds an obstruction or a unit;
//! * where the segment runs along hex sides (a positive-length overlap), the hexes flanking them block only
//!   if blocking hexes stand on both its left and its right, anywhere along it (the rulebook: "unless the
//!   obstructions stand somewhere along both sides of the line segment"; BGA's `Board::isInLineOfSight`
//!   keeps one left and one right flag);
//! * a hex the segment touches at a single vertex does not block (it does not "cross" the line, and the
//!   line does not run along its side; BGA blocks on any vertex touch, first possible at range 5);
//! * the two end hexes never block; hexes off the board never block (only a shot straight down the first or
//!   last column runs along the board's outer edge).
//!
//! These readings are interpretations 1 to 3 of `docs/rules/memoir44.md`; [`hex::hexes_crossed`] gives
//! each side's pair as `(left, right)`, so another reading is a line away.
//!
//! # Sections ([`board::sections`])
//!
//! Left cols 0..=7, centre 7..=17, right 17..=24, from the viewpoint of the player at the bottom; hexes of
//! cols 7 and 17 straddle two sections (a unit there may be ordered from either). The player at the top sees
//! the board turned round, so their left is cols 17..=24 ([`board::sections_for`]).

pub mod board;
pub mod cards;
pub mod hex;
mod notation;
mod observation;
pub mod rules;
mod serial;
pub mod state;
#[cfg(test)]
mod tests;

pub use board::{
    pegasus_bridge, sections, sections_for, Face, GameInfo, HexData, Obstacle, ObstacleKind,
    RectKind, RectTerrain, Scenario, Side, Terrain, TerrainKind, Unit, UnitKind, CENTER,
    HOME_HILLS_TEXT, LEFT, PEGASUS_BRIDGE_TEXT, RIGHT,
};
pub use hex::{hexes_crossed, los_clear, Hex, MAX_COL, MAX_ROW, NUM_HEXES};
pub use state::{Memoir44State, Phase};

use crate::error::{invalid, GameError};
use crate::params::{get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Player, Result, Rng, State};
use cards::{AMBUSH, TYPES};
use rules::Rules;
use std::sync::Arc;

pub const ID: &str = "memoir44";

const SCHEMA: &[ParamSpec] = &[ParamSpec::Int {
    name: "turn_limit",
    default: 80,
    min: 1,
    max: 1000,
}];

#[derive(Clone, Debug)]
pub struct Memoir44Game {
    params: Params,
    rules: Arc<Rules>,
}

fn scenario_text(value: &str) -> Result<String> {
    if value == "pegasus_bridge" {
        return Ok(PEGASUS_BRIDGE_TEXT.to_string());
    }
    if value == "home_hills" {
        return Ok(HOME_HILLS_TEXT.to_string());
    }
    let Some(b) = value.strip_prefix("b64_") else {
        return invalid(format!(
            "{ID}: parameter scenario must be \"pegasus_bridge\", \"home_hills\" or \"b64_\" followed by a scenario file in base64url, not {:?}",
            value.chars().take(40).collect::<String>()
        ));
    };
    let bytes = crate::games::flip_pick_towers::sheet::decode_base64url(b)
        .map_err(|e| GameError::InvalidState(format!("{ID}: parameter scenario: {e}")))?;
    String::from_utf8(bytes)
        .map_err(|_| GameError::InvalidState(format!("{ID}: the scenario file is not UTF-8")))
}

impl Memoir44Game {
    pub fn new(given: &Params) -> Result<Self> {
        let numeric: Params = given
            .iter()
            .filter(|(k, _)| k.as_str() != "scenario")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(key) = numeric.keys().find(|k| k.as_str() != "turn_limit") {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: scenario, turn_limit)"
            ));
        }
        let mut params = normalise(ID, SCHEMA, &numeric)?;
        let scenario = match given.get("scenario") {
            None => "pegasus_bridge".to_string(),
            Some(ParamValue::Str(s)) => s.clone(),
            Some(other) => {
                return invalid(format!(
                    "{ID}: parameter scenario must be a str, not {other}"
                ))
            }
        };
        let text = scenario_text(&scenario)?;
        let turn_limit = get_int(&params, "turn_limit") as u32;
        let rules = Rules::new(&scenario, &text, turn_limit)
            .map_err(|e| GameError::InvalidState(format!("{ID}: parameter scenario: {e}")))?;
        params.insert("scenario".into(), ParamValue::Str(scenario));
        Ok(Memoir44Game {
            params,
            rules: Arc::new(rules),
        })
    }
}

impl Game for Memoir44Game {
    type State = Memoir44State;

    fn id(&self) -> &'static str {
        ID
    }
    fn params(&self) -> &Params {
        &self.params
    }
    fn num_players(&self) -> usize {
        2
    }
    fn num_distinct_actions(&self) -> usize {
        state::NUM_ACTIONS as usize
    }
    fn max_chance_outcomes(&self) -> usize {
        TYPES
    }
    fn max_game_length(&self) -> u64 {
        let r = &self.rules;
        r.cards[0] as u64 + r.cards[1] as u64 + r.turn_limit as u64 * (40 + 80 * r.num_units as u64)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::LEN]
    }
    fn new_initial_state(&self) -> Memoir44State {
        Memoir44State::new(self.rules.clone())
    }
    fn deserialize_state(&self, text: &str) -> Result<(Memoir44State, Vec<u32>)> {
        serial::deserialize(&self.rules, text)
    }
}

impl State for Memoir44State {
    fn current_player(&self) -> Player {
        self.current()
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal(out)
    }
    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        Memoir44State::chance_weights(self, out)
    }
    fn apply_unchecked(&mut self, action: u32) {
        self.apply(action)
    }
    fn action_to_string(&self, action: u32) -> Result<String> {
        notation::action_to_string(self, action)
    }
    fn string_to_action(&self, text: &str) -> Result<u32> {
        notation::string_to_action(text)
    }
    fn returns(&self, out: &mut [f64]) {
        let v = match self.winner {
            Some(0) if self.phase == Phase::Over => [1.0, 0.0],
            Some(1) if self.phase == Phase::Over => [0.0, 1.0],
            Some(-1) if self.phase == Phase::Over => [0.5, 0.5],
            _ => [0.0, 0.0],
        };
        for (o, x) in out.iter_mut().zip(v) {
            *o = x;
        }
    }
    fn scores(&self, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate().take(2) {
            *o = self.score(p) as f64;
        }
    }
    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        observation::tensor(self, player, out)
    }
    fn observation_string(&self, player: usize) -> String {
        observation::observation_string(self, player)
    }
    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        let mut out = self.observation_string(player);
        out.push_str("history:");
        let mut s = Memoir44State::new(self.rules.clone());
        let p = player & 1;
        for &a in history {
            let hidden = match s.phase {
                Phase::Deal => {
                    let seat =
                        usize::from(state::hand_size(&s.hands[0]) >= s.rules.cards[0] as u32);
                    seat != p
                }
                Phase::Draw | Phase::Keep => s.drawer.is_some_and(|d| d as usize != p),
                _ => false,
            };
            let text = if hidden {
                if s.phase == Phase::Keep {
                    "keep ?".to_string()
                } else {
                    "draw ?".to_string()
                }
            } else {
                notation::action_to_string(&s, a).unwrap_or_else(|_| format!("?{a}"))
            };
            out.push(' ');
            out.push_str(&text.replace(' ', "_"));
            if s.is_legal(a) {
                s.apply(a);
            }
        }
        out.push('\n');
        out
    }
    fn serialize(&self, history: &[u32]) -> String {
        serial::serialize(self, history)
    }
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        let p = player & 1;
        let o = 1 - p;
        let mut s = self.clone();
        let mut pool = s.deck;
        for k in 0..TYPES {
            pool[k] = pool[k].saturating_add(s.hands[o][k]);
        }
        let other_recon = s.drawer == Some(o as u8) && s.recon.n > 0;
        if other_recon {
            for &k in s.recon.as_slice() {
                if let Some(x) = pool.get_mut(k as usize) {
                    *x = x.saturating_add(1);
                }
            }
        }
        let n_hand = state::hand_size(&s.hands[o]);
        s.hands[o] = [0; TYPES];
        for _ in 0..n_hand {
            if let Some(k) = crate::pick_by_count(&pool, rng) {
                pool[k as usize] -= 1;
                s.hands[o][k as usize] += 1;
            }
        }
        if other_recon {
            let n = s.recon.n;
            s.recon.clear();
            for _ in 0..n {
                if let Some(k) = crate::pick_by_count(&pool, rng) {
                    pool[k as usize] -= 1;
                    s.recon.push(k as u8);
                }
            }
            let n = s.recon.n as usize;
            s.recon.h[..n.min(4)].sort_unstable();
        }
        s.deck = pool;
        let _ = AMBUSH;
        s
    }
    fn to_text(&self) -> String {
        observation::to_text(self)
    }
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        let mut m = [0.0f64; 2];
        let mut f = [0.0f64; 2];
        let mut f0 = [0.0f64; 2];
        for u in self.units.iter().flatten() {
            f[u.seat as usize & 1] += u.figures as f64;
        }
        for u in self.rules.init_units.iter().flatten() {
            f0[u.seat as usize & 1] += u.start as f64;
        }
        for p in 0..2 {
            m[p] = (self.score(p) as f64 / self.rules.victory[p].max(1) as f64).min(1.0);
            f[p] /= f0[p].max(1.0);
        }
        let x = (0.8 * (m[0] - m[1]) + 0.2 * (f[0] - f[1])).clamp(-1.0, 1.0);
        let v = [0.5 + 0.5 * x, 0.5 - 0.5 * x];
        for (o, x) in out.iter_mut().zip(v) {
            *o = x;
        }
    }
}
