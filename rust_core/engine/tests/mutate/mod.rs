//! Mutated serialized states for the no-panic tests (a `tests/<name>/mod.rs` module is compiled into each test
//! crate that declares it, not as a test of its own).

use meeplex_engine::Rng;

/// `text` with one of its ints (a digit run after `[`, `,` or `:`) replaced by a value drawn from
/// `-2..range - 2`.
pub fn one_int(text: &str, rng: &mut Rng, range: u64) -> String {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = (1..bytes.len())
        .filter(|&i| {
            matches!(bytes[i - 1], b'[' | b',' | b':')
                && (bytes[i].is_ascii_digit() || bytes[i] == b'-')
        })
        .collect();
    let i = starts[rng.below(starts.len() as u64) as usize];
    let mut j = i + 1;
    while j < bytes.len() && bytes[j].is_ascii_digit() {
        j += 1;
    }
    let v = rng.below(range) as i64 - 2;
    format!("{}{}{}", &text[..i], v, &text[j..])
}
