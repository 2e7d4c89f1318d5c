//! The Direct3D 9 device state a [`ShaderKey`](super::ShaderKey) abstracts ([`ShaderKey::from_state`](super::ShaderKey::from_state) builds the key
//! from it).
//!
//! A runtime keeps its render states as the raw `D3DRS_*` values the application set; it hands
//! them here together with the shader's version, and gets the key that selects the translation.
//! Fields that cannot change the code of that stage are left at their defaults, so that a cache
//! keyed by [`ShaderKey`](super::ShaderKey) does not translate a vertex shader again when only the alpha test
//! changed.

use crate::key::FloatRules;

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
    /// When the fixed-function vertex stage feeds the pixel shader (no vertex shader set): per
    /// texture stage, the component count of the coordinate set its D3DTSS_TEXCOORDINDEX reads,
    /// as the vertex declaration gives it (1–4; 0 for none). `None` behind a vertex shader. A
    /// stage projected without a valid count (D3DTTFF_PROJECTED alone, or a low byte outside
    /// COUNT1–4 as in 0xffffffff) divides by the last supplied component, and by w behind a
    /// vertex shader (docs/d3d9-rules.md#ffp-texcoords).
    pub fixed_function_texcoords: Option<[u8; 8]>,
    /// How to reproduce D3D9's float arithmetic (not a device state: the runtime's choice).
    pub float_rules: FloatRules,
    /// Every float constant set with `SetVertexShaderConstantF` is finite (the layer checked
    /// what it uploads; docs/d3d9-rules.md#zero-product). Leave it false when unsure.
    pub finite_vertex_constants: bool,
    /// Every float constant set with `SetPixelShaderConstantF` is finite.
    pub finite_pixel_constants: bool,
    /// Bit n: the texture bound to pixel sampler n has a normalised format (any but the float
    /// formats R16F to A32B32G32R32F). Leave a bit clear when unsure.
    pub normalised_textures: u16,
    /// Bit n: the texture bound to vertex sampler n (`s n` of vs_3_0) has a normalised format.
    pub normalised_vertex_textures: u8,
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
            fixed_function_texcoords: None,
            float_rules: FloatRules::Strict,
            finite_vertex_constants: false,
            finite_pixel_constants: false,
            normalised_textures: 0,
            normalised_vertex_textures: 0,
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
