//! What each shader version allows: the version token itself, instructions, register files,
//! modifiers, swizzles, write masks ([`instructions`]) and register counts ([`registers`]).

pub mod instructions;
mod quick;
pub mod registers;

use super::{Api, Cx, Rule};
#[cfg(debug_assertions)]
use crate::bytecode::{Form, OpcodeInfo};
use crate::bytecode::{ShaderKind, VersionId};
use instructions::{check_instruction, op_name};
use quick::QuickRules;

/// Version-token rules: canonical minors, `_sw` models, the API's highest version.
pub(crate) fn check_version(cx: &mut Cx<'_>, id: VersionId) {
    let v = cx.version;
    if !v.is_canonical() {
        // fxc's ps_2_a/ps_2_b targets write 2.x minors other than 1; drivers run them as 2_x.
        cx.relaxable(
            Rule::Version,
            None,
            format_args!("version {}.{} is not a documented model (read as {})", v.major, v.minor, id.version()),
        );
    }
    if v.is_sw() {
        match v.kind {
            // The _sw vertex models exist for software vertex processing only.
            ShaderKind::Vertex if !cx.options.swvp => {
                cx.relaxable(Rule::Version, None, "the _sw vertex models need software vertex processing (--swvp)")
            }
            // The _sw pixel models exist for the reference rasterizer only; the validator cannot
            // know the device type, so it only says so.
            ShaderKind::Pixel => {
                cx.warning(Rule::Version, None, "the _sw pixel models run only on the reference device")
            }
            _ => {}
        }
    }
    if cx.options.api == Api::D3d8 {
        let too_new = match v.kind {
            ShaderKind::Vertex => v.major > 1,
            ShaderKind::Pixel => v.major > 1,
        };
        if too_new {
            let max = if v.kind == ShaderKind::Vertex { "vs_1_1" } else { "ps_1_4" };
            cx.error(Rule::Api, None, format_args!("Direct3D 8 accepts shaders up to {max}"));
        }
    }
}

/// Per-instruction checks over the whole program: the quick test ([`quick`]), and the full
/// checks ([`instructions`]) for what it cannot vouch for.
pub(crate) fn check_instructions(cx: &mut Cx<'_>) {
    let Some(id) = cx.id else { return };
    let quick = QuickRules::new(cx, id);
    for i in 0..cx.program.len() {
        let inst = cx.inst(i);
        // One table lookup per instruction: the row gives the form, which gives the name and
        // every operand's slot; the row is passed on, not looked up again by each check.
        let info = inst.opcode.info();
        let Some(form) = info.form_in(id) else {
            let name = op_name(inst, cx.version);
            cx.error(Rule::Instruction, Some(i), format_args!("{name} does not exist in {}", cx.program.version));
            continue;
        };
        if quick.as_ref().is_some_and(|q| q.accepts(inst, info, form)) {
            #[cfg(debug_assertions)]
            check_accepted(cx, i, info, form, id);
            continue;
        }
        check_instruction(cx, i, info, form, id);
    }
}

/// Debug builds: an instruction the quick test accepted passes the full checks too.
#[cfg(debug_assertions)]
fn check_accepted(cx: &mut Cx<'_>, i: usize, info: &'static OpcodeInfo, form: &'static Form, id: VersionId) {
    let before = cx.out.errors.len() + cx.out.warnings.len();
    check_instruction(cx, i, info, form, id);
    let found: Vec<_> = cx.out.errors.iter().chain(&cx.out.warnings).skip(before).collect();
    assert!(found.is_empty(), "the quick test accepted instruction {i}, which the full checks report: {found:?}");
}
