//! The shared PRNG: SplitMix64, bit for bit the same as `meeplex.oracle.Rng` (DESIGN.md).

/// SplitMix64. `Rng::new(seed)` starts with `state = seed`; every output advances the state once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `next_u64() % n`; the modulo bias is part of the shared contract, so it is kept.
    /// `n == 0` is a caller bug; it returns 0 rather than panicking.
    pub fn below(&mut self, n: u64) -> u64 {
        let x = self.next_u64();
        if n == 0 {
            0
        } else {
            x % n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_vectors() {
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_is_modulo_of_next() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for n in 1..100u64 {
            assert_eq!(a.below(n), b.next_u64() % n);
        }
    }
}
