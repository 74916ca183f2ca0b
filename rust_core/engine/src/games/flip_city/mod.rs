//! The Flip City family: the base set, the Office expansion, Wilderness, mixed supplies and the solo variant
//! (docs/rules/flip_city.md, docs/rules/flip_city_wilderness.md).
//!
//! One engine, driven by the card tables of `cards.rs`: a card behaves by its face and the parameters,
//! never by the game id (W 1), except the starting decks (W 15). The engine is generic over the number of
//! faces `F` and the capacity `CAP` of a deck's known cards, and exists in two layouts (W §2.2):
//! - [`FlipCityGame`] / [`FlipCityState`], the **base layout** (12 faces): every `flip_city` game whose supply
//!   holds no Wilderness pile. Its ids, observation and serialization are exactly those of flip_city.md, and
//!   its state is as small as it was before Wilderness existed.
//! - [`FlipFamilyGame`] / [`FlipFamilyState`], the **family layout** (22 faces): every `flip_city_wilderness`
//!   game and every `flip_city` game with a Wilderness pile.
//!
//! [`configure`] reads the parameters of either id and says which layout the game is in.

pub mod cards;
mod heuristic;
mod notation;
mod observation;
mod serial;
mod state;

pub use state::{FlipState, Pending, Phase};

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Result};
use cards::*;

pub const ID: &str = "flip_city";
pub const WILDERNESS_ID: &str = "flip_city_wilderness";
pub const MAX_PLAYERS: usize = 4;

/// Room for every card of a base-layout game (at most 9 x 4 + 50 = 86) in one deck's known cards.
pub const BASE_CAPACITY: usize = 96;
/// Room for every card of a family-layout game (at most 9 x 4 + 90 = 126, all nine piles with `colours=none`).
pub const FAMILY_CAPACITY: usize = 128;

pub type FlipCityState = FlipState<BASE_FACES, BASE_CAPACITY>;
pub type FlipFamilyState = FlipState<FAMILY_FACES, FAMILY_CAPACITY>;
pub type FlipCityGame = FlipGame<BASE_FACES, BASE_CAPACITY>;
pub type FlipFamilyGame = FlipGame<FAMILY_FACES, FAMILY_CAPACITY>;

/// The int and bool parameters of both ids (FC §1, W §1). The four word parameters are read by hand below:
/// the shared schema knows only ints and bools, and `supply` needs more than a list of allowed words.
pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 1,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "office",
        default: false,
    },
    ParamSpec::Int {
        name: "max_turns",
        default: 100,
        min: 1,
        max: 1000,
    },
    ParamSpec::Int {
        name: "apartment_unhappiness",
        default: 1,
        min: 0,
        max: 1,
    },
    ParamSpec::Int {
        name: "hospital_cash",
        default: 1,
        min: 0,
        max: 1,
    },
    ParamSpec::Bool {
        name: "mall_recycle",
        default: false,
    },
    ParamSpec::Bool {
        name: "station_recycle",
        default: false,
    },
    ParamSpec::Bool {
        name: "stop_before_play",
        default: false,
    },
    ParamSpec::Bool {
        name: "station_stack",
        default: true,
    },
    ParamSpec::Int {
        name: "trailer_cash",
        default: 0,
        min: 0,
        max: 1,
    },
    ParamSpec::Int {
        name: "resort_unhappiness",
        default: 0,
        min: 0,
        max: 1,
    },
    ParamSpec::Int {
        name: "interchange_cash",
        default: 1,
        min: 0,
        max: 1,
    },
    ParamSpec::Int {
        name: "airport_points",
        default: 2,
        min: 0,
        max: 3,
    },
    ParamSpec::Int {
        name: "reservoir_points",
        default: 2,
        min: 0,
        max: 3,
    },
];

/// The seven keys of FC §1: a `flip_city` game's `params` hold these always, the others only when they
/// differ from their defaults (W §1.1, so that today's games keep today's `params`).
const BASE_KEYS: [&str; 7] = [
    "players",
    "office",
    "max_turns",
    "apartment_unhappiness",
    "hospital_cash",
    "mall_recycle",
    "station_recycle",
];

