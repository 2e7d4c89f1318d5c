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

fn name(inst: &Instruction, cx: &Cx<'_>) -> super::version_rules::instructions::OpName {
    super::version_rules::instructions::op_name(inst, cx.version)
}

/// Instructions that neither sample nor compute (they do not end the texture block).
fn setup(op: Opcode) -> bool {
    matches!(op, Opcode::Def | Opcode::Nop | Opcode::Phase)
}

fn ps_1_3(cx: &mut Cx<'_>) {
    let mut arithmetic_seen = false;
    let mut written = [false; 8]; // t#
    let mut temps = [false; 8]; // r#
    let mut pads: Vec<(usize, Opcode, u16, u16)> = vec![]; // (at, pad opcode, dst, src)
    for (i, inst) in cx.program.iter().enumerate() {
        let op = inst.opcode;
        if setup(op) {
            continue;
        }
        let n = name(inst, cx);
        let is_tex = op.info().texture;
        if !is_tex {
            arithmetic_seen = true;
            if let Some(&(at, ..)) = pads.first() {
                cx.error(
                    Rule::TextureOps,
                    Some(at),
                    format_args!("{} is not followed by the instruction that completes it", name(cx.inst(at), cx)),
                );
                pads.clear();
            }
            for s in inst.src.iter() {
                read(cx, i, s.reg.ty, s.reg.num, &written, &temps);
            }
            if let Some(d) = inst.dst {
                mark(d.reg.ty, d.reg.num, &mut written, &mut temps);
            }
            continue;
        }
        if arithmetic_seen {
            cx.error(
                Rule::TextureOps,
                Some(i),
                format_args!(
                    "{n} after an arithmetic instruction (texture instructions come first in {})",
                    cx.program.version
                ),
            );
        }
        let Some(dst) = inst.dst else { continue };
        let m = dst.reg.num;
        if op == Opcode::TexKill {
            // texkill tN tests texture coordinate set N itself: no earlier write needed.
            if dst.reg.ty != RegisterType::Texture {
                read(cx, i, dst.reg.ty, m, &written, &temps);
            }
            continue;
        }
        if dst.reg.ty == RegisterType::Texture && written.get(m as usize).copied().unwrap_or(false) {
            cx.error(Rule::TextureOps, Some(i), format_args!("t{m} is written by a second texture instruction"));
        }
        if let Some(src) = inst.src.get(0) {
            if src.reg.ty == RegisterType::Texture {
                let s = src.reg.num;
                if s >= m {
                    cx.error(
                        Rule::TextureOps,
                        Some(i),
                        format_args!("{n} t{m} reads t{s}: the source must be a lower texture register"),
                    );
                } else if !written.get(s as usize).copied().unwrap_or(false) {
                    cx.error(
                        Rule::UninitializedRead,
                        Some(i),
                        format_args!("{n} reads t{s} before a texture instruction writes it"),
                    );
                }
            }
        }
        let src = inst.src.get(0).map_or(u16::MAX, |s| s.reg.num);
        // Matrix pads and the instruction that completes them.
        match op {
            Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
                let limit = if op == Opcode::TexM3x2Pad { 1 } else { 2 };
                let consistent =
                    pads.iter().all(|p| p.1 == op) && pads.last().is_none_or(|p| p.2 + 1 == m && p.3 == src);
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
                        format_args!(
                            "{n} t{m} must follow {pad_name} on the register(s) before it, with the same source"
                        ),
                    );
                }
                pads.clear();
            }
            _ => {
                if let Some(&(at, ..)) = pads.first() {
                    cx.error(
                        Rule::TextureOps,
                        Some(at),
                        format_args!("{} is not followed by the instruction that completes it", name(cx.inst(at), cx)),
                    );
                    pads.clear();
                }
            }
        }
        mark(dst.reg.ty, m, &mut written, &mut temps);
    }
    if let Some(&(at, ..)) = pads.first() {
        cx.error(
            Rule::TextureOps,
            Some(at),
            format_args!("{} is not followed by the instruction that completes it", name(cx.inst(at), cx)),
        );
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

fn ps_1_4(cx: &mut Cx<'_>) {
    let phases: Vec<usize> =
        cx.program.iter().enumerate().filter(|(_, x)| x.opcode == Opcode::Phase).map(|(i, _)| i).collect();
    for &extra in phases.iter().skip(1) {
        cx.error(Rule::Phase, Some(extra), "ps_1_4 has at most one phase instruction");
    }
    let phase_at = phases.first().copied();
    let mut arithmetic_seen = false;
    let mut texture_written = [false; 8]; // r# written by texld/texcrd in this phase
    let mut temps = [false; 8]; // r# written at all
    let mut phase1_written = [false; 8];
    for (i, inst) in cx.program.iter().enumerate() {
        let op = inst.opcode;
        let last_phase = phase_at.is_none_or(|p| i > p);
        if op == Opcode::Phase {
            arithmetic_seen = false;
            texture_written = [false; 8];
            phase1_written = temps;
            continue;
        }
        if setup(op) {
            continue;
        }
        let n = name(inst, cx);
        let is_tex = op.info().texture;
        if is_tex && arithmetic_seen {
            cx.error(
                Rule::TextureOps,
                Some(i),
                format_args!(
                    "{n} after an arithmetic instruction (texture instructions come first in each ps_1_4 phase)"
                ),
            );
        }
        if !is_tex {
            arithmetic_seen = true;
        }
        if op == Opcode::Bem && last_phase && phase_at.is_some() {
            cx.error(Rule::Phase, Some(i), "bem exists only in the first phase");
        }
        if op == Opcode::Bem && phase_at.is_none() {
            cx.error(Rule::Phase, Some(i), "bem exists only in the first phase (the shader has no phase instruction)");
        }
        if op == Opcode::TexDepth && !last_phase {
            cx.error(Rule::Phase, Some(i), "texdepth exists only in the second phase");
        }
        if op == Opcode::TexDepth && inst.dst.is_some_and(|d| d.reg.num != 5) {
            cx.error(Rule::TextureOps, Some(i), "texdepth writes r5");
        }
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
                    if !last_phase || phase_at.is_none() || op == Opcode::TexCoord {
                        cx.error(
                            Rule::Phase,
                            Some(i),
                            format_args!(
                                "{n} reads {}: only texld in the second phase reads r# coordinates",
                                s.reg.name()
                            ),
                        );
                    } else if !phase1_written.get(s.reg.num as usize).copied().unwrap_or(false) {
                        cx.error(
                            Rule::UninitializedRead,
                            Some(i),
                            format_args!("{n} reads {} that the first phase does not write", s.reg),
                        );
                    }
                }
                RegisterType::Temp => read(cx, i, s.reg.ty, s.reg.num, &[true; 8], &temps),
                _ => {}
            }
        }
        let Some(dst) = inst.dst else { continue };
        if matches!(op, Opcode::Tex | Opcode::TexCoord) && dst.reg.ty == RegisterType::Temp {
            let m = dst.reg.num as usize;
            if texture_written.get(m).copied().unwrap_or(false) {
                cx.error(
                    Rule::TextureOps,
                    Some(i),
                    format_args!("r{m} is written by two texture instructions in one phase"),
                );
            }
            if let Some(t) = texture_written.get_mut(m) {
                *t = true;
            }
        }
        if op == Opcode::TexKill {
            read(cx, i, dst.reg.ty, dst.reg.num, &[true; 8], &temps);
            continue;
        }
        mark(dst.reg.ty, dst.reg.num, &mut [false; 8], &mut temps);
    }
}
