//! Memoir '44 (issue 19, scenario Pegasus Bridge): the board layer only, as a foundation for the game.
//! Rules: the BGA game-help page (`rules/bga_memoir44.txt`) and the facts `memoir44_core.json`,
//! `memoir44_pegasus_bridge.json`, `bga_games.md` §7. The game itself (cards, dice, turns) is not built yet,
//! so nothing here is registered in the registry.
//!
//! # Coordinates (shared with the Python oracle)
//!
//! A hex is `(row, col)` exactly as in the BGA scenario files (`bga-devs/bga-memoir`, `x` = col, `y` = row):
//!
//! * `row` 0..=8, row 0 is the top edge of the board. In Pegasus Bridge player 1 (`side_player1`, the Axis)
//!   sits at the top and player 2 (the Allies) at the bottom (row 8); BGA's `Scenario::getTopTeam()` is
//!   `game_info.side_player1`.
//! * `col` 0..=24 "doubled": `row + col` is even. Even rows hold cols 0, 2, .., 24 (13 hexes), odd rows
//!   cols 1, 3, .., 23 (12 hexes): 5 × 13 + 4 × 12 = 113 hexes, densely indexed 0..113 row by row
//!   ([`hex::Hex::index`]).
//! * Neighbours: `(r, c ± 2)`, `(r ± 1, c ± 1)`. Distance: `dr + max(0, (dc − dr) / 2)` with
//!   `dr = |Δrow|`, `dc = |Δcol|`.
//!
//! # Line of sight (exact integer geometry, [`hex::los_clear`])
//!
//! The page: "Draw a line between the centres of the hexes; LOS is blocked if any part of a hex containing an
//! obstruction or unit crosses this line. If the line runs along the edge of one or more hexes it is only
//! blocked if they stand along both sides of the line segment." LOS questions are affine-invariant, so the
//! centre of `(row, col)` is mapped to `X = col, Y = 3·row` (screen orientation: Y grows downwards); a
//! pointy-top hex then has the integer vertices `(X, Y ± 2)`, `(X ± 1, Y ± 1)`. With the segment between
//! the two centres:
//!
//! * a hex whose interior the segment passes through blocks if it holds an obstruction or a unit;
//! * where the segment runs along hex sides (a positive-length overlap), the hexes flanking them block only
//!   if blocking hexes stand on both its left and its right, anywhere along it (the rulebook: "unless the
//!   obstructions stand somewhere along both sides of the line segment"; BGA's `Board::isInLineOfSight`
//!   keeps one left and one right flag);
//! * a hex the segment touches at a single vertex does not block (it does not "cross" the line, and the
//!   line does not run along its side; BGA blocks on any vertex touch, first possible at range 5);
//! * the two end hexes never block; hexes off the board never block (only a shot straight down the first or
//!   last column runs along the board's outer edge).
//!
//! These readings are interpretations 1 to 3 of `docs/rules/memoir44.md`; [`hex::hexes_crossed`] gives
//! each side's pair as `(left, right)`, so another reading is a line away.
//!
//! # Sections ([`board::sections`])
//!
//! Left cols 0..=7, centre 7..=17, right 17..=24, from the viewpoint of the player at the bottom; hexes of
//! cols 7 and 17 straddle two sections (a unit there may be ordered from either). The player at the top sees
//! the board turned round, so their left is cols 17..=24 ([`board::sections_for`]).

pub mod board;
pub mod hex;

pub use board::{
    pegasus_bridge, sections, sections_for, Face, GameInfo, HexData, Obstacle, ObstacleKind,
    RectKind, RectTerrain, Scenario, Side, Terrain, TerrainKind, Unit, UnitKind, CENTER, LEFT,
    PEGASUS_BRIDGE_TEXT, RIGHT,
};
pub use hex::{hexes_crossed, los_clear, Hex, MAX_COL, MAX_ROW, NUM_HEXES};