const COLOURS_WORDS: [&str; 3] = ["cost", "size", "none"];
const LOGGING_WORDS: [&str; 2] = ["proposed", "printed"];
const RESERVOIR_WORDS: [&str; 3] = ["limit", "cash", "both"];
const DIG_WORDS: [&str; 2] = ["recycle", "played"];
const WORD_KEYS: [&str; 5] = [
    "supply",
    "colours",
    "logging_text",
    "reservoir_recycle",
    "dig",
];

/// The title-bar colour table (W §1.2, W 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    Cost,
    Size,
    None,
}

/// What recycling a Water Reservoir gives (W 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReservoirRecycle {
    Limit,
    Cash,
    Both,
}

/// The parameters in the form the rules read them; small and `Copy`, so every state carries its own (the
/// small parameters are bytes for that reason: clone cost is state size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The id is `flip_city_wilderness`: the Wilderness starting deck (W 15) and the id in serializations.
    pub wilderness: bool,
    pub players: usize,
    pub max_turns: u32,
    /// The supply piles, `off` included when it is one.
    pub piles: PileSet,
    pub colours: Colours,
    pub apartment_unhappiness: u8,
    pub hospital_cash: u8,
    pub mall_recycle: bool,
    pub station_recycle: bool,
    pub trailer_cash: u8,
    pub resort_unhappiness: u8,
    /// `logging_text=printed` (W 5); false is `proposed`.
    pub logging_printed: bool,
    pub interchange_cash: u8,
    pub airport_points: u8,
    pub reservoir_points: u8,
    pub reservoir_recycle: ReservoirRecycle,
    /// `stop_before_play` (FC interp. 20): a seat may stop before it has played a card.
    pub stop_before_play: bool,
    /// `station_stack` (FC interp. 14): each Station played makes flip fees 1 less.
    pub station_stack: bool,
    /// `dig=played` (W 7): the 20-for-3 is `excavate`, once per Archaeology Site played; false is `recycle`.
    pub dig_played: bool,
    // The masks below are derived from the fields above by `derive_masks`, one bit per face, so that the hot
    // loops of legal-action generation visit only the faces that can take part, not the whole face table.
    /// Faces that can be recycled under these parameters.
    pub recyclable: u32,
    /// Faces with a flip fee (can be flipped, and developed when they are a pile's front).
    pub flippable: u32,
    /// The front faces of this game's piles.
    pub pile_faces: u32,
}

impl Rules {
    pub fn solo(&self) -> bool {
        self.players == 1
    }

