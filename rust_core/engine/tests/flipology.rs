//! Flipology (docs/rules/flipology.md): the rulebook's worked examples, the card totals the rulebook fixes, and
//! invariants over many seeded random games of every variant, hidden information above all.

use meeplex_engine::games::flipology::cards::{Kind, CARDS, NUM_CARDS};
use meeplex_engine::games::flipology::{FlipologyGame, FlipologyState, Phase, Step};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State, CHANCE, TERMINAL};

const DOG5: u32 = 0;
const DOG6: u32 = 1;
const CAT4: u32 = 2;
const CAT5: u32 = 3;
const CAT6: u32 = 4;
const SLOTH6: u32 = 5;
const SLOTH7: u32 = 6;
const SLOTH8: u32 = 7;
const FROG4: u32 = 8;
const FROG5: u32 = 9;
const SNAKE3: u32 = 10;
const MONKEY2: u32 = 12;
const HAWK3: u32 = 14;
const MOLE1: u32 = 16;
const MOLE2: u32 = 17;
const PARROT: u32 = 18;
const QUOKKA: u32 = 20;
const GOLDB: u32 = 21;
const GOLDC: u32 = 22;
const GOLDD: u32 = 23;
const GOLDE: u32 = 24;
const GOLDF: u32 = 25;

const PLACE: u32 = 60;
const MIMIC_DOG: u32 = 90;
const MIMIC_FROG: u32 = 92;
const MIMIC_HAWK: u32 = 94;
const KEEP: u32 = 97;

fn game(params: &[(&str, ParamValue)]) -> FlipologyGame {
    let mut p = Params::new();
    for (k, v) in params {
        p.insert(k.to_string(), v.clone());
    }
    FlipologyGame::new(&p).expect("valid parameters")
}

fn int(v: i64) -> ParamValue {
    ParamValue::Int(v)
}

/// A state with its history, applying actions with legality checks.
struct Play {
    state: FlipologyState,
    history: Vec<u32>,
}

impl Play {
    fn new(game: &FlipologyGame) -> Self {
        Play {
            state: game.new_initial_state(),
            history: Vec::new(),
        }
    }
    fn act(&mut self, actions: &[u32]) {
        for &a in actions {
            let before = self.state;
            self.state
                .apply_action(a)
                .unwrap_or_else(|e| panic!("{a} refused after {:?}: {e}", self.history));
            assert_ne!(before, self.state);
            self.history.push(a);
        }
    }
    fn legal(&self) -> Vec<u32> {
        let mut v = Vec::new();
        self.state.legal_actions(&mut v);
        v
    }
    fn up(&self, pos: u32) -> bool {
        self.state.is_up(pos as usize)
    }
    fn card(&self, pos: u32) -> u32 {
        self.state.rows[pos as usize].card as u32
    }
}

fn p(seat: u32, column: u32) -> u32 {
    7 * seat + column
}

fn g(seat: u32, tier: u32, column: u32) -> u32 {
    15 * seat + 5 * tier + column
}

/// Cards of the deck left after `used`, lowest ids first: the discards of a scenario, whose identity is moot.
fn spares(deck: &[u8; NUM_CARDS], used: &[u32], count: usize) -> Vec<u32> {
    let mut left = *deck;
    for &c in used {
        left[c as usize] -= 1;
    }
    let mut out = Vec::new();
    for (c, copies) in left.iter_mut().enumerate() {
        while *copies > 0 && out.len() < count {
            *copies -= 1;
            out.push(c as u32);
        }
    }
    out
}

/// A Nature game after the deal and the arrangement: seat s's row is `rows[s]`.
fn nature(rows: &[[u32; 7]], discards: Option<&[[u32; 2]]>, extra: &[(&str, ParamValue)]) -> Play {
    let mut params = vec![("players", int(rows.len() as i64))];
    params.extend(extra.iter().cloned());
    let game = game(&params);
    let mut play = Play::new(&game);
    let used: Vec<u32> = rows.iter().flatten().copied().collect();
    let spare = spares(&game.rules().deck(), &used, 2 * rows.len());
    for (s, row) in rows.iter().enumerate() {
        play.act(row);
        match discards {
            Some(d) => play.act(&d[s]),
            None => play.act(&spare[2 * s..2 * s + 2]),
        }
    }
    for row in rows {
        let places: Vec<u32> = row.iter().map(|c| PLACE + c).collect();
        play.act(&places);
    }
    assert_eq!(play.state.current_player(), 0);
    assert_eq!(play.state.step, Step::Flip);
    play
}

