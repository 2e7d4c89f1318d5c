//! Vertex transform and blending: clip = position x WORLD x VIEW x PROJECTION, with VERTEXBLEND
//! n weights mixing WORLDMATRIX(0 … n) (the last weight is 1 minus the others) and normals through
//! the transposed inverse of each WORLDMATRIX(i) x VIEW (written by
//! [`super::constants::VertexConstants`]); pre-transformed (XYZRHW) positions map pixels to clip
//! space with 1/rhw as w.

use super::key_vertex::VertexKey;

/// WGSL statements defining `out.pos`, `vpos` (view-space position) and `normal` (view space).
pub(super) fn position(key: &VertexKey) -> String {
    if key.inputs.pretransformed {
        // x, y in pixels with integer centres, z as given, w = 1/rhw; rhw 0 still draws: the
        // largest w whose square is finite.
        return "    let cw = select(1.0 / v0.w, 18446744073709551616.0, v0.w == 0.0);
    let z = {z};
    out.pos = vec4<f32>((v0.x / (ffp.viewport.x * 0.5) - 1.0) * cw, (1.0 - v0.y / (ffp.viewport.y * 0.5)) * cw, z * cw, cw);
    let vpos = vec3<f32>(0.0);
    let normal = vec3<f32>(0.0);
"
        .replace("{z}", if key.unclipped_z { "clamp(v0.z, 0.0, 1.0)" } else { "v0.z" });
    }
    let n = key.blend_weights as usize;
    let mut s = String::from("    let p = vec4<f32>(v0.xyz, 1.0);\n");
    let nin = if key.inputs.normal { "vec4<f32>(v3.xyz, 0.0)" } else { "vec4<f32>(0.0)" };
    s += &format!("    let nin = {nin};\n");
    if n == 0 && !key.indexed_blend {
        s += "    let wpos = ffp.world[0] * p;\n    var nrm = (ffp.normal[0] * nin).xyz;\n";
    } else {
        s += "    var wpos = vec4<f32>(0.0);\n    var nrm = vec3<f32>(0.0);\n    var last = 1.0;\n";
        for i in 0..=n {
            let w = if i < n {
                let c = ["x", "y", "z"][i];
                s += &format!("    let w{i} = v1.{c};\n    last = last - w{i};\n");
                format!("w{i}")
            } else {
                "last".to_string()
            };
            let m = if key.indexed_blend {
                let c = ["x", "y", "z", "w"][i];
                format!("min(u32(round(v2.{c})), 7u)")
            } else {
                format!("{i}")
            };
            s += &format!(
                "    wpos = wpos + {w} * (ffp.world[{m}] * p);\n    nrm = nrm + {w} * (ffp.normal[{m}] * nin).xyz;\n"
            );
        }
    }
    if key.normalize_normals {
        s += "    nrm = select(nrm, normalize(nrm), dot(nrm, nrm) > 0.0);\n";
    }
    s += "    let view4 = ffp.view * wpos;\n    out.pos = ffp.projection * view4;\n    let vpos = view4.xyz;\n    let normal = nrm;\n";
    s
}
