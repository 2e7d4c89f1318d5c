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
    Comment, Control, Decl, DstParam, Instruction, Opcode, Payload, Program, RegisterType, RelAddr, SrcParam,
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
    match op {
        Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep => (0, 1),
        Opcode::Else => (1, 1),
        Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => (1, 0),
        _ => (0, 0),
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
            Some(RegisterType::Input) => version.is_pixel() && version.major < 3,
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
                    writeln!(out, "//   {:<24} {:<6} {}", "Name", "Reg", "Size")?;
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