const PLAIN_B: [u32; 7] = [SLOTH6, SLOTH7, SLOTH8, SLOTH6, SLOTH7, SLOTH8, GOLDF];

// --- the card data (§2): only the rulebook's totals are facts -------------------------------------------------

#[test]
fn card_table_matches_the_rulebook_totals() {
    let dealable: u32 = CARDS[..NUM_CARDS].iter().map(|c| c.copies as u32).sum();
    assert_eq!(dealable, 76, "76 animal and environment cards");
    assert_eq!(CARDS[30].kind, Kind::Clearing);
    assert_eq!(dealable + CARDS[30].copies as u32, 82, "82 cards in total");
    let gold: Vec<_> = CARDS.iter().filter(|c| c.kind == Kind::Gold).collect();
    assert_eq!(gold.len(), 6, "six gold-bordered unique animals");
    assert!(gold
        .iter()
        .all(|c| c.copies == 1 && (c.value == 8 || c.value == 9)));
    assert!(gold.iter().any(|c| c.name == "Quokka 8"));
    for (kind, count) in [(Kind::Rain, 1), (Kind::Moon, 1)] {
        let n: u32 = CARDS
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.copies as u32)
            .sum();
        assert_eq!(n, count);
    }
    let printed: &[(Kind, &[i32])] = &[
        (Kind::Dog, &[5, 6]),
        (Kind::Cat, &[4, 5, 6]),
        (Kind::Sloth, &[6, 7, 8]),
        (Kind::Frog, &[4, 5]),
        (Kind::Snake, &[3, 4]),
        (Kind::Monkey, &[2, 3]),
        (Kind::Hawk, &[3, 4]),
        (Kind::Mole, &[1, 2]),
        (Kind::Parrot, &[4]),
        (Kind::Hunter, &[2]),
        (Kind::Rain, &[3]),
        (Kind::Sun, &[3]),
        (Kind::Wind, &[3]),
        (Kind::Moon, &[7]),
    ];
    for c in CARDS.iter() {
        if let Some((_, values)) = printed.iter().find(|(k, _)| *k == c.kind) {
            assert!(values.contains(&c.value), "{} has no printed value", c.name);
        }
    }
    // "two different types of frog" (the tiebreak example): at least two frog identities.
    assert!(CARDS.iter().filter(|c| c.kind == Kind::Frog).count() >= 2);
}

#[test]
fn decks_per_variant() {
    let size = |params: &[(&str, ParamValue)]| -> u32 {
        game(params).rules().deck().iter().map(|&c| c as u32).sum()
    };
    assert_eq!(size(&[]), 75);
    assert_eq!(size(&[("moon", ParamValue::Bool(true))]), 76);
    assert_eq!(size(&[("variant", int(1))]), 75);
    assert_eq!(size(&[("variant", int(2))]), 74);
    assert_eq!(
        size(&[("variant", int(2)), ("moon", ParamValue::Bool(true))]),
        75
    );
}

#[test]
fn bad_parameters_are_refused() {
    let bad: Vec<Vec<(&str, ParamValue)>> = vec![
        vec![("players", int(1))],
        vec![("players", int(7))],
        vec![("players", ParamValue::Bool(true))],
        vec![("variant", int(3))],
        vec![("moon", int(1))],
        vec![("target", int(0))],
        vec![("max_rounds", int(101))],
        vec![("colour", ParamValue::Str("red".into()))],
        vec![("variant", int(2)), ("players", int(5))],
        vec![("variant", int(1)), ("moon", ParamValue::Bool(true))],
    ];
    for params in bad {
        let mut p = Params::new();
        for (k, v) in &params {
            p.insert(k.to_string(), v.clone());
        }
        assert!(
            matches!(FlipologyGame::new(&p), Err(GameError::InvalidState(_))),
            "{params:?} accepted"
        );
    }
}

// --- the rulebook's worked examples -------------------------------------------------------------------------

