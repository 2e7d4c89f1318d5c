//! Pixel shader colour outputs (`oC#`, `oDepth`) and gradients, as the D3D9 "output color
//! register" page states them:
//! - before ps_3_0, `oC#` is written only with `mov`, with no source swizzle or modifier, no
//!   write mask and no instruction modifier, and at most once per register;
//! - `oC0` must be written, and writing `oCn` needs `oC0`..`oCn-1` written too;
//! - in ps_2_x and ps_3_0, `oC#` and `oDepth` are not written inside dynamic flow control or
//!   under predication;
//! - no gradient instruction (`texld`, `texldb`, `texldp`, `dsx`, `dsy`) inside dynamic flow
//!   control (predication is not dynamic flow control).

use super::flow_control::FlowInfo;
use super::{Cx, Rule};
use crate::bytecode::{Opcode, RegisterType, SrcModifier, Swizzle, WriteMask};

/// Checks the colour-output and gradient rules.
pub(crate) fn check(cx: &mut Cx<'_>, flow: &FlowInfo) {
    if !cx.is_ps() || cx.version.major < 2 {
        return;
    }
    let v = cx.version;
    let before_3 = v.major < 3;
    let mut written = [None::<usize>; 16];
    for (i, inst) in cx.program.iter().enumerate() {
        if is_gradient(inst.opcode, inst.control) && flow.dynamic[i] {
            cx.relaxable(
                Rule::Gradient,
                Some(i),
                format_args!(
                    "{} computes gradients inside dynamic flow control",
                    super::version_rules::instructions::op_name(inst, v)
                ),
            );
        }
        let Some(dst) = inst.dst else { continue };
        if !matches!(dst.reg.ty, RegisterType::ColorOut | RegisterType::DepthOut) || inst.opcode == Opcode::Dcl {
            continue;
        }
        let reg = dst.reg;
        if cx.sm2x_up() && (flow.dynamic[i] || inst.predicate.is_some()) {
            let how = if inst.predicate.is_some() { "under predication" } else { "inside dynamic flow control" };
            cx.error(Rule::ColorOutput, Some(i), format_args!("{reg} written {how}"));
        }
        if dst.reg.ty != RegisterType::ColorOut {
            continue;
        }
        let n = dst.reg.num as usize;
        if before_3 {
            if inst.opcode != Opcode::Mov {
                cx.error(Rule::ColorOutput, Some(i), format_args!("{reg} is written only with mov before ps_3_0"));
            } else if let Some(src) = inst.src.get(0) {
                if src.swizzle != Swizzle::IDENTITY || src.modifier != SrcModifier::None {
                    cx.error(
                        Rule::ColorOutput,
                        Some(i),
                        format_args!("no source swizzle or modifier when writing {reg} before ps_3_0"),
                    );
                }
            }
            if dst.mask != WriteMask::ALL || dst.modifiers.saturate() || dst.shift != 0 {
                cx.error(
                    Rule::ColorOutput,
                    Some(i),
                    format_args!("no write mask or instruction modifier when writing {reg} before ps_3_0"),
                );
            }
            if let Some(Some(_)) = written.get(n) {
                cx.error(
                    Rule::ColorOutput,
                    Some(i),
                    format_args!("{reg} written more than once (before ps_3_0 each oC# is written at most once)"),
                );
            }
        }
        if let Some(slot) = written.get_mut(n) {
            slot.get_or_insert(i);
        }
    }
    if written[0].is_none() {
        // ps_3_0 leaves a render target alone when its output is not written; before 3.0 the
        // runtime requires oC0.
        if before_3 {
            cx.error(Rule::ColorOutput, None, "oC0 is never written");
        }
    }
    for n in 1..written.len() {
        if let Some(at) = written[n] {
            if let Some(missing) = (0..n).find(|&k| written[k].is_none()) {
                cx.error(Rule::ColorOutput, Some(at), format_args!("oC{n} written but oC{missing} never is"));
            }
        }
    }
}

fn is_gradient(op: Opcode, _control: u8) -> bool {
    // texld, texldp and texldb share opcode 66; texldl and texldd carry their own LOD/gradients.
    op.info().gradients.from_quad()
}
