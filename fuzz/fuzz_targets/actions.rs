//! A byte stream choosing a game, its parameters and a sequence of action ids (see `meeplex_fuzz::actions`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| meeplex_fuzz::actions(data));