/// "The three right-most cards of the active player's row are two facedown cards and a Monkey; she flips the
/// Monkey over ... a Snake on its left, and the left-most card of her opponent's row, a Frog, on its right. She
/// must choose whether to use the Snake's or the Frog's effect. She uses the Frog to flip another of her
/// opponent's cards, two spaces away: a Sloth."
#[test]
fn monkey_snake_frog_sloth_cascade() {
    let mut play = nature(
        &[
            [CAT4, CAT5, CAT6, QUOKKA, GOLDB, SNAKE3, MONKEY2],
            [FROG4, CAT4, SLOTH7, CAT5, CAT6, GOLDC, GOLDD],
        ],
        None,
        &[],
    );
    assert_eq!(play.state.action_to_string(p(0, 6)).unwrap(), "flip 0.6");
    play.act(&[p(0, 6)]);
    assert!(play.up(p(0, 5)) && play.up(p(1, 0)));
    assert_eq!(play.state.step, Step::Choose);
    assert_eq!(play.state.source, p(0, 6) as i8);
    assert_eq!(play.legal(), vec![p(0, 5), p(1, 0)]);
    assert_eq!(play.state.action_to_string(p(1, 0)).unwrap(), "use 1.0");
    let use_frog = play.state.string_to_action("use 1.0").unwrap();
    play.act(&[use_frog]);
    // Seat 0 applies the opponent's Frog: two spaces away are the Snake (0.5) and the Sloth (1.2).
    assert_eq!(play.state.current_player(), 0);
    assert_eq!(play.legal(), vec![p(0, 5), p(1, 2)]);
    play.act(&[p(1, 2)]);
    assert!(play.up(p(1, 2)) && play.card(p(1, 2)) == SLOTH7);
    assert!(play.up(p(0, 5)), "the Snake stays face up, unused");
    assert_eq!(play.state.current_player(), 1);
    let mut scores = [0.0; 2];
    play.state.scores(&mut scores);
    assert_eq!(
        scores[1],
        (4 - 7) as f64,
        "the Frog scores, the Sloth subtracts"
    );
}

/// Great Tree: "Alice takes her first turn and flips the right-most Dog, which she uses to flip the Parrot. The
/// Parrot mimics her Dog and flips the card to its left, a Snake. She uses the Snake to flip the Hawk, which can
/// flip a card in her first row, so she uses it to flip the Quokka."
#[test]
fn great_tree_dog_parrot_snake_hawk_quokka() {
    let game = game(&[("variant", int(2))]);
    let mut play = Play::new(&game);
    // Round 0: deal (seat 0 then seat 1), nobody regrows, arrange.
    let alice0 = [CAT6, QUOKKA, CAT5, GOLDB, GOLDC];
    let bob0 = [CAT4, GOLDD, GOLDE, GOLDF, CAT4];
    play.act(&alice0);
    play.act(&bob0);
    play.act(&[KEEP, KEEP]);
    play.act(&alice0.map(|c| PLACE + c));
    play.act(&bob0.map(|c| PLACE + c));
    play.act(&[g(0, 0, 0), g(1, 0, 0), g(0, 0, 2), g(1, 0, 0)]);
    // "The player with the highest score showing begins the new round": Alice, 11 against 0.
    assert_eq!(
        (play.state.round, play.state.start, play.state.phase),
        (1, 0, Phase::Deal)
    );
    let alice1 = [CAT4, HAWK3, SNAKE3, PARROT, DOG6];
    let bob1 = [CAT5, CAT6, MOLE1, MOLE2, SLOTH6];
    play.act(&alice1);
    play.act(&bob1);
    assert_eq!(play.state.phase, Phase::Regrow);
    play.act(&[KEEP, KEEP]);
    play.act(&alice1.map(|c| PLACE + c));
    play.act(&bob1.map(|c| PLACE + c));
    assert_eq!(play.state.current_player(), 0);
    assert_eq!(
        play.state.action_to_string(g(0, 1, 4)).unwrap(),
        "flip 0.1.4"
    );
    play.act(&[g(0, 1, 4)]); // the right-most Dog
    assert_eq!(play.legal(), vec![g(0, 0, 4), g(0, 1, 3), g(1, 1, 0)]);
    play.act(&[g(0, 1, 3)]); // the Parrot
    assert_eq!(play.legal(), vec![MIMIC_DOG]);
    assert_eq!(play.state.action_to_string(MIMIC_DOG).unwrap(), "mimic Dog");
    play.act(&[MIMIC_DOG]);
    assert_eq!(play.legal(), vec![g(0, 0, 3), g(0, 1, 2), g(0, 1, 4)]);
    play.act(&[g(0, 1, 2)]); // the Snake
    assert_eq!(
        play.legal(),
        vec![g(0, 1, 0), g(0, 1, 1), g(0, 1, 3), g(0, 1, 4)]
    );
    play.act(&[g(0, 1, 1)]); // the Hawk
    let targets = play.legal();
    assert!(targets.contains(&g(0, 0, 1)), "her first row");
    assert!(
        (0..5).all(|c| !targets.contains(&g(0, 1, c))),
        "never its own row"
    );
    play.act(&[g(0, 0, 1)]); // the Quokka
    for pos in [g(0, 1, 4), g(0, 1, 3), g(0, 1, 2), g(0, 1, 1), g(0, 0, 1)] {
        assert!(play.up(pos));
    }
    assert_eq!(play.card(g(0, 0, 1)), QUOKKA);
    assert_eq!(play.state.current_player(), 1);
}

