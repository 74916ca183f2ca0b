//! The components (docs/rules/viticulture.md §2), read from the one data file both engines ship,
//! `python/meeplex/data/viticulture.json`, parsed once at first use.

use serde_json::Value;
use std::sync::OnceLock;

pub const TEXT: &str = include_str!("../../../../../python/meeplex/data/viticulture.json");

pub const VINES: usize = 9;
pub const ORDERS: usize = 36;
pub const SUMMER: usize = 38;
pub const WINTER: usize = 38;
pub const KINDS: usize = 121;
pub const MAMAS: usize = 18;
pub const PAPAS: usize = 18;
pub const STRUCTURES: usize = 8;
pub const ORDER0: usize = 9;
pub const SUMMER0: usize = 45;
pub const WINTER0: usize = 83;

/// Structure indices (§2 order).
pub const TRELLIS: usize = 0;
pub const IRRIGATION: usize = 1;
pub const YOKE: usize = 2;
pub const WINDMILL: usize = 3;
pub const TASTING: usize = 4;
pub const MEDIUM: usize = 5;
pub const LARGE: usize = 6;
pub const COTTAGE: usize = 7;

/// Deck types: vine, summer, order, winter (§15.4 `decks` order).
pub const D_VINE: usize = 0;
pub const D_SUMMER: usize = 1;
pub const D_ORDER: usize = 2;
pub const D_WINTER: usize = 3;

/// The deck type of a card kind.
#[inline]
pub fn deck_of(k: usize) -> usize {
    if k < ORDER0 {
        D_VINE
    } else if k < SUMMER0 {
        D_ORDER
    } else if k < WINTER0 {
        D_SUMMER
    } else {
        D_WINTER
    }
}

/// The kind range of a deck type.
#[inline]
pub fn kinds_of(deck: usize) -> std::ops::Range<usize> {
    match deck {
        D_VINE => 0..ORDER0,
        D_ORDER => ORDER0..SUMMER0,
        D_SUMMER => SUMMER0..WINTER0,
        _ => WINTER0..KINDS,
    }
}

