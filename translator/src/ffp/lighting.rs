//! Per-vertex lighting in view space (the D3D9 lighting equations): diffuse = emissive +
//! AMBIENT x ambient + sum over lights of atten x spot x (light diffuse x diffuse x max(N.L, 0) +
//! light ambient x ambient); specular = sum of atten x spot x light specular x specular x
//! (N.H)^power where N.L > 0 (power 0: 1), H = normalise(L + V), V towards the eye (LOCALVIEWER) or
//! (0, 0, -1). Point and spot lights attenuate by 1 / (a0 + a1 d + a2 d^2) and reach only within
//! their range; the spot cone is 1 inside cos(theta/2), 0 outside cos(phi/2) and
//! ((rho - cos(phi/2)) / (cos(theta/2) - cos(phi/2)))^falloff between.

use super::key_vertex::{ColorSource, LightType, LightingKey, VertexKey};

fn source(s: ColorSource, material: usize) -> String {
    match s {
        ColorSource::Material => format!("ffp.material[{material}]"),
        ColorSource::Diffuse => "v5".to_string(),
        ColorSource::Specular => "v6".to_string(),
    }
}

fn light(i: usize, ty: LightType, specular: bool) -> String {
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
    if specular {
        s += "        if ndl > 0.0 {
            let h = normalize(dir + eye);
            let f = select(pow(max(dot(normal, h), 0.0), ffp.power.x), 1.0, ffp.power.x == 0.0);
            spec = spec + k * l.specular.rgb * mspec.rgb * f;
        }
";
    }
    s + "    }\n"
}

fn lit(key: &VertexKey, l: &LightingKey) -> String {
    let [d, sp, a, e] = l.sources;
    let mut s = format!(
        "    let mdiff = {};\n    let mspec = {};\n    let mamb = {};\n    let memis = {};\n",
        source(d, 0),
        source(sp, 2),
        source(a, 1),
        source(e, 3)
    );
    s += "    var lit = memis.rgb + ffp.ambient.rgb * mamb.rgb;\n    var spec = vec3<f32>(0.0);\n";
    s += if key.local_viewer {
        "    let eye = select(vec3<f32>(0.0), normalize(-vpos), dot(vpos, vpos) > 0.0);\n"
    } else {
        "    let eye = vec3<f32>(0.0, 0.0, -1.0);\n"
    };
    for (i, ty) in l.lights.iter().enumerate() {
        s += &light(i, *ty, l.specular);
    }
    s += "    let diffuse = vec4<f32>(clamp(lit, vec3<f32>(0.0), vec3<f32>(1.0)), mdiff.a);\n";
    let vspec = if key.inputs.specular { "v6" } else { "vec4<f32>(0.0)" };
    if l.specular {
        s += &format!("    let specular = vec4<f32>(clamp(spec, vec3<f32>(0.0), vec3<f32>(1.0)), {vspec}.a);\n");
    } else {
        // Without SPECULARENABLE the vertex's own specular passes unlit.
        s += &format!("    let specular = {vspec};\n");
    }
    s
}

/// WGSL statements defining `diffuse` and `specular`.
pub(super) fn colors(key: &VertexKey) -> String {
    match &key.lighting {
        Some(l) => lit(key, l),
        None => format!(
            "    let diffuse = {};\n    let specular = {};\n",
            if key.inputs.diffuse { "v5" } else { "vec4<f32>(1.0)" },
            if key.inputs.specular { "v6" } else { "vec4<f32>(0.0)" }
        ),
    }
}