/// Tiebreaker: "Tim has four faceup cards in his row. They total 15 points so he is tied with Rachel. He has two
/// unique animals, the parrot and the hawk. Rachel, however, has three unique animals, the dog plus two
/// different types of frog, so she is the winner." Reached by a legal six-turn game.
#[test]
fn tiebreak_example() {
    let tim = [PARROT, PARROT, CAT4, HAWK3, PARROT, CAT5, GOLDB];
    let rachel = [CAT6, FROG4, CAT4, FROG5, GOLDC, GOLDD, DOG6];
    let mut play = nature(
        &[tim, rachel],
        Some(&[[SLOTH6, SLOTH7], [MOLE1, MOLE2]]),
        &[],
    );
    play.act(&[p(0, 3)]); // Tim's Hawk: "a card in an opponent's row" ...
    assert_eq!(play.legal(), (0..7).map(|c| p(1, c)).collect::<Vec<_>>());
    play.act(&[p(1, 5)]); // ... Rachel's Gold D
    play.act(&[p(1, 1)]); // Rachel's Frog 4 ...
    assert_eq!(play.legal(), vec![p(0, 6), p(1, 3)]);
    play.act(&[p(1, 3)]); // ... flips her Frog 5, which turns Gold D down again
    assert_eq!(play.legal(), vec![p(1, 1), p(1, 5)]);
    play.act(&[p(1, 5)]);
    play.act(&[p(0, 4)]); // a Parrot
    assert_eq!(play.legal(), vec![MIMIC_FROG, MIMIC_HAWK]);
    play.act(&[MIMIC_HAWK, p(1, 4)]); // as a Hawk: Rachel's Gold C
    play.act(&[p(1, 6), p(0, 0)]); // Rachel's Dog flips Tim's Parrot
    assert_eq!(play.legal(), vec![MIMIC_DOG, MIMIC_FROG, MIMIC_HAWK]);
    play.act(&[MIMIC_DOG, p(0, 1), MIMIC_DOG, p(0, 2)]); // his third Parrot, as a Dog: his Cat 4
    play.act(&[p(0, 2), p(1, 4)]);
    assert!(play.state.is_terminal());
    let faceup = |s: u32| {
        let mut v: Vec<u32> = (0..7)
            .filter(|&c| play.up(p(s, c)))
            .map(|c| play.card(p(s, c)))
            .collect();
        v.sort();
        v
    };
    assert_eq!(faceup(0), vec![HAWK3, PARROT, PARROT, PARROT]);
    assert_eq!(faceup(1), vec![DOG6, FROG4, FROG5]);
    let (mut scores, mut returns) = ([0.0; 2], [0.0; 2]);
    play.state.scores(&mut scores);
    play.state.returns(&mut returns);
    assert_eq!(scores, [15.0, 15.0]);
    assert_eq!(returns, [0.0, 1.0]);
}

#[test]
fn moon_makes_the_lowest_score_win() {
    let mut play = nature(
        &[
            [29, CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD],
            [GOLDF, QUOKKA, CAT4, CAT5, CAT6, SLOTH6, SLOTH7],
        ],
        None,
        &[("moon", ParamValue::Bool(true))],
    );
    play.act(&[p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(0, 2), p(1, 2)]);
    let (mut scores, mut returns) = ([0.0; 2], [0.0; 2]);
    play.state.scores(&mut scores);
    play.state.returns(&mut returns);
    assert_eq!(scores, [16.0, 34.0]);
    assert_eq!(returns, [1.0, 0.0]);
}

