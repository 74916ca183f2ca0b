//! Action ids and their canonical text (docs/rules/flip_city.md §5, docs/rules/flip_city_wilderness.md §5).
//! The ids are formulas in the number of faces `F`, so the base layout keeps its 78 ids and the family
//! layout has 151. Writers are canonical; the reader is relaxed about case and spacing.

use super::cards::FACES;
use super::state::FlipState;
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result, State};

pub const PLAY: u32 = 0;
pub const STOP: u32 = 1;
pub const END: u32 = 2;
pub const SHUFFLE: u32 = 3;
pub const MAX_ASIDE: u32 = 10;
/// The first id that depends on the number of faces.
pub const RECYCLE: u32 = SHUFFLE + MAX_ASIDE + 1;

impl<const F: usize, const CAP: usize> FlipState<F, CAP> {
    /// The family layout has the Wilderness actions `select` and `excavate`.
    pub const FAMILY: bool = F > super::cards::BASE_FACES;
    pub const PLAY: u32 = PLAY;
    pub const STOP: u32 = STOP;
    pub const END: u32 = END;
    pub const SHUFFLE: u32 = SHUFFLE;
    pub const RECYCLE: u32 = RECYCLE;
    pub const BUY: u32 = Self::RECYCLE + F as u32;
    pub const DEVELOP: u32 = Self::BUY + F as u32;
    pub const FLIP: u32 = Self::DEVELOP + F as u32;
    pub const TARGET: u32 = Self::FLIP + F as u32;
    pub const REMOVE: u32 = Self::TARGET + super::MAX_PLAYERS as u32;
    pub const SELECT: u32 = Self::REMOVE + F as u32;
    pub const EXCAVATE: u32 = Self::SELECT + F as u32;
    pub const NUM_ACTIONS: u32 = if Self::FAMILY {
        Self::EXCAVATE + 1
    } else {
        Self::SELECT
    };

    fn face_verbs() -> [(&'static str, u32); 6] {
        [
            ("recycle", Self::RECYCLE),
            ("buy", Self::BUY),
            ("develop", Self::DEVELOP),
            ("flip", Self::FLIP),
            ("remove", Self::REMOVE),
            ("select", Self::SELECT),
        ]
    }
}

pub fn action_to_string<const F: usize, const CAP: usize>(
    state: &FlipState<F, CAP>,
    action: u32,
) -> Result<String> {
    type S<const F: usize, const CAP: usize> = FlipState<F, CAP>;
    if state.is_chance_node() {
        let face = FACES[..F]
            .get(action as usize)
            .ok_or_else(|| out_of_range(action, F as u32))?;
        let kind = if state.chance_is_bottom() {
            "bottom"
        } else {
            "reveal"
        };
        return Ok(format!("{kind} {}", face.name));
    }
    Ok(match action {
        PLAY => "play".into(),
        STOP => "stop".into(),
        END => "end".into(),
        SHUFFLE => "shuffle".into(),
        a if a < S::<F, CAP>::RECYCLE => format!("shuffle aside {}", a - S::<F, CAP>::SHUFFLE),
        a if (S::<F, CAP>::TARGET..S::<F, CAP>::REMOVE).contains(&a) => {
            format!("target {}", a - S::<F, CAP>::TARGET)
        }
        a if S::<F, CAP>::FAMILY && a == S::<F, CAP>::EXCAVATE => "excavate".into(),
        a if a < S::<F, CAP>::NUM_ACTIONS => {
            let (verb, base) = S::<F, CAP>::face_verbs()
                .iter()
                .rev()
                .find(|(_, base)| a >= *base)
                .copied()
                .unwrap_or(("", 0));
            format!("{verb} {}", FACES[(a - base) as usize].name)
        }
        a => return Err(out_of_range(a, S::<F, CAP>::NUM_ACTIONS)),
    })
}

/// ASCII lower case, apostrophes dropped, runs of white space folded to one space.
fn normalise(text: &str) -> String {
    fold_white_space(text).replace(['\'', '\u{2019}'], "")
}

fn face_by_name<const F: usize>(name: &str) -> Option<u32> {
    FACES[..F]
        .iter()
        .position(|f| normalise(f.name) == name)
        .map(|i| i as u32)
}

pub fn string_to_action<const F: usize, const CAP: usize>(
    state: &FlipState<F, CAP>,
    text: &str,
) -> Result<u32> {
    type S<const F: usize, const CAP: usize> = FlipState<F, CAP>;
    let t = normalise(text);
    let game = state.rules.id();
    let bad = || GameError::InvalidNotation(format!("not a {game} action here: {text:?}"));
    if state.is_chance_node() {
        let name = t
            .strip_prefix("reveal ")
            .or_else(|| t.strip_prefix("bottom "))
            .unwrap_or(&t);
        return face_by_name::<F>(name).ok_or_else(bad);
    }
    match t.as_str() {
        "play" => return Ok(S::<F, CAP>::PLAY),
        "stop" => return Ok(S::<F, CAP>::STOP),
        "end" => return Ok(S::<F, CAP>::END),
        "shuffle" => return Ok(S::<F, CAP>::SHUFFLE),
        "excavate" if S::<F, CAP>::FAMILY => return Ok(S::<F, CAP>::EXCAVATE),
        _ => {}
    }
    if let Some(k) = t.strip_prefix("shuffle aside ") {
        return match k.parse::<u32>() {
            Ok(k) if k <= MAX_ASIDE => Ok(S::<F, CAP>::SHUFFLE + k),
            _ => Err(bad()),
        };
    }
    if let Some(seat) = t.strip_prefix("target ") {
        return match seat.parse::<u32>() {
            Ok(s) if (s as usize) < super::MAX_PLAYERS => Ok(S::<F, CAP>::TARGET + s),
            _ => Err(bad()),
        };
    }
    let (verb, rest) = t.split_once(' ').ok_or_else(bad)?;
    let base = S::<F, CAP>::face_verbs()
        .iter()
        .filter(|(v, _)| S::<F, CAP>::FAMILY || *v != "select")
        .find(|(v, _)| *v == verb)
        .map(|(_, b)| *b)
        .ok_or_else(bad)?;
    face_by_name::<F>(rest).map(|f| base + f).ok_or_else(bad)
}