pub const DECK_NAMES: [&str; 4] = ["vine", "summer", "order", "winter"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Fixed(i32),
    EmptyOwnedFields2,
    PlantedOwnedFields,
    CardsInHand,
    BuiltCost4,
    Opponents6Workers,
    SparklingMade,
    DistinctTypesMade,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    BuiltCostGe5,
    DiscardedStrictlyHighest,
    Harvested3,
    VpNegative,
    VpNonnegative,
    StructuresGe6,
    WorkersEq6,
    PlantedValue4,
    Field3Kinds,
    PlantedVinesGe6,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellarPrice {
    Regular,
    RegularMinus2,
    Fixed(i32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Gain {
        lira: Amount,
        vp: Amount,
        residual: Amount,
    },
    Pay {
        lira: i32,
        vp: i32,
        residual: i32,
    },
    /// Counts per deck type (vine, summer, order, winter).
    Draw([u8; 4]),
    Plant {
        max: u8,
        min: u8,
        ignore_structures: bool,
        ignore_field_limit: bool,
    },
    Build {
        n: u8,
        discount: i32,
        free: bool,
        allowed: u8,
        optional: bool,
    },
    BuildSpecific {
        structure: u8,
        price: i32,
    },
    Harvest {
        max: u8,
        min: u8,
    },
    MakeWine {
        max: u8,
        min: u8,
        min_value: u8,
        ignore_cellar: bool,
    },
    FillOrder {
        bonus_vp: i32,
    },
    DiscardCards {
        n: u8,
        visitor: bool,
    },
    DiscardHand,
    DiscardWine {
        min_value: u8,
    },
    DiscardGrape,
    DiscardGrapeOrWine,
    /// colour 0 red, 1 white, 2 choice
    PlaceGrape {
        color: u8,
    },
    SwitchVines,
    UprootDiscard {
        n: u8,
    },
    Train {
        price: i32,
        this_year: bool,
    },
    UpgradeCellar {
        price: CellarPrice,
    },
    AgeAll {
        times: u8,
    },
    AgeWine,
    TakeDiscardTops,
    RevealKeep,
    Plan,
    Retrieve {
        max: u8,
    },
    MoveRooster,
    TakePrevious,
    If {
        cond: Cond,
        then: Vec<Step>,
    },
    Importer,
    Swindle,
    PayOpponents,
    RetrieveGrande,
    Queen,
    Governor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    All,
    Choose1,
    Choose2,
    OrBoth,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    None,
    Vendor,
    Handyman,
    Banker,
    Importer,
    Swindler,
    VolunteerCrew,
    WeddingParty,
    Queen,
    Mentor,
    Motivator,
    Governor,
    GuestSpeaker,
}

#[derive(Clone, Debug)]
pub struct Visitor {
    pub key: String,
    pub mode: Mode,
    pub special: Special,
    pub options: Vec<Vec<Step>>,
}

#[derive(Clone, Debug)]
pub struct Vine {
    pub key: String,
    pub red: u8,
    pub white: u8,
    pub requires: u8,
    pub count: u8,
}

#[derive(Clone, Debug)]
pub struct Order {
    /// (wine type 0 red 1 white 2 blush 3 sparkling, minimum value)
    pub requires: Vec<(u8, u8)>,
    pub vp: i32,
    pub residual: i32,
}

#[derive(Clone, Debug)]
pub struct Mama {
    pub key: String,
    /// vine, summer, order, winter
    pub draws: [u8; 4],
    pub lira: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gift {
    Structure(u8),
    Worker,
    Vp,
}

#[derive(Clone, Debug)]
pub struct Papa {
    pub key: String,
    pub lira: i32,
    pub gift: Gift,
    pub gift_lira: i32,
}

#[derive(Clone, Debug)]
pub struct Data {
    pub structure_keys: Vec<String>,
    pub structure_cost: [i32; STRUCTURES],
    pub vines: Vec<Vine>,
    pub orders: Vec<Order>,
    /// 76 visitors: summer 0..37 then winter 38..75.
    pub visitors: Vec<Visitor>,
    pub mamas: Vec<Mama>,
    pub papas: Vec<Papa>,
    pub fields: [u8; 3],
    /// The text name of every card kind (§15.1).
    pub kind_names: Vec<String>,
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

fn amount(v: Option<&Value>) -> Result<Amount, String> {
    match v {
        None => Ok(Amount::Fixed(0)),
        Some(Value::Number(n)) => Ok(Amount::Fixed(n.as_i64().unwrap_or(0) as i32)),
        Some(Value::String(s)) => Ok(match s.as_str() {
            "2*empty_owned_fields" => Amount::EmptyOwnedFields2,
            "planted_owned_fields" => Amount::PlantedOwnedFields,
            "cards_in_hand" => Amount::CardsInHand,
            "built_structures_cost_eq_4" => Amount::BuiltCost4,
            "opponents_with_6_workers" => Amount::Opponents6Workers,
            "sparkling_made" => Amount::SparklingMade,
            "distinct_wine_types_made" => Amount::DistinctTypesMade,
            other => return Err(format!("unknown amount {other}")),
        }),
        Some(other) => Err(format!("bad amount {other}")),
    }
}

fn cond(s: &str) -> Result<Cond, String> {
    Ok(match s {
        "built_cost_ge_5" => Cond::BuiltCostGe5,
        "discarded_wine_strictly_highest" => Cond::DiscardedStrictlyHighest,
        "harvested_3" => Cond::Harvested3,
        "vp_negative" => Cond::VpNegative,
        "vp_nonnegative" => Cond::VpNonnegative,
        "structures_ge_6" => Cond::StructuresGe6,
        "workers_eq_6" => Cond::WorkersEq6,
        "planted_value_4" => Cond::PlantedValue4,
        "field_3_kinds" => Cond::Field3Kinds,
        "planted_vines_ge_6" => Cond::PlantedVinesGe6,
        other => return Err(format!("unknown condition {other}")),
    })
}

fn u(v: &Value, key: &str, default: i64) -> i64 {
    v.get(key).and_then(Value::as_i64).unwrap_or(default)
}

fn b(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn step(v: &Value) -> Result<Step, String> {
    let op = v.get("op").and_then(Value::as_str).unwrap_or("");
    Ok(match op {
        "gain" => Step::Gain {
            lira: amount(v.get("lira"))?,
            vp: amount(v.get("vp"))?,
            residual: amount(v.get("residual"))?,
        },
        "pay" => Step::Pay {
            lira: u(v, "lira", 0) as i32,
            vp: u(v, "vp", 0) as i32,
            residual: u(v, "residual", 0) as i32,
        },
        "draw" => Step::Draw([
            u(v, "vine", 0) as u8,
            u(v, "summer", 0) as u8,
            u(v, "order", 0) as u8,
            u(v, "winter", 0) as u8,
        ]),
        "plant" => Step::Plant {
            max: u(v, "max", 1) as u8,
            min: u(v, "min", 1) as u8,
            ignore_structures: b(v, "ignore_structures"),
            ignore_field_limit: b(v, "ignore_field_limit"),
        },
        "build_structure" => {
            let mut allowed = 0u8;
            if let Some(list) = v.get("allowed_costs").and_then(Value::as_array) {
                for c in list {
                    let c = int(c);
                    if (0..8).contains(&c) {
                        allowed |= 1 << c;
                    }
                }
            }
            Step::Build {
                n: u(v, "n", 1) as u8,
                discount: u(v, "discount", 0) as i32,
                free: b(v, "free"),
                allowed,
                optional: b(v, "optional"),
            }
        }
        "build_specific" => Step::BuildSpecific {
            structure: u(v, "structure", 2) as u8,
            price: u(v, "price", 0) as i32,
        },
        "harvest" => Step::Harvest {
            max: u(v, "max_fields", 1) as u8,
            min: u(v, "min_fields", 1) as u8,
        },
        "make_wine" => Step::MakeWine {
            max: u(v, "max", 1) as u8,
            min: u(v, "min", 1) as u8,
            min_value: u(v, "min_value", 1) as u8,
            ignore_cellar: b(v, "ignore_cellar"),
        },
        "fill_order" => Step::FillOrder {
            bonus_vp: u(v, "bonus_vp", 0) as i32,
        },
        "discard_cards" => Step::DiscardCards {
            n: u(v, "n", 1) as u8,
            visitor: v.get("kind").and_then(Value::as_str) == Some("visitor"),
        },
        "discard_hand" => Step::DiscardHand,
        "discard_wine" => Step::DiscardWine {
            min_value: u(v, "min_value", 1) as u8,
        },
        "discard_grape" => Step::DiscardGrape,
        "discard_grape_or_wine" => Step::DiscardGrapeOrWine,
        "place_grape" => Step::PlaceGrape {
            color: match v.get("color").and_then(Value::as_str) {
                Some("red") => 0,
                Some("white") => 1,
                _ => 2,
            },
        },
        "switch_vines" => Step::SwitchVines,
        "uproot_and_discard_vines" => Step::UprootDiscard {
            n: u(v, "n", 1) as u8,
        },
        "train_worker" => Step::Train {
            price: u(v, "price_lira", 0) as i32,
            this_year: b(v, "usable_this_year"),
        },
        "upgrade_cellar_one_level" => Step::UpgradeCellar {
            price: match v.get("price") {
                Some(Value::String(s)) if s == "regular" => CellarPrice::Regular,
                Some(Value::String(s)) if s == "regular-2" => CellarPrice::RegularMinus2,
                Some(p) => CellarPrice::Fixed(int(p) as i32),
                None => CellarPrice::Regular,
            },
        },
        "age_all_wine" => Step::AgeAll {
            times: u(v, "times", 1) as u8,
        },
        "age_wine" => Step::AgeWine,
        "take_discard_tops" => Step::TakeDiscardTops,
        "reveal_each_deck_keep" => Step::RevealKeep,
        "plan_future_action" => Step::Plan,
        "retrieve_own_workers" => Step::Retrieve {
            max: u(v, "max", 2) as u8,
        },
        "move_rooster_take_bonus_then_pass" => Step::MoveRooster,
        "take_previous_season_action" => Step::TakePrevious,
        "if" => {
            let c = cond(v.get("condition").and_then(Value::as_str).unwrap_or(""))?;
            let mut then = Vec::new();
            if let Some(list) = v.get("then").and_then(Value::as_array) {
                for t in list {
                    then.push(step(t)?);
                }
            }
            Step::If { cond: c, then }
        }
        "importer" => Step::Importer,
        "swindle" => Step::Swindle,
        "pay_opponents" => Step::PayOpponents,
        "retrieve_grande" => Step::RetrieveGrande,
        "queen" => Step::Queen,
        "governor" => Step::Governor,
        other => return Err(format!("unknown op {other:?}")),
    })
}

fn visitor(v: &Value) -> Result<Visitor, String> {
    let mode = match v.get("mode").and_then(Value::as_str) {
        Some("all") => Mode::All,
        Some("choose_1") => Mode::Choose1,
        Some("choose_2_different") => Mode::Choose2,
        Some("choose_1_or_lose_1vp_for_both") => Mode::OrBoth,
        other => return Err(format!("unknown mode {other:?}")),
    };
    let special = match v.get("special").and_then(Value::as_str) {
        None => Special::None,
        Some("vendor") => Special::Vendor,
        Some("handyman") => Special::Handyman,
        Some("banker") => Special::Banker,
        Some("importer") => Special::Importer,
        Some("swindler") => Special::Swindler,
        Some("volunteer_crew") => Special::VolunteerCrew,
        Some("wedding_party") => Special::WeddingParty,
        Some("queen") => Special::Queen,
        Some("mentor") => Special::Mentor,
        Some("motivator") => Special::Motivator,
        Some("governor") => Special::Governor,
        Some("guest_speaker") => Special::GuestSpeaker,
        Some(other) => return Err(format!("unknown special {other}")),
    };
    let mut options = Vec::new();
    for o in v
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let mut steps = Vec::new();
        for s in o
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            steps.push(step(s)?);
        }
        options.push(steps);
    }
    Ok(Visitor {
        key: v
            .get("key")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        mode,
        special,
        options,
    })
}

fn key_of(v: &Value) -> String {
    v.get("key")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

pub fn parse(text: &str) -> Result<Data, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let arr = |k: &str| -> Result<&Vec<Value>, String> {
        root.get(k)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("no {k}"))
    };
    let structures = arr("structures")?;
    if structures.len() != STRUCTURES {
        return Err("structures".into());
    }
    let mut structure_cost = [0; STRUCTURES];
    let mut structure_keys = Vec::new();
    for (i, s) in structures.iter().enumerate() {
        structure_cost[i] = u(s, "cost", 0) as i32;
        structure_keys.push(key_of(s));
    }
    let mut vines = Vec::new();
    for v in arr("vines")? {
        let mut requires = 0u8;
        for r in v
            .get("requires")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = int(r);
            if (0..8).contains(&r) {
                requires |= 1 << r;
            }
        }
        vines.push(Vine {
            key: key_of(v),
            red: u(v, "red", 0) as u8,
            white: u(v, "white", 0) as u8,
            requires,
            count: u(v, "count", 0) as u8,
        });
    }
    let mut orders = Vec::new();
    for o in arr("orders")? {
        let mut requires = Vec::new();
        for r in o
            .get("requires")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let pair = r.as_array().ok_or("order requirement")?;
            if pair.len() != 2 {
                return Err("order requirement".into());
            }
            requires.push((int(&pair[0]) as u8, int(&pair[1]) as u8));
        }
        orders.push(Order {
            requires,
            vp: u(o, "vp", 0) as i32,
            residual: u(o, "residual", 0) as i32,
        });
    }
    let mut visitors = Vec::new();
    for v in arr("summer")?.iter().chain(arr("winter")?.iter()) {
        visitors.push(visitor(v)?);
    }
    let mut mamas = Vec::new();
    for m in arr("mamas")? {
        mamas.push(Mama {
            key: key_of(m),
            draws: [
                u(m, "vine", 0) as u8,
                u(m, "summer", 0) as u8,
                u(m, "order", 0) as u8,
                u(m, "winter", 0) as u8,
            ],
            lira: u(m, "lira", 0) as i32,
        });
    }
    let mut papas = Vec::new();
    for p in arr("papas")? {
        let gift = match p.get("gift") {
            Some(Value::String(s)) if s == "worker" => Gift::Worker,
            Some(Value::String(s)) if s == "vp" => Gift::Vp,
            Some(g) => Gift::Structure(int(g).clamp(0, 7) as u8),
            None => return Err("papa gift".into()),
        };
        papas.push(Papa {
            key: key_of(p),
            lira: u(p, "lira", 0) as i32,
            gift,
            gift_lira: u(p, "gift_lira", 0) as i32,
        });
    }
    let f = arr("fields")?;
    if f.len() != 3 {
        return Err("fields".into());
    }
    let fields = [int(&f[0]) as u8, int(&f[1]) as u8, int(&f[2]) as u8];
    if vines.len() != VINES
        || orders.len() != ORDERS
        || visitors.len() != SUMMER + WINTER
        || mamas.len() != MAMAS
        || papas.len() != PAPAS
    {
        return Err("component counts".into());
    }
    let mut kind_names = Vec::with_capacity(KINDS);
    for v in &vines {
        kind_names.push(v.key.clone());
    }
    for o in 0..ORDERS {
        kind_names.push(format!("order{}", o + 1));
    }
    for v in &visitors {
        kind_names.push(v.key.clone());
    }
    Ok(Data {
        structure_keys,
        structure_cost,
        vines,
        orders,
        visitors,
        mamas,
        papas,
        fields,
        kind_names,
    })
}

static DATA: OnceLock<Data> = OnceLock::new();

/// The parsed data file. The file is part of the build; a parse failure is a build defect caught by the tests.
pub fn data() -> &'static Data {
    DATA.get_or_init(|| parse(TEXT).expect("python/meeplex/data/viticulture.json is malformed"))
}

impl Data {
    /// A vine's value (red + white).
    #[inline]
    pub fn vine_value(&self, v: usize) -> u8 {
        self.vines.get(v).map_or(0, |x| x.red + x.white)
    }
    /// Total copies of a card kind.
    pub fn copies(&self, k: usize) -> u8 {
        if k < VINES {
            self.vines[k].count
        } else if k < KINDS {
            1
        } else {
            0
        }
    }
}
