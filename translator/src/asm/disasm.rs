//! [`Program`] → assembly text in Microsoft's syntax.
//!
//! Every program the decoder accepts prints as text that [`super::assemble`] turns back into the
//! same tokens (comment blocks aside, unless [`DisasmOptions::keep_comments`] is set). The names
//! come from the opcode table through [`Opcode::decoding_form`], which is also how the assembler
//! finds them, so an opcode used outside its versions still prints and re-assembles.

use std::fmt::{self, Write};

use super::syntax::{
    modifier_spelling, shift_suffix, write_def_component, write_mask, write_register, write_relative_base,
    write_swizzle,
};
use crate::bytecode::ctab::parse_ctab;
use crate::bytecode::instruction::CTAB_FOURCC;
use crate::bytecode::{
    Comment, Control, Decl, DstParam, Instruction, Nesting, Opcode, Payload, Program, RegisterType, RelAddr, SrcParam,
    TexldVariant, TextureType, Usage, Version,
};

/// How to print a program.
#[derive(Clone, Copy, Debug, Default)]
pub struct DisasmOptions {
    /// Write comment blocks as `.comment`/`.dw` lines that assemble back into the same DWORDs,
    /// so that the listing reproduces the blob exactly. Without it, comment blocks are shown
    /// as `//` notes (the constant table decoded) and assembling drops them.
    pub keep_comments: bool,
}

/// Disassembles a program into a new string.
pub fn disassemble(program: &Program, options: &DisasmOptions) -> String {
    let mut out = String::with_capacity(16 + program.instructions.len() * 28);
    write_program(&mut out, program, options).expect("writing to a String cannot fail");
    out
}

/// How deep flow control is indented before the listing stops indenting further.
const MAX_INDENT: usize = 16;

/// Writes a whole listing: version line, instructions one per line, comment blocks in place.
pub fn write_program(out: &mut impl Write, program: &Program, options: &DisasmOptions) -> fmt::Result {
    writeln!(out, "{}", program.version)?;
    let mut comments = program.comments.iter().peekable();
    let mut depth = 0usize;
    for (i, inst) in program.instructions.iter().enumerate() {
        while let Some(c) = comments.next_if(|c| c.position <= i) {
            write_comment(out, c, options)?;
        }
        let (before, after) = nesting(inst.opcode);
        depth = depth.saturating_sub(before);
        for _ in 0..depth.min(MAX_INDENT) {
            out.write_str("  ")?;
        }
        write_instruction(out, inst, program.version)?;
        out.write_char('\n')?;
        depth += after;
    }
    for c in comments {
        write_comment(out, c, options)?;
    }
    Ok(())
}

/// How an instruction changes the indentation: levels closed before it, opened after it.
fn nesting(op: Opcode) -> (usize, usize) {
    match op.info().nesting {
        Nesting::Open { .. } => (0, 1),
        Nesting::Else => (1, 1),
        Nesting::Close => (1, 0),
        Nesting::None => (0, 0),
    }
}

/// Writes one instruction without indentation or newline, e.g. `(!p0.x) add_sat r2.xy, r2, -c[a0.x + 3]`.
pub fn write_instruction(out: &mut impl Write, inst: &Instruction, version: Version) -> fmt::Result {
    if inst.coissue {
        out.write_char('+')?;
    }
    if let Some(p) = &inst.predicate {
        out.write_char('(')?;
        write_src(out, p)?;
        out.write_str(") ")?;
    }
    let form = inst.opcode.decoding_form(version);
    match form.control {
        Control::TexldVariant => {
            // The decoder admits 0–2 only; anything else would not have decoded.
            let variant = TexldVariant::from_raw(inst.control).unwrap_or(TexldVariant::Plain);
            out.write_str(variant.name())?;
        }
        Control::Comparison => {
            out.write_str(form.name)?;
            if let Some(c) = inst.comparison() {
                write!(out, "_{}", c.suffix())?;
            }
        }
        Control::None => out.write_str(form.name)?,
    }
    if let Payload::Dcl(decl) = inst.payload {
        write_decl_suffix(out, decl, inst.dst.map(|d| d.reg.ty), version)?;
    }
    if let Some(d) = &inst.dst {
        if let Some(s) = shift_suffix(d.shift) {
            write!(out, "_{s}")?;
        }
        if d.modifiers.saturate() {
            out.write_str("_sat")?;
        }
        if d.modifiers.partial_precision() {
            out.write_str("_pp")?;
        }
        if d.modifiers.centroid() {
            out.write_str("_centroid")?;
        }
    }
    let mut sep = " ";
    if let Some(d) = &inst.dst {
        out.write_str(sep)?;
        write_dst(out, d)?;
        sep = ", ";
    }
    match inst.payload {
        Payload::None | Payload::Dcl(_) => {}
        Payload::Def(v) => {
            for bits in v {
                out.write_str(sep)?;
                write_def_component(out, bits)?;
                sep = ", ";
            }
        }
        Payload::DefI(v) => {
            for x in v {
                write!(out, "{sep}{x}")?;
                sep = ", ";
            }
        }
        Payload::DefB(b) => {
            out.write_str(sep)?;
            match b {
                0 => out.write_str("false")?,
                1 => out.write_str("true")?,
                n => write!(out, "0x{n:x}")?,
            }
        }
    }
    for s in inst.src.iter() {
        out.write_str(sep)?;
        write_src(out, s)?;
        sep = ", ";
    }
    Ok(())
}

