//! `resample_from_infostate` (docs/rules/flipology.md §9): a state consistent with what seat p knows, drawn
//! with the right probabilities, consuming the generator exactly as the contract says so that both engines
//! draw the same state.
//!
//! The contract defines the result as the state reached by replaying a rewritten history. The trait method gets
//! no history, so the replay is emulated on the state itself: every record keeps its place and knowledge (all
//! events after a placement are positional), identities are substituted, and the placements of each other
//! seat are replayed from the records' `origin` (a `place c'` takes the copy of c' with the lowest draw number,
//! which can move draw numbers between same-identity cards of one hand). `rewrite_history` gives the rewritten
//! history itself, and the tests check that replaying it reaches the same state.

use super::cards::{CLEARING, NUM_CARDS};
use super::notation::{MIMIC, PLACE};
use super::state::{FlipologyState, Phase, LEFTOVER};
use super::NATURE_VARIANT;
use crate::{Rng, State};

/// Far more rejection rounds than any consistent state needs (each is accepted with probability num/den, and
/// the true deal always has num > 0); reaching it means the state is inconsistent, and the resample gives up.
const MAX_ATTEMPTS: u32 = 1_000_000;
/// `ident` of a draw outside the resampled deal.
const UNSET: u8 = u8::MAX;

/// Where a record of the deal is.
#[derive(Clone, Copy)]
enum Loc {
    Hand(usize, usize),
    Row(usize),
    Discard(usize),
}

#[derive(Clone, Copy)]
struct Ref {
    draw: u16,
    card: u8,
    known: bool,
    loc: Loc,
}

