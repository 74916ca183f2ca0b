//! Arbitrary bytes as a serialized state, for every registered game (see `meeplex_fuzz::deserialize`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| meeplex_fuzz::deserialize(data));
