//! [`Program`] → tokens: the exact inverse of the decoder.

use super::instruction::{Instruction, Payload, Program};
use super::opcodes::{COMMENT_OPCODE, END_TOKEN};
use super::params::{DstParam, RelAddr, SrcParam};
use super::registers::Register;

/// Encodes a program as tokens, comments in place, end token last.
pub fn encode(program: &Program) -> Vec<u32> {
    encode_with(program, true)
}

/// Encodes a program, with or without its comment blocks.
pub fn encode_with(program: &Program, comments: bool) -> Vec<u32> {
    let mut out = Vec::with_capacity(program.instructions.len() * 4 + 2);
    out.push(program.version.token());
    let sm1 = program.version.is_sm1();
    let mut pending = if comments { program.comments.as_slice() } else { &[] };
    for (i, inst) in program.instructions.iter().enumerate() {
        while let Some((c, rest)) = pending.split_first() {
            if c.position > i {
                break;
            }
            push_comment(&mut out, &c.data);
            pending = rest;
        }
        encode_instruction(&mut out, inst, sm1);
    }
    for c in pending {
        push_comment(&mut out, &c.data);
    }
    out.push(END_TOKEN);
    out
}

/// Encodes to little-endian bytes.
pub fn encode_bytes(program: &Program) -> Vec<u8> {
    encode(program).iter().flat_map(|t| t.to_le_bytes()).collect()
}

fn push_comment(out: &mut Vec<u32>, data: &[u32]) {
    out.push(COMMENT_OPCODE as u32 | ((data.len() as u32 & 0x7FFF) << 16));
    out.extend_from_slice(data);
}

fn register_bits(reg: Register) -> u32 {
    let (raw, num) = reg.ty.to_raw(reg.num);
    (num as u32 & 0x7FF) | (raw & 7) << 28 | (raw & 0x18) << 8 | 0x8000_0000
}

fn push_relative(out: &mut Vec<u32>, rel: Option<RelAddr>) {
    if let Some(rel) = rel {
        if !rel.implicit {
            out.push(register_bits(rel.reg) | (rel.swizzle.0 as u32) << 16);
        }
    }
}

fn push_dst(out: &mut Vec<u32>, d: &DstParam) {
    let shift = (d.shift as u32) & 0xF;
    out.push(
        register_bits(d.reg)
            | (d.relative.is_some() as u32) << 13
            | (d.mask.0 as u32 & 0xF) << 16
            | (d.modifiers.0 as u32 & 0xF) << 20
            | shift << 24,
    );
    push_relative(out, d.relative);
}

fn push_src(out: &mut Vec<u32>, s: &SrcParam) {
    out.push(
        register_bits(s.reg)
            | (s.relative.is_some() as u32) << 13
            | (s.swizzle.0 as u32) << 16
            | (s.modifier as u32) << 24,
    );
    push_relative(out, s.relative);
}

/// Appends one instruction's tokens.
pub fn encode_instruction(out: &mut Vec<u32>, inst: &Instruction, sm1: bool) {
    let at = out.len();
    out.push(0);
    if let Payload::Dcl(decl) = inst.payload {
        out.push(decl.token());
    }
    if let Some(d) = &inst.dst {
        push_dst(out, d);
    }
    if let Some(p) = &inst.predicate {
        push_src(out, p);
    }
    match inst.payload {
        Payload::None | Payload::Dcl(_) => {}
        Payload::Def(v) => out.extend_from_slice(&v),
        Payload::DefI(v) => out.extend(v.iter().map(|&x| x as u32)),
        Payload::DefB(v) => out.push(v),
    }
    for s in inst.src.iter() {
        push_src(out, s);
    }
    let length = if sm1 { 0 } else { (out.len() - at - 1) as u32 & 0xF };
    out[at] = inst.opcode as u32
        | (inst.control as u32) << 16
        | length << 24
        | (inst.predicate.is_some() as u32) << 28
        | (inst.coissue as u32) << 30;
}
