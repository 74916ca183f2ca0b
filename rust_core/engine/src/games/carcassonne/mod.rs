//! Carcassonne: the base game, The River, the strategic variant, Inns & Cathedrals, Traders & Builders and The
//! Princess and the Dragon (docs/rules/carcassonne.md).
//!
//! The tile types are data (`tiles.rs`, parsed once from the JSON both engines read). A state holds the placed
//! tiles in placement order, a small hash from cell to slot and the open positions with their edge constraints
//! (`board.rs`), and a union-find over feature segments with per-root aggregates (`features.rs`); nothing is
//! ever flood-filled. States are boxed in the registry, so the other games' states do not grow.

mod board;
mod features;
mod notation;
mod observation;
mod princess_dragon;
mod serial;
pub mod state;
pub mod tiles;

pub use state::{CarcassonneState, Phase};

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Player, Result, Rng, State, CHANCE, TERMINAL};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use tiles::{game_tiles, TileType, K, LAND, T, TMAX, T_IC, T_PD, T_TB};

pub const ID: &str = "carcassonne";

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: state::MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "river",
        default: false,
    },
    ParamSpec::Bool {
        name: "strategic",
        default: false,
    },
    ParamSpec::Bool {
        name: "inns_cathedrals",
        default: false,
    },
    ParamSpec::Bool {
        name: "traders_builders",
        default: false,
    },
    ParamSpec::Bool {
        name: "princess_dragon",
        default: false,
    },
];

/// The parameters `params` lists only when they are not at their default (false), so that the base game's
/// game strings and serializations are unchanged (§11.7).
const HIDDEN_AT_DEFAULT: [&str; 3] = ["inns_cathedrals", "traders_builders", "princess_dragon"];

pub struct Config {
    pub players: usize,
    pub river: bool,
    pub strategic: bool,
    /// Inns & Cathedrals (§11.2) and Traders & Builders (§11.3).
    pub ic: bool,
    pub tb: bool,
    /// The Princess and the Dragon (§12).
    pub pd: bool,
    /// T, the number of the game's tile types (34, + 17 with I&C, + 24 with T&B), and the types.
    pub nt: usize,
    pub types: &'static [TileType],
    /// The draw piles at the start, per type (entries from `nt` on are 0).
    pub pile: [u8; TMAX],
    /// Every copy of each type in the game (the pile plus the first tile).
    pub total: [u16; TMAX],
    pub start: u8,
    pub r: i32,
    pub w: i32,
    pub params: Params,
}

/// Configs are interned by their parameters, which decide everything else.
impl PartialEq for Config {
    fn eq(&self, o: &Self) -> bool {
        self.params == o.params
    }
}

impl Eq for Config {}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Config({ID}, {:?})", self.params)
    }
}

impl Config {
    /// P = W x W x 4, the place ids.
    #[inline]
    pub fn p(&self) -> u32 {
        (self.w * self.w * 4) as u32
    }
    /// B, where the base ids end (§11.5): the expansions' figure ids follow.
    #[inline]
    pub fn base_actions(&self) -> u32 {
        self.p() + 1 + K as u32 + self.nt as u32
    }
    /// U, the first builder id (T&B).
    #[inline]
    pub fn builder_base(&self) -> u32 {
        self.base_actions() + if self.ic { K as u32 } else { 0 }
    }
    /// E, where the ids of §7 and §11.5 end: the P&D ids follow (§12.8).
    #[inline]
    pub fn pd_base(&self) -> u32 {
        self.base_actions() + (K * (self.ic as usize + 2 * self.tb as usize)) as u32
    }
    /// S x K, the size of one per-slot P&D block (portal, large portal, princess, fairy).
    #[inline]
    pub fn slot_block(&self) -> u32 {
        (self.r as u32 + 1) * K as u32
    }
    /// The first id of each P&D block (§12.8): PF, PL (I&C only, else equal to PR), PR, FA, DR.
    #[inline]
    pub fn portal_base(&self) -> u32 {
        self.pd_base()
    }
    #[inline]
    pub fn portal_large_base(&self) -> u32 {
        self.pd_base() + self.slot_block()
    }
    #[inline]
    pub fn princess_base(&self) -> u32 {
        self.portal_large_base() + if self.ic { self.slot_block() } else { 0 }
    }
    #[inline]
    pub fn fairy_base(&self) -> u32 {
        self.princess_base() + self.slot_block()
    }
    #[inline]
    pub fn dragon_base(&self) -> u32 {
        self.fairy_base() + self.slot_block()
    }
    pub fn num_actions(&self) -> usize {
        if self.pd {
            self.dragon_base() as usize + 4
        } else {
            self.pd_base() as usize
        }
    }
    /// The game's tile type t.
    #[inline(always)]
    pub fn tile(&self, t: u8) -> &'static TileType {
        &self.types[t as usize]
    }
}

