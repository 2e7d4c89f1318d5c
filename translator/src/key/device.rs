//! The Direct3D 9 device state a [`ShaderKey`] abstracts, and the key's constructor from it.
//!
//! A runtime keeps its render states as the raw `D3DRS_*` values the application set; it hands
//! them here together with the shader's version, and gets the key that selects the translation.
//! Fields that cannot change the code of that stage are left at their defaults, so that a cache
//! keyed by [`ShaderKey`] does not translate a vertex shader again when only the alpha test
//! changed.

use crate::bytecode::{ShaderKind, TextureType, Version};
use crate::key::{AlphaFunc, AlphaPrecision, FloatRules, FogMode, FogSource, ShaderKey};

/// The resource bound to a sampler stage (`IDirect3DDevice9::SetTexture`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundTexture {
    /// An `IDirect3DTexture9` with a colour format.
    Tex2D,
    /// An `IDirect3DCubeTexture9`.
    Cube,
    /// An `IDirect3DVolumeTexture9`.
    Volume,
    /// An `IDirect3DTexture9` with a depth format (D3DFMT_D16, D24X8, …): sampled with a depth
    /// comparison, the hardware shadow-map behaviour.
    Depth2D,
}

/// The device state that selects a translation, as raw Direct3D 9 values.
///
/// [`DeviceState::default()`] is the state of a freshly created device (no texture bound,
/// alpha test and fog off, Gouraud shading, hardware vertex processing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeviceState {
    /// D3DRS_ALPHATESTENABLE.
    pub alpha_test_enable: bool,
    /// D3DRS_ALPHAFUNC, a D3DCMPFUNC: 1 never, 2 less, 3 equal, 4 less-equal, 5 greater,
    /// 6 not-equal, 7 greater-equal, 8 always.
    pub alpha_func: u32,
    /// Render target 0 has a floating-point format (D3DFMT_A32B32G32R32F, …): the alpha test
    /// compares at float precision (docs/d3d9-rules.md#alpha-test).
    pub float_render_target: bool,
    /// D3DRS_FOGENABLE.
    pub fog_enable: bool,
    /// D3DRS_FOGTABLEMODE, a D3DFOGMODE: 0 none, 1 exp, 2 exp2, 3 linear. With 0 and fog
    /// enabled, the vertex shader's oFog is the fog factor (vertex fog).
    pub fog_table_mode: u32,
    /// Table fog uses the eye-space w rather than z (the device reports D3DPRASTERCAPS_WFOG and
    /// the projection is a perspective one).
    pub w_fog: bool,
    /// D3DRS_SHADEMODE, a D3DSHADEMODE: 1 flat, 2 Gouraud.
    pub shade_mode: u32,
    /// D3DRS_CLIPPLANEENABLE: bit n enables user clip plane n.
    pub clip_plane_enable: u32,
    /// D3DRS_POINTSPRITEENABLE.
    pub point_sprite_enable: bool,
    /// The draw call renders D3DPT_POINTLIST (the vertex shader then outputs a point size).
    pub point_list: bool,
    /// How the layer draws point lists on its target ([`crate::key::PointExpansion`]): `Off`
    /// where the target has a point-size output, `List`/`Strip` on WebGPU. With it on, a
    /// point-list draw's vertex shader expands the points and takes the point sprites, and its
    /// pixel shader reads TEXCOORD inputs as usual.
    pub point_expansion: crate::key::PointExpansion,
    /// The device (or, for mixed devices, D3DRS_SOFTWAREVERTEXPROCESSING) processes vertices
    /// in software: 8192 float constants.
    pub software_vertex_processing: bool,
    /// Textures bound to the pixel samplers 0–15; `None`: nothing bound.
    pub textures: [Option<BoundTexture>; 16],
    /// Pixel samplers in AMD's Fetch4 mode, bit n for sampler n: D3DSAMP_MIPMAPLODBIAS was last
    /// set to [`FOURCC_GET4`] and not since to [`FOURCC_GET1`] (keep it with
    /// [`DeviceState::set_mipmap_lod_bias`]). The key takes a bit only where a 2D colour texture
    /// is bound; a layer also clears it for multi-channel formats (docs/d3d9-rules.md#fetch4).
    pub fetch4_samplers: u16,
    /// Textures bound to the vertex samplers (D3DVERTEXTEXTURESAMPLER0–3, `s0`–`s3` of vs_3_0).
    pub vertex_textures: [Option<BoundTexture>; 4],
    /// D3DTSS_TEXTURETRANSFORMFLAGS of texture stages 0–7. Only D3DTTFF_PROJECTED (256)
    /// changes a shader's code: ps_1_1–ps_1_3 divide that stage's coordinates by their last
    /// component before sampling (ps_1_4 and later say so in the instruction instead).
    pub texture_transform_flags: [u32; 8],
    /// How to reproduce D3D9's float arithmetic (not a device state: the runtime's choice).
    pub float_rules: FloatRules,
}

