//! ps_2_0's dependent-read limit: a texture read whose coordinates come from an earlier read's
//! result is a dependent read, and ps_2_0 allows at most four levels of them (a read from
//! texture coordinates `t#` is level 1). ps_2_x lifts the limit with
//! `D3DPS20CAPS_NODEPENDENTREADLIMIT` (the default caps have it), ps_3_0 has none.

use super::{Cx, Rule};
use crate::bytecode::{Opcode, RegisterType, VersionId};

/// The ps_2_0 limit.
const MAX_LEVELS: u8 = 4;

/// Checks the dependent-read depth of ps_2_0 (and of ps_2_x without the cap).
pub(crate) fn check(cx: &mut Cx<'_>) {
    let limited = match cx.id {
        Some(VersionId::Ps20) => true,
        Some(VersionId::Ps2x) => !cx.options.caps.ps_no_dependent_read_limit,
        _ => false,
    };
    if !limited {
        return;
    }
    // The deepest texture read each temporary's value depends on.
    let mut depth = [0u8; 32];
    for (i, inst) in cx.program.iter().enumerate() {
        let source_depth = |k: usize| {
            inst.src
                .get(k)
                .filter(|s| s.reg.ty == RegisterType::Temp)
                .and_then(|s| depth.get(s.reg.num as usize))
                .copied()
                .unwrap_or(0)
        };
        let value = if inst.opcode == Opcode::Tex {
            let level = source_depth(0) + 1;
            if level == MAX_LEVELS + 1 {
                cx.error(
                    Rule::TextureOps,
                    Some(i),
                    format_args!("dependent read level {level} exceeds the limit {MAX_LEVELS}"),
                );
            }
            level
        } else {
            (0..inst.src.len()).map(source_depth).max().unwrap_or(0)
        };
        if let Some(d) = inst.dst.filter(|d| d.reg.ty == RegisterType::Temp && !inst.opcode.info().dst_is_source) {
            if let Some(slot) = depth.get_mut(d.reg.num as usize) {
                // A partial write keeps what the other components depended on.
                *slot = if d.mask.0 == 0xF { value } else { (*slot).max(value) };
            }
        }
    }
}