pub struct Resampled {
    pub state: FlipologyState,
    /// The first draw number of the resampled deal.
    pub deal_start: u16,
    /// The new identity of every draw of the deal (index `draw - deal_start`): what the rewritten history deals.
    pub ident: Vec<u8>,
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// `t_r`: the draw number of the first card of round r's redeal in the Great Tree.
fn redeal_start(s: &FlipologyState, r: i8) -> u16 {
    let n = s.n() as u16;
    let earlier = s.regrown[..s.n()]
        .iter()
        .filter(|&&g| g >= 0 && g < r)
        .count() as u16;
    5 * n * (r as u16 + 1) + 5 * earlier
}

fn deal_start(s: &FlipologyState) -> u16 {
    if s.rules.variant == NATURE_VARIANT {
        9 * s.n() as u16 * s.round as u16
    } else {
        0
    }
}

fn records(s: &FlipologyState, p: usize) -> Vec<Ref> {
    let bit = 1u8 << p;
    let mut out = Vec::with_capacity(64);
    for seat in 0..s.n() {
        for (i, h) in s.hand(seat).iter().enumerate() {
            out.push(Ref {
                draw: s.draw_number(h.draw),
                card: h.card,
                known: seat == p,
                loc: Loc::Hand(seat, i),
            });
        }
    }
    for pos in 0..s.positions() {
        let r = &s.rows[pos];
        if r.is_present() && r.card != CLEARING {
            out.push(Ref {
                draw: s.draw_number(r.draw),
                card: r.card,
                known: r.known & bit != 0,
                loc: Loc::Row(pos),
            });
        }
    }
    for (i, r) in s.discards().iter().enumerate() {
        if r.card != CLEARING {
            out.push(Ref {
                draw: s.draw_number(r.draw),
                card: r.card,
                known: r.known & bit != 0,
                loc: Loc::Discard(i),
            });
        }
    }
    out
}

/// Steps 1-6 of §9. `None` only for a state that is not consistent (a seat out of range, an impossible count).
pub fn resample(s: &FlipologyState, p: usize, rng: &mut Rng) -> Option<Resampled> {
    let n = s.n();
    if p >= n {
        return None;
    }
    let ds = deal_start(s);
    let span = s.draws.checked_sub(ds)? as usize;
    let refs = records(s, p);
    if refs
        .iter()
        .any(|r| r.draw < ds || r.draw as usize >= ds as usize + span)
    {
        return None;
    }

    // Step 2: the unknown records (by draw number) and the unknown identities.
    let mut unknown: Vec<Ref> = refs.iter().copied().filter(|r| !r.known).collect();
    unknown.sort_unstable_by_key(|r| r.draw);
    let mut remaining = s.rules.deck();
    for r in refs.iter().filter(|r| r.known) {
        let c = remaining.get_mut(r.card as usize)?;
        *c = c.checked_sub(1)?;
    }
    let mut m: Vec<u8> = Vec::with_capacity(80);
    for (c, &count) in remaining.iter().enumerate() {
        m.extend(std::iter::repeat_n(c as u8, count as usize));
    }
    let pile_size = s.pile_size() as usize;
    if m.len() != unknown.len() + pile_size {
        return None;
    }

    // Step 3: the Regrowth constraint, when p gave a hand back in this deal.
    let mut h = [0u64; NUM_CARDS];
    let constraint = s.rules.great_tree() && s.regrown[p] >= 0 && s.returned_len[p] > 0;
    let (mut t, mut ks, mut den) = (0u16, [0u64; NUM_CARDS], 1u64);
    if constraint {
        t = redeal_start(s, s.regrown[p]);
        for hc in s.returned_hand(p) {
            h[hc.card as usize] += 1;
        }
        for r in refs.iter().filter(|r| r.known && r.draw >= t) {
            ks[r.card as usize] += 1;
        }
        let n_slots = unknown.iter().filter(|r| r.draw >= t).count() + pile_size;
        for c in 0..NUM_CARDS {
            if h[c] > 0 {
                den *= binomial(ks[c] + (remaining[c] as u64).min(n_slots as u64), h[c]);
            }
        }
        if den == 0 {
            return None;
        }
    }

    // Step 4: shuffle until accepted.
    let mut perm = m.clone();
    let mut attempts = 0;
    loop {
        perm.copy_from_slice(&m);
        for i in (1..perm.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            perm.swap(i, j);
        }
        if !constraint {
            break;
        }
        let mut sc = ks;
        for (k, &c) in perm.iter().enumerate() {
            if k >= unknown.len() || unknown[k].draw >= t {
                sc[c as usize] += 1;
            }
        }
        let num: u64 = (0..NUM_CARDS)
            .filter(|&c| h[c] > 0)
            .map(|c| binomial(sc[c], h[c]))
            .product();
        if rng.below(den) < num {
            break;
        }
        attempts += 1;
        if attempts >= MAX_ATTEMPTS {
            return None;
        }
    }

    let mut ident = vec![UNSET; span];
    for r in refs.iter().filter(|r| r.known) {
        ident[(r.draw - ds) as usize] = r.card;
    }
    for (r, &c) in unknown.iter().zip(&perm) {
        ident[(r.draw - ds) as usize] = c;
    }
    let mut pile = [0u8; NUM_CARDS];
    for &c in &perm[unknown.len()..] {
        pile[c as usize] += 1;
    }
    let mut out = *s;
    out.pile = pile;

    // Step 5: the other seats' given-back hands (the Great Tree).
    if s.rules.great_tree() {
        for hc in s.returned_hand(p) {
            *ident.get_mut(s.draw_number(hc.draw).checked_sub(ds)? as usize)? = hc.card;
        }
        for r in 0..3i8 {
            let givers: Vec<usize> = (0..n)
                .filter(|&q| q != p && s.regrown[q] == r && s.returned_len[q] > 0)
                .collect();
            if givers.is_empty() {
                continue;
            }
            let tr = redeal_start(s, r);
            let mut pool = [0u32; NUM_CARDS];
            for rf in refs.iter().filter(|rf| rf.draw >= tr) {
                pool[ident[(rf.draw - ds) as usize] as usize] += 1;
            }
            for c in 0..NUM_CARDS {
                pool[c] += pile[c] as u32;
            }
            if s.regrown[p] == r {
                for hc in s.returned_hand(p) {
                    let c = &mut pool[hc.card as usize];
                    *c = c.checked_sub(1)?;
                }
            }
            for q in givers {
                for i in 0..s.returned_len[q] as usize {
                    let size: u32 = pool.iter().sum();
                    if size == 0 {
                        return None;
                    }
                    let x = rng.below(size as u64) as u32;
                    let mut running = 0;
                    let c = (0..NUM_CARDS).find(|&c| {
                        running += pool[c];
                        running > x
                    })?;
                    pool[c] -= 1;
                    let draw = s.draw_number(s.returned[q][i].draw);
                    out.returned[q][i].card = c as u8;
                    *ident.get_mut(draw.checked_sub(ds)? as usize)? = c as u8;
                }
            }
        }
    }
    if ident.contains(&UNSET) {
        return None;
    }

    // Step 6: replay each other seat's placements under the new identities (which copy each `place` takes).
    let mut moved: Vec<u16> = (0..span as u16).map(|i| i + ds).collect();
    let rounds = if s.rules.great_tree() {
        0..=s.round as usize
    } else {
        s.round as usize..=s.round as usize
    };
    for q in (0..n).filter(|&q| q != p) {
        for round in rounds.clone() {
            replay_placements(s, &refs, q, round, ds, &ident, &mut moved)?;
        }
    }
    for rf in &refs {
        let draw = moved[(rf.draw - ds) as usize];
        let card = ident[(draw - ds) as usize];
        let local = s.local_draw(draw);
        match rf.loc {
            Loc::Hand(seat, i) => {
                out.hands[seat][i].card = card;
                out.hands[seat][i].draw = local;
            }
            Loc::Row(pos) => {
                out.rows[pos].card = card;
                out.rows[pos].draw = local;
            }
            Loc::Discard(i) => {
                out.discard[i].card = card;
                out.discard[i].draw = local;
            }
        }
    }
    Some(Resampled {
        state: out,
        deal_start: ds,
        ident,
    })
}

/// Seat q's hand of one round: which record each `place` of the rewritten history takes (the copy of the
/// identity with the lowest draw number), recorded as `moved[old draw] = new draw`.
fn replay_placements(
    s: &FlipologyState,
    refs: &[Ref],
    q: usize,
    round: usize,
    ds: u16,
    ident: &[u8],
    moved: &mut [u16],
) -> Option<()> {
    let gt = s.rules.great_tree();
    let base = s.rules.slots() * q + if gt { 5 * round } else { 0 };
    let row_len = s.rules.row_len();
    let mut placed: Vec<(usize, u16)> = Vec::with_capacity(row_len);
    let mut others: Vec<u16> = Vec::with_capacity(9);
    for rf in refs {
        let origin = match rf.loc {
            Loc::Row(pos) => s.rows[pos].origin as usize,
            Loc::Discard(i) => s.discard[i].origin as usize,
            Loc::Hand(seat, _) => {
                let current_round = !gt || round == s.round as usize;
                if seat == q && current_round && s.phase != Phase::Regrow {
                    others.push(rf.draw);
                }
                continue;
            }
        };
        if (base..base + row_len).contains(&origin) {
            placed.push((origin - base, rf.draw));
        } else if !gt && origin == (LEFTOVER as usize + q) {
            others.push(rf.draw);
        }
    }
    if placed.is_empty() {
        return Some(());
    }
    placed.sort_unstable();
    let mut hand: Vec<u16> = placed
        .iter()
        .map(|&(_, d)| d)
        .chain(others.iter().copied())
        .collect();
    hand.sort_unstable();
    for &(_, d) in &placed {
        let c = ident[(d - ds) as usize];
        let i = hand.iter().position(|&e| ident[(e - ds) as usize] == c)?;
        moved[(d - ds) as usize] = hand.remove(i);
    }
    others.sort_unstable();
    for (&old, &new) in others.iter().zip(&hand) {
        moved[(old - ds) as usize] = new;
    }
    Some(())
}

/// §9 step 6 written out: the history whose replay is the resampled state. Chance draws of the deal deal their
/// new identities; another seat's `place c` of the deal places the new identity of the record it placed.
pub fn rewrite_history(s: &FlipologyState, p: usize, history: &[u32], res: &Resampled) -> Vec<u32> {
    let mut state = FlipologyState::new(s.rules);
    let in_deal = |st: &FlipologyState| s.rules.variant != NATURE_VARIANT || st.round == s.round;
    let new_id = |draw: u16| -> Option<u32> {
        let i = draw.checked_sub(res.deal_start)? as usize;
        res.ident.get(i).filter(|&&c| c != UNSET).map(|&c| c as u32)
    };
    let mut out = Vec::with_capacity(history.len());
    for &action in history {
        let mut new = action;
        if state.is_chance_node() && in_deal(&state) {
            new = new_id(state.draws).unwrap_or(action);
        } else if state.phase == Phase::Arrange
            && state.current as usize != p
            && in_deal(&state)
            && (PLACE..MIMIC).contains(&action)
        {
            let seat = state.current as usize;
            if let Some(h) = state
                .hand(seat)
                .iter()
                .find(|h| h.card as u32 == action - PLACE)
            {
                new = new_id(state.draw_number(h.draw)).map_or(action, |c| PLACE + c);
            }
        }
        state.apply_unchecked(action);
        out.push(new);
    }
    out
}

/// The resampled state together with its history (§9 step 6): `State::resample_with_history` for Flipology.
pub fn resample_with_history(
    state: &FlipologyState,
    player: usize,
    history: &[u32],
    rng: &mut Rng,
) -> (FlipologyState, Vec<u32>) {
    match resample(state, player, rng) {
        Some(res) => {
            let rewritten = rewrite_history(state, player, history, &res);
            (res.state, rewritten)
        }
        None => (*state, history.to_vec()),
    }
}