/// The `tiles` parameter (§1): `standard`, or letters with counts in alphabetical order.
pub fn parse_tiles(text: &str) -> Result<[u8; LAND]> {
    let mut standard = [0u8; LAND];
    for (t, tt) in tiles::all_tiles()[..LAND].iter().enumerate() {
        standard[t] = tt.count;
    }
    let lower = text.to_ascii_lowercase();
    if lower == "standard" {
        return Ok(standard);
    }
    let bad = || {
        invalid(format!("{ID}: parameter tiles={text:?} is not `standard` or letters A..X with counts 1..99 in order"))
    };
    let bytes = lower.as_bytes();
    let mut out = [0u8; LAND];
    let (mut i, mut last, mut any) = (0, -1i32, false);
    while i < bytes.len() {
        let c = bytes[i];
        if !(b'a'..=b'x').contains(&c) || (c - b'a') as i32 <= last {
            return bad();
        }
        last = (c - b'a') as i32;
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i - start > 3 {
            return bad();
        }
        let n: u32 = lower[start..i].parse().unwrap_or(0);
        if !(1..=99).contains(&n) {
            return bad();
        }
        out[last as usize] = n as u8;
        any = true;
    }
    if !any {
        return bad();
    }
    Ok(out)
}

pub fn tiles_text(counts: &[u8; LAND]) -> String {
    if tiles::all_tiles()[..LAND]
        .iter()
        .zip(counts)
        .all(|(t, &c)| t.count == c)
    {
        return "standard".into();
    }
    let mut s = String::new();
    for (t, &c) in counts.iter().enumerate() {
        if c > 0 {
            s.push((b'A' + t as u8) as char);
            s.push_str(&c.to_string());
        }
    }
    s
}

fn intern(cfg: Config) -> &'static Config {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static Config>>> = OnceLock::new();
    let key = format!("{:?}", cfg.params);
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    table.entry(key).or_insert_with(|| Box::leak(Box::new(cfg)))
}

#[derive(Clone, Debug)]
pub struct CarcassonneGame {
    cfg: &'static Config,
}

impl CarcassonneGame {
    pub fn new(given: &Params) -> Result<Self> {
        let mut numeric = given.clone();
        let tiles_value = match numeric.remove("tiles") {
            None => "standard".to_string(),
            Some(ParamValue::Str(s)) => s,
            Some(other) => {
                return invalid(format!("{ID}: parameter tiles must be a str, not {other}"))
            }
        };
        const KNOWN: [&str; 6] = [
            "players",
            "river",
            "strategic",
            "inns_cathedrals",
            "traders_builders",
            "princess_dragon",
        ];
        if let Some(key) = numeric.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: inns_cathedrals, players, princess_dragon, \
                 river, strategic, tiles, traders_builders)"
            ));
        }
        let mut params = normalise(ID, SCHEMA, &numeric)?;
        let land = parse_tiles(&tiles_value)?;
        params.insert("tiles".into(), ParamValue::Str(tiles_text(&land)));
        let river = get_bool(&params, "river");
        let (ic, tb, pd) = (
            get_bool(&params, "inns_cathedrals"),
            get_bool(&params, "traders_builders"),
            get_bool(&params, "princess_dragon"),
        );
        let players = get_int(&params, "players") as usize;
        if players > 5 && !ic {
            return invalid(format!(
                "{ID}: players={players} needs inns_cathedrals=true (2..5 without it)"
            ));
        }
        for key in HIDDEN_AT_DEFAULT {
            if params.get(key) == Some(&ParamValue::Bool(false)) {
                params.remove(key);
            }
        }
        let types = game_tiles(ic, tb, pd);
        let nt = types.len();
        debug_assert_eq!(
            nt,
            T + T_IC * ic as usize + T_TB * tb as usize + T_PD * pd as usize
        );
        let mut pile = [0u8; TMAX];
        pile[..LAND].copy_from_slice(&land);
        for t in LAND..nt {
            if t >= T || river {
                pile[t] = types[t].count;
            }
        }
        let start = if river { tiles::SPRING } else { tiles::START };
        let mut total = [0u16; TMAX];
        for t in 0..nt {
            total[t] = pile[t] as u16;
        }
        total[start as usize] += 1;
        let r: i32 = pile.iter().map(|&c| c as i32).sum();
        Ok(CarcassonneGame {
            cfg: intern(Config {
                players,
                river,
                strategic: get_bool(&params, "strategic"),
                ic,
                tb,
                pd,
                nt,
                types,
                pile,
                total,
                start,
                r,
                w: 2 * r + 1,
                params,
            }),
        })
    }

    pub fn config(&self) -> &'static Config {
        self.cfg
    }
}

