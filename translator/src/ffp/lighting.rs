//! Per-vertex lighting in view space (the D3D9 lighting equations): diffuse = emissive +
//! AMBIENT x ambient + sum over lights of atten x spot x (light diffuse x diffuse x max(N.L, 0) +
//! light ambient x ambient); specular = sum of atten x spot x light specular x specular x
//! (N.H)^power where N.L > 0 (power 0: 1), H = normalise(L + V), V towards the eye (LOCALVIEWER) or
//! (0, 0, -1). Point and spot lights attenuate by 1 / (a0 + a1 d + a2 d^2) and reach only within
//! their range; the spot cone is 1 inside cos(theta/2), 0 outside cos(phi/2) and
//! ((rho - cos(phi/2)) / (cos(theta/2) - cos(phi/2)))^falloff between.
//!
//! Uniform-driven, the lights are a loop over `ffp_state.light_count` (at most 8) whose body
//! switches on each light's type.

use super::key_vertex::{ColorSource, LightType, LightingKey, VertexInputs, VertexKey};
use super::known::{Gen, StateValue};

fn source(s: ColorSource, material: usize) -> String {
    match s {
        ColorSource::Material => format!("ffp.material[{material}]"),
        ColorSource::Diffuse => "v5".to_string(),
        ColorSource::Specular => "v6".to_string(),
    }
}

/// Light `i` (a WGSL index expression) of type `ty`.
fn light(g: Gen, i: &str, ty: LightType, specular: bool) -> String {
    let mut s = format!("    {{\n        let l = ffp.lights[{i}];\n");
    if ty == LightType::Directional {
        s += "        let dir = normalize(-(ffp.view * vec4<f32>(l.direction.xyz, 0.0)).xyz);\n        let k = 1.0;\n";
    } else {
        s += "        let lpos = (ffp.view * vec4<f32>(l.position.xyz, 1.0)).xyz;
        let to_light = lpos - vpos;
        let d = length(to_light);
        let dir = normalize(to_light);
        var k = select(1.0 / (l.attenuation.x + l.attenuation.y * d + l.attenuation.z * d * d), 0.0, d > l.position.w);
";
        if ty == LightType::Spot {
            s += "        let rho = -dot(normalize((ffp.view * vec4<f32>(l.direction.xyz, 0.0)).xyz), dir);
        let cone = select(select(pow((rho - l.spot.y) / (l.spot.x - l.spot.y), l.direction.w), 0.0, rho <= l.spot.y), 1.0, rho > l.spot.x);
        k = k * cone;
";
        }
    }
    s += "        let ndl = dot(normal, dir);
        lit = lit + k * (l.diffuse.rgb * mdiff.rgb * max(ndl, 0.0) + l.ambient.rgb * mamb.rgb);
";
    s += &g.when("ffp_state.specular", specular, |on| match on {
        false => String::new(),
        true => "        if ndl > 0.0 {
            let h = normalize(dir + eye);
            let f = select(pow(max(dot(normal, h), 0.0), ffp.factors.x), 1.0, ffp.factors.x == 0.0);
            spec = spec + k * l.specular.rgb * mspec.rgb * f;
        }
"
        .to_string(),
    });
    s + "    }\n"
}

/// The sources a material colour can have with these inputs (a vertex colour only where the
/// vertex has it, [`VertexKey::color_sources`]).
fn sources_possible(inputs: &VertexInputs) -> Vec<ColorSource> {
    ColorSource::ALL
        .iter()
        .copied()
        .filter(|s| match s {
            ColorSource::Material => true,
            ColorSource::Diffuse => inputs.diffuse,
            ColorSource::Specular => inputs.specular,
        })
        .collect()
}

fn lit(g: Gen, key: &VertexKey, l: &LightingKey) -> String {
    let mut s = String::new();
    let possible = sources_possible(&key.inputs);
    for (k, (name, material)) in [("mdiff", 0), ("mspec", 2), ("mamb", 1), ("memis", 3)].into_iter().enumerate() {
        s += &format!("    var {name} = vec4<f32>(0.0);\n");
        s += &g.pick_of(&format!("ffp_state.sources[{k}]"), l.sources[k], &possible, |c| {
            format!("    {name} = {};\n", source(c, material))
        });
    }
    s += "    var lit = memis.rgb + ffp.ambient.rgb * mamb.rgb;\n    var spec = vec3<f32>(0.0);\n    var eye = vec3<f32>(0.0, 0.0, -1.0);\n";
    s += &g.when("ffp_state.local_viewer", key.local_viewer, |on| match on {
        false => String::new(),
        true => "    eye = select(vec3<f32>(0.0), normalize(-vpos), dot(vpos, vpos) > 0.0);\n".to_string(),
    });
    if g.uniform {
        s += "    for (var i = 0u; i < 8u; i++) {\n    if i >= ffp_state.light_count {\n        break;\n    }\n";
        s += &g.pick("ffp_state.light_types[i / 4u][i % 4u]", LightType::Point, |ty| light(g, "i", ty, l.specular));
        s += "    }\n";
    } else {
        for (i, ty) in l.lights.iter().enumerate() {
            s += &light(g, &i.to_string(), *ty, l.specular);
        }
    }
    s += "    diffuse = vec4<f32>(clamp(lit, vec3<f32>(0.0), vec3<f32>(1.0)), mdiff.a);\n";
    let vspec = if key.inputs.specular { "v6" } else { "vec4<f32>(0.0)" };
    s + &g.when("ffp_state.specular", l.specular, |on| match on {
        true => format!("    specular = vec4<f32>(clamp(spec, vec3<f32>(0.0), vec3<f32>(1.0)), {vspec}.a);\n"),
        // Without SPECULARENABLE the vertex's own specular passes unlit.
        false => format!("    specular = {vspec};\n"),
    })
}

/// WGSL statements defining `diffuse` and `specular`.
pub(super) fn colors(g: Gen, key: &VertexKey) -> String {
    let unlit = format!(
        "    diffuse = {};\n    specular = {};\n",
        if key.inputs.diffuse { "v5" } else { "vec4<f32>(1.0)" },
        if key.inputs.specular { "v6" } else { "vec4<f32>(0.0)" }
    );
    let mut s = String::from("    var diffuse = vec4<f32>(0.0);\n    var specular = vec4<f32>(0.0);\n");
    if key.inputs.pretransformed {
        // Pre-transformed vertices are never lit (the key's normalisation).
        return s + &unlit;
    }
    let stand_in = LightingKey { lights: Default::default(), specular: false, sources: [ColorSource::Material; 4] };
    s += &g.when("ffp_state.lighting", key.lighting.is_some(), |on| match on {
        true => lit(g, key, key.lighting.as_ref().unwrap_or(&stand_in)),
        false => unlit.clone(),
    });
    s
}
