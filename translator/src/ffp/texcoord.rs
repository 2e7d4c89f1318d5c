//! Texture coordinates: stage n's TEXCOORDn output is the set its TEXCOORDINDEX names or a
//! generated coordinate (D3DTSS_TCI_CAMERASPACENORMAL, CAMERASPACEPOSITION,
//! CAMERASPACEREFLECTIONVECTOR, SPHEREMAP), then with D3DTTFF_COUNTn multiplied by the stage's
//! TEXTUREn matrix; a coordinate with fewer than 4 components enters the matrix as (u, 1, 0, 0),
//! (u, v, 1, 0), (u, v, w, 1).
//!
//! The reflection vector is R = E - 2 (N.E) N with E the unit eye-to-vertex vector
//! (LOCALVIEWER) or (0, 0, 1); the sphere map is (Rx / m + 1/2, Ry / m + 1/2) with
//! m = 2 sqrt(Rx^2 + Ry^2 + (Rz - 1)^2).

use super::key_vertex::{TexCoordKey, TexGen, VertexKey};

/// The matrix input of a coordinate of `size` components held in `v` (an input register, unused
/// components (0, 0, 1)).
fn extended(v: &str, size: u8) -> String {
    match size {
        1 => format!("vec4<f32>({v}.x, 1.0, 0.0, 0.0)"),
        2 => format!("vec4<f32>({v}.xy, 1.0, 0.0)"),
        3 => format!("vec4<f32>({v}.xyz, 1.0)"),
        _ => v.to_string(),
    }
}

/// WGSL statements computing stage `stage`'s coordinate into `tc{stage}`.
pub(super) fn texcoord(key: &VertexKey, stage: usize, t: &TexCoordKey) -> String {
    let eye = if key.local_viewer {
        "select(vec3<f32>(0.0), normalize(vpos), dot(vpos, vpos) > 0.0)"
    } else {
        "vec3<f32>(0.0, 0.0, 1.0)"
    };
    let mut s = String::new();
    let reflect =
        || format!("    let e{stage} = {eye};\n    let r{stage} = e{stage} - 2.0 * dot(normal, e{stage}) * normal;\n");
    let (value, size) = match t.gen {
        TexGen::PassThru => (format!("v{}", 7 + t.set), key.inputs.texcoord_sizes[t.set as usize]),
        TexGen::CameraSpaceNormal => ("vec4<f32>(normal, 1.0)".to_string(), 3),
        TexGen::CameraSpacePosition => ("vec4<f32>(vpos, 1.0)".to_string(), 3),
        TexGen::CameraSpaceReflectionVector => {
            s += &reflect();
            (format!("vec4<f32>(r{stage}, 1.0)"), 3)
        }
        TexGen::SphereMap => {
            s += &reflect();
            s += &format!(
                "    let m{stage} = 2.0 * sqrt(r{stage}.x * r{stage}.x + r{stage}.y * r{stage}.y + (r{stage}.z - 1.0) * (r{stage}.z - 1.0));\n"
            );
            (format!("vec4<f32>(r{stage}.x / m{stage} + 0.5, r{stage}.y / m{stage} + 0.5, 0.0, 1.0)"), 2)
        }
    };
    s += &format!("    let g{stage} = {value};\n");
    let g = format!("g{stage}");
    if t.count == 0 {
        s += &format!("    let tc{stage} = {g};\n");
    } else {
        s += &format!("    let tc{stage} = ffp.texture[{stage}] * {};\n", extended(&g, size));
    }
    s
}