impl Game for CarcassonneGame {
    type State = Box<CarcassonneState>;

    fn id(&self) -> &'static str {
        ID
    }
    fn params(&self) -> &Params {
        &self.cfg.params
    }
    fn num_players(&self) -> usize {
        self.cfg.players
    }
    fn num_distinct_actions(&self) -> usize {
        self.cfg.num_actions()
    }
    fn max_chance_outcomes(&self) -> usize {
        self.cfg.nt
    }
    fn max_game_length(&self) -> u64 {
        // P&D: 12 dragon tiles of at most 6 steps (§12.8).
        4 * self.cfg.r as u64 + if self.cfg.pd { 72 } else { 0 }
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.cfg)]
    }
    fn new_initial_state(&self) -> Box<CarcassonneState> {
        Box::new(CarcassonneState::new(self.cfg))
    }
    fn deserialize_state(&self, text: &str) -> Result<(Box<CarcassonneState>, Vec<u32>)> {
        serial::deserialize(self.cfg, text).map(|(s, h)| (Box::new(s), h))
    }
}

impl State for Box<CarcassonneState> {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Over => TERMINAL,
            Phase::Deal | Phase::Draw => CHANCE,
            _ => self.current as Player,
        }
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal(out)
    }
    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if matches!(self.phase, Phase::Deal | Phase::Draw) {
            self.each_drawable(|t, c| out.push((t as u32, c as u64)));
        }
    }
    fn apply_unchecked(&mut self, action: u32) {
        if self.is_legal_action(action) {
            self.apply(action)
        }
    }
    fn is_legal(&self, action: u32) -> bool {
        self.is_legal_action(action)
    }
    fn action_to_string(&self, action: u32) -> Result<String> {
        notation::action_to_string(self, action)
    }
    fn string_to_action(&self, text: &str) -> Result<u32> {
        notation::string_to_action(self, text)
    }
    fn returns(&self, out: &mut [f64]) {
        let n = if self.phase == Phase::Over {
            self.n()
        } else {
            0
        };
        crate::outcome::share_the_win(out, n, |s| self.scores[s] as i64);
    }
    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.scores[s] as f64;
        }
    }
    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        observation::tensor(self, player, out)
    }
    fn observation_string(&self, player: usize) -> String {
        observation::text(self, Some(player))
    }
    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        observation::information_state(self, player, history)
    }
    fn serialize(&self, history: &[u32]) -> String {
        serial::serialize(self, history)
    }
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        Box::new(observation::resample(self, player, rng))
    }
    fn to_text(&self) -> String {
        observation::text(self, None)
    }
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        let n = self.n();
        let extra = self.end_points();
        let mut v = [0f64; state::MAX_PLAYERS];
        for s in 0..n {
            // The points the end would add now (inns and cathedrals left open count 0, goods majorities 10),
            // and half a point a follower in supply (the large one as two).
            let followers = self.supply[s] as f64 + 2.0 * self.large_supply[s] as f64;
            v[s] = (self.scores[s] + extra[s]) as f64 + 0.5 * followers;
        }
        crate::outcome::softmax_shares(out, &v[..n], 8.0);
    }
}
