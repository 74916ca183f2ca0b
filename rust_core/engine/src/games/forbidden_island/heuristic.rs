//! `heuristic_value` for Forbidden Island: one estimate of the team's chance to win, the same for every seat
//! (the game is co-operative), where a search stops short of the end.
//!
//! It is a chance of surviving the coming draws times a logistic of the team's progress in points.
//! Progress: treasures captured; the cards held toward the others (the most in one hand counts most, since
//! four must meet in one hand; the other holders' distance to that hand; for a hand of four, its pawn's
//! distance to a tile of the treasure); Special Action cards in hand (a Helicopter Lift makes every distance
//! one move); the water level; sunk tiles, and a treasure with one tile left; each flooded tile, by its danger
//! (Fools' Landing and a treasure's last tile lose the game when they sink, a treasure's first tile costs much)
//! and the moves the nearest pawn needs to shore it; after the four captures, the pawns' distance to Fools'
//! Landing and a Helicopter Lift for the liftoff. Survival: for each flooded dangerous tile, the chance that its
//! flood card does not come up within a turn's draws (likely from the top of the flood pile; from the discard
//! after a Waters Rise!), eased by Sandbags in hand, and the same for the dangerous dry tiles a turn's draws may
//! flood. Nothing in it depends on the stage of the turn alone, so that it does not jump at the turn's end.
//!
//! Tuned with greedy one-step play and with `search::Mcts` (docs/rules/forbidden_island.md, "Agents"): the
//! search's random expansion and mean backup make it weaker than the greedy player here, mostly through the
//! windows, whose many Helicopter Lift choices it spreads its visits over.

use super::data::{
    bits, data, ALL, DIVER, EXPLORER, FOOLS_LANDING, HELI, MESSENGER, NONE, PILOT, SANDBAGS, TILES,
    WATERS_RISE,
};
use super::state::{bit, ForbiddenIslandState};
use super::MAX_PLAYERS;

/// The moves seat `seat`'s pawn needs to reach each position, by its role: orthogonal steps onto tiles that are
/// not sunk; the Explorer's diagonal ones too; the Diver through any position of the layout (a move of his
/// crosses flooded and sunk ones); the Pilot one flight. 255 where it cannot.
fn distances(s: &ForbiddenIslandState, seat: usize) -> [u8; TILES] {
    let mut out = [u8::MAX; TILES];
    let from = s.seats[seat].pawn;
    if from == NONE {
        return out;
    }
    let role = s.seats[seat].role;
    let open = s.open();
    if role == PILOT {
        for q in bits(open) {
            out[q] = 1;
        }
        out[from as usize] = 0;
        return out;
    }
    let layout = s.layout();
    let through = if role == DIVER { ALL } else { open };
    let (mut seen, mut frontier) = (bit(from), bit(from));
    let mut d = 0u8;
    while frontier != 0 {
        for q in bits(frontier) {
            out[q] = d;
        }
        let mut next = 0;
        for x in bits(frontier) {
            next |= layout.orth[x];
            if role == EXPLORER {
                next |= layout.diag[x];
            }
        }
        next &= through & !seen;
        seen |= next;
        frontier = next;
        d += 1;
    }
    out
}

/// The fewest moves `map`'s pawn needs to reach a position of `targets` (`None` if it cannot).
fn steps(map: &[u8; TILES], targets: u32) -> Option<u32> {
    bits(targets)
        .map(|q| map[q])
        .min()
        .filter(|&d| d != u8::MAX)
        .map(u32::from)
}

/// The fewest moves any pawn needs to shore position q, from the seats' distance maps.
fn shore_steps(s: &ForbiddenIslandState, maps: &[[u8; TILES]], q: usize) -> u32 {
    let mut best = u8::MAX;
    for (seat, map) in maps.iter().enumerate() {
        for z in bits(shore_zone(s, seat, q)) {
            best = best.min(map[z]);
        }
    }
    if best == u8::MAX {
        7
    } else {
        best as u32
    }
}

/// The positions from which seat `seat` shores position q: q and its orthogonal neighbours (the Explorer's
/// diagonal ones too).
fn shore_zone(s: &ForbiddenIslandState, seat: usize, q: usize) -> u32 {
    let layout = s.layout();
    let mut zone = (1 << q) | layout.orth[q];
    if s.seats[seat].role == EXPLORER {
        zone |= layout.diag[q];
    }
    zone & s.open()
}