    pub fn id(&self) -> &'static str {
        if self.wilderness {
            WILDERNESS_ID
        } else {
            ID
        }
    }

    pub fn office(&self) -> bool {
        self.piles & pile_bit(PILE_OFFICE) != 0
    }

    /// W §2.2: the base layout is a `flip_city` game with no Wilderness pile.
    pub fn family_layout(&self) -> bool {
        self.wilderness || self.piles & WILDERNESS_PILES != 0
    }

    pub fn cash(&self, face: usize) -> u32 {
        match face {
            HOSPITAL => self.hospital_cash as u32,
            TRAILER_PARK => self.trailer_cash as u32,
            _ => FACES[face].cash,
        }
    }

    pub fn points(&self, face: usize) -> u32 {
        match face {
            AIRPORT => self.airport_points as u32,
            WATER_RESERVOIR => self.reservoir_points as u32,
            _ => FACES[face].points,
        }
    }

    pub fn unhappiness(&self, face: usize) -> u32 {
        match face {
            APARTMENT => self.apartment_unhappiness as u32,
            COUNTRY_RESORT => self.resort_unhappiness as u32,
            _ => FACES[face].unhappiness,
        }
    }

    /// The printed flip fee (`None`: the face cannot be flipped or developed).
    pub fn flip_fee(&self, face: usize) -> Option<u32> {
        match face {
            // W 5: under `printed` the fee 2 is on the Archaeology Site, under `proposed` on the Logging Site.
            LOGGING_SITE if self.logging_printed => None,
            ARCHAEOLOGY_SITE if self.logging_printed => Some(2),
            _ => FACES[face].flip_fee,
        }
    }

    /// What recycling `face` gives under these parameters (`Recycle::None`: it cannot be recycled).
    pub fn recycle(&self, face: usize) -> Recycle {
        match FACES[face].recycle {
            Recycle::Cash if !self.mall_recycle => Recycle::None,
            Recycle::Point if !self.station_recycle => Recycle::None,
            // W 5: the "to the bottom of your deck" text sits on the Logging Site as printed, on the
            // Archaeology Site as proposed. The Archaeology Site's 20-for-3 recycle belongs to the
            // Building phase (W 7), so it is not in this Play Cards phase table.
            _ if face == LOGGING_SITE && self.logging_printed => Recycle::ToDeckBottom,
            _ if face == ARCHAEOLOGY_SITE && self.logging_printed => Recycle::None,
            r => r,
        }
    }

    pub fn pile_size(&self, pile: &Pile) -> u8 {
        if self.solo() {
            SOLO_PILE
        } else {
            pile.size
        }
    }

    /// The starting supply of the first `F` faces (W §2.3): each pile's size, or four in solo.
    pub fn initial_supply<const F: usize>(&self) -> [u8; F] {
        let mut supply = [0u8; F];
        for (i, pile) in PILES.iter().enumerate() {
            if self.piles & pile_bit(i) != 0 && pile.front < F {
                supply[pile.front] = self.pile_size(pile);
            }
        }
        supply
    }

    /// Each seat's starting deck (W 15: by id).
    pub fn starting_deck<const F: usize>(&self) -> [u8; F] {
        let table = if self.wilderness {
            &WILDERNESS_STARTING_DECK
        } else {
            &BASE_STARTING_DECK
        };
        let mut deck = [0u8; F];
        deck.copy_from_slice(&table[..F]);
        deck
    }

    /// Cards of each double-sided type (indexed by the front face) in this game: the conservation law.
    pub fn type_totals<const F: usize>(&self) -> [u32; F] {
        let supply = self.initial_supply::<F>();
        let start = self.starting_deck::<F>();
        let mut totals = [0u32; F];
        for f in 0..F {
            totals[f & !1] += start[f] as u32 * self.players as u32 + supply[f] as u32;
        }
        totals
    }

    /// An upper bound on every value of the observation tensor (FC §6, W §6) in any reachable state, from the
    /// card counts and parameters alone: every value is a count of cards (at most c), a flag, `turn` (at most
    /// `max_turns x players`) or one of the turn's counters (`cash`, `points`, `unhappiness`, the limit,
    /// `flip_cash`, ...), bounded below. `VectorGame` allows uint8 observations when this is at most 255.
    pub fn observation_bound<const F: usize>(&self) -> u64 {
        let totals = self.type_totals::<FAMILY_FACES>();
        let c = self.total_cards();
        // Per turn a card is played at most once (it stays in the play area, or leaves it for good), and
        // recycled for a counter at most once: the faces whose recycle adds to one (Cash, Point, Limit,
        // Interchange, Reservoir) are back faces, each recycle turns the card to its front face in the discard
        // pile, and nothing turns a front face back over before the Building phase (recycling is a Play Cards
        // action, FC §4.1, W §4.2). So a counter grows by at most the sum over the cards of the most either
        // face adds. The Archaeology Site's 20-for-3 needs and spends 20 cash each time.
        let most = |g: &dyn Fn(usize) -> u32| -> u64 {
            (0..FAMILY_FACES)
                .step_by(2)
                .map(|t| totals[t] as u64 * g(t).max(g(t + 1)) as u64)
                .sum()
        };
        let is = |f: usize, face: usize| (f == face) as u32;
        let reservoir = self.reservoir_recycle;
        let recycle_cash = |f| match self.recycle(f) {
            Recycle::Cash => 1,
            Recycle::Interchange => self.interchange_cash as u32,
            _ => 0,
        };
        let recycle_point = |f| matches!(self.recycle(f), Recycle::Point) as u32;
        let recycle_limit = |f| match self.recycle(f) {
            Recycle::Limit => 1,
            Recycle::Reservoir => (reservoir != ReservoirRecycle::Cash) as u32,
            _ => 0,
        };
        let recycle_flip = |f| match self.recycle(f) {
            Recycle::Reservoir => 3 * (reservoir != ReservoirRecycle::Limit) as u32,
            _ => 0,
        };
        let unhappiness = most(&|f| self.unhappiness(f));
        let one_card = (0..FAMILY_FACES)
            .map(|f| self.unhappiness(f) as u64)
            .max()
            .unwrap_or(0);
        // The limit: 2, plus one per Church played, Limit recycle, and Camping Grounds bought the turn before.
        let others = 2 + most(&recycle_limit) + most(&|f| is(f, CAMPING_GROUNDS));
        let limit = most(&|f| is(f, CHURCH)) + others;
        // A Hospital adds the turn's unhappiness so far, its own included. Hospital and Church are the two
        // faces of one card, `pair` of them in the game: with h played as Hospitals, at most `pair - h` were
        // Churches, so the limit is at most `others + pair - h`; the unhappiness when the j-th Hospital is
        // played is at most that of the other cards, plus `pair - h + j` times the pair's most, and at most the
        // limit plus one card's (a turn ends once it exceeds the limit). The worst h is taken.
        const _: () = assert!(HOSPITAL ^ 1 == CHURCH);
        let pair = totals[HOSPITAL & !1] as u64;
        let pair_unhappiness = self.unhappiness(HOSPITAL).max(self.unhappiness(CHURCH)) as u64;
        let rest = unhappiness - pair * pair_unhappiness;
        let hospital = (0..=pair)
            .map(|h| {
                (1..=h)
                    .map(|j| {
                        (rest + (pair - h + j) * pair_unhappiness)
                            .min(others + (pair - h) + one_card)
                    })
                    .sum::<u64>()
            })
            .max()
            .unwrap_or(0);
        let cash = most(&|f| self.cash(f)) + most(&recycle_cash) + hospital;
        let flip_cash = most(&recycle_flip);
        // 3 points per 20 cash spent on a 20-for-3.
        let points = most(&|f| self.points(f)) + most(&recycle_point) + 3 * (cash / 20);
        let turn = self.max_turns as u64 * self.players as u64;
        // Counts of cards (decks, piles, `played`, Central Parks, Stations) are at most c; `extra_flips` at most
        // c + one per Wind Farm bought. The deck-order block's face codes are at most F.
        [
            c,
            2 * c,
            unhappiness,
            limit,
            cash,
            flip_cash,
            points,
            turn,
            F as u64,
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
    }

    pub fn total_cards(&self) -> u64 {
        self.type_totals::<FAMILY_FACES>()
            .iter()
            .map(|&t| t as u64)
            .sum()
    }

    /// The normalised `params` of the game these rules describe (W §1.1, "Normalisation").
    pub fn params(&self) -> Params {
        let mut p = Params::new();
        let int = |v: u32| ParamValue::Int(v as i64);
        let word = |s: &str| ParamValue::Str(s.to_string());
        p.insert("players".into(), ParamValue::Int(self.players as i64));
        p.insert("office".into(), ParamValue::Bool(self.office()));
        p.insert("max_turns".into(), int(self.max_turns));
        p.insert(
            "apartment_unhappiness".into(),
            int(self.apartment_unhappiness as u32),
        );
        p.insert("hospital_cash".into(), int(self.hospital_cash as u32));
        p.insert("mall_recycle".into(), ParamValue::Bool(self.mall_recycle));
        p.insert(
            "station_recycle".into(),
            ParamValue::Bool(self.station_recycle),
        );
        let codes: Vec<&str> = PILES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.piles & pile_bit(*i) != 0)
            .map(|(_, pile)| pile.code)
            .collect();
        p.insert("supply".into(), word(&codes.join("+")));
        let colours = match self.colours {
            Colours::Cost => "cost",
            Colours::Size => "size",
            Colours::None => "none",
        };
        p.insert("colours".into(), word(colours));
        p.insert("trailer_cash".into(), int(self.trailer_cash as u32));
        p.insert(
            "resort_unhappiness".into(),
            int(self.resort_unhappiness as u32),
        );
        let logging = if self.logging_printed {
            "printed"
        } else {
            "proposed"
        };
        p.insert("logging_text".into(), word(logging));
        p.insert("interchange_cash".into(), int(self.interchange_cash as u32));
        p.insert("airport_points".into(), int(self.airport_points as u32));
        p.insert("reservoir_points".into(), int(self.reservoir_points as u32));
        let reservoir = match self.reservoir_recycle {
            ReservoirRecycle::Limit => "limit",
            ReservoirRecycle::Cash => "cash",
            ReservoirRecycle::Both => "both",
        };
        p.insert("reservoir_recycle".into(), word(reservoir));
        p.insert(
            "stop_before_play".into(),
            ParamValue::Bool(self.stop_before_play),
        );
        p.insert("station_stack".into(), ParamValue::Bool(self.station_stack));
        let dig = if self.dig_played { "played" } else { "recycle" };
        p.insert("dig".into(), word(dig));
        if !self.wilderness {
            // A flip_city game shows an extension key only when it is not the default; its supply is the
            // default when the piles besides the Office are exactly the base ones (`office` says the rest).
            let defaults = Rules::defaults(false);
            let base_supply = self.piles & !pile_bit(PILE_OFFICE) == BASE_SUPPLY;
            let default_params = defaults.params_all();
            p.retain(|key, value| {
                BASE_KEYS.contains(&key.as_str())
                    || (key != "supply" && default_params.get(key) != Some(value))
                    || (key == "supply" && !base_supply)
            });
        }
        p
    }

    /// All sixteen keys (the flip_city_wilderness form), for comparing against defaults.
    fn params_all(&self) -> Params {
        Rules {
            wilderness: true,
            ..*self
        }
        .params()
    }

    fn defaults(wilderness: bool) -> Rules {
        Rules {
            wilderness,
            players: 2,
            max_turns: 100,
            piles: if wilderness {
                WILDERNESS_SUPPLY
            } else {
                BASE_SUPPLY
            },
            colours: Colours::Cost,
            apartment_unhappiness: 1,
            hospital_cash: 1,
            mall_recycle: false,
            station_recycle: false,
            trailer_cash: 0,
            resort_unhappiness: 0,
            logging_printed: false,
            interchange_cash: 1,
            airport_points: 2,
            reservoir_points: 2,
            reservoir_recycle: ReservoirRecycle::Both,
            stop_before_play: false,
            station_stack: true,
            dig_played: false,
            recyclable: 0,
            flippable: 0,
            pile_faces: 0,
        }
    }

    /// Fill in the face masks from the parameters (called once the parameters are final).
    fn derive_masks(&mut self) {
        self.recyclable = 0;
        self.flippable = 0;
        self.pile_faces = 0;
        for f in 0..FAMILY_FACES {
            if self.recycle(f) != Recycle::None {
                self.recyclable |= 1 << f;
            }
            if self.flip_fee(f).is_some() {
                self.flippable |= 1 << f;
            }
        }
        for (i, pile) in PILES.iter().enumerate() {
            if self.piles & pile_bit(i) != 0 {
                self.pile_faces |= 1 << pile.front;
            }
        }
    }

    /// The colour of `pile` under this game's table; `None` when every pile has its own (`colours=none`).
    fn colour(&self, pile: &Pile) -> Option<Colour> {
        match self.colours {
            Colours::Cost => Some(pile.colour_by_cost),
            Colours::Size => Some(pile.colour_by_size),
            Colours::None => None,
        }
    }
}

