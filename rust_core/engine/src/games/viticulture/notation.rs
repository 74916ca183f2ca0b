//! Action ids <-> text (docs/rules/viticulture.md §7, §15.1). One canonical text per id; the reader folds
//! case and white space and refuses anything else.

use super::data::{data, DECK_NAMES, KINDS};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result};

pub const NUM_ACTIONS: u32 = 946;
pub const NUM_CHANCE: u32 = 163;

pub const A_MAMA: u32 = 0;
pub const A_PAPA: u32 = 18;
pub const A_GIFT: u32 = 36;
pub const A_LIRA: u32 = 37;
pub const A_WAKE: u32 = 38;
pub const A_PLACE: u32 = 45;
pub const A_PLACE_LIRA: u32 = 105;
pub const A_PLACE_YOKE: u32 = 107;
pub const A_PASS: u32 = 109;
pub const A_DONE: u32 = 110;
pub const A_ACCEPT: u32 = 111;
pub const A_DECLINE: u32 = 112;
pub const A_OPTION: u32 = 113;
pub const A_BOTH: u32 = 116;
pub const A_DRAW: u32 = 117;
pub const A_CARD: u32 = 121;
pub const A_PLAY: u32 = 242;
pub const A_FILL: u32 = 318;
pub const A_PLANT: u32 = 354;
pub const A_VINE: u32 = 381;
pub const A_HARVEST: u32 = 408;
pub const A_SELL_FIELD: u32 = 411;
pub const A_BUY_FIELD: u32 = 414;
pub const A_BUILD: u32 = 417;
pub const A_GRAPE: u32 = 425;
pub const A_WINE: u32 = 443;
pub const A_MAKE_R: u32 = 479;
pub const A_MAKE_W: u32 = 488;
pub const A_MAKE_B: u32 = 497;
pub const A_MAKE_S: u32 = 578;
pub const A_SEAT: u32 = 902;
pub const A_PILE: u32 = 908;
pub const A_RETRIEVE: u32 = 912;
pub const A_TAKE: u32 = 940;

pub const C_MAMA: u32 = 121;
pub const C_PAPA: u32 = 139;
pub const C_FIRST: u32 = 157;

pub const ACTION_KEYS: [&str; 12] = [
    "vine", "tour", "build", "visit_s", "sell", "plant", "order", "harvest", "train", "visit_w",
    "wine", "fill",
];
pub const SPACE_WORDS: [&str; 5] = ["plain r", "plain g", "bonus r", "bonus g", "over g"];
const WINE_LETTERS: [char; 4] = ['r', 'w', 'b', 's'];

/// The sparkling pair (r1 > r2) of index i in lexicographic order (r1 = 2..9, r2 = 1..r1-1).
pub fn spark_pair(i: u32) -> (u8, u8) {
    let mut idx = 0;
    for r1 in 2..=9u8 {
        for r2 in 1..r1 {
            if idx == i {
                return (r1, r2);
            }
            idx += 1;
        }
    }
    (0, 0)
}

pub fn spark_index(r1: u8, r2: u8) -> u32 {
    // pairs before r1: sum_{x=2}^{r1-1} (x-1) = (r1-1)(r1-2)/2
    let r1 = r1 as u32;
    (r1 - 1) * (r1 - 2) / 2 + (r2 as u32 - 1)
}

