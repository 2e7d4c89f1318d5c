//! Minimal keys: a [`ShaderKey`] reduced to what one shader reads.
//!
//! A layer caches translations by key. A key built from the whole device state changes whenever
//! any state changes, even state the shader never looks at (a vertex shader and the alpha test,
//! a pixel shader that samples s0 and the texture bound to s5), and each change would cost a
//! translation. [`ShaderKey::minimal`] resets every field the program cannot observe to its
//! default, so that two device states that differ only there give equal keys — and the same
//! code, since the lowering reads only the fields kept:
//!
//! | field | kept when |
//! |---|---|
//! | `float_rules`, `linkage` | always |
//! | `alpha_func` | pixel shaders |
//! | `fog` | pixel shaders before ps_3_0 (ps_3_0 does its own fog) |
//! | `fog_source` | and the fog is table fog (linear, exp, exp2) |
//! | `point_sprite` | pixel shaders that read a TEXCOORD input; vertex shaders that expand points |
//! | `point_expansion` | vertex shaders (it clears `point_size`) |
//! | `flat_shading` | the stage passes a COLOR varying |
//! | `projected[n]` | ps_1_0–ps_1_3 that read `t n` |
//! | `clip_planes`, `point_size` | vertex shaders |
//! | `vertex_inputs[n]` | vertex shaders that read `v n` |
//! | `swvp` | vertex shaders that read float constants from the buffer |
//! | `unbound_samplers`, `shadow_samplers`, `sampler_types` bit/entry n | the shader uses `s n`; a shadow bit only on a bound, non-volume sampler; a type only where it differs from the `dcl` |
//! | `fetch4_samplers` bit n | pixel shaders that use `s n`, bound, not a shadow sampler, of type 2D (docs/d3d9-rules.md#fetch4) |
//!
//! A field delivered as an override or a uniform ([`crate::key::delivery`]) is not read from the key
//! at all: it takes its default, and the delivery of a field the stage cannot read becomes
//! baked, so the keys of all states agree on it.
//!
//! [`Shader::key`](crate::Shader::key) returns the minimal key of the device state.

use crate::analysis::Signature;
use crate::bytecode::{RegisterType, ShaderKind, TextureType, Usage, Version};
use crate::key::delivery::Delivery;
use crate::key::{AlphaFunc, FogMode, FogSource, ShaderKey};
use crate::key::linkage::semantic;
use crate::key::device::DeviceState;

impl ShaderKey {
    /// This key with every field a program of `version` and signature `sig` does not read reset
    /// to its default (the table in [`crate::key::minimal`]). Translating under the result gives
    /// the same module as under `self`.
    pub fn minimal(&self, version: Version, sig: &Signature) -> ShaderKey {
        let mut k = self.clone();
        let profile = version.profile();
        k.minimal_delivery(version, sig);
        let has_usage = |regs: &[crate::analysis::IoRegister], usage: Usage| {
            regs.iter().filter_map(|r| semantic(version, r)).any(|(u, _)| u == usage as u8)
        };
        match version.kind {
            ShaderKind::Vertex => {
                k.alpha_func = AlphaFunc::Always;
                k.fog = FogMode::None;
                k.fog_source = FogSource::Z;
                // Sprite coordinates are the vertex shader's only when it expands points.
                k.point_sprite &= k.point_expansion != crate::key::PointExpansion::Off;
                if k.point_expansion != crate::key::PointExpansion::Off {
                    k.point_size = false;
                }
                k.projected = [0; 8];
                k.fetch4_samplers = 0;
                k.flat_shading &= has_usage(&sig.outputs, Usage::Color);
                let fc = &sig.float_constants;
                k.swvp &= fc.relative || fc.used.iter().any(|n| !fc.defined.contains_key(n));
                for (n, t) in k.vertex_inputs.iter_mut().enumerate() {
                    if sig.input(RegisterType::Input, n as u16).is_none() {
                        *t = None;
                    }
                }
            }
            ShaderKind::Pixel => {
                k.vertex_inputs = [None; 16];
                k.clip_planes = 0;
                k.point_size = false;
                k.point_expansion = crate::key::PointExpansion::Off;
                k.swvp = false;
                if !profile.fixed_function_fog {
                    k.fog = FogMode::None;
                }
                if matches!(k.fog, FogMode::None | FogMode::Vertex) && k.delivery.fog == Delivery::Baked {
                    k.fog_source = FogSource::Z;
                }
                k.point_sprite &= has_usage(&sig.inputs, Usage::TexCoord);
                k.flat_shading &= has_usage(&sig.inputs, Usage::Color);
                for (n, p) in k.projected.iter_mut().enumerate() {
                    let read = sig.input(RegisterType::Texture, n as u16).is_some();
                    if !(profile.ps_1_0_to_1_3() && read) {
                        *p = 0;
                    }
                }
            }
        }
        k.minimal_samplers(sig);
        k
    }