/// A word parameter: absent (its default) or a `str` among `words`.
fn word_param(
    id: &str,
    given: &Params,
    key: &str,
    words: &[&'static str],
) -> Result<Option<&'static str>> {
    match given.get(key) {
        None => Ok(None),
        Some(ParamValue::Str(s)) => match words.iter().find(|w| **w == s.as_str()) {
            Some(w) => Ok(Some(*w)),
            None => invalid(format!(
                "{id}: parameter {key}={s:?} is not one of {}",
                words.join(", ")
            )),
        },
        Some(other) => invalid(format!("{id}: parameter {key} must be a word, not {other}")),
    }
}

/// Read the `supply` value (W §1.1): pile codes joined by `+`, any ASCII case, none empty, unknown or twice.
fn parse_supply(id: &str, text: &str) -> Result<PileSet> {
    let mut piles: PileSet = 0;
    for part in text.split('+') {
        let code = part.to_ascii_lowercase();
        let Some(index) = PILES.iter().position(|p| p.code == code) else {
            let known: Vec<&str> = PILES.iter().map(|p| p.code).collect();
            return invalid(format!(
                "{id}: supply={text:?} holds {part:?}, which is not a pile code (known: {})",
                known.join(", ")
            ));
        };
        if piles & pile_bit(index) != 0 {
            return invalid(format!(
                "{id}: supply={text:?} gives the pile {code:?} twice"
            ));
        }
        piles |= pile_bit(index);
    }
    Ok(piles)
}

