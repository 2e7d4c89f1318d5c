//! Texture coordinates: stage n's TEXCOORDn output is the set its TEXCOORDINDEX names or a
//! generated coordinate (D3DTSS_TCI_CAMERASPACENORMAL, CAMERASPACEPOSITION,
//! CAMERASPACEREFLECTIONVECTOR, SPHEREMAP), then with D3DTTFF_COUNTn multiplied by the stage's
//! TEXTUREn matrix; a coordinate with fewer than 4 components enters the matrix as (u, 1, 0, 0),
//! (u, v, 1, 0), (u, v, w, 1).
//!
//! The reflection vector is R = E - 2 (N.E) N with E the unit eye-to-vertex vector
//! (LOCALVIEWER) or (0, 0, 1); the sphere map is (Rx / m + 1/2, Ry / m + 1/2) with
//! m = 2 sqrt(Rx^2 + Ry^2 + (Rz - 1)^2).
//!
//! Uniform-driven, `ffp_state.texcoords[n]` holds (0 for no output or 1 + the generation mode,
//! the set, the COUNT).

use super::key_vertex::{TexCoordKey, TexGen, VertexKey};
use super::known::{Count, Gen};

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

/// `tc{stage} = ` the coordinate `value` of `size` components, through the texture matrix when
/// COUNT is set.
fn transformed(g: Gen, stage: usize, count: u8, value: &str, size: u8) -> String {
    let mut s = format!("    let g{stage} = {value};\n");
    s += &g.when(&format!("ffp_state.texcoords[{stage}].z"), count != 0, |on| match on {
        false => format!("    tc{stage} = g{stage};\n"),
        true => format!("    tc{stage} = ffp.texture[{stage}] * {};\n", extended(&format!("g{stage}"), size)),
    });
    s
}

/// The reflection vector `r{stage}`.
fn reflect(g: Gen, key: &VertexKey, stage: usize) -> String {
    let mut s = format!("    var e{stage} = vec3<f32>(0.0, 0.0, 1.0);\n");
    s += &g.when("ffp_state.local_viewer", key.local_viewer, |on| match on {
        false => String::new(),
        true => format!("    e{stage} = select(vec3<f32>(0.0), normalize(vpos), dot(vpos, vpos) > 0.0);\n"),
    });
    s + &format!("    let r{stage} = e{stage} - 2.0 * dot(normal, e{stage}) * normal;\n")
}

fn generated(g: Gen, key: &VertexKey, stage: usize, t: &TexCoordKey, gen: TexGen) -> String {
    match gen {
        TexGen::PassThru => {
            let sets: Vec<Count> = (0..8).filter(|&s| key.inputs.texcoord_sizes[s as usize] > 0).map(Count).collect();
            g.pick_of(&format!("ffp_state.texcoords[{stage}].y"), Count(t.set), &sets, |set| {
                let size = key.inputs.texcoord_sizes[set.0 as usize];
                transformed(g, stage, t.count, &format!("v{}", 7 + set.0), size)
            })
        }
        TexGen::CameraSpaceNormal => transformed(g, stage, t.count, "vec4<f32>(normal, 1.0)", 3),
        TexGen::CameraSpacePosition => transformed(g, stage, t.count, "vec4<f32>(vpos, 1.0)", 3),
        TexGen::CameraSpaceReflectionVector => {
            reflect(g, key, stage) + &transformed(g, stage, t.count, &format!("vec4<f32>(r{stage}, 1.0)"), 3)
        }
        TexGen::SphereMap => {
            let m = format!(
                "    let m{stage} = 2.0 * sqrt(r{stage}.x * r{stage}.x + r{stage}.y * r{stage}.y + (r{stage}.z - 1.0) * (r{stage}.z - 1.0));\n"
            );
            let value = format!("vec4<f32>(r{stage}.x / m{stage} + 0.5, r{stage}.y / m{stage} + 0.5, 0.0, 1.0)");
            reflect(g, key, stage) + &m + &transformed(g, stage, t.count, &value, 2)
        }
    }
}

/// WGSL statements computing stage `stage`'s coordinate into `tc{stage}` (declared 0 before).
pub(super) fn texcoord(g: Gen, key: &VertexKey, stage: usize) -> String {
    let t = key.texcoords[stage];
    let stand_in = TexCoordKey { set: 0, gen: TexGen::PassThru, count: 0 };
    g.pick(&format!("ffp_state.texcoords[{stage}].x"), t.map(|t| t.gen), |gen| match gen {
        None => String::new(),
        Some(gen) => generated(g, key, stage, t.as_ref().unwrap_or(&stand_in), gen),
    })
}
