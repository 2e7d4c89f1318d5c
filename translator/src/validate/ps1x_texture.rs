//! ps_1_x texture instructions: order, pairing, registers and ps_1_4 phases.
//!
//! ps_1_0–1_3: texture instructions come before arithmetic ones; each `t#` is written by one
//! texture instruction; a texture instruction reading `tN` writes a higher `tM` and `tN` was
//! written before; `texm3x2pad` is followed by `texm3x2tex`/`texm3x2depth` on the next
//! register, two `texm3x3pad` by `texm3x3tex`/`texm3x3spec`/`texm3x3vspec`/`texm3x3`, with
//! the same source; a register is read only after it is written.
//!
//! ps_1_4: at most one `phase` splits the shader in two; in each phase texture instructions
//! (`texld`, `texcrd`, `texkill`, `texdepth`) come first; phase 1 reads only `t#` for
//! coordinates, phase 2 also the `r#` that phase 1 wrote; `t#` are read only as coordinates;
//! `v#` only in the last phase; `bem` only in phase 1, `texdepth` only in the last.

use super::version_rules::instructions::OpName;
use super::{Cx, Rule};
use crate::bytecode::{Instruction, Opcode, RegisterType};

/// Checks the ps_1_x texture-instruction rules.
pub(crate) fn check(cx: &mut Cx<'_>) {
    if cx.id.is_none() || !cx.profile.ps_1_x {
        return;
    }
    if cx.profile.ps_1_4 {
        ps_1_4(cx)
    } else {
        ps_1_3(cx)
    }
}

fn name(inst: &Instruction, cx: &Cx<'_>) -> OpName {
    super::version_rules::instructions::op_name(inst, cx.version)
}

/// Instructions that neither sample nor compute (they do not end the texture block).
fn setup(op: Opcode) -> bool {
    matches!(op, Opcode::Def | Opcode::Nop | Opcode::Phase)
}

/// A matrix pad waiting for the instruction that completes it: (at, pad opcode, dst, src).
type Pad = (usize, Opcode, u16, u16);

/// What the ps_1_0–1_3 rules know after each instruction.
#[derive(Default)]
struct Ps13 {
    arithmetic_seen: bool,
    /// t# written so far.
    written: [bool; 8],
    /// r# written so far.
    temps: [bool; 8],
    pads: Vec<Pad>,
}

fn ps_1_3(cx: &mut Cx<'_>) {
    let mut st = Ps13::default();
    for (i, inst) in cx.program.iter().enumerate() {
        if setup(inst.opcode) {
            continue;
        }
        if inst.opcode.info().texture {
            ps_1_3_texture(cx, i, inst, &mut st);
        } else {
            st.arithmetic_seen = true;
            unfinished_pads(cx, &mut st.pads);
            for s in inst.src.iter() {
                read(cx, i, s.reg.ty, s.reg.num, &st.written, &st.temps);
            }
            if let Some(d) = inst.dst {
                mark(d.reg.ty, d.reg.num, &mut st.written, &mut st.temps);
            }
        }
    }
    unfinished_pads(cx, &mut st.pads);
}

/// Reports the first of `pads` as never completed, and forgets them.
fn unfinished_pads(cx: &mut Cx<'_>, pads: &mut Vec<Pad>) {
    if let Some(&(at, ..)) = pads.first() {
        cx.error(
            Rule::TextureOps,
            Some(at),
            format_args!("{} is not followed by the instruction that completes it", name(cx.inst(at), cx)),
        );
        pads.clear();
    }
}

/// A ps_1_0–1_3 texture instruction at `i`: its place, its destination and source registers,
/// and the matrix sequence it belongs to.
fn ps_1_3_texture(cx: &mut Cx<'_>, i: usize, inst: &Instruction, st: &mut Ps13) {
    let op = inst.opcode;
    let n = name(inst, cx);
    if st.arithmetic_seen {
        cx.error(
            Rule::TextureOps,
            Some(i),
            format_args!(
                "{n} after an arithmetic instruction (texture instructions come first in {})",
                cx.program.version
            ),
        );
    }
    let Some(dst) = inst.dst else { return };
    let m = dst.reg.num;
    if op == Opcode::TexKill {
        // texkill tN tests texture coordinate set N itself: no earlier write needed.
        if dst.reg.ty != RegisterType::Texture {
            read(cx, i, dst.reg.ty, m, &st.written, &st.temps);
        }
        return;
    }
    if dst.reg.ty == RegisterType::Texture && st.written.get(m as usize).copied().unwrap_or(false) {
        cx.error(Rule::TextureOps, Some(i), format_args!("t{m} is written by a second texture instruction"));
    }
    if let Some(src) = inst.src.get(0).filter(|s| s.reg.ty == RegisterType::Texture) {
        let s = src.reg.num;
        if s >= m {
            cx.error(
                Rule::TextureOps,
                Some(i),
                format_args!("{n} t{m} reads t{s}: the source must be a lower texture register"),
            );
        } else if !st.written.get(s as usize).copied().unwrap_or(false) {
            cx.error(
                Rule::UninitializedRead,
                Some(i),
                format_args!("{n} reads t{s} before a texture instruction writes it"),
            );
        }
    }
    let src = inst.src.get(0).map_or(u16::MAX, |s| s.reg.num);
    matrix_sequence(cx, i, &n, op, m, src, &mut st.pads);
    mark(dst.reg.ty, m, &mut st.written, &mut st.temps);
}