/// Interpretation 8: the Snake turns the Dog (used this turn) face up again: no second Dog effect.
#[test]
fn effect_once_per_turn() {
    let mut play = nature(
        &[[CAT4, DOG5, MONKEY2, SNAKE3, CAT5, CAT6, GOLDB], PLAIN_B],
        None,
        &[],
    );
    // Dog -> Monkey: the Monkey "flips two cards faceup", so the Dog stays up and does not apply again; the
    // Snake it turns up applies, and turning the Dog face down ends the turn.
    play.act(&[p(0, 1), p(0, 2)]);
    assert_eq!(play.state.step, Step::Target);
    assert!(play.up(p(0, 1)) && play.up(p(0, 3)));
    play.act(&[p(0, 1)]);
    assert!(!play.up(p(0, 1)));
    assert_eq!(play.state.current_player(), 1);
}

#[test]
fn hawk_in_nature_flips_an_opponents_row_only() {
    // "A hawk ... allows you to flip a card in an opponent's row": a Hawk in the opponent's row of a two-seat
    // game (turned up by the active seat's Dog) has no card to flip and does nothing.
    let mut play = nature(
        &[
            [CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, DOG5],
            [HAWK3, SLOTH6, SLOTH7, SLOTH8, SLOTH6, SLOTH7, SLOTH8],
        ],
        None,
        &[],
    );
    play.act(&[p(0, 6), p(1, 0)]);
    assert!(play.up(p(1, 0)));
    assert_eq!(play.state.step, Step::Flip);
    assert_eq!(play.state.current_player(), 1);
}

#[test]
fn seats_see_their_own_cards_only() {
    let play = nature(
        &[
            [DOG5, CAT4, CAT5, CAT6, GOLDB, GOLDC, SLOTH8],
            [FROG4, SLOTH6, SLOTH7, GOLDD, GOLDE, GOLDF, CAT4],
        ],
        None,
        &[],
    );
    let len = game(&[]).observation_shape()[0];
    let ids = |seat: usize, offset: usize, slot: usize| -> Vec<usize> {
        let mut obs = vec![0f32; len];
        play.state.observation_tensor(seat, &mut obs);
        let base = 36 * (offset * 7 + slot);
        (0..31).filter(|&c| obs[base + 2 + c] != 0.0).collect()
    };
    assert_eq!(ids(0, 0, 6), vec![SLOTH8 as usize]);
    assert_eq!(ids(1, 1, 6), Vec::<usize>::new());
    assert_eq!(ids(1, 0, 0), vec![FROG4 as usize]);
}

// --- invariants over random games ---------------------------------------------------------------------------

fn variants() -> Vec<FlipologyGame> {
    let t = ParamValue::Bool(true);
    vec![
        game(&[]),
        game(&[("players", int(3)), ("moon", t.clone())]),
        game(&[("players", int(6))]),
        game(&[
            ("players", int(3)),
            ("variant", int(1)),
            ("max_rounds", int(3)),
        ]),
        game(&[("variant", int(1)), ("target", int(30))]),
        game(&[("variant", int(2))]),
        game(&[("players", int(3)), ("variant", int(2))]),
        game(&[("players", int(4)), ("variant", int(2)), ("moon", t)]),
    ]
}

fn view(
    state: &FlipologyState,
    seat: usize,
    history: &[u32],
    len: usize,
) -> (Vec<f32>, String, String) {
    let mut obs = vec![0f32; len];
    state.observation_tensor(seat, &mut obs);
    (
        obs,
        state.observation_string(seat),
        state.information_state_string(seat, history),
    )
}

fn check_knowledge(s: &FlipologyState) {
    let all = s.rules.all();
    let slots = s.rules.slots();
    for pos in 0..s.positions() {
        let r = s.rows[pos];
        if !r.is_present() {
            assert!(!s.is_up(pos), "an empty position is not face up");
            continue;
        }
        if s.is_up(pos) {
            assert_eq!(r.known, all, "a face-up card is known to every seat");
        } else {
            assert!(
                r.known & (1 << (pos / slots)) != 0,
                "a seat knows the face-down cards of its row"
            );
        }
        assert_eq!(r.known & !all, 0);
    }
    // Card conservation: the pile, the hands, the rows, the discards and nothing else.
    let mut count = s.pile;
    for seat in 0..s.n() {
        for h in s.hand(seat) {
            count[h.card as usize] += 1;
        }
    }
    for r in s.rows[..s.positions()].iter().chain(s.discards()) {
        if r.is_present() && (r.card as usize) < NUM_CARDS {
            count[r.card as usize] += 1;
        }
    }
    // (This also proves that the discard pile, sized by its true maximum, never overflows.)
    assert_eq!(
        count,
        s.rules.deck(),
        "every card of the deck is somewhere, once"
    );
    assert_eq!(s.up >> s.positions(), 0, "no facing beyond the positions");
}

