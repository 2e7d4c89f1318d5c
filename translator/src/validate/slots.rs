//! Instruction slot limits per version.
//!
//! | version | limit |
//! |---|---|
//! | vs_1_1 | 128 |
//! | vs_2_0, vs_2_x | 256 |
//! | vs_3_0 | `MaxVertexShader30InstructionSlots` (512 to 32768) |
//! | ps_1_1–1_3 | 4 texture + 8 arithmetic |
//! | ps_1_4 | 6 texture + 8 arithmetic per phase |
//! | ps_2_0 | 32 texture + 64 arithmetic |
//! | ps_2_x | `NumInstructionSlots` (96 to 512); texture instructions also 32 unless `D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT` |
//! | ps_3_0 | `MaxPixelShader30InstructionSlots` (512 to 32768) |
//! | `_sw` models | no limit |
//!
//! Each instruction costs the slots of its opcode-table row; `dcl`, `def*`, `label` and
//! `phase` cost nothing. In ps_1_x every arithmetic instruction costs one slot (`bem` two,
//! `nop` none), and a co-issued instruction shares its partner's slot.

use super::{Cx, Rule};
use crate::bytecode::{Instruction, Opcode, VersionId};

/// Checks the slot limits.
pub(crate) fn check(cx: &mut Cx<'_>) {
    let Some(id) = cx.id else { return };
    use VersionId::*;
    let caps = cx.options.caps;
    match id {
        Vs10 | Vs11 => total(cx, 128),
        Vs20 | Vs2x => total(cx, 256),
        Vs30 => total(cx, caps.max_vertex_shader30_instruction_slots as u32),
        Ps30 => total(cx, caps.max_pixel_shader30_instruction_slots as u32),
        Ps10 | Ps11 | Ps12 | Ps13 => split(cx, 4, 8, false),
        Ps14 => split(cx, 6, 8, true),
        Ps20 => split_sm2(cx, Some(32), Some(64), None),
        Ps2x => {
            let tex = if caps.ps_no_tex_instruction_limit { None } else { Some(32) };
            split_sm2(cx, tex, None, Some(caps.ps_num_instruction_slots as u32))
        }
        Vs2sw | Vs3sw | Ps2sw | Ps3sw => {}
    }
}

fn cost(cx: &Cx<'_>, inst: &Instruction) -> u32 {
    cx.id.and_then(|id| inst.opcode.form_in(id)).map_or(0, |f| f.slots as u32)
}

fn exceed(cx: &mut Cx<'_>, at: usize, what: &str, used: u32, limit: u32) {
    cx.error(Rule::InstructionSlots, Some(at), format_args!("{used} {what} slots exceed the limit {limit}"));
}

fn total(cx: &mut Cx<'_>, limit: u32) {
    let mut used = 0;
    for (i, inst) in cx.program.iter().enumerate() {
        used += cost(cx, inst);
        if used > limit {
            let sum: u32 = cx.program.iter().map(|x| cost(cx, x)).sum();
            exceed(cx, i, "instruction", sum, limit);
            return;
        }
    }
}

/// ps_1_x: separate texture and arithmetic counts, per phase in ps_1_4.
fn split(cx: &mut Cx<'_>, tex_limit: u32, arith_limit: u32, phases: bool) {
    let (mut tex, mut arith) = (0u32, 0u32);
    let (mut tex_reported, mut arith_reported) = (false, false);
    for (i, inst) in cx.program.iter().enumerate() {
        let op = inst.opcode;
        if op == Opcode::Phase && phases {
            (tex, arith) = (0, 0);
            continue;
        }
        if matches!(op, Opcode::Def | Opcode::Dcl | Opcode::Phase | Opcode::Nop) {
            continue;
        }
        if op.info().texture {
            tex += 1;
            if tex > tex_limit && !tex_reported {
                tex_reported = true;
                exceed(cx, i, "texture instruction", tex, tex_limit);
            }
        } else if !inst.coissue {
            arith += if op == Opcode::Bem { 2 } else { 1 };
            if arith > arith_limit && !arith_reported {
                arith_reported = true;
                exceed(cx, i, "arithmetic instruction", arith, arith_limit);
            }
        }
    }
}

/// ps_2_0/ps_2_x: texture (`texld*`, `texkill`) and arithmetic counts, and a total.
fn split_sm2(cx: &mut Cx<'_>, tex_limit: Option<u32>, arith_limit: Option<u32>, total_limit: Option<u32>) {
    let (mut tex, mut arith) = (0u32, 0u32);
    let mut reported = [false; 3];
    for (i, inst) in cx.program.iter().enumerate() {
        let c = cost(cx, inst);
        // The table's texture instructions of ps_2_0/2_x: texld*, texkill, texldd (texldl is
        // ps_3_0's, which has no split count). Another version's texture instruction costs 0.
        if inst.opcode.info().texture {
            tex += c;
        } else {
            arith += c;
        }
        let checks = [
            (tex, tex_limit, "texture instruction"),
            (arith, arith_limit, "arithmetic instruction"),
            (tex + arith, total_limit, "instruction"),
        ];
        for (k, (used, limit, what)) in checks.into_iter().enumerate() {
            if let Some(limit) = limit {
                if used > limit && !reported[k] {
                    reported[k] = true;
                    exceed(cx, i, what, used, limit);
                }
            }
        }
    }
}