impl Default for DeviceState {
    fn default() -> DeviceState {
        DeviceState {
            alpha_test_enable: false,
            alpha_func: 8,
            float_render_target: false,
            fog_enable: false,
            fog_table_mode: 0,
            w_fog: false,
            shade_mode: 2,
            clip_plane_enable: 0,
            point_sprite_enable: false,
            point_list: false,
            point_expansion: crate::key::PointExpansion::Off,
            software_vertex_processing: false,
            textures: [None; 16],
            fetch4_samplers: 0,
            vertex_textures: [None; 4],
            texture_transform_flags: [0; 8],
            float_rules: FloatRules::Strict,
        }
    }
}

/// `MAKEFOURCC('G', 'E', 'T', '4')`: the D3DSAMP_MIPMAPLODBIAS value that turns Fetch4 on for a
/// sampler (docs/d3d9-rules.md#fetch4).
pub const FOURCC_GET4: u32 = u32::from_le_bytes(*b"GET4");
/// `MAKEFOURCC('G', 'E', 'T', '1')`: the value that turns Fetch4 off again.
pub const FOURCC_GET1: u32 = u32::from_le_bytes(*b"GET1");

impl DeviceState {
    /// Records `SetSamplerState(sampler, D3DSAMP_MIPMAPLODBIAS, value)` as far as it changes
    /// code: `GET4` turns Fetch4 on for that pixel sampler, `GET1` off; any other value is a
    /// real bias (a sampler value, not a key field) and leaves the mode as it was.
    pub fn set_mipmap_lod_bias(&mut self, sampler: usize, value: u32) {
        if sampler >= 16 {
            return;
        }
        let bit = 1u16 << sampler;
        match value {
            FOURCC_GET4 => self.fetch4_samplers |= bit,
            FOURCC_GET1 => self.fetch4_samplers &= !bit,
            _ => {}
        }
    }
}

/// D3DTTFF_PROJECTED.
const D3DTTFF_PROJECTED: u32 = 256;

fn alpha_func(d3dcmp: u32) -> AlphaFunc {
    match d3dcmp {
        1 => AlphaFunc::Never,
        2 => AlphaFunc::Less,
        3 => AlphaFunc::Equal,
        4 => AlphaFunc::LessEqual,
        5 => AlphaFunc::Greater,
        6 => AlphaFunc::NotEqual,
        7 => AlphaFunc::GreaterEqual,
        // D3DCMP_ALWAYS, and values the runtime would refuse.
        _ => AlphaFunc::Always,
    }
}