/// The chance that the flood card of tile `tb` (a bit) comes up within a turn's draws (two treasure cards,
/// then the level's flood cards) from the piles as they are, whatever the stage: a search compares states
/// before and after draws and across the turn's end, so the estimate must not move with the stage alone.
/// Near certain from the top of the flood pile (unless a Waters Rise! buries it), from the discard if a Waters
/// Rise! puts it on top or the pile runs out; and a little for the turns after. `tb` 0 stands for a card about
/// to reach the discard.
fn draw_risk(s: &ForbiddenIslandState, tb: u32) -> f64 {
    let d = data();
    let pile: u32 = s.pile.iter().map(|&c| c as u32).sum();
    let rises = s.pile[WATERS_RISE] as f64;
    let p_rise = if pile == 0 {
        0.0
    } else {
        1.0 - (1.0 - rises / pile as f64).powi(d.treasure_per_turn as i32)
    };
    let draws = d.flood_cards[(s.level as usize).min(10)] as f64;
    let top = s.top_layer();
    let in_pile: u32 = (0..s.num_layers as usize)
        .map(|l| s.layers[l].count_ones())
        .sum();
    const LATER: f64 = 0.1;
    let discard = s.flood_discard.count_ones() as f64 + if tb == 0 { 1.0 } else { 0.0 };
    if top & tb != 0 {
        // A Waters Rise! first would bury it under the discard.
        (draws / top.count_ones().max(1) as f64).min(1.0) * (1.0 - p_rise) + LATER
    } else if tb == 0 || s.flood_discard & tb != 0 {
        let discard = discard.max(1.0);
        let on_rise = (draws / discard).min(1.0);
        let on_empty = ((draws - in_pile as f64).max(0.0) / discard).min(1.0);
        (p_rise * on_rise + (1.0 - p_rise) * on_empty + LATER).min(1.0)
    } else {
        LATER / 2.0
    }
}

/// The team's progress in points (higher is better), leaving aside the risk of losing at the next draws.
fn progress(s: &ForbiddenIslandState) -> f64 {
    let d = data();
    let n = s.n();
    let mut x = 0.0;
    let all_captured = s.captured == 0xF;
    let messenger = (0..n).any(|seat| s.seats[seat].role == MESSENGER);
    let helis: u32 = (0..n).map(|seat| s.seats[seat].hand[HELI] as u32).sum();
    let sandbags: u32 = (0..n).map(|seat| s.seats[seat].hand[SANDBAGS] as u32).sum();
    // A Helicopter Lift in hand brings any pawn anywhere: a distance is then one move at most (and where a
    // teammate flies it matters less than that the card is spent).
    let moves = |steps: u32| if helis > 0 { steps.min(1) } else { steps };
    let mut maps = [[u8::MAX; TILES]; MAX_PLAYERS];
    for (seat, map) in maps.iter_mut().enumerate().take(n) {
        *map = distances(s, seat);
    }
    let maps = &maps[..n];

    // Treasures, and the cards toward those still to capture: the most in one hand, the others that could join
    // it (better when their holders stand near it), and a hand of four close to a tile of its treasure.
    for t in 0..4 {
        if s.captured >> t & 1 == 1 {
            x += W.captured;
            continue;
        }
        let (mut total, mut best, mut holder) = (0u32, 0u32, 0usize);
        for seat in 0..n {
            let c = s.seats[seat].hand[t] as u32;
            total += c;
            if c > best {
                best = c;
                holder = seat;
            }
        }
        let rest = (total - best).min(4 - best.min(4));
        x += W.best_card * best.min(4) as f64 + W.other_card * rest as f64;
        if best >= 4 {
            let tiles = d.treasure_tiles[t]
                .iter()
                .fold(0, |m, &tile| m | bit(s.pos_of[tile as usize]))
                & s.open();
            let steps = moves(steps(&maps[holder], tiles).unwrap_or(8));
            x += W.ready - W.ready_step * steps.min(6) as f64;
        } else if !messenger {
            // The cards must meet in one hand: the other holders' distance to the best holder.
            let to = bit(s.seats[holder].pawn);
            for seat in 0..n {
                let c = s.seats[seat].hand[t];
                if seat != holder && c > 0 {
                    let steps = moves(steps(&maps[seat], to).unwrap_or(8));
                    x -= W.meet_step * c as f64 * steps.min(8) as f64;
                }
            }
        }
    }

    // Special Action cards in hand.
    // The first of each kind is worth most (a Helicopter Lift is needed to win), so that a search does not
    // spend it idly; the others little more than a treasure card, so that the hand limit keeps treasure cards.
    x += special_worth(helis, W.heli) + special_worth(sandbags, W.sandbags);

    // The water level, the flooded and sunk tiles, and how far the nearest pawn is from each flooded one.
    x -= W.level * (s.level as f64 - 1.0);
    x -= W.sunk * s.sunk.count_ones() as f64;
    for q in bits(s.flooded) {
        let danger = danger(s, q);
        let steps = moves(shore_steps(s, maps, q)).min(6) as f64;
        x -= flooded_cost(danger, steps, draw_risk(s, bit(s.tiles[q])));
    }
    for t in 0..4 {
        if s.captured >> t & 1 == 0 {
            let sunk = d.treasure_tiles[t]
                .iter()
                .filter(|&&tile| bit(s.pos_of[tile as usize]) & s.sunk != 0)
                .count();
            if sunk == 1 {
                x -= W.half_lost;
            }
        }
    }

    // The escape.
    if all_captured {
        let fl = bit(s.pos_of[FOOLS_LANDING as usize]);
        for seat in 0..n {
            let steps = steps(&maps[seat], fl).unwrap_or(8);
            x -= W.escape_step * steps.min(8) as f64;
        }
        if helis > 0 {
            x += W.escape_heli;
        }
    }
    x
}

