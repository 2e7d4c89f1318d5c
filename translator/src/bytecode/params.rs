//! Destination and source parameters: write masks, swizzles, modifiers, relative addressing.

use super::registers::Register;

/// A destination write mask (bit 0 = x … bit 3 = w).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// `.xyzw`.
    pub const ALL: WriteMask = WriteMask(0xF);

    /// Whether component `c` (0–3) is written.
    pub fn has(self, c: usize) -> bool {
        self.0 & (1 << c) != 0
    }

    /// Number of components written.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The components written, in order.
    pub fn components(self) -> impl Iterator<Item = usize> {
        (0..4).filter(move |&c| self.has(c))
    }
}

/// A source swizzle: two bits per output component (x = 0 … w = 3), identity `0xE4`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`.
    pub const IDENTITY: Swizzle = Swizzle(0xE4);

    /// A swizzle from four component selectors.
    pub const fn new(x: u8, y: u8, z: u8, w: u8) -> Swizzle {
        Swizzle((x & 3) | (y & 3) << 2 | (z & 3) << 4 | (w & 3) << 6)
    }

    /// The same component four times (`.x` = `.xxxx`).
    pub const fn replicate(c: u8) -> Swizzle {
        Swizzle::new(c, c, c, c)
    }

    /// The input component that output component `i` reads.
    pub fn get(self, i: usize) -> usize {
        ((self.0 >> (2 * i)) & 3) as usize
    }

    /// The four selectors.
    pub fn components(self) -> [usize; 4] {
        [self.get(0), self.get(1), self.get(2), self.get(3)]
    }

    /// Whether all four selectors are equal.
    pub fn is_replicate(self) -> bool {
        let c = self.components();
        c.iter().all(|&x| x == c[0])
    }
}

/// A source modifier (D3DSPSM_*, source token bits 24–27).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum SrcModifier {
    /// No modifier.
    None = 0,
    /// `-x`.
    Neg = 1,
    /// `x_bias`: x − 0.5.
    Bias = 2,
    /// `-x_bias`.
    BiasNeg = 3,
    /// `x_bx2`: 2x − 1.
    Sign = 4,
    /// `-x_bx2`.
    SignNeg = 5,
    /// `1-x`.
    Comp = 6,
    /// `x_x2`: 2x.
    X2 = 7,
    /// `-x_x2`.
    X2Neg = 8,
    /// `x_dz`: divide by z (ps_1_4 texld/texcrd).
    Dz = 9,
    /// `x_dw`: divide by w (ps_1_4 texld/texcrd).
    Dw = 10,
    /// `x_abs`: |x|.
    Abs = 11,
    /// `-x_abs`.
    AbsNeg = 12,
    /// `!x`: logical not of a bool or predicate.
    Not = 13,
}

impl SrcModifier {
    /// Decodes the 4-bit field; 14 and 15 are reserved.
    pub fn from_raw(raw: u32) -> Option<SrcModifier> {
        use SrcModifier::*;
        Some(match raw {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            _ => return Option::None,
        })
    }
}

/// Result modifiers (destination token bits 20–23).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ResultModifiers(pub u8);

impl ResultModifiers {
    /// `_sat`.
    pub const SATURATE: u8 = 1;
    /// `_pp`.
    pub const PARTIAL_PRECISION: u8 = 2;
    /// `_centroid`.
    pub const CENTROID: u8 = 4;

    /// `_sat`: clamp each written component to [0, 1].
    pub fn saturate(self) -> bool {
        self.0 & Self::SATURATE != 0
    }

    /// `_pp`: may compute at reduced precision (the project computes at fp32).
    pub fn partial_precision(self) -> bool {
        self.0 & Self::PARTIAL_PRECISION != 0
    }

    /// `_centroid`: centroid interpolation.
    pub fn centroid(self) -> bool {
        self.0 & Self::CENTROID != 0
    }
}

/// How a relatively addressed register finds its index register.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RelAddr {
    /// `a0` or `aL`.
    pub reg: Register,
    /// The relative-address token's swizzle; its first selector is the component used.
    pub swizzle: Swizzle,
    /// vs_1_1 form: no token follows, the address is implicitly `a0.x`.
    pub implicit: bool,
}

impl RelAddr {
    /// The component of the address register that is added to the register number.
    pub fn component(self) -> usize {
        self.swizzle.get(0)
    }
}

/// A destination parameter.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DstParam {
    /// The register written.
    pub reg: Register,
    /// Components written.
    pub mask: WriteMask,
    /// `_sat`, `_pp`, `_centroid`.
    pub modifiers: ResultModifiers,
    /// ps_1_x result shift as a power of two: 1 = `_x2`, 2 = `_x4`, 3 = `_x8`, −1 = `_d2` … −3 = `_d8`.
    pub shift: i8,
    /// Relative addressing (`o[aL]` in vs_3_0).
    pub relative: Option<RelAddr>,
}

impl DstParam {
    /// A plain destination writing `mask` of `reg`.
    pub fn new(reg: Register, mask: WriteMask) -> DstParam {
        DstParam { reg, mask, modifiers: ResultModifiers::default(), shift: 0, relative: None }
    }
}

/// A source parameter.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SrcParam {
    /// The register read.
    pub reg: Register,
    /// Component selection.
    pub swizzle: Swizzle,
    /// Source modifier.
    pub modifier: SrcModifier,
    /// Relative addressing (`c[a0.x + n]`, `c[aL + n]`, `v[aL]`).
    pub relative: Option<RelAddr>,
}

impl SrcParam {
    /// A plain `.xyzw` read of `reg`.
    pub fn new(reg: Register) -> SrcParam {
        SrcParam { reg, swizzle: Swizzle::IDENTITY, modifier: SrcModifier::None, relative: None }
    }
}
