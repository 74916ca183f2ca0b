//! The components of Nidavellir (docs/rules/nidavellir.md §2) as static tables, parsed once from the data file
//! both engines read.

use serde_json::Value;
use std::sync::OnceLock;

pub const DATA_TEXT: &str = include_str!("../../../../../python/meeplex/data/nidavellir.json");

pub const CLASSES: usize = 5;
pub const KINDS: usize = 23;
/// Kinds 0..20 are Dwarf cards.
pub const DWARF_KINDS: usize = 21;
pub const COINS: usize = 27;
pub const HEROES: usize = 17;
pub const TREASURE_VALUES: usize = 21;
pub const TAVERNS: usize = 3;

pub const BLACKSMITH: usize = 0;
pub const HUNTER: usize = 1;
pub const EXPLORER: usize = 2;
pub const MINER: usize = 3;
pub const WARRIOR: usize = 4;

pub const B0: u8 = 0;
pub const S3: u8 = 5;

pub const DAGDA: usize = 3;
pub const BONFUR: usize = 5;
pub const HOURYA: usize = 8;
pub const IDUNN: usize = 9;
pub const DWERG: usize = 10;
pub const SKAA: usize = 11;
pub const ASTRID: usize = 12;
pub const GRID: usize = 13;
pub const ULINE: usize = 14;
pub const YLUD: usize = 15;
pub const THRUD: usize = 16;

/// Column entries other than Dwarf cards (§3).
pub const HERO_ENTRY: u8 = 30;
pub const SPECIAL_BLACKSMITH: u8 = 40;
pub const THRUD_ENTRY: u8 = 41;
pub const YLUD_ENTRY: u8 = 42;

pub const NONE: u8 = u8::MAX;

/// Thingvellir (docs/rules/thingvellir.md §2): the 24 camp cards m, the 12 mercenaries m' among them, the six
/// heroes h 17..22 and the new column entries.
pub const CAMP_CARDS: usize = 24;
pub const MERCENARIES: usize = 12;
pub const TV_HEROES: usize = 6;
pub const ALL_HEROES: usize = HEROES + TV_HEROES;
pub const ANDUMIA: usize = 17;
pub const HOLDA: usize = 18;
pub const KHRAD: usize = 19;
pub const JARIKA: usize = 20;
pub const OLWYN: usize = 21;
pub const ZOLKUR: usize = 22;
pub const VEGVISIR_ENTRY: u8 = 43;
pub const OLWYN_ENTRY: u8 = 44;
pub const MERCENARY_ENTRY: u8 = 46;
pub const DRAUPNIR: usize = 0;
pub const FAFNIR: usize = 1;
pub const MEGINGJORD: usize = 2;
pub const SVALINN: usize = 3;
pub const VEGVISIR: usize = 4;
pub const VIDOFNIR: usize = 5;
pub const BRISINGAMENS: usize = 12;
pub const GJALLARHORN: usize = 13;
pub const HOFUD: usize = 14;
pub const HRAFNSMERKI: usize = 15;
pub const JARNGLOFI: usize = 16;
pub const MJOLLNIR: usize = 17;

pub struct TvData {
    pub camp_keys: Vec<String>,
    /// The Age (1, 2) of each camp card.
    pub camp_age: [u8; CAMP_CARDS],
    /// Each camp card's mercenary number m' (NONE for an artefact).
    pub camp_mercenary: [u8; CAMP_CARDS],
    /// Mercenary m': its camp card, its two classes and its points in each.
    pub merc_card: [u8; MERCENARIES],
    pub merc_class: [[u8; 2]; MERCENARIES],
    pub merc_points: [[u8; 2]; MERCENARIES],
    pub hero_keys: Vec<String>,
    pub hero_points: [u8; TV_HEROES],
    pub camp_size: u8,
}

