//! The Flipology card table (docs/rules/flipology.md §2; sources in shared/rules/facts/flip_family.md §C).
//!
//! The rulebook fixes only the totals (76 dealable cards, six gold uniques, one Rain, one Moon) and the printed
//! values; the number of copies of each animal is the facts file's proposal (status P). It is data, kept in this
//! one table, and the tests check only the rulebook's totals against it.

/// Dealable card ids are 0..29; id 30 is the Clearing, which is never dealt.
pub const NUM_CARDS: usize = 30;
/// Card ids with the Clearing: the width of the identity one-hot and of the hand and discard counts.
pub const NUM_IDS: usize = 31;

pub const DOG5: u8 = 0;
pub const CAT4: u8 = 2;
pub const RAIN: u8 = 26;
pub const MOON: u8 = 29;
pub const CLEARING: u8 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Dog,
    Cat,
    Sloth,
    Frog,
    Snake,
    Monkey,
    Hawk,
    Mole,
    Parrot,
    Hunter,
    Gold,
    Rain,
    Sun,
    Wind,
    Moon,
    Clearing,
}

impl Kind {
    /// Kinds whose effect starts when the card is turned face up (§2 "Kinds with an active effect").
    pub const fn active(self) -> bool {
        matches!(
            self,
            Kind::Dog
                | Kind::Snake
                | Kind::Frog
                | Kind::Monkey
                | Kind::Hawk
                | Kind::Mole
                | Kind::Parrot
                | Kind::Hunter
                | Kind::Rain
                | Kind::Sun
                | Kind::Wind
        )
    }

    /// Animals, for the tiebreak's "types of animals" (interpretation 4): not the Hunter (a person), not the
    /// environment cards, not the Clearing.
    pub const fn animal(self) -> bool {
        matches!(
            self,
            Kind::Dog
                | Kind::Cat
                | Kind::Sloth
                | Kind::Frog
                | Kind::Snake
                | Kind::Monkey
                | Kind::Hawk
                | Kind::Mole
                | Kind::Parrot
                | Kind::Gold
        )
    }

    /// The Parrot's mimic index k (action `90 + k`), for the kinds it may mimic (interpretation 12).
    pub const fn mimic_index(self) -> Option<usize> {
        match self {
            Kind::Dog => Some(0),
            Kind::Snake => Some(1),
            Kind::Frog => Some(2),
            Kind::Monkey => Some(3),
            Kind::Hawk => Some(4),
            Kind::Mole => Some(5),
            Kind::Hunter => Some(6),
            _ => None,
        }
    }
}

/// The kinds a Parrot can mimic, by mimic index, with their notation names.
pub const MIMIC_KINDS: [(Kind, &str); 7] = [
    (Kind::Dog, "Dog"),
    (Kind::Snake, "Snake"),
    (Kind::Frog, "Frog"),
    (Kind::Monkey, "Monkey"),
    (Kind::Hawk, "Hawk"),
    (Kind::Mole, "Mole"),
    (Kind::Hunter, "Hunter"),
];

#[derive(Clone, Copy, Debug)]
pub struct Card {
    /// The notation name (§2), e.g. `Dog 5`.
    pub name: &'static str,
    pub kind: Kind,
    pub value: i32,
    /// Copies in the 76-card deck (the Clearing's 6 are a component limit, never dealt).
    pub copies: u8,
}

const fn card(name: &'static str, kind: Kind, value: i32, copies: u8) -> Card {
    Card {
        name,
        kind,
        value,
        copies,
    }
}

/// Indexed by card id. Values are printed (status S); copies are the proposal (status P), split evenly over each
/// printed value; the gold names other than the Quokka and the gold split 8, 8, 8, 9, 9, 9 are placeholders.
pub static CARDS: [Card; NUM_IDS] = [
    card("Dog 5", Kind::Dog, 5, 5),
    card("Dog 6", Kind::Dog, 6, 5),
    card("Cat 4", Kind::Cat, 4, 3),
    card("Cat 5", Kind::Cat, 5, 3),
    card("Cat 6", Kind::Cat, 6, 3),
    card("Sloth 6", Kind::Sloth, 6, 3),
    card("Sloth 7", Kind::Sloth, 7, 3),
    card("Sloth 8", Kind::Sloth, 8, 3),
    card("Frog 4", Kind::Frog, 4, 4),
    card("Frog 5", Kind::Frog, 5, 4),
    card("Snake 3", Kind::Snake, 3, 3),
    card("Snake 4", Kind::Snake, 4, 3),
    card("Monkey 2", Kind::Monkey, 2, 3),
    card("Monkey 3", Kind::Monkey, 3, 3),
    card("Hawk 3", Kind::Hawk, 3, 3),
    card("Hawk 4", Kind::Hawk, 4, 3),
    card("Mole 1", Kind::Mole, 1, 3),
    card("Mole 2", Kind::Mole, 2, 3),
    card("Parrot 4", Kind::Parrot, 4, 4),
    card("Hunter 2", Kind::Hunter, 2, 2),
    card("Quokka 8", Kind::Gold, 8, 1),
    card("GoldB 8", Kind::Gold, 8, 1),
    card("GoldC 8", Kind::Gold, 8, 1),
    card("GoldD 9", Kind::Gold, 9, 1),
    card("GoldE 9", Kind::Gold, 9, 1),
    card("GoldF 9", Kind::Gold, 9, 1),
    card("Rain 3", Kind::Rain, 3, 1),
    card("Sun 3", Kind::Sun, 3, 1),
    card("Wind 3", Kind::Wind, 3, 1),
    card("Moon 7", Kind::Moon, 7, 1),
    card("Clearing 0", Kind::Clearing, 0, 6),
];

/// The kind of a card id; anything out of range reads as a Clearing (no effect, no value), so that a bad id
/// can never index out of bounds.
#[inline]
pub fn kind(card: u8) -> Kind {
    match CARDS.get(card as usize) {
        Some(c) => c.kind,
        None => Kind::Clearing,
    }
}

#[inline]
pub fn value(card: u8) -> i32 {
    CARDS.get(card as usize).map_or(0, |c| c.value)
}

/// What a record scores in its row at the end (§6): a Sloth its value face down and minus it face up, any other
/// card its value face up and nothing face down.
#[inline]
pub fn score(card: u8, up: bool) -> i32 {
    match (kind(card), up) {
        (Kind::Sloth, true) => -value(card),
        (Kind::Sloth, false) => value(card),
        (_, true) => value(card),
        (_, false) => 0,
    }
}
