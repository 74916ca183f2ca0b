//! One folder per game.

pub mod caboodle;
pub mod carcassonne;
pub mod flip_city;
pub mod flip_pick_towers;
pub mod flipology;
pub mod forbidden_island;
pub mod lineit;
pub mod memoir44;
pub mod nidavellir;
pub mod viticulture;
