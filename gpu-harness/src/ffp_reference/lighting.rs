//! Per-vertex lighting in view space, as the D3D9 documentation's lighting equations give it
//! (docs/d3d9-rules.md#ffp-lighting): diffuse = emissive + AMBIENT x ambient + sum of
//! atten x spot x (light diffuse x diffuse x max(N.L, 0) + light ambient x ambient); specular = sum
//! of atten x spot x light specular x specular x (N.H)^power where N.L > 0.

use crate::case::{Light, LightType, Material, MaterialSource, RenderState};

use super::maths::{argb, dot3, mul, normalize, saturate, xyz};

/// A vertex as lighting sees it.
pub(crate) struct LitVertex {
    /// View-space position.
    pub position: [f32; 3],
    /// View-space normal (normalised only with NORMALIZENORMALS).
    pub normal: [f32; 3],
    /// The vertex's COLOR0, if it has one.
    pub color1: Option<[f32; 4]>,
    /// The vertex's COLOR1, if it has one.
    pub color2: Option<[f32; 4]>,
}

fn source(state: &RenderState, which: MaterialSource, material: [f32; 4], v: &LitVertex) -> [f32; 4] {
    let vertex = match which {
        MaterialSource::Material => None,
        MaterialSource::Color1 => v.color1,
        MaterialSource::Color2 => v.color2,
    };
    match vertex {
        Some(c) if state.colorvertex => c,
        _ => material,
    }
}

/// A light in view space.
struct ViewLight<'a> {
    light: &'a Light,
    position: [f32; 3],
    direction: [f32; 3],
}

/// (attenuation x spot factor, L) of `l` at `p`, or `None` when it does not reach.
fn reach(l: &ViewLight, p: [f32; 3]) -> Option<(f32, [f32; 3])> {
    if l.light.kind == LightType::Directional {
        return Some((1.0, normalize(l.direction.map(|x| -x))));
    }
    let to_light = [l.position[0] - p[0], l.position[1] - p[1], l.position[2] - p[2]];
    let d = dot3(to_light, to_light).sqrt();
    if d > l.light.range {
        return None;
    }
    let att = 1.0 / (l.light.attenuation0 + l.light.attenuation1 * d + l.light.attenuation2 * d * d);
    let dir_l = normalize(to_light);
    let spot = if l.light.kind == LightType::Spot {
        let rho = -dot3(normalize(l.direction), dir_l);
        let (cos_theta, cos_phi) = ((l.light.theta / 2.0).cos(), (l.light.phi / 2.0).cos());
        if rho > cos_theta {
            1.0
        } else if rho <= cos_phi {
            0.0
        } else {
            ((rho - cos_phi) / (cos_theta - cos_phi)).powf(l.light.falloff)
        }
    } else {
        1.0
    };
    Some((att * spot, dir_l))
}

/// The lit diffuse and specular colours (saturated).
pub(crate) fn light(
    state: &RenderState,
    material: &Material,
    lights: &[Light],
    view: &[f32; 16],
    v: &LitVertex,
) -> ([f32; 4], [f32; 4]) {
    let diffuse = source(state, state.diffusematerialsource, material.diffuse, v);
    let ambient = source(state, state.ambientmaterialsource, material.ambient, v);
    let specular = source(state, state.specularmaterialsource, material.specular, v);
    let emissive = source(state, state.emissivematerialsource, material.emissive, v);
    let global = argb(state.ambient);
    let mut d: [f32; 3] = std::array::from_fn(|c| emissive[c] + global[c] * ambient[c]);
    let mut s = [0.0f32; 3];
    let eye = if state.localviewer { normalize(v.position.map(|x| -x)) } else { [0.0, 0.0, -1.0] };
    for light in lights {
        let lp = light.position;
        let ld = light.direction;
        let vl = ViewLight {
            light,
            position: xyz(mul([lp[0], lp[1], lp[2], 1.0], view)),
            direction: xyz(mul([ld[0], ld[1], ld[2], 0.0], view)),
        };
        let Some((k, dir_l)) = reach(&vl, v.position) else { continue };
        let n_dot_l = dot3(v.normal, dir_l);
        for c in 0..3 {
            d[c] += k * (light.diffuse[c] * diffuse[c] * n_dot_l.max(0.0) + light.ambient[c] * ambient[c]);
        }
        if state.specularenable && n_dot_l > 0.0 {
            let h = normalize([dir_l[0] + eye[0], dir_l[1] + eye[1], dir_l[2] + eye[2]]);
            let n_dot_h = dot3(v.normal, h).max(0.0);
            let f = if material.power == 0.0 { 1.0 } else { n_dot_h.powf(material.power) };
            for c in 0..3 {
                s[c] += k * light.specular[c] * specular[c] * f;
            }
        }
    }
    let spec_alpha = v.color2.map_or(0.0, |c| c[3]);
    (
        [saturate(d[0]), saturate(d[1]), saturate(d[2]), diffuse[3]],
        [saturate(s[0]), saturate(s[1]), saturate(s[2]), spec_alpha],
    )
}