impl ShaderKey {
    /// The key for a shader of `version` under `state`.
    ///
    /// Vertex shaders take the float rules, clip planes, point size, flat shading, software
    /// vertex processing and the vertex textures; pixel shaders the float rules, alpha test, fog
    /// (before ps_3_0, which does its own), point sprites, flat shading and the pixel textures.
    /// Texture types override the declaration only in Shader Model 1, which has none. The
    /// linkage is left empty: set it from [`crate::link`] for a pair.
    pub fn from_state(version: Version, state: &DeviceState) -> ShaderKey {
        let flat = state.shade_mode == 1;
        let mut key = ShaderKey { float_rules: state.float_rules, flat_shading: flat, ..ShaderKey::default() };
        let profile = version.profile();
        let textures: &[Option<BoundTexture>] = match version.kind {
            ShaderKind::Vertex => {
                key.clip_planes = state.clip_plane_enable as u8;
                let expand = state.point_list && state.point_expansion != crate::key::PointExpansion::Off;
                key.point_size = state.point_list && !expand;
                if expand {
                    key.point_expansion = state.point_expansion;
                    key.point_sprite = state.point_sprite_enable;
                }
                key.swvp = state.software_vertex_processing;
                // Only vs_3_0 samples textures: the models with vertex samplers s#.
                if profile.registers.samplers > 0 {
                    &state.vertex_textures
                } else {
                    &[]
                }
            }
            ShaderKind::Pixel => {
                if state.alpha_test_enable {
                    key.alpha_func = alpha_func(state.alpha_func);
                    if state.float_render_target {
                        key.alpha_precision = AlphaPrecision::Float;
                    }
                }
                if state.fog_enable && profile.fixed_function_fog {
                    key.fog = match state.fog_table_mode {
                        1 => FogMode::Exp,
                        2 => FogMode::Exp2,
                        3 => FogMode::Linear,
                        _ => FogMode::Vertex,
                    };
                    if key.fog != FogMode::Vertex && state.w_fog {
                        key.fog_source = FogSource::W;
                    }
                }
                // An expanding vertex shader writes the sprite coordinates as TEXCOORD outputs.
                key.point_sprite = state.point_sprite_enable
                    && !(state.point_list && state.point_expansion != crate::key::PointExpansion::Off);
                // ps_1_0–1_3 project by the stage's texture transform flags (ps_1_4 and later
                // say it in the instruction: texld_dw, texldp).
                if profile.ps_1_0_to_1_3() {
                    for (n, flags) in state.texture_transform_flags.iter().enumerate() {
                        if flags & D3DTTFF_PROJECTED != 0 {
                            // D3DTTFF_COUNT1..4 in the low byte; DISABLE (0) divides by w.
                            key.projected[n] = match flags & 0xff {
                                c @ 1..=4 => c as u8,
                                _ => 4,
                            };
                        }
                    }
                }
                &state.textures
            }
        };
        for (n, bound) in textures.iter().enumerate() {
            let bit = 1u16 << n;
            match bound {
                None => key.unbound_samplers |= bit,
                Some(BoundTexture::Depth2D) => key.shadow_samplers |= bit,
                // Fetch4 reads 2D colour textures in pixel shaders only.
                Some(BoundTexture::Tex2D) if version.kind == ShaderKind::Pixel => {
                    key.fetch4_samplers |= state.fetch4_samplers & bit;
                }
                Some(_) => {}
            }
            // Shader Model 1 declares no sampler types: the bound textures give them.
            if profile.ps_1_x {
                key.sampler_types[n] = bound.map(|b| match b {
                    BoundTexture::Tex2D | BoundTexture::Depth2D => TextureType::Tex2D,
                    BoundTexture::Cube => TextureType::Cube,
                    BoundTexture::Volume => TextureType::Volume,
                });
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(kind: ShaderKind, major: u8) -> Version {
        Version { kind, major, minor: 0 }
    }

    #[test]
    fn pixel_state_reaches_only_pixel_keys() {
        let mut s = DeviceState {
            alpha_test_enable: true,
            alpha_func: 7,
            fog_enable: true,
            fog_table_mode: 3,
            ..DeviceState::default()
        };
        s.textures[0] = Some(BoundTexture::Tex2D);
        s.textures[2] = Some(BoundTexture::Depth2D);
        let ps = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!(ps.alpha_func, AlphaFunc::GreaterEqual);
        assert_eq!(ps.fog, FogMode::Linear);
        // Samplers 1 and 3..15 have nothing bound.
        assert_eq!(ps.unbound_samplers, 0b1111_1111_1111_1010);
        assert_eq!(ps.shadow_samplers, 0b100);
        // The vertex shader's key ignores all of it: the cache keeps one translation.
        let vs = ShaderKey::from_state(v(ShaderKind::Vertex, 2), &s);
        assert_eq!(vs, ShaderKey::default());
    }

    #[test]
    fn fetch4_follows_get4_and_get1_on_bound_2d_pixel_samplers() {
        // The FOURCC is the characters in memory order: 'G' 0x47, 'E' 0x45, 'T' 0x54, '4' 0x34.
        assert_eq!((FOURCC_GET4, FOURCC_GET1), (0x3454_4547, 0x3154_4547));
        let mut s = DeviceState::default();
        s.set_mipmap_lod_bias(0, FOURCC_GET4);
        s.set_mipmap_lod_bias(1, FOURCC_GET4);
        s.set_mipmap_lod_bias(2, FOURCC_GET4);
        s.set_mipmap_lod_bias(3, FOURCC_GET4);
        // A real bias (1.0f as bits) keeps the mode; GET1 ends it; sampler 16 does not exist.
        s.set_mipmap_lod_bias(0, 1.0f32.to_bits());
        s.set_mipmap_lod_bias(3, FOURCC_GET1);
        s.set_mipmap_lod_bias(16, FOURCC_GET4);
        assert_eq!(s.fetch4_samplers, 0b0111);
        s.textures[0] = Some(BoundTexture::Tex2D);
        s.textures[1] = Some(BoundTexture::Cube);
        s.textures[2] = Some(BoundTexture::Depth2D);
        s.textures[3] = Some(BoundTexture::Tex2D);
        // Only s0: s1 is a cube, s2 a shadow map, s3 has GET1.
        assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s).fetch4_samplers, 0b1);
        s.vertex_textures[0] = Some(BoundTexture::Tex2D);
        assert_eq!(ShaderKey::from_state(v(ShaderKind::Vertex, 3), &s).fetch4_samplers, 0);
    }

    #[test]
    fn alpha_test_off_means_always_whatever_the_function() {
        let s = DeviceState { alpha_func: 2, ..DeviceState::default() };
        assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 3), &s).alpha_func, AlphaFunc::Always);
    }

    #[test]
    fn alpha_test_on_a_float_target_compares_at_float_precision() {
        let s =
            DeviceState { alpha_test_enable: true, alpha_func: 5, float_render_target: true, ..DeviceState::default() };
        let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!((k.alpha_func, k.alpha_precision), (AlphaFunc::Greater, AlphaPrecision::Float));
        // Without the test the precision does not split the cache.
        let s = DeviceState { alpha_test_enable: false, ..s };
        let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!((k.alpha_func, k.alpha_precision), (AlphaFunc::Always, AlphaPrecision::Unorm8));
    }

    #[test]
    fn fog_table_none_is_vertex_fog_and_ps_3_0_has_none() {
        let s = DeviceState { fog_enable: true, fog_table_mode: 0, w_fog: true, ..DeviceState::default() };
        let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!((k.fog, k.fog_source), (FogMode::Vertex, FogSource::Z));
        assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 3), &s).fog, FogMode::None);
        let s = DeviceState { fog_table_mode: 2, ..s };
        let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!((k.fog, k.fog_source), (FogMode::Exp2, FogSource::W));
    }

    #[test]
    fn vertex_state_and_sm1_texture_types() {
        let mut s = DeviceState { clip_plane_enable: 0b11, point_list: true, shade_mode: 1, ..DeviceState::default() };
        s.textures[1] = Some(BoundTexture::Cube);
        let vs = ShaderKey::from_state(v(ShaderKind::Vertex, 2), &s);
        assert_eq!((vs.clip_planes, vs.point_size, vs.flat_shading, vs.unbound_samplers), (3, true, true, 0));
        let ps = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 4 }, &s);
        assert_eq!(ps.sampler_types[1], Some(TextureType::Cube));
        assert_eq!(ps.sampler_types[0], None);
        // D3DTTFF_COUNT4 | D3DTTFF_PROJECTED on stage 2: ps_1_1 projects, ps_1_4 and ps_2_0 do not.
        s.texture_transform_flags[2] = 4 | 256;
        let p11 = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 1 }, &s);
        assert_eq!(p11.projected, [0, 0, 4, 0, 0, 0, 0, 0]);
        assert_eq!(
            ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 4 }, &s).projected,
            [0; 8]
        );
        assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s).projected, [0; 8]);
        // COUNT3 | PROJECTED divides by z: the count is kept.
        s.texture_transform_flags[2] = 3 | 256;
        let p11 = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 1 }, &s);
        assert_eq!(p11.projected[2], 3);
        // SM2 declares its types: the bound texture does not override them.
        let ps2 = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
        assert_eq!(ps2.sampler_types, [None; 16]);
    }
}