pub struct Data {
    pub class_keys: Vec<String>,
    pub kind_keys: Vec<String>,
    /// The class of each kind (NONE for a Royal Offering).
    pub kind_class: [u8; KINDS],
    pub kind_points: [u8; KINDS],
    /// The offering's +X (0 for a Dwarf card).
    pub kind_offering: [u8; KINDS],
    /// `decks[five][age - 1]`: counts per kind.
    pub decks: [[[u8; KINDS]; 2]; 2],
    pub coin_keys: Vec<String>,
    pub coin_value: [u8; COINS],
    /// `treasure[four_or_five]`: counts per value 5..25.
    pub treasure: [[u8; TREASURE_VALUES]; 2],
    /// Gems by seat count (index n).
    pub gems: [Vec<u8>; 6],
    pub turns: [u8; 6],
    pub cards: [u8; 6],
    pub tavern_keys: Vec<String>,
    pub hero_keys: Vec<String>,
    /// A class hero's class (NONE for a neutral hero).
    pub hero_class: [u8; HEROES],
    pub hero_ranks: [u8; HEROES],
    /// A class hero's points (the sum over its ranks), a neutral hero's fixed points (0 if none).
    pub hero_points: [u8; HEROES],
    pub hero_copies: [u8; HEROES],
    pub hero_advanced: [bool; HEROES],
    pub dwerg_points: [u16; 6],
    pub tv: TvData,
}

fn parse_tv(v: &Value, class_keys: &[String]) -> TvData {
    let camp = v["camp"].as_array().expect("camp");
    assert_eq!(camp.len(), CAMP_CARDS);
    let mut camp_keys = Vec::new();
    let mut camp_age = [0u8; CAMP_CARDS];
    let mut camp_mercenary = [NONE; CAMP_CARDS];
    let mut merc_card = [0u8; MERCENARIES];
    let mut merc_class = [[0u8; 2]; MERCENARIES];
    let mut merc_points = [[0u8; 2]; MERCENARIES];
    let mut mp = 0usize;
    for (m, card) in camp.iter().enumerate() {
        camp_keys.push(card["key"].as_str().expect("key").to_string());
        camp_age[m] = card["age"].as_u64().expect("age") as u8;
        if card["type"].as_str() == Some("mercenary") {
            camp_mercenary[m] = mp as u8;
            merc_card[mp] = m as u8;
            let classes = card["classes"].as_array().expect("classes");
            assert_eq!(classes.len(), 2);
            for (o, c) in classes.iter().enumerate() {
                let key = c[0].as_str().expect("class");
                merc_class[mp][o] =
                    class_keys.iter().position(|k| k == key).expect("a class") as u8;
                merc_points[mp][o] = c[1].as_u64().unwrap_or(0) as u8;
            }
            mp += 1;
        }
    }
    assert_eq!(mp, MERCENARIES);
    let heroes = v["heroes"].as_array().expect("heroes");
    assert_eq!(heroes.len(), TV_HEROES);
    let mut hero_keys = Vec::new();
    let mut hero_points = [0u8; TV_HEROES];
    for (i, h) in heroes.iter().enumerate() {
        hero_keys.push(h["key"].as_str().expect("key").to_string());
        hero_points[i] = h["points"].as_u64().expect("points") as u8;
    }
    TvData {
        camp_keys,
        camp_age,
        camp_mercenary,
        merc_card,
        merc_class,
        merc_points,
        hero_keys,
        hero_points,
        camp_size: v["camp_size"].as_u64().expect("camp_size") as u8,
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().expect("a str").to_string())
        .collect()
}

fn counts<const N: usize>(v: &Value) -> [u8; N] {
    let mut out = [0u8; N];
    let items = v.as_array().expect("a list");
    assert_eq!(items.len(), N);
    for (o, x) in out.iter_mut().zip(items) {
        *o = x.as_u64().expect("an int") as u8;
    }
    out
}

