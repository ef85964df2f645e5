//! SHA-1 at compile time, for the constant parts of the problem hashes:
//! the readers' assumptions are hashed once, by the compiler, and every
//! problem hash reads their 8-byte digests instead of their text (one
//! SHA-1 block a problem instead of a dozen). The result is checked
//! against `sha1_smol`, the hash of the problems themselves, in the tests.

/// Return the first 8 bytes of the SHA-1 digest of `data`.
pub const fn sha1_prefix(data: &[u8]) -> [u8; 8] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let bits = (data.len() as u64).wrapping_mul(8);
    // The message, a 0x80 byte, zeros, and the bit length in 8 bytes, in
    // whole 64-byte blocks.
    let blocks = (data.len() + 8) / 64 + 1;
    let mut block = 0;
    while block < blocks {
        let mut w = [0u32; 80];
        let mut i = 0;
        while i < 16 {
            let mut word = 0u32;
            let mut j = 0;
            while j < 4 {
                let at = block * 64 + i * 4 + j;
                let byte = if at < data.len() {
                    data[at]
                } else if at == data.len() {
                    0x80
                } else if at >= blocks * 64 - 8 {
                    (bits >> (8 * (blocks * 64 - 1 - at))) as u8
                } else {
                    0
                };
                word = (word << 8) | byte as u32;
                j += 1;
            }
            w[i] = word;
            i += 1;
        }
        while i < 80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
            i += 1;
        }
        let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
        i = 0;
        while i < 80 {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A82_7999),
                1 => (b ^ c ^ d, 0x6ED9_EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(w[i]);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
            i += 1;
        }
        h[0] = h[0].wrapping_add(a);
        h[1] = h[1].wrapping_add(b);
        h[2] = h[2].wrapping_add(c);
        h[3] = h[3].wrapping_add(d);
        h[4] = h[4].wrapping_add(e);
        block += 1;
    }
    let (x, y) = (h[0].to_be_bytes(), h[1].to_be_bytes());
    [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]
}

#[cfg(test)]
mod tests {
    use super::sha1_prefix;

    #[test]
    fn agrees_with_sha1_smol_at_every_length_around_the_block_edges() {
        let data: [u8; 300] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        for n in 0..data.len() {
            let want = sha1_smol::Sha1::from(&data[..n]).digest().bytes();
            assert_eq!(sha1_prefix(&data[..n]), want[..8], "length {n}");
        }
    }
}
