//! The card tables of the Flip City family: faces, supply piles, title-bar colours and starting decks
//! (docs/rules/flip_city.md §2, docs/rules/flip_city_wilderness.md §1-2; sources in
//! shared/rules/facts/flip_family.md §A and §B).
//!
//! Faces have dense ids; the two faces of a card are `2k` (front) and `2k + 1` (back), so flipping is `f ^ 1`.
//! Faces 0..11 are the base set, 12..21 Wilderness. A game in the base layout uses only the first
//! [`BASE_FACES`] entries of every table, which keeps its ids, observation and serialization those of
//! flip_city.md; every other game uses all [`FAMILY_FACES`].
//!
//! Figures that the rulebooks leave open are printed here as the contract's defaults; the parameters that
//! change them are applied in `Rules` (mod.rs), so that these tables stay plain static data.

/// Faces of the base layout (Flip City with the Office expansion).
pub const BASE_FACES: usize = 12;
/// Faces of the family layout (base set and Wilderness).
pub const FAMILY_FACES: usize = 22;

pub const RESIDENTIAL_AREA: usize = 0;
pub const APARTMENT: usize = 1;
pub const CONVENIENCE_STORE: usize = 2;
pub const SHOPPING_MALL: usize = 3;
pub const CENTRAL_PARK: usize = 4;
pub const STATION: usize = 5;
pub const HOSPITAL: usize = 6;
pub const CHURCH: usize = 7;
pub const OFFICE: usize = 8;
pub const TRADE_CENTER: usize = 9;
pub const FACTORY: usize = 10;
pub const POWER_PLANT: usize = 11;
pub const TRAILER_PARK: usize = 12;
pub const COUNTRY_RESORT: usize = 13;
pub const LOGGING_SITE: usize = 14;
pub const ARCHAEOLOGY_SITE: usize = 15;
pub const FARMERS_MARKET: usize = 16;
pub const INTERCHANGE: usize = 17;
pub const WIND_FARM: usize = 18;
pub const AIRPORT: usize = 19;
pub const CAMPING_GROUNDS: usize = 20;
pub const WATER_RESERVOIR: usize = 21;

/// What recycling a face does (rulebooks, "Recycle Abilities"; W §4.2). The printed kind; `Rules::recycle`
/// applies the parameters that switch icons off or move them between the Logging Site's two faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recycle {
    None,
    /// Shopping Mall: +1 cash.
    Cash,
    /// Station: +1 point.
    Point,
    /// Church, Trade Center: +1 unhappiness limit.
    Limit,
    /// Power Plant: the card (now a Factory) goes on top of the deck.
    ToDeckTop,
    /// Archaeology Site (`logging_text=proposed`) or Logging Site (`printed`): to the bottom of the deck.
    ToDeckBottom,
    /// Interchange: `interchange_cash` cash.
    Interchange,
    /// Airport: shuffle a card of any discard pile into its owner's deck.
    Airport,
    /// Water Reservoir: limit and/or flip-only cash, per `reservoir_recycle`.
    Reservoir,
}

#[derive(Clone, Copy, Debug)]
pub struct Face {
    pub name: &'static str,
    /// Building cost; `None` for faces that are never in the supply.
    pub cost: Option<u32>,
    pub cash: u32,
    pub points: u32,
    pub unhappiness: u32,
    pub flip_fee: Option<u32>,
    pub recycle: Recycle,
    /// "When this card is the top card of your deck, you must play it" (Residential Area, Trailer Park).
    pub must_play: bool,
}

const fn face(
    name: &'static str,
    cost: Option<u32>,
    cash: u32,
    points: u32,
    unhappiness: u32,
    flip_fee: Option<u32>,
    recycle: Recycle,
) -> Face {
    Face {
        name,
        cost,
        cash,
        points,
        unhappiness,
        flip_fee,
        recycle,
        must_play: false,
    }
}

const fn forced(f: Face) -> Face {
    Face {
        must_play: true,
        ..f
    }
}

