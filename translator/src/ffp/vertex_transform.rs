//! Vertex transform and blending: clip = position x WORLD x VIEW x PROJECTION, with VERTEXBLEND
//! n weights mixing WORLDMATRIX(0 … n) (the last weight is 1 minus the others) and normals through
//! the transposed inverse of each WORLDMATRIX(i) x VIEW (written by
//! [`super::constants::VertexConstants`]); pre-transformed (XYZRHW) positions map pixels to clip
//! space with 1/rhw as w. VERTEXBLEND TWEENING mixes POSITION0 with POSITION1 and NORMAL0 with
//! NORMAL1 by TWEENFACTOR before the WORLDMATRIX(0) transform.

use super::key_vertex::VertexKey;
use super::known::{Count, Gen, StateValue};

/// The blend of `n` weights (indexed or not) into `wpos` and `nrm`.
fn blend(n: u8, indexed: bool) -> String {
    if n == 0 && !indexed {
        return "    wpos = ffp.world[0] * p;\n    nrm = (ffp.normal[0] * nin).xyz;\n".to_string();
    }
    let mut s = String::from("    var last = 1.0;\n");
    for i in 0..=n as usize {
        let w = if i < n as usize {
            let c = ["x", "y", "z"][i];
            s += &format!("    let w{i} = v1.{c};\n    last = last - w{i};\n");
            format!("w{i}")
        } else {
            "last".to_string()
        };
        let m = if indexed {
            let c = ["x", "y", "z", "w"][i];
            format!("min(u32(round(v2.{c})), 7u)")
        } else {
            format!("{i}")
        };
        s += &format!(
            "    wpos = wpos + {w} * (ffp.world[{m}] * p);\n    nrm = nrm + {w} * (ffp.normal[{m}] * nin).xyz;\n"
        );
    }
    s
}

/// Tweening: `first (1 - t) + second t` for each set the vertices carry twice (the vertex
/// tweening page of the D3D9 documentation, docs/d3d9-rules.md#ffp-transform).
fn tween(key: &VertexKey) -> String {
    let mut s = String::from("    let t = ffp.factors.y;\n");
    if key.inputs.position1 {
        s += "    p = vec4<f32>(v0.xyz * (1.0 - t) + v15.xyz * t, 1.0);\n";
    }
    if key.inputs.normal1 {
        s += "    nin = vec4<f32>(nin.xyz * (1.0 - t) + v1.xyz * t, 0.0);\n";
    }
    s
}

/// WGSL statements defining `out.pos`, `vpos` (view-space position) and `normal` (view space).
pub(super) fn position(g: Gen, key: &VertexKey) -> String {
    if key.inputs.pretransformed {
        // x, y in pixels with integer centres, z as given, w = 1/rhw; rhw 0 still draws: the
        // largest w whose square is finite.
        let mut s =
            String::from("    let cw = select(1.0 / v0.w, 18446744073709551616.0, v0.w == 0.0);\n    var z = v0.z;\n");
        s += &g.when("ffp_state.unclipped_z", key.unclipped_z, |u| {
            if u {
                "    z = clamp(v0.z, 0.0, 1.0);\n".to_string()
            } else {
                String::new()
            }
        });
        return s
            + "    out.pos = vec4<f32>((v0.x / (ffp.viewport.x * 0.5) - 1.0) * cw, (1.0 - v0.y / (ffp.viewport.y * 0.5)) * cw, z * cw, cw);
    let vpos = vec3<f32>(0.0);
    let normal = vec3<f32>(0.0);
";
    }
    let nin = if key.inputs.normal { "vec4<f32>(v3.xyz, 0.0)" } else { "vec4<f32>(0.0)" };
    let mut s = format!("    var p = vec4<f32>(v0.xyz, 1.0);\n    var nin = {nin};\n");
    s += &g.when("ffp_state.tween", key.tween, |on| if on { tween(key) } else { String::new() });
    s += "    var wpos = vec4<f32>(0.0);\n    var nrm = vec3<f32>(0.0);\n";
    s += &g.when("ffp_state.indexed_blend", key.indexed_blend, |indexed| {
        g.pick_of("ffp_state.blend_weights", Count(key.blend_weights), &Count::ALL[..4], |n| blend(n.0, indexed))
    });
    s += &g.when("ffp_state.normalize_normals", key.normalize_normals, |on| {
        if on {
            "    nrm = select(nrm, normalize(nrm), dot(nrm, nrm) > 0.0);\n".to_string()
        } else {
            String::new()
        }
    });
    s += "    let view4 = ffp.view * wpos;\n    out.pos = ffp.projection * view4;\n    let vpos = view4.xyz;\n    let normal = nrm;\n";
    s
}
