//! The command deck (`python/meeplex/data/memoir44_cards.json`, type index k in the file's order, §6.3). The
//! table below is checked against the file by a test (`tests.rs`), so the file stays the one source.

/// The card types' keys, in the file's order.
pub const KEYS: [&str; 30] = [
    "recon_left",
    "recon_center",
    "recon_right",
    "probe_left",
    "probe_center",
    "probe_right",
    "attack_left",
    "attack_center",
    "attack_right",
    "assault_left",
    "assault_center",
    "assault_right",
    "general_advance",
    "pincer_move",
    "recon_in_force",
    "air_power",
    "ambush",
    "armor_assault",
    "artillery_bombard",
    "barrage",
    "behind_enemy_lines",
    "close_assault",
    "counter_attack",
    "dig_in",
    "direct_from_hq",
    "firefight",
    "infantry_assault",
    "medics_and_mechanics",
    "move_out",
    "their_finest_hour",
];

/// Copies of each type in the 60-card deck.
pub const COUNTS: [u8; 30] = [
    2, 2, 2, 4, 5, 4, 3, 4, 3, 2, 2, 2, 1, 1, 3, 1, 1, 2, 1, 1, 1, 1, 2, 1, 2, 1, 2, 1, 2, 1,
];

pub const TYPES: usize = 30;
pub const DECK: u32 = 60;

pub const GENERAL_ADVANCE: u8 = 12;
pub const PINCER_MOVE: u8 = 13;
pub const RECON_IN_FORCE: u8 = 14;
pub const AIR_POWER: u8 = 15;
pub const AMBUSH: u8 = 16;
pub const ARMOR_ASSAULT: u8 = 17;
pub const ARTILLERY_BOMBARD: u8 = 18;
pub const BARRAGE: u8 = 19;
pub const BEHIND_ENEMY_LINES: u8 = 20;
pub const CLOSE_ASSAULT: u8 = 21;
pub const COUNTER_ATTACK: u8 = 22;
pub const DIG_IN: u8 = 23;
pub const DIRECT_FROM_HQ: u8 = 24;
pub const FIREFIGHT: u8 = 25;
pub const INFANTRY_ASSAULT: u8 = 26;
pub const MEDICS: u8 = 27;
pub const MOVE_OUT: u8 = 28;
pub const THEIR_FINEST_HOUR: u8 = 29;

/// Recon left / centre / right (0..=2): the end-of-turn draw is 2, keep 1.
pub fn is_recon(k: u8) -> bool {
    k <= 2
}

/// Counter-Attack's mirror (§6.3): a `_left` section card becomes `_right` and the reverse.
pub fn mirror(k: u8) -> u8 {
    if k <= 11 {
        let base = k - k % 3;
        base + (2 - k % 3)
    } else {
        k
    }
}

/// The die faces (§6.4 step 5): 0 infantry, 1 armor, 2 grenade, 3 star, 4 flag.
pub const FACES: [&str; 5] = ["infantry", "armor", "grenade", "star", "flag"];
pub const FACE_WEIGHTS: [u64; 5] = [2, 1, 1, 1, 1];
pub const F_INF: usize = 0;
pub const F_ARMOR: usize = 1;
pub const F_GRENADE: usize = 2;
pub const F_STAR: usize = 3;
pub const F_FLAG: usize = 4;

pub const SECTIONS: [&str; 3] = ["left", "center", "right"];
