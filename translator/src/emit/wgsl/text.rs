//! Numbers and literals as WGSL text, appended to the output without `fmt` machinery where it
//! matters: handles and integer literals are most of the numbers a module prints.

use std::fmt::Write as _;

/// The two-digit numbers 00 to 99, for printing two digits at a time.
const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// Decimal digits of `v`: the leading digits, then two at a time (a handle or a literal is
/// printed with a few short appends and no UTF-8 check).
#[inline]
pub(super) fn push_u32(out: &mut String, v: u32) {
    if v < 10 {
        out.push(char::from(b'0' + v as u8));
    } else if v < 100 {
        push_pair(out, v);
    } else if v < 1000 {
        out.push(char::from(b'0' + (v / 100) as u8));
        push_pair(out, v % 100);
    } else if v < 10000 {
        push_pair(out, v / 100);
        push_pair(out, v % 100);
    } else {
        push_u32(out, v / 10000);
        let low = v % 10000;
        push_pair(out, low / 100);
        push_pair(out, low % 100);
    }
}

fn push_pair(out: &mut String, v: u32) {
    let i = 2 * v as usize;
    out.push_str(&PAIRS[i..i + 2]);
}

/// Decimal digits of `v`, with `-` when negative.
pub(super) fn push_i32(out: &mut String, v: i32) {
    if v < 0 {
        out.push('-');
    }
    push_u32(out, v.unsigned_abs());
}

/// An `f32` as naga's writer prints it (Rust's `Display`: the shortest decimal that reads back
/// to the same bits, never an exponent), then `f`. docs/wgsl.md §1: the lowering only makes
/// literals every compiler reads exactly, so the text must be the same digits naga wrote.
pub(super) fn push_f32(out: &mut String, v: f32) {
    // The lowering's most common literal, by far.
    if v.to_bits() == 0 {
        out.push_str("0f");
        return;
    }
    // Whole numbers below 2^24 print as their integer (`255f`, `-0f`): no float formatting.
    let whole = v.abs() < 16_777_216.0 && (v as i32) as f32 == v;
    if whole {
        if v.is_sign_negative() {
            out.push('-');
        }
        push_u32(out, v.abs() as u32);
    } else {
        let _ = write!(out, "{v}");
    }
    out.push('f');
}

/// An `i32` literal: `1i`. The most negative value has no literal form (its magnitude is not an
/// `i32`), so it is the conversion of the abstract integer, as naga writes it.
pub(super) fn push_i32_literal(out: &mut String, v: i32) {
    if v == i32::MIN {
        out.push_str("i32(");
        push_i32(out, v);
        out.push(')');
    } else {
        push_i32(out, v);
        out.push('i');
    }
}

/// `_eN`: the name of the value of expression N (naga's form, so the text reads as before).
#[inline]
pub(super) fn push_baked(out: &mut String, index: usize) {
    out.push_str("_e");
    push_u32(out, index as u32);
}

/// Enough indentation for any nesting D3D9 allows (and more).
const SPACES: &str = "                                                                ";

/// Four spaces per level, in one append.
pub(super) fn push_indent(out: &mut String, level: usize) {
    let n = 4 * level;
    if n <= SPACES.len() {
        out.push_str(&SPACES[..n]);
    } else {
        for _ in 0..level {
            out.push_str("    ");
        }
    }
}