    /// Deliveries of fields the stage does not read become baked; fields delivered otherwise
    /// than baked are not read from the key, so they take their defaults.
    fn minimal_delivery(&mut self, version: Version, sig: &Signature) {
        let profile = version.profile();
        let d = &mut self.delivery;
        match version.kind {
            ShaderKind::Vertex => {
                (d.alpha_func, d.fog, d.fog_source, d.projected) = Default::default();
            }
            ShaderKind::Pixel => {
                d.clip_planes = Delivery::Baked;
                if !profile.fixed_function_fog {
                    (d.fog, d.fog_source) = Default::default();
                }
                if !profile.ps_1_0_to_1_3() {
                    d.projected = Delivery::Baked;
                }
            }
        }
        if !sig.samplers.iter().any(|s| s.index < 16) {
            d.unbound_samplers = Delivery::Baked;
        }
        if d.fog == Delivery::Baked && matches!(self.fog, FogMode::None | FogMode::Vertex) {
            d.fog_source = Delivery::Baked;
        }
        let d = self.delivery;
        let dynamic = |x: Delivery| x != Delivery::Baked;
        if dynamic(d.alpha_func) {
            self.alpha_func = AlphaFunc::Always;
        }
        if dynamic(d.fog) {
            self.fog = FogMode::None;
        }
        if dynamic(d.fog_source) {
            self.fog_source = FogSource::Z;
        }
        if dynamic(d.clip_planes) {
            self.clip_planes = 0;
        }
        if dynamic(d.unbound_samplers) {
            self.unbound_samplers = 0;
        }
        if dynamic(d.projected) {
            self.projected = [0; 8];
        }
    }

    fn minimal_samplers(&mut self, sig: &Signature) {
        let (mut unbound, mut shadow, mut fetch4) = (0u16, 0u16, 0u16);
        let mut types = [None; 16];
        for s in sig.samplers.iter().filter(|s| s.index < 16) {
            let n = usize::from(s.index);
            let bit = 1u16 << n;
            if self.unbound_samplers & bit != 0 {
                unbound |= bit;
                continue;
            }
            let ty = self.sampler_type(n, s.texture_type);
            if self.shadow_samplers & bit != 0 && ty != TextureType::Volume {
                shadow |= bit;
            } else if self.fetch4_samplers & bit != 0 && ty == TextureType::Tex2D {
                fetch4 |= bit;
            }
            let declared = ShaderKey::default().sampler_type(n, s.texture_type);
            if ty != declared {
                types[n] = Some(ty);
            }
        }
        self.unbound_samplers = unbound;
        self.shadow_samplers = shadow;
        self.fetch4_samplers = fetch4;
        self.sampler_types = types;
    }

    /// The minimal key of a program of `version` and signature `sig` under `state`:
    /// [`ShaderKey::from_state`], then [`ShaderKey::minimal`].
    pub fn from_state_for(version: Version, sig: &Signature, state: &DeviceState) -> ShaderKey {
        ShaderKey::from_state(version, state).minimal(version, sig)
    }
}

#[cfg(test)]
mod tests {
    use crate::key::device::{BoundTexture, DeviceState};
    use crate::{ParseOptions, Shader};

    fn shader(text: &str) -> Shader {
        Shader::from_asm(text, &ParseOptions::default()).unwrap()
    }

    /// Both states' keys are equal, and so are the translations under the unreduced keys (the
    /// fields dropped were not read).
    fn same(s: &Shader, a: &DeviceState, b: &DeviceState) {
        assert_eq!(s.key(a), s.key(b));
        let wgsl = |st: &DeviceState| s.translate(&s.key(st)).unwrap().to_wgsl().unwrap();
        let full =
            |st: &DeviceState| s.translate(&crate::ShaderKey::from_state(s.version(), st)).unwrap().to_wgsl().unwrap();
        assert_eq!(wgsl(a), full(a));
        assert_eq!(wgsl(b), full(b));
    }

    #[test]
    fn a_vertex_shader_ignores_pixel_state_and_unused_vertex_samplers() {
        let vs = shader("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s1\ntexldl r0, v0, s1\nadd o0, v0, r0\n");
        let a = DeviceState { vertex_textures: [None, Some(BoundTexture::Tex2D), None, None], ..Default::default() };
        let mut b = DeviceState {
            alpha_test_enable: true,
            alpha_func: 5,
            fog_enable: true,
            fog_table_mode: 3,
            w_fog: true,
            point_sprite_enable: true,
            // Flat shading: the shader passes no COLOR.
            shade_mode: 1,
            // Only s1 is sampled: s0, s2 and s3 are not looked at.
            vertex_textures: [Some(BoundTexture::Cube), Some(BoundTexture::Tex2D), None, Some(BoundTexture::Depth2D)],
            // No float constant is read: software vertex processing changes nothing.
            software_vertex_processing: true,
            ..Default::default()
        };
        b.textures[3] = Some(BoundTexture::Volume);
        b.texture_transform_flags[0] = 256 | 3;
        same(&vs, &a, &b);
        // What it reads does change the key: s1 unbound, clip planes.
        let c = DeviceState { clip_plane_enable: 1, ..a.clone() };
        assert_ne!(vs.key(&a), vs.key(&c));
        let d = DeviceState { vertex_textures: [None; 4], ..a.clone() };
        assert_ne!(vs.key(&a), vs.key(&d));
    }

