//! The spelling of registers, masks, swizzles, modifiers and constants, shared by the
//! disassembler (which writes it) and the assembler (which reads it back), so that the two
//! directions cannot drift apart.
//!
//! The syntax is Microsoft's (`fxc /dumpbin`, `D3DXDisassembleShader`), with four additions that
//! make every decodable token stream printable and every listing re-assemblable bit for bit:
//!
//! - a `def` component that is not a finite float (infinity, NaN with its payload) is written as
//!   its IEEE bit pattern in hexadecimal, `0x7fc00000`; the assembler reads any `0x` literal in a
//!   `def` as raw bits;
//! - an empty destination write mask (which no compiler writes) is written `.none`;
//! - a `dcl` usage token whose fields have no name is written `dcl_raw_0x........` with the whole token;
//! - with [`super::DisasmOptions::keep_comments`], comment blocks are written as `.comment N`
//!   followed by `.dw` lines carrying the N DWORDs.

use std::fmt::{self, Write};

use crate::bytecode::registers::{misc, rastout};
use crate::bytecode::{Register, RegisterType, SrcModifier, Swizzle, WriteMask};

/// Component letters in the order of the token's bits.
pub const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// The component a mask or swizzle letter names (`xyzw` or `rgba`, any case).
pub fn component(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// How a register file is written: a prefix followed by the register number, or a fixed name
/// for one register of the file.
pub struct RegisterSpelling {
    /// The prefix (`r`, `oC`, `oDepth`) or the fixed name (`oPos`).
    pub text: &'static str,
    /// The file.
    pub ty: RegisterType,
    /// For a fixed name, the register number it stands for; `None` for a prefix taking digits.
    pub fixed: Option<u16>,
}

const fn prefix(text: &'static str, ty: RegisterType) -> RegisterSpelling {
    RegisterSpelling { text, ty, fixed: None }
}
const fn fixed(text: &'static str, ty: RegisterType, num: u16) -> RegisterSpelling {
    RegisterSpelling { text, ty, fixed: Some(num) }
}

/// Every register spelling. A name is split into its letters and its digits, and the letters
/// must equal one spelling (ignoring case), so `oPos`, `oD` and `o` never shadow each other.
pub static REGISTERS: &[RegisterSpelling] = &[
    fixed("oPos", RegisterType::RastOut, rastout::POSITION),
    fixed("oFog", RegisterType::RastOut, rastout::FOG),
    fixed("oPts", RegisterType::RastOut, rastout::POINT_SIZE),
    prefix("oRast", RegisterType::RastOut),
    prefix("oDepth", RegisterType::DepthOut),
    prefix("oD", RegisterType::AttrOut),
    prefix("oT", RegisterType::TexCrdOut),
    prefix("oC", RegisterType::ColorOut),
    prefix("o", RegisterType::Output),
    fixed("vPos", RegisterType::MiscType, misc::POSITION),
    fixed("vFace", RegisterType::MiscType, misc::FACE),
    prefix("vMisc", RegisterType::MiscType),
    prefix("v", RegisterType::Input),
    prefix("aL", RegisterType::Loop),
    prefix("a", RegisterType::Addr),
    prefix("half", RegisterType::TempFloat16),
    prefix("r", RegisterType::Temp),
    prefix("c", RegisterType::Const),
    prefix("t", RegisterType::Texture),
    prefix("i", RegisterType::ConstInt),
    prefix("s", RegisterType::Sampler),
    prefix("b", RegisterType::ConstBool),
    prefix("l", RegisterType::Label),
    prefix("p", RegisterType::Predicate),
];

/// Whether the number of this register is part of its name (`oPos`, `aL`, `oDepth`, `vFace`):
/// then a relatively addressed use is written `oPos[a0.x]`, not `o[a0.x + 0]`.
fn fixed_spelling(reg: Register) -> Option<&'static str> {
    use RegisterType::*;
    match (reg.ty, reg.num) {
        (RastOut, rastout::POSITION) => Some("oPos"),
        (RastOut, rastout::FOG) => Some("oFog"),
        (RastOut, rastout::POINT_SIZE) => Some("oPts"),
        (MiscType, misc::POSITION) => Some("vPos"),
        (MiscType, misc::FACE) => Some("vFace"),
        (DepthOut, 0) => Some("oDepth"),
        (Loop, 0) => Some("aL"),
        _ => None,
    }
}

/// The prefix written before a register number.
fn prefix_of(ty: RegisterType) -> &'static str {
    use RegisterType::*;
    match ty {
        Temp => "r",
        Input => "v",
        Const => "c",
        Addr => "a",
        Texture => "t",
        RastOut => "oRast",
        AttrOut => "oD",
        TexCrdOut => "oT",
        Output => "o",
        ConstInt => "i",
        ColorOut => "oC",
        DepthOut => "oDepth",
        Sampler => "s",
        ConstBool => "b",
        Loop => "aL",
        TempFloat16 => "half",
        MiscType => "vMisc",
        Label => "l",
        Predicate => "p",
    }
}