/// The part of `dcl_…` after `dcl`: `_texcoord1`, `_2d`, nothing for the bare `dcl t0` of
/// ps_2_0 inputs and `vPos`, or `_raw_0x…` when the token's fields have no name.
fn write_decl_suffix(out: &mut impl Write, decl: Decl, reg: Option<RegisterType>, version: Version) -> fmt::Result {
    if decl.texture_type != 0 {
        return match decl.texture_type() {
            Some(tt) if decl.usage == 0 && decl.usage_index == 0 && tt != TextureType::Unknown => {
                write!(out, "_{}", tt.name())
            }
            _ => write!(out, "_raw_0x{:08x}", decl.token()),
        };
    }
    let Some(usage) = decl.usage() else { return write!(out, "_raw_0x{:08x}", decl.token()) };
    if usage == Usage::Position && decl.usage_index == 0 {
        // A usage token of zero means nothing for registers that carry no semantic: the pixel
        // shader's t#/v# before ps_3_0, vPos/vFace and samplers without a texture type.
        let bare = match reg {
            Some(RegisterType::Texture | RegisterType::MiscType | RegisterType::Sampler) => true,
            Some(RegisterType::Input) => version.is_pixel() && version.profile().fixed_io,
            _ => false,
        };
        if bare {
            return Ok(());
        }
    }
    out.write_char('_')?;
    out.write_str(usage.name())?;
    if decl.usage_index != 0 {
        write!(out, "{}", decl.usage_index)?;
    }
    Ok(())
}

fn write_relative(out: &mut impl Write, reg: crate::bytecode::Register, rel: RelAddr) -> fmt::Result {
    let offset = write_relative_base(out, reg)?;
    out.write_char('[')?;
    write_register(out, rel.reg)?;
    write_swizzle(out, rel.swizzle)?;
    if offset != 0 {
        write!(out, " + {offset}")?;
    }
    out.write_char(']')
}

/// Writes a destination: register (or relative form) and write mask.
pub fn write_dst(out: &mut impl Write, d: &DstParam) -> fmt::Result {
    match d.relative {
        Some(rel) => write_relative(out, d.reg, rel)?,
        None => write_register(out, d.reg)?,
    }
    write_mask(out, d.mask)
}

/// Writes a source: modifier, register (or relative form), swizzle, e.g. `-r1_bx2.w`, `1-t0`.
pub fn write_src(out: &mut impl Write, s: &SrcParam) -> fmt::Result {
    let (prefix, suffix) = modifier_spelling(s.modifier);
    out.write_str(prefix)?;
    match s.relative {
        Some(rel) => write_relative(out, s.reg, rel)?,
        None => write_register(out, s.reg)?,
    }
    out.write_str(suffix)?;
    write_swizzle(out, s.swizzle)
}

/// DWORDs per `.dw` line in keep-comments mode.
const DWORDS_PER_LINE: usize = 8;

fn write_comment(out: &mut impl Write, c: &Comment, options: &DisasmOptions) -> fmt::Result {
    write_comment_note(out, c)?;
    if options.keep_comments {
        writeln!(out, ".comment {}", c.data.len())?;
        for chunk in c.data.chunks(DWORDS_PER_LINE) {
            out.write_str(".dw")?;
            for (k, w) in chunk.iter().enumerate() {
                write!(out, "{}0x{w:08x}", if k == 0 { " " } else { ", " })?;
            }
            out.write_char('\n')?;
        }
    }
    Ok(())
}