/// A game of the family, in either layout.
pub enum Configured {
    Base(FlipCityGame),
    Family(FlipFamilyGame),
}

/// Validate and normalise the parameters of `flip_city` or `flip_city_wilderness` (W §1) and build the game
/// in its layout (W §2.2).
pub fn configure(id: &str, given: &Params) -> Result<Configured> {
    let wilderness = match id {
        ID => false,
        WILDERNESS_ID => true,
        _ => return invalid(format!("{id}: not a Flip City game")),
    };
    let mut numeric = Params::new();
    for (key, value) in given {
        if !WORD_KEYS.contains(&key.as_str()) {
            numeric.insert(key.clone(), value.clone());
        }
    }
    // Unknown keys are refused here, with every key of the family named.
    if let Some(key) = numeric
        .keys()
        .find(|k| !SCHEMA.iter().any(|s| spec_name(s) == k.as_str()))
    {
        let mut known: Vec<&str> = SCHEMA.iter().map(spec_name).collect();
        known.extend(WORD_KEYS);
        known.sort_unstable();
        return invalid(format!(
            "{id}: unknown parameter {key:?} (known: {})",
            known.join(", ")
        ));
    }
    let p = normalise(id, SCHEMA, &numeric)?;
    let mut rules = Rules::defaults(wilderness);
    rules.players = get_int(&p, "players") as usize;
    rules.max_turns = get_int(&p, "max_turns") as u32;
    rules.apartment_unhappiness = get_int(&p, "apartment_unhappiness") as u8;
    rules.hospital_cash = get_int(&p, "hospital_cash") as u8;
    rules.mall_recycle = get_bool(&p, "mall_recycle");
    rules.station_recycle = get_bool(&p, "station_recycle");
    rules.trailer_cash = get_int(&p, "trailer_cash") as u8;
    rules.resort_unhappiness = get_int(&p, "resort_unhappiness") as u8;
    rules.interchange_cash = get_int(&p, "interchange_cash") as u8;
    rules.airport_points = get_int(&p, "airport_points") as u8;
    rules.reservoir_points = get_int(&p, "reservoir_points") as u8;
    rules.stop_before_play = get_bool(&p, "stop_before_play");
    rules.station_stack = get_bool(&p, "station_stack");
    if let Some(w) = word_param(id, given, "dig", &DIG_WORDS)? {
        rules.dig_played = w == "played";
    }
    if let Some(w) = word_param(id, given, "colours", &COLOURS_WORDS)? {
        rules.colours = match w {
            "size" => Colours::Size,
            "none" => Colours::None,
            _ => Colours::Cost,
        };
    }
    if let Some(w) = word_param(id, given, "logging_text", &LOGGING_WORDS)? {
        rules.logging_printed = w == "printed";
    }
    if let Some(w) = word_param(id, given, "reservoir_recycle", &RESERVOIR_WORDS)? {
        rules.reservoir_recycle = match w {
            "cash" => ReservoirRecycle::Cash,
            "both" => ReservoirRecycle::Both,
            _ => ReservoirRecycle::Limit,
        };
    }
    match given.get("supply") {
        None => {}
        Some(ParamValue::Str(s)) => rules.piles = parse_supply(id, s)?,
        Some(other) => {
            return invalid(format!(
                "{id}: parameter supply must be a word of pile codes joined by '+', not {other}"
            ))
        }
    }
    if get_bool(&p, "office") {
        rules.piles |= pile_bit(PILE_OFFICE);
    }
    if rules.piles == 0 {
        return invalid(format!("{id}: the supply needs at least one pile"));
    }
    // FAQ Q4: no two piles with the same title-bar colour (W §1.2).
    for i in 0..PILES.len() {
        for j in i + 1..PILES.len() {
            let both = pile_bit(i) | pile_bit(j);
            if rules.piles & both != both {
                continue;
            }
            if let (Some(a), Some(b)) = (rules.colour(&PILES[i]), rules.colour(&PILES[j])) {
                if a == b {
                    return invalid(format!(
                        "{id}: the supply piles {} ({}) and {} ({}) share the title-bar colour {} \
                         (colours={}); the rulebook allows one pile per colour (FAQ Q4)",
                        PILES[i].code,
                        FACES[PILES[i].front].name,
                        PILES[j].code,
                        FACES[PILES[j].front].name,
                        COLOUR_NAMES[a as usize],
                        COLOURS_WORDS[rules.colours as usize],
                    ));
                }
            }
        }
    }
    rules.derive_masks();
    let params = rules.params();
    Ok(if rules.family_layout() {
        Configured::Family(FlipGame { params, rules })
    } else {
        Configured::Base(FlipGame { params, rules })
    })
}