#[test]
fn random_games_keep_the_invariants() {
    for game in variants() {
        let len = game.observation_shape()[0];
        let n = game.num_players();
        for seed in 0..6u64 {
            let mut state = game.new_initial_state();
            let mut history = Vec::new();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            let mut legal = Vec::new();
            let mut step = 0;
            while let Some(action) = random_action(&state, &mut rng, &mut scratch) {
                state.legal_actions(&mut legal);
                assert!(!legal.is_empty());
                assert!(legal.windows(2).all(|w| w[0] < w[1]));
                check_knowledge(&state);
                for a in &legal {
                    let text = state.action_to_string(*a).unwrap();
                    assert_eq!(state.string_to_action(&text).unwrap(), *a, "{text}");
                }
                if step % 5 == 0 {
                    let text = state.serialize(&history);
                    let (back, back_history) = game.deserialize_state(&text).expect("round trip");
                    assert_eq!(back, state);
                    assert_eq!(back_history, history);
                    // Every seat's resample looks the same to that seat, and its rewritten history replays to it.
                    for seat in 0..n {
                        let mine = view(&state, seat, &history, len);
                        let mut r = Rng::new(seed * 1000 + step);
                        let (sample, sample_history) =
                            state.resample_with_history(seat, &history, &mut r);
                        let mut r2 = Rng::new(seed * 1000 + step);
                        assert_eq!(state.resample_from_infostate(seat, &mut r2), sample);
                        assert_eq!(r, r2, "the same draws either way");
                        assert_eq!(view(&sample, seat, &sample_history, len), mine);
                        assert_eq!(sample.current_player(), state.current_player());
                        let replayed = game
                            .deserialize_state(&sample.serialize(&sample_history))
                            .expect("the rewritten history is legal and reaches the sample");
                        assert_eq!(replayed.0, sample);
                        check_knowledge(&sample);
                    }
                }
                state.apply_action(action).expect("legal");
                history.push(action);
                step += 1;
                assert!(history.len() as u64 <= game.max_game_length());
            }
            assert_eq!(state.current_player(), TERMINAL);
            let mut returns = vec![0.0; n];
            state.returns(&mut returns);
            let sum: f64 = returns.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "somebody wins: {returns:?}");
        }
    }
}

#[test]
fn resampling_is_uniform_over_the_unseen_deal() {
    // Seat 0 holds nine known cards; seat 1's nine are a uniform draw from the other 66: the Quokka is among
    // them with probability 9/66.
    let game = game(&[]);
    let mut play = Play::new(&game);
    play.act(&[CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, 27]);
    play.act(&[0, 0, 1, 1, 2, 2, 3, 3, QUOKKA]);
    let trials = 4000;
    let mut hits = 0;
    for seed in 0..trials {
        let sample = play.state.resample_from_infostate(0, &mut Rng::new(seed));
        hits += sample.hand(1).iter().any(|h| h.card as u32 == QUOKKA) as u32;
        assert_eq!(sample.hand(0), play.state.hand(0));
    }
    let freq = hits as f64 / trials as f64;
    assert!((freq - 9.0 / 66.0).abs() < 0.02, "{freq}");
}

#[test]
fn resampling_respects_own_regrowth() {
    // Seat 0 gave back a hand with the Quokka after seat 1 was dealt: seat 1 can never hold the Quokka.
    let game = game(&[("variant", int(2))]);
    let mut play = Play::new(&game);
    play.act(&[QUOKKA, DOG5, CAT6, GOLDB, GOLDC]);
    play.act(&[1, 1, 2, 2, 3]);
    play.act(&[98, KEEP]);
    play.act(&[8, 8, 9, 9, 10]);
    assert_eq!(play.state.phase, Phase::Arrange);
    for seed in 0..300 {
        let (sample, history) =
            play.state
                .resample_with_history(0, &play.history, &mut Rng::new(seed));
        assert!(sample.hand(1).iter().all(|h| h.card as u32 != QUOKKA));
        let (replayed, _) = game.deserialize_state(&sample.serialize(&history)).unwrap();
        assert_eq!(replayed, sample);
    }
}