/// Writes a register's name (`r0`, `c12`, `oPos`, `aL`, `vFace`).
pub fn write_register(out: &mut impl Write, reg: Register) -> fmt::Result {
    match fixed_spelling(reg) {
        Some(name) => out.write_str(name),
        None => write!(out, "{}{}", prefix_of(reg.ty), reg.num),
    }
}

/// Writes the part of a relatively addressed register before the bracket, and returns the
/// offset to write inside it: `c` and 3 for `c[a0.x + 3]`, `oPos` and 0 for `oPos[a0.x]`.
pub fn write_relative_base(out: &mut impl Write, reg: Register) -> Result<u16, fmt::Error> {
    match fixed_spelling(reg) {
        Some(name) => out.write_str(name).map(|_| 0),
        None => out.write_str(prefix_of(reg.ty)).map(|_| reg.num),
    }
}

/// Splits a register name into its file, its number and whether the number was written
/// (`c` alone is `(Const, 0, false)`, the base of `c[a0.x + 3]`). Case is ignored.
pub fn parse_register(name: &str) -> Option<(RegisterType, u32, bool)> {
    let digits_at = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
    let (letters, digits) = name.split_at(digits_at);
    for spelling in REGISTERS {
        if !spelling.text.eq_ignore_ascii_case(letters) {
            continue;
        }
        return match spelling.fixed {
            Some(num) if digits.is_empty() => Some((spelling.ty, num as u32, true)),
            Some(_) => None,
            // `aL` and `oDepth` name register 0 of their files, like `oPos`.
            None if digits.is_empty() => {
                let named = matches!(spelling.ty, RegisterType::Loop | RegisterType::DepthOut);
                Some((spelling.ty, 0, named))
            }
            None => {
                if digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Some((spelling.ty, digits.parse().ok()?, true))
            }
        };
    }
    None
}

/// Writes a write mask: nothing for `.xyzw`, `.none` for an empty mask.
pub fn write_mask(out: &mut impl Write, mask: WriteMask) -> fmt::Result {
    match mask.0 & 0xF {
        0xF => Ok(()),
        0 => out.write_str(".none"),
        m => {
            out.write_char('.')?;
            for (c, letter) in XYZW.iter().enumerate() {
                if m & (1 << c) != 0 {
                    out.write_char(*letter)?;
                }
            }
            Ok(())
        }
    }
}

/// Writes a swizzle: nothing for `.xyzw`, one letter when all four agree, four letters otherwise.
pub fn write_swizzle(out: &mut impl Write, swizzle: Swizzle) -> fmt::Result {
    if swizzle == Swizzle::IDENTITY {
        return Ok(());
    }
    out.write_char('.')?;
    let comps = swizzle.components();
    let n = if swizzle.is_replicate() { 1 } else { 4 };
    for &c in &comps[..n] {
        out.write_char(XYZW[c])?;
    }
    Ok(())
}

/// How a source modifier is written around the register: prefix and suffix.
pub fn modifier_spelling(m: SrcModifier) -> (&'static str, &'static str) {
    use SrcModifier::*;
    match m {
        None => ("", ""),
        Neg => ("-", ""),
        Bias => ("", "_bias"),
        BiasNeg => ("-", "_bias"),
        Sign => ("", "_bx2"),
        SignNeg => ("-", "_bx2"),
        Comp => ("1-", ""),
        X2 => ("", "_x2"),
        X2Neg => ("-", "_x2"),
        Dz => ("", "_dz"),
        Dw => ("", "_dw"),
        Abs => ("", "_abs"),
        AbsNeg => ("-", "_abs"),
        Not => ("!", ""),
    }
}

/// The suffix modifiers (`_bias`, `_bx2`, `_x2`, `_dz`, `_dw`, `_abs`) by name, without the underscore.
pub fn suffix_modifier(name: &str) -> Option<SrcModifier> {
    use SrcModifier::*;
    [("bias", Bias), ("bx2", Sign), ("x2", X2), ("dz", Dz), ("dw", Dw), ("abs", Abs), ("db", Dz), ("da", Dw)]
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, m)| m)
}

/// Combines a leading negation with a suffix modifier (`-r0_bx2` is `SignNeg`).
pub fn negate(m: SrcModifier) -> Option<SrcModifier> {
    use SrcModifier::*;
    Some(match m {
        None => Neg,
        Bias => BiasNeg,
        Sign => SignNeg,
        X2 => X2Neg,
        Abs => AbsNeg,
        _ => return Option::None,
    })
}

