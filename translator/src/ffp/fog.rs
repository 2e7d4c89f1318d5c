//! Fog: LINEAR f = (end - d) / (end - start), EXP exp(-density d), EXP2 exp(-(density d)^2),
//! clamped to [0, 1]; colour = f x colour + (1 - f) x FOGCOLOR, alpha unchanged.
//!
//! Vertex fog takes d = |view-space z|, or the distance to the eye with RANGEFOGENABLE, and with
//! FOGSTART == FOGEND fogs everything (f = 0). Table fog takes the pixel's depth; FOGSTART ==
//! FOGEND is then a step (the division gives ±infinity or NaN, which the clamp and the NaN test
//! turn into 1 before the start and 0 after).

use super::key_pixel::{FogFormula, PixelFog};
use super::key_vertex::{VertexFog, VertexKey};
use super::known::Gen;

fn formula(f: FogFormula, d: &str, params: &str) -> String {
    match f {
        FogFormula::Linear => format!("({params}.y - {d}) / ({params}.y - {params}.x)"),
        FogFormula::Exp => format!("exp(-{params}.z * {d})"),
        FogFormula::Exp2 => format!("exp(-({params}.z * {d}) * ({params}.z * {d}))"),
    }
}

/// A NaN-safe clamp to [0, 1] (NaN gives 0).
fn saturate(x: &str) -> String {
    format!("select(0.0, min({x}, 1.0), {x} > 0.0)")
}

/// The statements defining `fog` for a vertex fog mode (`None`: no FOG value).
fn vertex_fog_value(fog: VertexFog) -> Option<String> {
    Some(match fog {
        VertexFog::None => return None,
        VertexFog::SpecularAlpha => "    let fog = specular.a;\n".to_string(),
        VertexFog::Formula(f, range) => {
            let d = if range { "length(vpos)" } else { "abs(vpos.z)" };
            let raw = formula(f, "fd", "ffp.fog");
            let mut s = format!("    let fd = {d};\n    let fraw = {raw};\n");
            if f == FogFormula::Linear {
                s += "    let fv = select(fraw, 0.0, ffp.fog.x == ffp.fog.y);\n";
            } else {
                s += "    let fv = fraw;\n";
            }
            s + &format!("    let fog = {};\n", saturate("fv"))
        }
    })
}

/// WGSL statements setting `fogout` (the FOG output, declared 0 before): the vertex fog in x;
/// pre-transformed vertices drawn unclipped carry their raw z in y for table fog (the fog, or the
/// specular alpha without one, in x).
pub(super) fn vertex_fog(g: Gen, key: &VertexKey) -> String {
    g.pick("ffp_state.fog", key.fog, |fog| {
        let value = vertex_fog_value(fog);
        let mut s = value.clone().unwrap_or_default();
        s += &g.when("ffp_state.unclipped_z", key.unclipped_z, |unclipped| match (unclipped, &value) {
            (true, Some(_)) => "    fogout = vec4<f32>(fog, v0.z, 0.0, 0.0);\n".to_string(),
            (true, None) => "    fogout = vec4<f32>(specular.a, v0.z, 0.0, 0.0);\n".to_string(),
            (false, Some(_)) => "    fogout = vec4<f32>(fog, 0.0, 0.0, 0.0);\n".to_string(),
            (false, None) => String::new(),
        });
        s
    })
}

/// WGSL statements applying fog to `c` in the pixel half (`fogv` is the FOG varying's x, `frag` the
/// fragment position, `depth` the depth table fog reads).
pub(super) fn pixel_fog(fog: PixelFog, has_varying: bool, depth: &str) -> String {
    let f = match fog {
        PixelFog::Off => return String::new(),
        PixelFog::Varying if has_varying => saturate("fogv"),
        PixelFog::Varying => "0.0".to_string(),
        PixelFog::Table(f) => {
            let raw = formula(f, depth, "ffp.fog");
            return format!(
                "    let fraw = {raw};\n    let f = {};\n    c = vec4<f32>(f * c.rgb + (1.0 - f) * ffp.fog_color.rgb, c.a);\n",
                saturate("fraw")
            );
        }
    };
    format!("    let f = {f};\n    c = vec4<f32>(f * c.rgb + (1.0 - f) * ffp.fog_color.rgb, c.a);\n")
}