#[test]
fn deserialization_refuses_tampering() {
    let play = nature(
        &[[CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE], PLAIN_B],
        None,
        &[],
    );
    let game = game(&[]);
    let text = play.state.serialize(&play.history);
    assert!(game.deserialize_state(&text).is_ok());
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    type Mutation = Box<dyn Fn(&mut serde_json::Value)>;
    let mutations: Vec<Mutation> = vec![
        Box::new(|v| v["game"] = "flip_city".into()),
        Box::new(|v| v["version"] = 2.into()),
        Box::new(|v| v["version"] = true.into()),
        Box::new(|v| v["params"]["players"] = 3.into()),
        Box::new(|v| v["params"]["moon"] = 0.into()),
        Box::new(|v| {
            v.as_object_mut().unwrap().remove("turn");
        }),
        Box::new(|v| v["extra"] = 1.into()),
        Box::new(|v| v["turn"] = 1.into()),
        Box::new(|v| v["turn"] = serde_json::json!(0.0)),
        Box::new(|v| v["pile"][0] = 0.into()),
        Box::new(|v| v["seats"][1]["row"][0][2] = 3.into()),
        Box::new(|v| v["seats"][0]["row"][0][3] = 1.into()),
        Box::new(|v| v["seats"][0]["row"][0][0] = 29.into()),
        Box::new(|v| v["winners"] = serde_json::json!([0])),
        Box::new(|v| v["history"][0] = 29.into()),
        Box::new(|v| v["history"][0] = true.into()),
        Box::new(|v| v["history"] = "0,1".into()),
        Box::new(|v| {
            v["history"]
                .as_array_mut()
                .unwrap()
                .pop()
                .map(|_| ())
                .unwrap()
        }),
        Box::new(|v| {
            v["history"]
                .as_array_mut()
                .unwrap()
                .extend(vec![0.into(); 1000])
        }),
    ];
    for (i, mutate) in mutations.iter().enumerate() {
        let mut v = value.clone();
        mutate(&mut v);
        assert!(
            matches!(
                game.deserialize_state(&v.to_string()),
                Err(GameError::InvalidState(_))
            ),
            "mutation {i} accepted"
        );
    }
    // Other spacing and key order are fine.
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(game.deserialize_state(&pretty).unwrap().0, play.state);
}

#[test]
fn any_id_and_any_text_never_panic() {
    let game = game(&[("variant", int(2))]);
    let mut state = game.new_initial_state();
    let mut rng = Rng::new(5);
    let mut scratch = Scratch::default();
    for _ in 0..60 {
        let a = random_action(&state, &mut rng, &mut scratch).unwrap();
        state.apply_unchecked(a);
    }
    // Any id, at any node, is refused or applied without a panic; notation of any text never panics.
    for a in [0u32, 29, 30, 59, 60, 99, 100, 1000, u32::MAX] {
        let mut s = state;
        let _ = s.apply_action(a);
        let _ = s.action_to_string(a);
        s.apply_unchecked(a);
    }
    for text in [
        "",
        "flip",
        "1.2.3.4",
        "99.9.9",
        "place",
        "mimic cat",
        "deal",
        "9999999999.1",
    ] {
        let _ = state.string_to_action(text);
    }
    assert_eq!(state.current_player() == CHANCE, state.is_chance_node());
}

/// The deal's draw counts eight cards at a time; it must draw what DESIGN's random step (`pick_by_count`) does,
/// with the same single `below`, for any pile: sparse, full, and with totals past the fast path's 127.
#[test]
fn chance_draw_is_the_random_step() {
    let game = game(&[]);
    let mut pick = Rng::new(5);
    for round in 0..20_000u64 {
        let mut state = game.new_initial_state();
        let most = [0, 1, 2, 5, 9, 255][(round % 6) as usize] as u64;
        for c in state.pile.iter_mut() {
            *c = if pick.below(3) == 0 {
                0
            } else {
                pick.below(most + 1) as u8
            };
        }
        let (mut a, mut b) = (Rng::new(round), Rng::new(round));
        let drawn = state.sample_chance(&mut a, &mut Vec::new());
        assert_eq!(
            drawn,
            meeplex_engine::pick_by_count(&state.pile, &mut b),
            "{:?}",
            state.pile
        );
        assert_eq!(a, b);
    }
}
