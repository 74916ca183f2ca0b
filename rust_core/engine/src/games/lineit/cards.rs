//! The cards of Line-it (docs/rules/lineit.md §2): 100 number cards in four colours and six bet cards.
//!
//! A card *kind* is the id used everywhere: kinds 0..99 are the number cards 1..100, kinds 100, 101, 102 the
//! bet cards +3, +4, +5 (two cards of each). Number cards are kept as bits of a `u128` (bit k = kind k).

/// Card kinds (number cards and the three bet values).
pub const KINDS: usize = 103;
/// The first bet kind (+3).
pub const BET0: u8 = 100;
/// Cards in the game.
pub const DECK_SIZE: u32 = 106;
/// Copies of each bet value.
pub const BET_COPIES: u8 = 2;
/// Every number card, as a bit set.
pub const ALL_NUMBERS: u128 = (1u128 << 100) - 1;

pub const COLOUR_NAMES: [&str; 4] = ["red", "blue", "green", "yellow"];

/// The colour masks of the default rule, colour `(x - 1) mod 4` of number x.
pub const CYCLE_MASKS: [u128; 4] = masks(false);
/// The colour masks of `colour_blocks`, colour `(x - 1) div 25`.
pub const BLOCK_MASKS: [u128; 4] = masks(true);

const fn masks(blocks: bool) -> [u128; 4] {
    let mut out = [0u128; 4];
    let mut k = 0;
    while k < 100 {
        let c = if blocks { k / 25 } else { k % 4 };
        out[c] |= 1u128 << k;
        k += 1;
    }
    out
}

/// Is kind k a bet card?
#[inline]
pub fn is_bet(k: u8) -> bool {
    k >= BET0
}

/// The value (3, 4, 5) of a bet kind.
#[inline]
pub fn bet_value(k: u8) -> u8 {
    k - 97
}

/// The canonical text of a card kind: its number, or `bet3` .. `bet5`.
pub fn card_text(k: u8) -> String {
    if is_bet(k) {
        format!("bet{}", bet_value(k))
    } else {
        format!("{}", k as u32 + 1)
    }
}

/// Read a card text (already folded to lower case): `bet3`..`bet5`, or 1 to 3 ASCII digits worth 1..100.
pub fn parse_card(text: &str) -> Option<u8> {
    match text {
        "bet3" => return Some(100),
        "bet4" => return Some(101),
        "bet5" => return Some(102),
        _ => {}
    }
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: u32 = text.parse().ok()?;
    if (1..=100).contains(&v) {
        Some((v - 1) as u8)
    } else {
        None
    }
}

/// The kinds of the number cards in a bit set, ascending.
pub fn bits(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let k = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(k)
        }
    })
}
