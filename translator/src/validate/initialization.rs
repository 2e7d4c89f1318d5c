//! Temporaries read before anything writes them (SM2 and later; ps_1_x has its own rule in
//! `ps1x_texture`). The runtime refuses a read of a temporary that no earlier instruction
//! writes; the check follows program order, so a write anywhere before the read counts (flow
//! control may skip it, which the runtime does not track either).

use super::{Cx, Rule};
use crate::bytecode::{Opcode, RegisterType, SrcParam};

/// Checks that every temporary is written before it is read.
pub(crate) fn check(cx: &mut Cx<'_>) {
    if cx.version.major < 2 {
        return;
    }
    let mut written = [0u8; 32];
    let mut reported = [false; 32];
    let program = cx.program;
    for (i, inst) in program.iter().enumerate() {
        let info = inst.opcode.info();
        if info.declaration {
            continue;
        }
        // The sources, then the predicate (operand k = the source count), in plain loops: the
        // chained iterator cost more than the check under callgrind.
        for (k, s) in inst.src.iter().enumerate() {
            read(cx, &written, &mut reported, i, k, s);
        }
        if let Some(p) = &inst.predicate {
            read(cx, &written, &mut reported, i, inst.src.len(), p);
        }
        if info.dst_is_source {
            continue;
        }
        if let Some(d) = inst.dst.filter(|d| d.reg.ty == RegisterType::Temp) {
            if let Some(w) = written.get_mut(d.reg.num as usize) {
                *w |= d.mask.0;
            }
        }
    }
}

/// Operand `k` of instruction `i` reads `s`: reported once when it is a temporary not yet
/// written.
fn read(cx: &mut Cx<'_>, written: &[u8; 32], reported: &mut [bool; 32], i: usize, k: usize, s: &SrcParam) {
    // vs 2.0/2.x sgn names two scratch temporaries after its source; it does not read them.
    let scratch = cx.inst(i).opcode == Opcode::Sgn && k > 0;
    if s.reg.ty != RegisterType::Temp || scratch {
        return;
    }
    let n = s.reg.num as usize;
    if n < written.len() && written[n] == 0 && !reported[n] {
        reported[n] = true;
        cx.error(Rule::UninitializedRead, Some(i), format_args!("r{n} is read before anything writes it"));
    }
}