/// Writes a string from the comment block with control characters (a line break would end
/// the `//` note) shown as `?`; returns the number of characters written.
fn write_printable(out: &mut impl Write, s: &str) -> Result<usize, fmt::Error> {
    let mut n = 0;
    for c in s.chars().take(256) {
        out.write_char(if c.is_control() { '?' } else { c })?;
        n += 1;
    }
    Ok(n)
}

/// A readable `//` note for a comment block: the constant table decoded, or the block's size
/// and FourCC.
fn write_comment_note(out: &mut impl Write, c: &Comment) -> fmt::Result {
    if c.fourcc() == Some(CTAB_FOURCC) {
        match parse_ctab(&c.data[1..]) {
            Ok(table) => {
                write!(out, "// Constant table ({} DWORDs), target ", c.data.len())?;
                write_printable(out, &table.target)?;
                out.write_str(", by ")?;
                write_printable(out, &table.creator)?;
                out.write_char('\n')?;
                if !table.constants.is_empty() {
                    writeln!(out, "//   Name                     Reg    Size")?;
                }
                for k in &table.constants {
                    out.write_str("//   ")?;
                    let shown = write_printable(out, &k.name)?;
                    for _ in shown..24 {
                        out.write_char(' ')?;
                    }
                    writeln!(out, " {}{:<5} {}", k.register_set.prefix(), k.register_index, k.register_count)?;
                }
                return Ok(());
            }
            Err(e) => return writeln!(out, "// Constant table ({} DWORDs), malformed: {e}", c.data.len()),
        }
    }
    write!(out, "// Comment block, {} DWORDs", c.data.len())?;
    if let Some(fourcc) = c.fourcc() {
        let bytes = fourcc.to_le_bytes();
        if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            out.write_str(" '")?;
            for b in bytes {
                out.write_char(b as char)?;
            }
            out.write_char('\'')?;
        }
    }
    out.write_char('\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble_tokens;
    use crate::bytecode::decode;

    /// Tokens written by hand from the token format (register type in bits 28-30 and 11-12,
    /// mask/swizzle in 16-23, modifiers in 20-27, relative flag in bit 13), with the Microsoft
    /// listing line each stands for. Both directions are checked.
    const CASES: &[(u32, &[u32], &str)] = &[
        // Predicate token between destination and sources, `!` = modifier 13, swizzle .x = 0x00.
        (0xFFFF_0201, &[0x1400_0002, 0x800F_0002, 0xBD00_1000, 0x80E4_0002, 0x80E4_0003], "(!p0.x) add r2, r2, r3"),
        // Co-issue is bit 30; mask .w alone is 0x8.
        (0xFFFF_0101, &[0x4000_0001, 0x8008_0000, 0xB0E4_0000], "+mov r0.w, t0"),
        // SM2 relative addressing: bit 13 and an a0 token (type 3 = 0xB…) with swizzle .x.
        (0xFFFE_0200, &[0x0300_0001, 0x800F_0000, 0xA0E4_2003, 0xB000_0000], "mov r0, c[a0.x + 3]"),
        // vs_1_1: the relative bit alone means a0.x.
        (0xFFFE_0101, &[0x0000_0001, 0x800F_0000, 0xA0E4_2003], "mov r0, c[a0.x + 3]"),
        // Shift x2 = 1 in bits 24-27; _bx2 = 4, negation = 1, 1- = 6, _bias = 2.
        (0xFFFF_0104, &[0x0000_0002, 0x810F_0000, 0x84E4_0001, 0x81E4_0002], "add_x2 r0, r1_bx2, -r2"),
        (0xFFFF_0104, &[0x0000_0004, 0x800F_0000, 0x86E4_0000, 0x82E4_0001, 0x80E4_0002], "mad r0, 1-r0, r1_bias, r2"),
        // ps_1_4 texld with _dz = 9.
        (0xFFFF_0104, &[0x0000_0042, 0x800F_0000, 0x89E4_0001], "texld r0, r1_dz"),
        // -0.0, the smallest denormal, a quiet NaN, 1.0.
        (
            0xFFFF_0200,
            &[0x0500_0051, 0xA00F_0000, 0x8000_0000, 0x0000_0001, 0x7FC0_0000, 0x3F80_0000],
            "def c0, -0, 1e-45, 0x7fc00000, 1",
        ),
        (0xFFFE_0200, &[0x0500_0030, 0xF00F_0000, 0xFFFF_FFFF, 0, 1, 255], "defi i0, -1, 0, 1, 255"),
        // Usage texcoord (5) index 1, centroid (4 in bits 20-23), mask .xy.
        (0xFFFF_0300, &[0x0200_001F, 0x8001_0005, 0x9043_0001], "dcl_texcoord1_centroid v1.xy"),
        // vPos is misc-type (17) register 0; sampler type 2d is 2 in bits 27-30.
        (0xFFFF_0300, &[0x0200_001F, 0x8000_0000, 0x9003_1000], "dcl vPos.xy"),
        (0xFFFF_0200, &[0x0200_001F, 0x9000_0000, 0xA00F_0800], "dcl_2d s0"),
        (0xFFFE_0300, &[0x0200_001F, 0x8000_0000, 0xE00F_0000], "dcl_position o0"),
        (0xFFFF_0300, &[0x0200_001B, 0xF0E4_0800, 0xF0E4_0000], "loop aL, i0"),
        (0xFFFF_0300, &[0x0300_0001, 0x800F_0000, 0x90E4_2000, 0xF0E4_0800], "mov r0, v[aL]"),
        // Comparisons in bits 16-23: gt = 1, ne = 5, le = 6.
        (0xFFFF_0201, &[0x0201_0029, 0x8000_0000, 0xA000_0000], "if_gt r0.x, c0.x"),
        (0xFFFF_0201, &[0x0206_002D, 0x8000_0000, 0x8000_0001], "break_le r0.x, r1.x"),
        (0xFFFF_0201, &[0x0305_005E, 0xB00F_1000, 0x80E4_0000, 0x80E4_0001], "setp_ne p0, r0, r1"),
        // texld variants in bits 16-23: 1 = texldp.
        (0xFFFF_0200, &[0x0301_0042, 0x800F_0000, 0xB0E4_0000, 0xA0E4_0800], "texldp r0, t0, s0"),
        (0xFFFF_0200, &[0x0200_0001, 0x801F_0800, 0x80E4_0000], "mov_sat oC0, r0"),
        (0xFFFE_0101, &[0x0000_0001, 0xC00F_0000, 0xA0E4_0000], "mov oPos, c0"),
        // An empty write mask, which only a damaged stream has.
        (0xFFFF_0200, &[0x0200_0001, 0x8000_0000, 0x80E4_0001], "mov r0.none, r1"),
    ];

    #[test]
    fn hand_encoded_instructions_print_and_read_back() {
        for &(version, inst, line) in CASES {
            let mut tokens = vec![version];
            tokens.extend_from_slice(inst);
            tokens.push(0x0000_FFFF);
            let program = decode(&tokens).unwrap_or_else(|e| panic!("{line}: {e}"));
            let mut text = String::new();
            write_instruction(&mut text, &program.instructions[0], program.version).unwrap();
            assert_eq!(text, line);
            let source = format!("{}\n{line}\n", program.version);
            assert_eq!(assemble_tokens(&source).unwrap(), tokens, "{line}");
        }
    }

    #[test]
    fn flow_control_is_indented_and_comments_are_notes() {
        // ps_2_x: if_gt r0.x, c0.x / mov r0, c0 / endif, with a 1-DWORD comment before endif.
        let tokens = [
            0xFFFF_0201,
            0x0201_0029,
            0x8000_0000,
            0xA000_0000,
            0x0200_0001,
            0x800F_0000,
            0xA0E4_0000,
            0x0001_FFFE,
            0x2020_2020,
            0x0000_002B,
            0x0000_FFFF,
        ];
        let program = decode(&tokens).unwrap();
        let plain = disassemble(&program, &DisasmOptions::default());
        assert_eq!(plain, "ps_2_x\nif_gt r0.x, c0.x\n  mov r0, c0\n// Comment block, 1 DWORDs '    '\nendif\n");
        let kept = disassemble(&program, &DisasmOptions { keep_comments: true });
        assert!(kept.contains(".comment 1\n.dw 0x20202020\n"), "{kept}");
        assert_eq!(assemble_tokens(&kept).unwrap(), tokens);
        let mut without = tokens.to_vec();
        without.drain(7..9);
        assert_eq!(assemble_tokens(&plain).unwrap(), without);
    }
}