/// Result shift suffixes (`_x2` … `_d8`) as their power of two.
pub const SHIFTS: [(&str, i8); 6] = [("x2", 1), ("x4", 2), ("x8", 3), ("d2", -1), ("d4", -2), ("d8", -3)];

/// The suffix of a result shift, if it has one (±1…±3).
pub fn shift_suffix(shift: i8) -> Option<&'static str> {
    SHIFTS.iter().find(|(_, s)| *s == shift).map(|(n, _)| *n)
}

/// Writes one `def` component so that [`parse_def_component`] returns the same bits: the
/// shortest decimal that reads back exactly (integers without a point, as fxc writes them), or
/// the hexadecimal bit pattern for infinities and NaNs.
pub fn write_def_component(out: &mut impl Write, bits: u32) -> fmt::Result {
    let v = f32::from_bits(bits);
    if !v.is_finite() {
        return write!(out, "0x{bits:08x}");
    }
    let a = v.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        // Display writes the shortest decimal that parses back to the same value, `-0` included.
        write!(out, "{v}")
    } else {
        write!(out, "{v:e}")
    }
}

/// Reads a `def` component: a decimal float (optional trailing `f`, `inf`/`nan` words) or a
/// `0x` bit pattern. Returns the IEEE bits.
pub fn parse_def_component(text: &str, negative: bool) -> Option<u32> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 8 {
            return None;
        }
        let bits = u32::from_str_radix(hex, 16).ok()?;
        return Some(if negative { bits ^ 0x8000_0000 } else { bits });
    }
    let numeric = text.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    let body = if numeric { text.strip_suffix(['f', 'F']).unwrap_or(text) } else { text };
    // Rust's parser also takes "infinity", "nan" and signs; the lexer hands over only a
    // number or an identifier, and the sign comes separately.
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    let v: f32 = body.parse().ok()?;
    Some(if negative { (-v).to_bits() } else { v.to_bits() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def_text(bits: u32) -> String {
        let mut s = String::new();
        write_def_component(&mut s, bits).unwrap();
        s
    }

    #[test]
    fn def_components_round_trip_bit_exactly() {
        // -0.0, the smallest denormal, the largest float, a quiet NaN with payload, both
        // infinities, a signalling NaN, 1/3 and fxc-style integers.
        let cases = [
            0x8000_0000u32,
            0x0000_0001,
            0x7F7F_FFFF,
            0x7FC0_1234,
            0x7F80_0000,
            0xFF80_0000,
            0x7F80_0001,
            0x3EAA_AAAB,
            0x3F80_0000,
            0x4480_0000,
            0x3380_0000,
        ];
        for bits in cases {
            let t = def_text(bits);
            let (neg, body) = match t.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, t.as_str()),
            };
            assert_eq!(parse_def_component(body, neg), Some(bits), "{bits:08x} written as {t}");
        }
        assert_eq!(def_text(0x3F80_0000), "1");
        assert_eq!(def_text(0x3F00_0000), "0.5");
        assert_eq!(def_text(0x8000_0000), "-0");
        assert_eq!(def_text(0x7FC0_0000), "0x7fc00000");
        assert_eq!(parse_def_component("1.0f", false), Some(0x3F80_0000));
        assert_eq!(parse_def_component("0.", false), Some(0));
        assert_eq!(parse_def_component("-1", false), None, "the sign is a separate token");
        assert_eq!(parse_def_component("inf", true), Some(0xFF80_0000));
    }

    #[test]
    fn every_register_name_reads_back() {
        for (ty, nums) in [
            (RegisterType::Temp, &[0u16, 31][..]),
            (RegisterType::Const, &[0, 255, 2048, 8191]),
            (RegisterType::RastOut, &[0, 1, 2, 3]),
            (RegisterType::MiscType, &[0, 1, 7]),
            (RegisterType::DepthOut, &[0, 1]),
            (RegisterType::Loop, &[0, 2]),
            (RegisterType::Output, &[11]),
            (RegisterType::TempFloat16, &[3]),
            (RegisterType::Label, &[2047]),
        ] {
            for &num in nums {
                let mut s = String::new();
                write_register(&mut s, Register::new(ty, num)).unwrap();
                assert_eq!(parse_register(&s), Some((ty, num as u32, true)), "{s}");
            }
        }
        assert_eq!(parse_register("OPOS"), Some((RegisterType::RastOut, 0, true)));
        assert_eq!(parse_register("c"), Some((RegisterType::Const, 0, false)));
        assert_eq!(parse_register("q0"), None);
        assert_eq!(parse_register("oPos1"), None);
    }
}
