//! The card table of Flip City (docs/rules/flip_city.md §2; sources in shared/rules/facts/flip_family.md §A).
//!
//! Faces have dense ids; the two faces of a card are `2k` (front) and `2k + 1` (back), so flipping is `f ^ 1`.

pub const NUM_FACES: usize = 12;

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

/// What recycling a back face gives (rulebook, "Recycle Abilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recycle {
    None,
    Cash,
    Point,
    Limit,
    ToDeckTop,
}

#[derive(Clone, Copy, Debug)]
pub struct Face {
    pub name: &'static str,
    /// Building cost; `None` for faces that are never in the supply.
    pub cost: Option<u32>,
    pub cash: u32,
    pub points: u32,
    /// Printed unhappiness; the Apartment's comes from a parameter instead.
    pub unhappiness: u32,
    pub flip_fee: Option<u32>,
    pub recycle: Recycle,
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
    }
}

pub static FACES: [Face; NUM_FACES] = [
    face("Residential Area", None, 1, 0, 1, Some(1), Recycle::None),
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
    face("Shopping Mall", None, 2, 1, 0, None, Recycle::Cash),
    face("Central Park", Some(7), 0, 2, 0, Some(5), Recycle::None),
    face("Station", None, 0, 2, 0, None, Recycle::Point),
    face("Hospital", Some(4), 1, 0, 1, Some(4), Recycle::None),
    face("Church", None, 0, 0, 0, None, Recycle::Limit),
    face("Office", Some(3), 1, 0, 0, Some(4), Recycle::None),
    face("Trade Center", None, 0, 0, 0, None, Recycle::Limit),
    face("Factory", Some(5), 2, 0, 0, Some(6), Recycle::None),
    face("Power Plant", None, 1, 2, 0, None, Recycle::ToDeckTop),
];

/// Each seat's starting deck (Preparation 1), as counts per face.
pub const STARTING_DECK: [u8; NUM_FACES] = [4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0];

/// The general supply (Preparation 2), without the Office pile.
pub const SUPPLY: [u8; NUM_FACES] = [0, 0, 12, 0, 8, 0, 12, 0, 0, 0, 8, 0];
pub const OFFICE_SUPPLY: u8 = 10;
/// Solo 1: four of each pile.
pub const SOLO_PILE: u8 = 4;
