//! One folder per game.

pub mod flip_city;