/// Matrix pads and the instruction that completes them: `texm3x2pad` then `texm3x2tex` or
/// `texm3x2depth`, two `texm3x3pad` then a `texm3x3*`, on consecutive registers with one source.
fn matrix_sequence(cx: &mut Cx<'_>, i: usize, n: &OpName, op: Opcode, m: u16, src: u16, pads: &mut Vec<Pad>) {
    match op {
        Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
            let limit = if op == Opcode::TexM3x2Pad { 1 } else { 2 };
            let consistent = pads.iter().all(|p| p.1 == op) && pads.last().is_none_or(|p| p.2 + 1 == m && p.3 == src);
            if !consistent || pads.len() >= limit {
                cx.error(Rule::TextureOps, Some(i), format_args!("{n} out of sequence"));
                pads.clear();
            }
            pads.push((i, op, m, src));
        }
        Opcode::TexM3x2Tex
        | Opcode::TexM3x2Depth
        | Opcode::TexM3x3Tex
        | Opcode::TexM3x3Spec
        | Opcode::TexM3x3VSpec
        | Opcode::TexM3x3 => {
            let (pad, count) = if matches!(op, Opcode::TexM3x2Tex | Opcode::TexM3x2Depth) {
                (Opcode::TexM3x2Pad, 1)
            } else {
                (Opcode::TexM3x3Pad, 2)
            };
            let ok = pads.len() == count
                && pads.iter().all(|p| p.1 == pad)
                && pads.last().is_some_and(|p| p.2 + 1 == m && p.3 == src);
            if !ok {
                let pad_name = if count == 1 { "texm3x2pad" } else { "two texm3x3pad" };
                cx.error(
                    Rule::TextureOps,
                    Some(i),
                    format_args!("{n} t{m} must follow {pad_name} on the register(s) before it, with the same source"),
                );
            }
            pads.clear();
        }
        _ => unfinished_pads(cx, pads),
    }
}

fn mark(ty: RegisterType, num: u16, textures: &mut [bool; 8], temps: &mut [bool; 8]) {
    let slot = match ty {
        RegisterType::Texture => textures.get_mut(num as usize),
        RegisterType::Temp => temps.get_mut(num as usize),
        _ => None,
    };
    if let Some(s) = slot {
        *s = true;
    }
}

fn read(cx: &mut Cx<'_>, i: usize, ty: RegisterType, num: u16, textures: &[bool; 8], temps: &[bool; 8]) {
    let (known, what) = match ty {
        RegisterType::Texture => (textures.get(num as usize), "t"),
        RegisterType::Temp => (temps.get(num as usize), "r"),
        _ => return,
    };
    if known == Some(&false) {
        cx.error(Rule::UninitializedRead, Some(i), format_args!("{what}{num} is read before it is written"));
    }
}

/// What the ps_1_4 rules know after each instruction.
struct Ps14 {
    /// The `phase` instruction, if any.
    phase_at: Option<usize>,
    arithmetic_seen: bool,
    /// r# written by texld/texcrd in this phase.
    texture_written: [bool; 8],
    /// r# written at all.
    temps: [bool; 8],
    /// r# written by the first phase.
    phase1_written: [bool; 8],
}

fn ps_1_4(cx: &mut Cx<'_>) {
    let phases: Vec<usize> =
        cx.program.iter().enumerate().filter(|(_, x)| x.opcode == Opcode::Phase).map(|(i, _)| i).collect();
    for &extra in phases.iter().skip(1) {
        cx.error(Rule::Phase, Some(extra), "ps_1_4 has at most one phase instruction");
    }
    let mut st = Ps14 {
        phase_at: phases.first().copied(),
        arithmetic_seen: false,
        texture_written: [false; 8],
        temps: [false; 8],
        phase1_written: [false; 8],
    };
    for (i, inst) in cx.program.iter().enumerate() {
        let op = inst.opcode;
        if op == Opcode::Phase {
            st.arithmetic_seen = false;
            st.texture_written = [false; 8];
            st.phase1_written = st.temps;
            continue;
        }
        if setup(op) {
            continue;
        }
        let n = name(inst, cx);
        let is_tex = op.info().texture;
        if is_tex && st.arithmetic_seen {
            cx.error(
                Rule::TextureOps,
                Some(i),
                format_args!(
                    "{n} after an arithmetic instruction (texture instructions come first in each ps_1_4 phase)"
                ),
            );
        }
        if !is_tex {
            st.arithmetic_seen = true;
        }
        phase_opcodes(cx, i, inst, &st);
        ps_1_4_sources(cx, i, inst, &n, &st);
        ps_1_4_dst(cx, i, inst, &mut st);
    }
}