    #[test]
    fn a_ps_3_0_ignores_fog_vertex_state_and_unused_samplers() {
        let ps = shader("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s2\ntexld r0, v0, s2\nmov oC0, r0\n");
        let mut a = DeviceState::default();
        a.textures[2] = Some(BoundTexture::Tex2D);
        let mut b = DeviceState {
            // ps_3_0 does its own fog.
            fog_enable: true,
            fog_table_mode: 1,
            clip_plane_enable: 0xff,
            point_list: true,
            software_vertex_processing: true,
            shade_mode: 1,
            ..a.clone()
        };
        b.textures[0] = Some(BoundTexture::Depth2D);
        b.textures[7] = Some(BoundTexture::Cube);
        same(&ps, &a, &b);
        // The alpha test is read by every pixel shader; point sprites by one with a TEXCOORD.
        assert_ne!(ps.key(&a), ps.key(&DeviceState { alpha_test_enable: true, alpha_func: 2, ..a.clone() }));
        assert_ne!(ps.key(&a), ps.key(&DeviceState { point_sprite_enable: true, ..a.clone() }));
    }

    #[test]
    fn fog_source_matters_only_for_table_fog_and_projection_only_for_coordinates_read() {
        // ps_1_1 reading t0 only (tex t0): stage 1's D3DTTFF_PROJECTED is not looked at.
        let ps = shader("ps_1_1\ntex t0\nmov r0, t0\n");
        let mut a = DeviceState { fog_enable: true, fog_table_mode: 0, ..DeviceState::default() };
        a.textures[0] = Some(BoundTexture::Tex2D);
        let mut b = DeviceState { w_fog: true, ..a.clone() };
        b.texture_transform_flags[1] = 256 | 4;
        same(&ps, &a, &b);
        let mut c = a.clone();
        c.texture_transform_flags[0] = 256 | 4;
        assert_ne!(ps.key(&a), ps.key(&c));
        // Table fog: now w-fog selects the depth.
        let a = DeviceState { fog_table_mode: 3, ..a };
        assert_ne!(ps.key(&a), ps.key(&DeviceState { w_fog: true, ..a.clone() }));
    }

    #[test]
    fn fetch4_is_kept_only_on_read_2d_colour_samplers_of_pixel_shaders() {
        let ps = shader("ps_2_0\ndcl t0\ndcl_2d s0\ndcl_cube s1\ntexld r0, t0, s0\ntexld r1, t0, s1\nmov oC0, r0\n");
        let mut a = DeviceState::default();
        a.textures[0] = Some(BoundTexture::Tex2D);
        a.textures[1] = Some(BoundTexture::Cube);
        let mut b = a.clone();
        // s1 is a cube and s5 is not sampled: GET4 there changes nothing.
        b.set_mipmap_lod_bias(1, crate::key::device::FOURCC_GET4);
        b.set_mipmap_lod_bias(5, crate::key::device::FOURCC_GET4);
        same(&ps, &a, &b);
        b.set_mipmap_lod_bias(0, crate::key::device::FOURCC_GET4);
        assert_eq!(ps.key(&b).fetch4_samplers, 0b1);
        // A shadow map keeps its comparison: no fetch4 bit.
        let mut c = b.clone();
        c.textures[0] = Some(BoundTexture::Depth2D);
        assert_eq!(ps.key(&c).fetch4_samplers, 0);
        // A key set by hand is reduced the same way, and a vertex shader never keeps one.
        let key = crate::ShaderKey { fetch4_samplers: 0xffff, ..Default::default() };
        assert_eq!(ps.minimal_key(&key).fetch4_samplers, 0b1);
        let vs = shader("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s0\ntexldl r0, v0, s0\nadd o0, v0, r0\n");
        assert_eq!(vs.minimal_key(&key).fetch4_samplers, 0);
    }

    #[test]
    fn a_declared_type_equal_to_the_bound_one_is_not_an_override() {
        // SM1 has no dcl: the bound type is the sampler's type, and 2D is the default.
        let ps = shader("ps_1_4\ntexld r0, t0\n");
        let mut a = DeviceState::default();
        a.textures[0] = Some(BoundTexture::Tex2D);
        let k = ps.key(&a);
        assert_eq!(k.sampler_types, [None; 16]);
        a.textures[0] = Some(BoundTexture::Cube);
        assert_eq!(ps.key(&a).sampler_types[0], Some(crate::bytecode::TextureType::Cube));
    }
}
