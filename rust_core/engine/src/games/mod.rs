//! One folder per game.

pub mod carcassonne;
pub mod flip_city;
pub mod flip_pick_towers;
pub mod flipology;
pub mod lineit;
