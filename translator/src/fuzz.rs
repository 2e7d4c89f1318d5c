//! A deterministic mutation engine for robustness tests on stable Rust: it damages valid token
//! streams the way broken or hostile files are damaged (bit flips, swapped and repeated tokens,
//! truncation, length fields and comment lengths that lie) and writes random assembly-like text.
//!
//! The test suite's fuzz loop (`tests/fuzz_loop.rs`) drives it over the corpora; later fuzzing
//! of the validator, translator and interpreter can reuse it. Same seed, same cases.

use crate::bytecode::decode;

/// A small, fast, deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One kind of damage.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mutation {
    /// Flip one bit of one token.
    BitFlip,
    /// Swap two tokens.
    TokenSwap,
    /// Cut the stream short.
    Truncate,
    /// Replace one token by a random one.
    RandomToken,
    /// Repeat a run of tokens in place.
    Duplicate,
    /// Change an SM2+ instruction's length field (bits 24–27).
    LengthLie,
    /// Change a comment token's length (bits 16–30), up to far past the end.
    CommentLengthLie,
    /// Replace the version token by a neighbouring or random one.
    VersionLie,
}

impl Mutation {
    /// Every mutation.
    pub const ALL: [Mutation; 8] = [
        Mutation::BitFlip,
        Mutation::TokenSwap,
        Mutation::Truncate,
        Mutation::RandomToken,
        Mutation::Duplicate,
        Mutation::LengthLie,
        Mutation::CommentLengthLie,
        Mutation::VersionLie,
    ];
}

/// Where the instruction and comment tokens of a valid stream are, so that the length lies hit
/// the fields they mean to.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Token indices of instruction tokens.
    pub instructions: Vec<usize>,
    /// Token indices of comment tokens.
    pub comments: Vec<usize>,
}

impl Layout {
    /// The layout of `tokens`, empty if they do not decode.
    pub fn of(tokens: &[u32]) -> Layout {
        match decode(tokens) {
            Ok(p) => Layout {
                instructions: p.instructions.iter().map(|i| i.offset as usize).collect(),
                comments: p.comments.iter().map(|c| c.offset as usize).collect(),
            },
            Err(_) => Layout::default(),
        }
    }
}

/// Applies `mutation` to `tokens` in place.
pub fn apply(tokens: &mut Vec<u32>, layout: &Layout, mutation: Mutation, rng: &mut Rng) {
    if tokens.is_empty() {
        tokens.push(rng.next_u32());
        return;
    }
    let n = tokens.len();
    match mutation {
        Mutation::BitFlip => {
            let i = rng.below(n);
            tokens[i] ^= 1 << rng.below(32);
        }
        Mutation::TokenSwap => {
            let (a, b) = (rng.below(n), rng.below(n));
            tokens.swap(a, b);
        }
        Mutation::Truncate => tokens.truncate(rng.below(n)),
        Mutation::RandomToken => {
            let i = rng.below(n);
            tokens[i] = match rng.below(4) {
                0 => rng.next_u32(),
                1 => 0x8000_0000 | rng.next_u32(),
                2 => rng.next_u32() & 0xFFFF,
                _ => *rng.pick(&[0x0000_FFFF, 0xFFFE_0000, 0x7FFF_FFFE, 0, 0xFFFF_FFFF]),
            };
        }
        Mutation::Duplicate => {
            let start = rng.below(n);
            let len = 1 + rng.below((n - start).min(8));
            let run: Vec<u32> = tokens[start..start + len].to_vec();
            let at = rng.below(n + 1);
            tokens.splice(at..at, run);
        }
        Mutation::LengthLie => {
            let Some(&i) = (!layout.instructions.is_empty()).then(|| rng.pick(&layout.instructions)) else {
                return apply(tokens, layout, Mutation::BitFlip, rng);
            };
            if let Some(t) = tokens.get_mut(i) {
                *t = (*t & !0x0F00_0000) | (rng.below(16) as u32) << 24;
            }
        }
        Mutation::CommentLengthLie => {
            let Some(&i) = (!layout.comments.is_empty()).then(|| rng.pick(&layout.comments)) else {
                // No comment to lie about: plant one with a runaway length.
                let at = 1 + rng.below(n.saturating_sub(1));
                let len = (rng.below(0x8000) as u32) << 16;
                tokens.insert(at.min(n), 0xFFFE | len);
                return;
            };
            if let Some(t) = tokens.get_mut(i) {
                let len =
                    if rng.one_in(2) { rng.below(0x8000) } else { ((*t >> 16) & 0x7FFF) as usize + 1 + rng.below(4) };
                *t = (*t & 0x8000_FFFF) | ((len as u32 & 0x7FFF) << 16);
            }
        }
        Mutation::VersionLie => {
            tokens[0] = match rng.below(3) {
                0 => tokens[0] ^ (1 << rng.below(16)),
                1 => 0xFFFE_0000 | rng.below(0x10000) as u32,
                _ => rng.next_u32(),
            };
        }
    }
}

/// A mutant of `tokens`: one to three random mutations.
pub fn mutate(tokens: &[u32], layout: &Layout, rng: &mut Rng) -> Vec<u32> {
    let mut out = tokens.to_vec();
    for _ in 0..1 + rng.below(3) {
        let m = *rng.pick(&Mutation::ALL);
        apply(&mut out, layout, m, rng);
    }
    out
}