/// The canonical text of a decision id.
pub fn action_text(a: u32) -> Result<String> {
    let d = data();
    if a >= NUM_ACTIONS {
        return Err(out_of_range(a, NUM_ACTIONS));
    }
    Ok(match a {
        0..=17 => format!("mama {}", d.mamas[a as usize].key),
        18..=35 => format!("papa {}", d.papas[(a - 18) as usize].key),
        36 => "gift".into(),
        37 => "lira".into(),
        38..=44 => format!("wake {}", a - 37),
        45..=104 => {
            let i = a - 45;
            format!(
                "place {} {}",
                ACTION_KEYS[(i / 5) as usize],
                SPACE_WORDS[(i % 5) as usize]
            )
        }
        105 => "place lira r".into(),
        106 => "place lira g".into(),
        107 => "place yoke r".into(),
        108 => "place yoke g".into(),
        109 => "pass".into(),
        110 => "done".into(),
        111 => "accept".into(),
        112 => "decline".into(),
        113..=115 => format!("option {}", (b'a' + (a - 113) as u8) as char),
        116 => "both".into(),
        117..=120 => format!(
            "draw {}",
            ["vine", "summer", "order", "winter"][(a - 117) as usize]
        ),
        121..=241 => format!("card {}", d.kind_names[(a - 121) as usize]),
        242..=317 => format!("play {}", d.visitors[(a - 242) as usize].key),
        318..=353 => format!("fill {}", a - 317),
        354..=380 => {
            let i = a - 354;
            format!("plant {} {}", d.vines[(i / 3) as usize].key, 5 + i % 3)
        }
        381..=407 => {
            let i = a - 381;
            format!("vine {} {}", d.vines[(i / 3) as usize].key, 5 + i % 3)
        }
        408..=410 => format!("harvest {}", a - 403),
        411..=413 => format!("sell field {}", a - 406),
        414..=416 => format!("buy field {}", a - 409),
        417..=424 => format!("build {}", d.structure_keys[(a - 417) as usize]),
        425..=442 => {
            let i = a - 425;
            format!("grape {}{}", if i < 9 { 'r' } else { 'w' }, i % 9 + 1)
        }
        443..=478 => {
            let i = a - 443;
            format!("wine {}{}", WINE_LETTERS[(i / 9) as usize], i % 9 + 1)
        }
        479..=487 => format!("make r{}", a - 478),
        488..=496 => format!("make w{}", a - 487),
        497..=577 => {
            let i = a - 497;
            format!("make b{}+{}", i / 9 + 1, i % 9 + 1)
        }
        578..=901 => {
            let i = a - 578;
            let (r1, r2) = spark_pair(i / 9);
            format!("make s{}+{}+{}", r1, r2, i % 9 + 1)
        }
        902..=907 => format!("seat {}", a - 902),
        908..=911 => format!(
            "pile {}",
            ["vine", "summer", "order", "winter"][(a - 908) as usize]
        ),
        912..=939 => {
            let i = a - 912;
            let space = i / 2;
            let name = if space < 12 {
                ACTION_KEYS[space as usize]
            } else if space == 12 {
                "lira"
            } else {
                "yoke"
            };
            format!("retrieve {} {}", name, if i % 2 == 0 { 'r' } else { 'g' })
        }
        _ => format!("take {}", ACTION_KEYS[(a - 940) as usize]),
    })
}

/// The canonical text of a chance outcome id.
pub fn chance_text(a: u32) -> Result<String> {
    let d = data();
    if a >= NUM_CHANCE {
        return Err(out_of_range(a, NUM_CHANCE));
    }
    Ok(match a {
        0..=120 => format!("draws {}", d.kind_names[a as usize]),
        121..=138 => format!("deal mama {}", d.mamas[(a - 121) as usize].key),
        139..=156 => format!("deal papa {}", d.papas[(a - 139) as usize].key),
        _ => format!("first {}", a - 157),
    })
}

fn table(chance: bool) -> &'static std::collections::HashMap<String, u32> {
    use std::sync::OnceLock;
    static DEC: OnceLock<std::collections::HashMap<String, u32>> = OnceLock::new();
    static CH: OnceLock<std::collections::HashMap<String, u32>> = OnceLock::new();
    if chance {
        CH.get_or_init(|| {
            (0..NUM_CHANCE)
                .filter_map(|a| chance_text(a).ok().map(|t| (t, a)))
                .collect()
        })
    } else {
        DEC.get_or_init(|| {
            (0..NUM_ACTIONS)
                .filter_map(|a| action_text(a).ok().map(|t| (t, a)))
                .collect()
        })
    }
}

pub fn parse_text(text: &str, chance: bool) -> Result<u32> {
    let folded = fold_white_space(text);
    table(chance).get(&folded).copied().ok_or_else(|| {
        GameError::InvalidNotation(format!("viticulture: cannot read {text:?} as an action"))
    })
}

/// The type word of a card kind (for hidden entries of the information state).
pub fn type_word(k: usize) -> &'static str {
    if k >= KINDS {
        return "vine";
    }
    DECK_NAMES[super::data::deck_of(k)]
}