/// The worth of `count` Special Action cards of one kind in the team's hands.
fn special_worth(count: u32, first: f64) -> f64 {
    if count == 0 {
        0.0
    } else {
        first + W.extra_special * (count - 1) as f64
    }
}

/// The cost in points of a flooded tile of `danger` that the nearest pawn can shore after `steps` moves, its
/// card coming up with chance `risk`.
fn flooded_cost(danger: f64, steps: f64, risk: f64) -> f64 {
    (W.flooded + danger) * (1.0 + W.flooded_step * steps) + W.rescue_step * danger * risk * steps
}

/// The weights of `progress`, in points.
struct Weights {
    captured: f64,
    best_card: f64,
    other_card: f64,
    ready: f64,
    ready_step: f64,
    meet_step: f64,
    heli: f64,
    sandbags: f64,
    extra_special: f64,
    level: f64,
    sunk: f64,
    flooded: f64,
    flooded_step: f64,
    rescue_step: f64,
    half_lost: f64,
    escape_step: f64,
    escape_heli: f64,
}

const W: Weights = Weights {
    captured: 8.0,
    best_card: 0.7,
    other_card: 0.4,
    ready: 2.0,
    ready_step: 0.3,
    meet_step: 0.06,
    heli: 0.2,
    sandbags: 0.2,
    extra_special: 0.2,
    level: 0.6,
    sunk: 0.4,
    flooded: 0.15,
    flooded_step: 0.3,
    rescue_step: 4.0,
    half_lost: 2.0,
    escape_step: 0.5,
    escape_heli: 2.0,
};

/// How much the sinking of flooded position q weighs: 1 for Fools' Landing and the last tile of a treasure (the
/// game is lost), a third for the first tile of a treasure, a little for a tile a pawn stands on, else 0.
fn danger(s: &ForbiddenIslandState, q: usize) -> f64 {
    let d = data();
    let tile = s.tiles[q];
    if tile as usize >= TILES {
        return 0.0;
    }
    let treasure = d.tile_treasure[tile as usize] as usize;
    if tile == FOOLS_LANDING {
        1.0
    } else if treasure < 4 && s.captured >> treasure & 1 == 0 {
        let [a, b] = d.treasure_tiles[treasure];
        let other = if a == tile { b } else { a };
        if bit(s.pos_of[other as usize]) & s.sunk != 0 {
            1.0
        } else {
            0.35
        }
    } else if (0..s.n()).any(|seat| s.seats[seat].pawn as usize == q) {
        0.05
    } else {
        0.0
    }
}

/// A turn's flood draws at this level, and the set of tiles they come from (the top layer, or the whole pile
/// when the top layer is short).
fn pending_flood(s: &ForbiddenIslandState) -> (f64, u32) {
    let draws = data().flood_cards[(s.level as usize).min(10)] as f64;
    let top = s.top_layer();
    let source = if (top.count_ones() as f64) < draws {
        (0..s.num_layers as usize).fold(0, |m, l| m | s.layers[l])
    } else {
        top
    };
    (draws, source)
}

/// The part of `survival` a turn's flood draws are expected to add: a dangerous dry tile they flood is then at
/// risk like a flooded one (its card on its way to the discard).
fn pending_flood_survival(s: &ForbiddenIslandState) -> f64 {
    let (draws, source) = pending_flood(s);
    let size = source.count_ones();
    if draws == 0.0 || size == 0 {
        return 1.0;
    }
    let chance = draws.min(size as f64) / size as f64;
    let risk = draw_risk(s, 0);
    let mut p = 1.0;
    for tile in bits(source) {
        let q = s.pos_of[tile];
        if q != NONE && s.flooded & bit(q) == 0 {
            p *= 1.0 - chance * danger(s, q as usize) * risk;
        }
    }
    p
}

/// The chance of getting past the next flood draws: for each flooded tile, one less its danger times the
/// chance that its card comes up; the most endangered tiles count a fifth as much while the team holds a
/// Sandbags for each (it can be played in a window before the card comes up).
fn survival(s: &ForbiddenIslandState) -> f64 {
    let n = s.n();
    let mut sandbags: u32 = (0..n).map(|seat| s.seats[seat].hand[SANDBAGS] as u32).sum();
    let mut losses = [0f64; TILES];
    let mut k = 0;
    for q in bits(s.flooded) {
        let tile = s.tiles[q];
        if tile as usize >= TILES {
            continue;
        }
        losses[k] = danger(s, q) * draw_risk(s, bit(tile));
        k += 1;
    }
    let losses = &mut losses[..k];
    losses.sort_by(|a, b| b.total_cmp(a));
    let mut p = pending_flood_survival(s);
    for &loss in losses.iter() {
        let loss = if sandbags > 0 && loss > 0.0 {
            sandbags -= 1;
            loss / 5.0
        } else {
            loss
        };
        p *= 1.0 - loss;
    }
    p
}

/// A value in 0..1 (a win is 1, a loss 0).
pub fn value(s: &ForbiddenIslandState) -> f64 {
    let x = progress(s);
    survival(s) / (1.0 + (-(x - 8.0) / 6.0).exp())
}