/// Every face of the family. Entries that a parameter changes hold the parameter's default (noted).
pub static FACES: [Face; FAMILY_FACES] = [
    forced(face(
        "Residential Area",
        None,
        1,
        0,
        1,
        Some(1),
        Recycle::None,
    )),
    // unhappiness: `apartment_unhappiness`
    face("Apartment", None, 1, 0, 1, Some(8), Recycle::None),
    face(
        "Convenience Store",
        Some(2),
        1,
        0,
        0,
        Some(3),
        Recycle::None,
    ),
    // recycle: `mall_recycle` (off by default: the Card Reference prints none)
    face("Shopping Mall", None, 2, 1, 0, None, Recycle::Cash),
    face("Central Park", Some(7), 0, 2, 0, Some(5), Recycle::None),
    // recycle: `station_recycle`
    face("Station", None, 0, 2, 0, None, Recycle::Point),
    // cash: `hospital_cash`
    face("Hospital", Some(4), 1, 0, 1, Some(4), Recycle::None),
    face("Church", None, 0, 0, 0, None, Recycle::Limit),
    face("Office", Some(3), 1, 0, 0, Some(4), Recycle::None),
    face("Trade Center", None, 0, 0, 0, None, Recycle::Limit),
    face("Factory", Some(5), 2, 0, 0, Some(6), Recycle::None),
    face("Power Plant", None, 1, 2, 0, None, Recycle::ToDeckTop),
    // cash: `trailer_cash` (W 2; default 0, as printed)
    forced(face("Trailer Park", None, 0, 0, 1, Some(1), Recycle::None)),
    // unhappiness: `resort_unhappiness` (W 4)
    face("Country Resort", None, 1, 0, 0, Some(9), Recycle::None),
    // flip fee and recycle: `logging_text` (W 5)
    face("Logging Site", Some(2), 1, 0, 0, Some(2), Recycle::None),
    face(
        "Archaeology Site",
        None,
        1,
        0,
        0,
        None,
        Recycle::ToDeckBottom,
    ),
    face("Farmer's Market", Some(3), 2, 0, 1, Some(4), Recycle::None),
    // recycle cash: `interchange_cash` (W 9)
    face("Interchange", None, 0, 0, 0, None, Recycle::Interchange),
    face("Wind Farm", Some(5), 2, 0, 0, Some(6), Recycle::None),
    // points: `airport_points` (W 11)
    face("Airport", None, 0, 2, 0, None, Recycle::Airport),
    face("Camping Grounds", Some(4), 0, 0, 0, Some(8), Recycle::None),
    // points: `reservoir_points`; recycle: `reservoir_recycle` (W 13)
    face("Water Reservoir", None, 0, 2, 0, None, Recycle::Reservoir),
];

/// Each seat's starting deck in a `flip_city` game (Preparation 1), counts per face.
pub const BASE_STARTING_DECK: [u8; FAMILY_FACES] = [
    4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// Each seat's starting deck in a `flip_city_wilderness` game (Wilderness Preparation 1): 4 Trailer Park,
/// 1 Country Resort, 1 each Logging Site, Farmer's Market, Wind Farm, Camping Grounds.
pub const WILDERNESS_STARTING_DECK: [u8; FAMILY_FACES] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 1, 0, 1, 0, 1, 0, 1, 0,
];

/// Solo 1 (both rulebooks): four of each pile.
pub const SOLO_PILE: u8 = 4;

/// A title-bar colour, an index into [`COLOUR_NAMES`]; the colour tables are unknown (facts B.4), so each
/// pile carries one colour per table and the `colours` parameter picks the table.
pub type Colour = u8;

/// A supply pile (W §1.1): its code in the `supply` parameter, its front face, its size (each set's
/// Preparation 2) and its colour under each table of W §1.2 (`cost`, `size`; `none` gives every pile its own).
#[derive(Clone, Copy, Debug)]
pub struct Pile {
    pub code: &'static str,
    pub front: usize,
    pub size: u8,
    pub wilderness: bool,
    pub colour_by_cost: Colour,
    pub colour_by_size: Colour,
}

pub const COLOUR_NAMES: [&str; 10] = [
    "cost-2", "cost-3", "cost-4", "cost-5", "cost-7", "A", "B", "C", "D", "E",
];
const C2: Colour = 0;
const C3: Colour = 1;
const C4: Colour = 2;
const C5: Colour = 3;
const C7: Colour = 4;
const A: Colour = 5;
const B: Colour = 6;
const C: Colour = 7;
const D: Colour = 8;
const E: Colour = 9;

const fn pile(
    code: &'static str,
    front: usize,
    size: u8,
    wilderness: bool,
    colour_by_cost: Colour,
    colour_by_size: Colour,
) -> Pile {
    Pile {
        code,
        front,
        size,
        wilderness,
        colour_by_cost,
        colour_by_size,
    }
}

/// Every pile, in the canonical order of the `supply` parameter (the order of their front faces).
pub static PILES: [Pile; 9] = [
    pile("cs", CONVENIENCE_STORE, 12, false, C2, A),
    pile("park", CENTRAL_PARK, 8, false, C7, D),
    pile("hosp", HOSPITAL, 12, false, C4, B),
    pile("off", OFFICE, 10, false, C3, E),
    pile("fac", FACTORY, 8, false, C5, C),
    pile("log", LOGGING_SITE, 12, true, C2, A),
    pile("market", FARMERS_MARKET, 12, true, C3, B),
    pile("wind", WIND_FARM, 8, true, C5, C),
    pile("camp", CAMPING_GROUNDS, 8, true, C4, D),
];

/// A set of piles, one bit per index of [`PILES`].
pub type PileSet = u16;

pub const fn pile_bit(index: usize) -> PileSet {
    1 << index
}

pub const PILE_OFFICE: usize = 3;
/// `cs+park+hosp+fac`: the base supply without the Office (Preparation 2).
pub const BASE_SUPPLY: PileSet = pile_bit(0) | pile_bit(1) | pile_bit(2) | pile_bit(4);
/// `log+market+wind+camp`: the Wilderness supply (Wilderness Preparation 2).
pub const WILDERNESS_SUPPLY: PileSet = pile_bit(5) | pile_bit(6) | pile_bit(7) | pile_bit(8);
/// Every Wilderness pile: a game with one of them is in the family layout.
pub const WILDERNESS_PILES: PileSet = WILDERNESS_SUPPLY;