/// Whether instruction `i` is in the last phase (the only one without a `phase` instruction).
fn last_phase(st: &Ps14, i: usize) -> bool {
    st.phase_at.is_none_or(|p| i > p)
}

/// The instructions bound to one phase: `bem` to the first, `texdepth` (on r5) to the last.
fn phase_opcodes(cx: &mut Cx<'_>, i: usize, inst: &Instruction, st: &Ps14) {
    let op = inst.opcode;
    let last_phase = last_phase(st, i);
    if op == Opcode::Bem && last_phase && st.phase_at.is_some() {
        cx.error(Rule::Phase, Some(i), "bem exists only in the first phase");
    }
    if op == Opcode::Bem && st.phase_at.is_none() {
        cx.error(Rule::Phase, Some(i), "bem exists only in the first phase (the shader has no phase instruction)");
    }
    if op == Opcode::TexDepth && !last_phase {
        cx.error(Rule::Phase, Some(i), "texdepth exists only in the second phase");
    }
    if op == Opcode::TexDepth && inst.dst.is_some_and(|d| d.reg.num != 5) {
        cx.error(Rule::TextureOps, Some(i), "texdepth writes r5");
    }
}

/// The ps_1_4 sources: v# in the last phase, t# only as coordinates, r# coordinates only in
/// the second phase's texld and written by the first phase.
fn ps_1_4_sources(cx: &mut Cx<'_>, i: usize, inst: &Instruction, n: &OpName, st: &Ps14) {
    let op = inst.opcode;
    let last_phase = last_phase(st, i);
    for s in inst.src.iter() {
        match s.reg.ty {
            RegisterType::Input if !last_phase => {
                cx.error(
                    Rule::Phase,
                    Some(i),
                    format_args!(
                        "{} is read in the first phase (colour inputs exist only in the second)",
                        s.reg.name()
                    ),
                );
            }
            RegisterType::Texture if !matches!(op, Opcode::Tex | Opcode::TexCoord) => {
                cx.error(
                    Rule::RegisterType,
                    Some(i),
                    format_args!("{n} reads {}: ps_1_4 reads t# only as texld/texcrd coordinates", s.reg),
                );
            }
            RegisterType::Temp if matches!(op, Opcode::Tex | Opcode::TexCoord) => {
                if !last_phase || st.phase_at.is_none() || op == Opcode::TexCoord {
                    cx.error(
                        Rule::Phase,
                        Some(i),
                        format_args!("{n} reads {}: only texld in the second phase reads r# coordinates", s.reg.name()),
                    );
                } else if !st.phase1_written.get(s.reg.num as usize).copied().unwrap_or(false) {
                    cx.error(
                        Rule::UninitializedRead,
                        Some(i),
                        format_args!("{n} reads {} that the first phase does not write", s.reg),
                    );
                }
            }
            RegisterType::Temp => read(cx, i, s.reg.ty, s.reg.num, &[true; 8], &st.temps),
            _ => {}
        }
    }
}

/// The ps_1_4 destination: one texture instruction per r# and phase; texkill reads its operand.
fn ps_1_4_dst(cx: &mut Cx<'_>, i: usize, inst: &Instruction, st: &mut Ps14) {
    let op = inst.opcode;
    let Some(dst) = inst.dst else { return };
    if matches!(op, Opcode::Tex | Opcode::TexCoord) && dst.reg.ty == RegisterType::Temp {
        let m = dst.reg.num as usize;
        if st.texture_written.get(m).copied().unwrap_or(false) {
            cx.error(
                Rule::TextureOps,
                Some(i),
                format_args!("r{m} is written by two texture instructions in one phase"),
            );
        }
        if let Some(t) = st.texture_written.get_mut(m) {
            *t = true;
        }
    }
    if op == Opcode::TexKill {
        read(cx, i, dst.reg.ty, dst.reg.num, &[true; 8], &st.temps);
        return;
    }
    mark(dst.reg.ty, dst.reg.num, &mut [false; 8], &mut st.temps);
}
