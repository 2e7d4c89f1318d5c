//! What each shader version allows: the version token itself, instructions, register files,
//! modifiers, swizzles, write masks ([`instructions`]) and register counts ([`registers`]).

pub mod instructions;
mod quick;
pub mod registers;

use super::{Api, Cx, Rule};
use crate::bytecode::{ShaderKind, VersionId};

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