fn spec_name(spec: &ParamSpec) -> &'static str {
    match spec {
        ParamSpec::Int { name, .. } | ParamSpec::Bool { name, .. } => name,
    }
}

/// A game of the family with `F` faces (12: base layout, 22: family layout) and deck capacity `CAP`.
#[derive(Clone, Debug)]
pub struct FlipGame<const F: usize, const CAP: usize> {
    params: Params,
    rules: Rules,
}

impl FlipCityGame {
    /// A `flip_city` game in the base layout; parameters that need the family layout are refused.
    pub fn new(given: &Params) -> Result<Self> {
        match configure(ID, given)? {
            Configured::Base(g) => Ok(g),
            Configured::Family(_) => invalid(
                "flip_city: a supply with Wilderness piles is a family-layout game (use configure)",
            ),
        }
    }
}

impl<const F: usize, const CAP: usize> FlipGame<F, CAP> {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl<const F: usize, const CAP: usize> Game for FlipGame<F, CAP> {
    type State = FlipState<F, CAP>;

    fn id(&self) -> &'static str {
        self.rules.id()
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn num_players(&self) -> usize {
        self.rules.players
    }

    fn num_distinct_actions(&self) -> usize {
        FlipState::<F, CAP>::NUM_ACTIONS as usize
    }

    fn max_chance_outcomes(&self) -> usize {
        F
    }

    /// FC §5 in the base layout (12 x C + 16 per turn), W §5 in the family layout (40 x C + 16).
    fn max_game_length(&self) -> u64 {
        let n = self.rules.players as u64;
        let per_card = if F == BASE_FACES { 12 } else { 40 };
        n + self.rules.max_turns as u64 * n * (per_card * self.rules.total_cards() + 16)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len::<F>(&self.rules)]
    }

    /// True when [`Rules::observation_bound`] is at most 255. With the default cards and `max_turns`: Flip City
    /// solo (100) and Flip City: Wilderness with 1 or 2 seats (100, 200; `turn` is the largest); not Flip City
    /// with 2 or more seats (289 for 2: the Hospitals' `cash += unhappiness` cannot be bounded lower from the
    /// counts alone).
    fn observation_fits_u8(&self) -> bool {
        self.rules.observation_bound::<F>() <= 255
    }

    fn new_initial_state(&self) -> FlipState<F, CAP> {
        FlipState::new(self.rules)
    }

    fn deserialize_state(&self, text: &str) -> Result<(FlipState<F, CAP>, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
