//! Point lists on targets without a point-size output: each point drawn as a quad
//! ([`crate::key::PointExpansion`], the same corner layout as translated vertex shaders).
//!
//! The size follows D3D9 (docs/d3d9-rules.md#point-sprites): the vertex's PSIZE (input
//! location 4) or POINTSIZE; with POINTSCALEENABLE on untransformed vertices, scaled to
//! H · S · sqrt(1 / (A + B·d + C·d²)) with d the eye-space distance and H the viewport height;
//! then clamped to [POINTSIZE_MIN, POINTSIZE_MAX] (`ffp.point`, `ffp.point_scale`,
//! `ffp.viewport` in [`super::constants`]). With point sprites every TEXCOORD output is the
//! sprite coordinate (u, v, 0, 1).

pub use super::key_vertex::PointKey;
use super::key_vertex::VertexKey;
use super::known::Gen;
use crate::key::PointExpansion;

/// The entry point's extra argument.
pub(super) const VERTEX_INDEX: &str = "@builtin(vertex_index) vid: u32";

/// WGSL statements moving `out.pos` to this invocation's corner and defining `sprite` (the sprite
/// coordinate); run after `out.pos` and `vpos` are set.
pub(super) fn expand(g: Gen, key: &VertexKey, p: &PointKey) -> String {
    let (mu, mv) = match p.expansion {
        PointExpansion::Strip => (0b1010, 0b1100),
        _ => (0b11_0010, 0b10_1100),
    };
    let size_in = if key.inputs.point_size { "v4.x" } else { "ffp.point.x" };
    let mut s = format!("    var psize = {size_in};\n");
    if !key.inputs.pretransformed {
        s += &g.when("ffp_state.point_scale", p.scale, |on| match on {
            false => String::new(),
            true => "    let pd = length(vpos);
    let ps = ffp.point_scale;
    psize = ffp.viewport.y * psize * sqrt(1.0 / (ps.x + ps.y * pd + ps.z * pd * pd));
"
            .to_string(),
        });
    }
    s += "    psize = min(max(psize, ffp.point.y), ffp.point.z);\n";
    s += &format!("    let su = f32(({mu}u >> vid) & 1u);\n    let sv = f32(({mv}u >> vid) & 1u);\n");
    s += "    let pw = psize * out.pos.w;\n";
    s += "    out.pos = vec4<f32>(out.pos.x + (2.0 * su - 1.0) * pw / ffp.viewport.x, \
          out.pos.y + (1.0 - 2.0 * sv) * pw / ffp.viewport.y, out.pos.z, out.pos.w);\n";
    s += "    let sprite = vec4<f32>(su, sv, 0.0, 1.0);\n";
    s
}