/// Pieces random assembly text is made of: real mnemonics, registers and punctuation, so that
/// the text gets past the first token often enough to test the deeper parser.
const TEXT_PIECES: &[&str] = &[
    "vs_1_1",
    "ps_2_0",
    "vs.3.0",
    "ps_1_4",
    "ps_3_0",
    "vs_2_x",
    "\n",
    "\n",
    "\n",
    " ",
    " ",
    ", ",
    ",",
    "mov",
    "add_sat",
    "texld",
    "texldp",
    "dcl_2d",
    "dcl_texcoord1",
    "dcl",
    "def",
    "defi",
    "defb",
    "if_gt",
    "setp_ne",
    "break",
    "loop",
    "rep",
    "endloop",
    "call",
    "label",
    "sincos",
    "mad_x2",
    "+",
    "(",
    ")",
    "(!p0.x)",
    "r0",
    "r1.xyz",
    "c[a0.x + 3]",
    "v[aL]",
    "c0[a0",
    "]",
    "[",
    "-",
    "1-",
    "!",
    "_bx2",
    "_abs",
    ".xyzw",
    ".x",
    ".rgba",
    ".none",
    "oPos",
    "oC0",
    "vFace",
    "aL",
    "i0",
    "b0",
    "s0",
    "t0",
    "p0",
    "l1",
    "0",
    "1",
    "-0.5",
    "1e38",
    "0x7fc00000",
    "true",
    "nan",
    ".comment 2",
    ".dw 1, 2",
    "// c",
    "; c",
    "#line 3",
    "#define",
    "9999999999",
    "c8191",
    "r2048",
    "\t",
    "é",
    "\u{0}",
];

/// Random assembly-like text of about `pieces` pieces (and now and then raw random bytes).
pub fn random_text(rng: &mut Rng, pieces: usize) -> String {
    let mut s = String::new();
    for _ in 0..pieces {
        if rng.one_in(20) {
            s.push(char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'));
        } else {
            let piece: &&str = rng.pick(TEXT_PIECES);
            s.push_str(piece);
        }
    }
    s
}

/// Damages text: deletes, duplicates or replaces a few characters.
pub fn mutate_text(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let n = chars.len();
        if n == 0 {
            chars.push('x');
            continue;
        }
        let i = rng.below(n);
        match rng.below(3) {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, chars[rng.below(n)]),
            _ => chars[i] = *rng.pick(&['x', '0', '.', ',', '[', ']', '-', '_', ' ', '\n', '9', 'a', '!', '+']),
        }
    }
    chars.into_iter().collect()
}

/// A small fx_2_0 effect built word by word (offsets relative to the byte after the magic and
/// the structure offset): a `float4 g_Color : COLOR` parameter with an `int a = 7` annotation,
/// and technique `t`, pass `p`, setting `ZENABLE = 1` (operation 0). A seed for effect fuzzing
/// when no corpus is at hand, and a fixture for the reader's tests.
pub fn sample_effect() -> Vec<u8> {
    let name = |text: &[u8; 8], len: u32| -> Vec<u32> {
        vec![
            len,
            u32::from_le_bytes(text[..4].try_into().unwrap_or([0; 4])),
            u32::from_le_bytes(text[4..].try_into().unwrap_or([0; 4])),
        ]
    };
    let mut data: Vec<u32> = Vec::new();
    data.extend(name(b"g_Color\0", 8)); // 0
    data.extend(name(b"COLOR\0\0\0", 6)); // 12
    data.extend([3, 1, 0, 12, 0, 4, 1]); // 24: float4 (columns 4, rows 1)
    data.extend([0x3f80_0000, 0x3f00_0000, 0, 0x3f80_0000]); // 52
    data.extend([2, u32::from_le_bytes(*b"a\0\0\0")]); // 68
    data.extend([2, 0, 68, 0, 0, 1, 1]); // 76: int scalar
    data.push(7); // 104
    data.extend([2, u32::from_le_bytes(*b"t\0\0\0")]); // 108
    data.extend([2, u32::from_le_bytes(*b"p\0\0\0")]); // 116
    data.extend([2, 2, 0, 0, 0, 1, 1]); // 124: the state's storage, an int 1x1
    data.push(1); // 152
    let structure = (data.len() * 4) as u32;
    data.extend([1, 1, 0, 0]); // parameters, techniques, unknown, objects
    data.extend([24, 52, 0, 1, 76, 104]); // the parameter and its annotation
    data.extend([108, 0, 1, 116, 0, 1, 0, 0, 124, 152]); // technique, pass, state
    data.extend([0, 0]); // inline objects, resources
    let mut words = vec![0xFEFF_0901, structure];
    words.extend(data);
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Damages an effect blob: the token mutations on its words, or a word replaced by a small
/// offset or count (the fields an effect is built of), or the blob cut short.
pub fn mutate_effect(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut words: Vec<u32> = bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    for _ in 0..1 + rng.below(3) {
        if words.is_empty() {
            break;
        }
        let i = rng.below(words.len());
        match rng.below(4) {
            0 => words[i] = rng.below(bytes.len() + 16) as u32,
            1 => words[i] = rng.below(24) as u32,
            2 => words[i] ^= 1 << rng.below(32),
            _ => words = mutate(&words, &Layout::default(), rng),
        }
    }
    let mut out: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    if rng.one_in(8) {
        out.truncate(rng.below(out.len() + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_cases() {
        let tokens = [0xFFFF_0200u32, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];
        let layout = Layout::of(&tokens);
        assert_eq!(layout.instructions, [1]);
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| mutate(&tokens, &layout, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }
}