fn parse() -> Data {
    let v: Value = serde_json::from_str(DATA_TEXT).expect("nidavellir.json");
    let class_keys = strings(&v["classes"]);
    let class_of = |c: &Value| -> u8 {
        c.as_str().map_or(NONE, |s| {
            class_keys.iter().position(|k| k == s).expect("a class") as u8
        })
    };
    let kinds = v["kinds"].as_array().expect("kinds");
    assert_eq!(kinds.len(), KINDS);
    let mut kind_class = [NONE; KINDS];
    let mut kind_points = [0u8; KINDS];
    let mut kind_offering = [0u8; KINDS];
    let mut kind_keys = Vec::new();
    for (k, kind) in kinds.iter().enumerate() {
        kind_keys.push(kind["key"].as_str().expect("key").to_string());
        kind_class[k] = class_of(&kind["class"]);
        kind_points[k] = kind["points"].as_u64().unwrap_or(0) as u8;
        kind_offering[k] = kind["offering"].as_u64().unwrap_or(0) as u8;
    }
    let decks = [
        [
            counts(&v["decks"]["age1"]["2-4"]),
            counts(&v["decks"]["age2"]["2-4"]),
        ],
        [
            counts(&v["decks"]["age1"]["5"]),
            counts(&v["decks"]["age2"]["5"]),
        ],
    ];
    let coins = v["coins"].as_array().expect("coins");
    assert_eq!(coins.len(), COINS);
    let mut coin_value = [0u8; COINS];
    let mut coin_keys = Vec::new();
    for (c, coin) in coins.iter().enumerate() {
        coin_keys.push(coin["key"].as_str().expect("key").to_string());
        coin_value[c] = coin["value"].as_u64().expect("value") as u8;
    }
    let treasure = [counts(&v["treasure"]["2-3"]), counts(&v["treasure"]["4-5"])];
    let mut gems: [Vec<u8>; 6] = Default::default();
    let mut turns = [0u8; 6];
    let mut cards = [0u8; 6];
    for n in 2..=5 {
        let key = n.to_string();
        gems[n] = v["gems"][&key]
            .as_array()
            .expect("gems")
            .iter()
            .map(|g| g.as_u64().expect("gem") as u8)
            .collect();
        turns[n] = v["turns_per_age"][&key].as_u64().expect("turns") as u8;
        cards[n] = v["cards_per_tavern"][&key].as_u64().expect("cards") as u8;
    }
    let heroes = v["heroes"].as_array().expect("heroes");
    assert_eq!(heroes.len(), HEROES);
    let mut hero_keys = Vec::new();
    let mut hero_class = [NONE; HEROES];
    let mut hero_ranks = [0u8; HEROES];
    let mut hero_points = [0u8; HEROES];
    let mut hero_copies = [0u8; HEROES];
    let mut hero_advanced = [false; HEROES];
    for (h, hero) in heroes.iter().enumerate() {
        hero_keys.push(hero["key"].as_str().expect("key").to_string());
        hero_class[h] = class_of(&hero["class"]);
        let ranks = hero["ranks"].as_array().expect("ranks");
        hero_ranks[h] = ranks.len() as u8;
        let rank_points: u64 = ranks.iter().map(|r| r.as_u64().expect("points")).sum();
        hero_points[h] = (rank_points + hero["points"].as_u64().unwrap_or(0)) as u8;
        hero_copies[h] = hero["copies"].as_u64().expect("copies") as u8;
        hero_advanced[h] = hero["advanced"].as_bool().expect("advanced");
    }
    let dw = v["dwerg_points"].as_array().expect("dwerg");
    let mut dwerg_points = [0u16; 6];
    for (o, x) in dwerg_points.iter_mut().zip(dw) {
        *o = x.as_u64().expect("int") as u16;
    }
    let tv = parse_tv(&v["thingvellir"], &class_keys);
    Data {
        tv,
        class_keys,
        kind_keys,
        kind_class,
        kind_points,
        kind_offering,
        decks,
        coin_keys,
        coin_value,
        treasure,
        gems,
        turns,
        cards,
        tavern_keys: strings(&v["taverns"]),
        hero_keys,
        hero_class,
        hero_ranks,
        hero_points,
        hero_copies,
        hero_advanced,
        dwerg_points,
    }
}

pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(parse)
}

#[inline]
pub fn coin_value(c: u8) -> u32 {
    data().coin_value[c as usize] as u32
}

/// `b0` and `s3`: never transformed; bid on a tavern, they trade the pouch.
#[inline]
pub fn is_trading(c: u8) -> bool {
    c == B0 || c == S3
}
