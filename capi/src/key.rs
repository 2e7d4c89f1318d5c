//! The key as a plain C struct (with a leading `size` so that it can grow), the device state it
//! is built from, minimisation and the cache hash.

use d3d9_shader::bytecode::TextureType;
use d3d9_shader::key::vertex_formats::DeclType;
use d3d9_shader::key::{AlphaPrecision, CompareFunc, FloatRules, FogMode, FogSource, PointExpansion};
use d3d9_shader::{BoundTexture, Deliveries, Delivery, DeviceState, ShaderKey};

use crate::error::{guard, sized_or_earlier, write, write_sized, D3d9sStatus, Failure};
use crate::link::D3d9sLinkage;
use crate::parse::{flag, shader_ref, D3d9sShader};

/// D3DDECLTYPE_UNUSED: no vertex type given for an input ([`D3d9sKey::vertex_inputs`]): a
/// `float32x4` attribute.
pub const D3D9S_DECLTYPE_UNUSED: u32 = 17;

/// How each render-state mode reaches the code: 0 baked (the default: the key's value is in the
/// code), 1 override (a WGSL `override`; see `d3d9s_translation_pipeline_constants`),
/// 2 uniform (read from the render-state block). Under 1 and 2 the key's value is ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3d9sDeliveries {
    /// The alpha function (pixel shaders).
    pub alpha_func: u32,
    /// The fog mode (pixel shaders before ps_3_0).
    pub fog: u32,
    /// The fog depth source.
    pub fog_source: u32,
    /// The clip-plane mask (vertex shaders).
    pub clip_planes: u32,
    /// The unbound-sampler mask.
    pub unbound_samplers: u32,
    /// The ps_1_0–ps_1_3 projection counts.
    pub projected: u32,
}

/// The state a translation depends on (Rust's `ShaderKey`; docs/c-api.md lists what each field
/// changes). Fill it with [`d3d9s_key_default`] or [`d3d9s_shader_key_from_state`], then change
/// fields. Booleans are 0 or 1; a field out of range makes the call that reads the key fail with
/// [`D3d9sStatus::InvalidArgument`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sKey {
    /// `sizeof(D3d9sKey)`; anything else is [`D3d9sStatus::BadStructSize`].
    pub size: u32,
    /// 0 strict (D3D9's 0 · anything = 0; the default), 1 fast, 2 IEEE.
    pub float_rules: u32,
    /// Pixel shaders: the alpha test, a D3DCMPFUNC (1 never … 8 always = off, the default).
    pub alpha_func: u32,
    /// The alpha test's precision: 0 an 8-bit target (the default), 1 a float target.
    pub alpha_precision: u32,
    /// Pixel shaders before ps_3_0: 0 no fog, 1 exp, 2 exp2, 3 linear (table fog, D3DFOGMODE),
    /// 4 vertex fog.
    pub fog: u32,
    /// Table fog's depth: 0 z, 1 w.
    pub fog_source: u32,
    /// Vertex shaders: D3DRS_CLIPPLANEENABLE (bits 0–7).
    pub clip_planes: u32,
    /// Vertex shaders: write the point size (targets with a point-size output).
    pub point_size: u32,
    /// Point sprites (D3DRS_POINTSPRITEENABLE).
    pub point_sprite: u32,
    /// Vertex shaders: draw points as quads: 0 off, 1 six vertices (list), 2 four (strip).
    pub point_expansion: u32,
    /// D3DSHADE_FLAT: COLOR varyings are not interpolated.
    pub flat_shading: u32,
    /// Bit n: sampler n is a depth texture sampled with comparison.
    pub shadow_samplers: u32,
    /// Pixel shaders, bit n: sampler n is in Fetch4 mode.
    pub fetch4_samplers: u32,
    /// Bit n: no texture is bound to sampler n.
    pub unbound_samplers: u32,
    /// Per sampler: 0 keeps the `dcl` type; 2 2D, 3 cube, 4 volume (D3DSAMPLER_TEXTURE_TYPE >> 27).
    pub sampler_types: [u32; 16],
    /// ps_1_0–ps_1_3, per stage: 0, or the D3DTTFF_COUNT (1–4) when D3DTTFF_PROJECTED is set.
    pub projected: [u32; 8],
    /// Software vertex processing (8192 float constants).
    pub swvp: u32,
    /// The D3DDECLTYPE of the element feeding `v n`, or [`D3D9S_DECLTYPE_UNUSED`] (the default).
    pub vertex_inputs: [u32; 16],
    /// How each mode is delivered.
    pub delivery: D3d9sDeliveries,
    /// The pair's linkage (`d3d9s_link`, `d3d9s_linkage_stable`), or NULL for the default map.
    /// Borrowed: it must stay alive for the calls that read this key.
    pub linkage: *const D3d9sLinkage,
    /// Strict rules: every float constant the application set for the stage is finite (set it
    /// only when true; it spares zero guards, docs/d3d9-rules.md#zero-product).
    pub finite_constants: u32,
    /// Strict rules, bit n: the texture bound to sampler n has a normalised (non-float) format.
    pub normalised_samplers: u32,
    // The fields below came later: a key whose `size` ends before them (an earlier header's
    // `sizeof`) is still read, with their defaults.
    /// How `b0`–`b15` reach the code (`if b#`, `callnz l#, b#`), numbered as in
    /// [`D3d9sDeliveries`]: 0 baked (`bool_constants` below is in the code), 1 override (the
    /// pipeline constant `bool_constants`), 2 uniform (the default: read from their buffer).
    pub delivery_bool_constants: u32,
    /// How `i0`–`i15` reach the code (`loop aL, i#`, `rep i#`); 2 uniform by default.
    pub delivery_int_constants: u32,
    /// Bit n: `b n` is TRUE, as the application set it (`SetVertexShaderConstantB`,
    /// `SetPixelShaderConstantB`); bits 0–15. Read when baked, and for the pipeline constants
    /// of override delivery.
    pub bool_constants: u32,
    /// `i0`–`i15` as the application set them (`SetVertexShaderConstantI`, ...): count, start,
    /// step and the fourth component. Read as `bool_constants` is.
    pub int_constants: [[i32; 4]; 16],
}

/// The size of the first `D3d9sKey` layout (up to `normalised_samplers`; in C
/// `offsetof(D3d9sKey, delivery_bool_constants)`), which the library still reads: the
/// constants' deliveries and values then take their defaults.
pub(crate) const KEY_SIZE_V1: u32 = std::mem::offset_of!(D3d9sKey, delivery_bool_constants) as u32;

fn enum_field<T: Copy>(all: &[T], value: u32, field: &str) -> Result<T, Failure> {
    all.get(value as usize)
        .copied()
        .ok_or_else(|| Failure::invalid(format!("`{field}` is {value}: at most {}", all.len() - 1)))
}

fn mask<T: TryFrom<u32>>(value: u32, field: &str) -> Result<T, Failure> {
    T::try_from(value).map_err(|_| Failure::invalid(format!("`{field}` is {value:#x}: too many bits")))
}

/// The C numbering of the fog mode (D3DFOGMODE, and 4 for vertex fog).
const FOG_MODES: [FogMode; 5] = [FogMode::None, FogMode::Exp, FogMode::Exp2, FogMode::Linear, FogMode::Vertex];
const DELIVERIES: [Delivery; 3] = [Delivery::Baked, Delivery::Override, Delivery::Uniform];

impl D3d9sDeliveries {
    fn to_rust(self) -> Result<Deliveries, Failure> {
        let d = |v, f| enum_field(&DELIVERIES, v, f);
        Ok(Deliveries {
            alpha_func: d(self.alpha_func, "delivery.alpha_func")?,
            fog: d(self.fog, "delivery.fog")?,
            fog_source: d(self.fog_source, "delivery.fog_source")?,
            clip_planes: d(self.clip_planes, "delivery.clip_planes")?,
            unbound_samplers: d(self.unbound_samplers, "delivery.unbound_samplers")?,
            projected: d(self.projected, "delivery.projected")?,
            // Set by `D3d9sKey::to_rust` from the key's own fields.
            ..Deliveries::default()
        })
    }

    fn from_rust(d: &Deliveries) -> D3d9sDeliveries {
        let n = |x: Delivery| x as u32;
        D3d9sDeliveries {
            alpha_func: n(d.alpha_func),
            fog: n(d.fog),
            fog_source: n(d.fog_source),
            clip_planes: n(d.clip_planes),
            unbound_samplers: n(d.unbound_samplers),
            projected: n(d.projected),
        }
    }
}

fn sampler_type(value: u32) -> Result<Option<TextureType>, Failure> {
    match value {
        0 => Ok(None),
        2 => Ok(Some(TextureType::Tex2D)),
        3 => Ok(Some(TextureType::Cube)),
        4 => Ok(Some(TextureType::Volume)),
        n => Err(Failure::invalid(format!("a sampler type is {n}: 0, 2 (2D), 3 (cube) or 4 (volume)"))),
    }
}

impl D3d9sKey {
    /// The Rust key of a C key (its linkage cloned).
    ///
    /// # Safety
    ///
    /// `self.linkage` is NULL or a live linkage handle.
    pub(crate) unsafe fn to_rust(self) -> Result<ShaderKey, Failure> {
        let alpha_func = CompareFunc::from_d3d(self.alpha_func)
            .ok_or_else(|| Failure::invalid(format!("`alpha_func` is {}: a D3DCMPFUNC 1–8", self.alpha_func)))?;
        let mut projected = [0u8; 8];
        for (p, &v) in projected.iter_mut().zip(&self.projected) {
            *p = u8::try_from(v)
                .ok()
                .filter(|&c| c <= 4)
                .ok_or_else(|| Failure::invalid("a projection count is 1–4 or 0"))?;
        }
        let mut key = ShaderKey {
            float_rules: enum_field(FloatRules::ALL, self.float_rules, "float_rules")?,
            alpha_func,
            alpha_precision: enum_field(AlphaPrecision::ALL, self.alpha_precision, "alpha_precision")?,
            fog: enum_field(&FOG_MODES, self.fog, "fog")?,
            fog_source: enum_field(FogSource::ALL, self.fog_source, "fog_source")?,
            clip_planes: mask(self.clip_planes, "clip_planes")?,
            point_size: flag(self.point_size, "point_size")?,
            point_sprite: flag(self.point_sprite, "point_sprite")?,
            point_expansion: enum_field(PointExpansion::ALL, self.point_expansion, "point_expansion")?,
            flat_shading: flag(self.flat_shading, "flat_shading")?,
            shadow_samplers: mask(self.shadow_samplers, "shadow_samplers")?,
            fetch4_samplers: mask(self.fetch4_samplers, "fetch4_samplers")?,
            unbound_samplers: mask(self.unbound_samplers, "unbound_samplers")?,
            projected,
            swvp: flag(self.swvp, "swvp")?,
            delivery: self.delivery.to_rust()?,
            finite_constants: flag(self.finite_constants, "finite_constants")?,
            normalised_samplers: mask(self.normalised_samplers, "normalised_samplers")?,
            bool_constants: mask(self.bool_constants, "bool_constants")?,
            int_constants: self.int_constants,
            ..ShaderKey::default()
        };
        key.delivery.bool_constants = enum_field(&DELIVERIES, self.delivery_bool_constants, "delivery_bool_constants")?;
        key.delivery.int_constants = enum_field(&DELIVERIES, self.delivery_int_constants, "delivery_int_constants")?;
        for (t, &v) in key.sampler_types.iter_mut().zip(&self.sampler_types) {
            *t = sampler_type(v)?;
        }
        for (t, &v) in key.vertex_inputs.iter_mut().zip(&self.vertex_inputs) {
            *t = match v {
                D3D9S_DECLTYPE_UNUSED => None,
                v => Some(DeclType::from_raw(v).ok_or_else(|| Failure::invalid(format!("a D3DDECLTYPE is {v}")))?),
            };
        }
        // SAFETY: NULL or a live handle (this function's contract).
        key.linkage = unsafe { self.linkage.as_ref() }.map(|l| l.linkage.clone());
        Ok(key)
    }

    /// The C key of a Rust key; `linkage` is the handle that holds `key.linkage` (or NULL).
    pub(crate) fn from_rust(key: &ShaderKey, linkage: *const D3d9sLinkage) -> D3d9sKey {
        let fog = FOG_MODES.iter().position(|&f| f == key.fog).unwrap_or(0) as u32;
        D3d9sKey {
            size: size_of::<D3d9sKey>() as u32,
            float_rules: key.float_rules as u32,
            alpha_func: key.alpha_func.d3d(),
            alpha_precision: key.alpha_precision as u32,
            fog,
            fog_source: key.fog_source as u32,
            clip_planes: u32::from(key.clip_planes),
            point_size: u32::from(key.point_size),
            point_sprite: u32::from(key.point_sprite),
            point_expansion: key.point_expansion as u32,
            flat_shading: u32::from(key.flat_shading),
            shadow_samplers: u32::from(key.shadow_samplers),
            fetch4_samplers: u32::from(key.fetch4_samplers),
            unbound_samplers: u32::from(key.unbound_samplers),
            sampler_types: key.sampler_types.map(|t| t.map_or(0, |t| t as u32)),
            projected: key.projected.map(u32::from),
            swvp: u32::from(key.swvp),
            vertex_inputs: key.vertex_inputs.map(|t| t.map_or(D3D9S_DECLTYPE_UNUSED, |t| t as u32)),
            delivery: D3d9sDeliveries::from_rust(&key.delivery),
            linkage: if key.linkage.is_some() { linkage } else { std::ptr::null() },
            finite_constants: u32::from(key.finite_constants),
            normalised_samplers: u32::from(key.normalised_samplers),
            delivery_bool_constants: key.delivery.bool_constants as u32,
            delivery_int_constants: key.delivery.int_constants as u32,
            bool_constants: u32::from(key.bool_constants),
            int_constants: key.int_constants,
        }
    }
}

/// Reads a key argument: its Rust key and linkage handle.
///
/// # Safety
///
/// `key` is NULL or points to a `D3d9sKey` (or its first [`KEY_SIZE_V1`] bytes) whose
/// linkage is NULL or live.
pub(crate) unsafe fn key_arg(key: *const D3d9sKey) -> Result<(ShaderKey, *const D3d9sLinkage), Failure> {
    // SAFETY: the caller's contract.
    let k = unsafe { sized_key(key) }?;
    // SAFETY: the caller's contract.
    Ok((unsafe { k.to_rust() }?, k.linkage))
}

/// A key of this layout or an earlier one, the missing fields at their defaults.
///
/// # Safety
///
/// As [`key_arg`]'s.
unsafe fn sized_key(key: *const D3d9sKey) -> Result<D3d9sKey, Failure> {
    let default = || D3d9sKey::from_rust(&ShaderKey::default(), std::ptr::null());
    // SAFETY: the caller's contract.
    unsafe { sized_or_earlier(key, "key", &[KEY_SIZE_V1 as usize], default) }
}

/// Fills `*out` with the default key (Direct3D 9's default state: strict float rules, no alpha
/// test, no fog, no clip planes, samplers typed by their `dcl`, every mode baked, the boolean
/// and integer constants uniform (read from their buffers), no linkage).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_key_default(out: *mut D3d9sKey) -> D3d9sStatus {
    guard(|| {
        let value = D3d9sKey::from_rust(&ShaderKey::default(), std::ptr::null());
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// `key` reduced to what `shader` reads (Rust's `Shader::minimal_key`): fields the shader cannot
/// observe take their defaults, so that states differing only there give equal keys. Cache
/// translations by the minimal key (or by [`d3d9s_shader_cache_hash`]). `out` may equal `key`;
/// it gets `key`'s layout (its `size`; an earlier header's `sizeof` too).
///
/// Thread safety: any thread, concurrently with any call but the handles' frees.
///
/// # Safety
///
/// `shader` is NULL or live; `key` is NULL or a valid key (its linkage NULL or live); `out` is
/// NULL or writable for `key`'s size.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_minimal_key(
    shader: *const D3d9sShader,
    key: *const D3d9sKey,
    out: *mut D3d9sKey,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live handle, NULL or valid key (this function's contract).
        let (h, (k, linkage)) = unsafe { (shader_ref(shader)?, key_arg(key)?) };
        // SAFETY: `key_arg` read it.
        let size = unsafe { key.cast::<u32>().read() } as usize;
        let value = D3d9sKey::from_rust(&h.shader.minimal_key(&k), linkage);
        // SAFETY: NULL or writable for the input key's size (this function's contract).
        unsafe { write_sized(out, "out", value, size) }
    })
}

/// The stable 128-bit cache hash of translating `shader` under `key` (minimised first), as 16
/// bytes, little-endian, into `out[0..16]`: the same on every platform and run of this library
/// version; a layer may name cache files by it.
///
/// Thread safety: any thread, concurrently with any call but the handles' frees.
///
/// # Safety
///
/// `shader` is NULL or live; `key` is NULL or a valid key; `out` is NULL or writable for 16
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_cache_hash(
    shader: *const D3d9sShader,
    key: *const D3d9sKey,
    out: *mut u8,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live handle, NULL or valid key (this function's contract).
        let (h, (k, _)) = unsafe { (shader_ref(shader)?, key_arg(key)?) };
        let bytes = h.shader.cache_hash(&k).0.to_le_bytes();
        // SAFETY: NULL or writable for 16 bytes (this function's contract).
        unsafe { write(out.cast::<[u8; 16]>(), "out", bytes) }
    })
}

/// The texture bound to a sampler ([`D3d9sDeviceState::textures`]): nothing.
pub const D3D9S_TEXTURE_NONE: u32 = 0;
/// An `IDirect3DTexture9` with a colour format.
pub const D3D9S_TEXTURE_2D: u32 = 1;
/// An `IDirect3DCubeTexture9`.
pub const D3D9S_TEXTURE_CUBE: u32 = 2;
/// An `IDirect3DVolumeTexture9`.
pub const D3D9S_TEXTURE_VOLUME: u32 = 3;
/// An `IDirect3DTexture9` with a depth format (sampled with comparison).
pub const D3D9S_TEXTURE_DEPTH_2D: u32 = 4;

/// The raw Direct3D 9 device state a key is built from ([`d3d9s_shader_key_from_state`]). Fill it
/// with [`d3d9s_device_state_default`] (a fresh device), then record the application's states.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sDeviceState {
    /// `sizeof(D3d9sDeviceState)`.
    pub size: u32,
    /// D3DRS_ALPHATESTENABLE.
    pub alpha_test_enable: u32,
    /// D3DRS_ALPHAFUNC (a D3DCMPFUNC).
    pub alpha_func: u32,
    /// Render target 0 has a float format.
    pub float_render_target: u32,
    /// D3DRS_FOGENABLE.
    pub fog_enable: u32,
    /// D3DRS_FOGTABLEMODE (a D3DFOGMODE; 0 with fog on is vertex fog).
    pub fog_table_mode: u32,
    /// Table fog uses eye-space w.
    pub w_fog: u32,
    /// D3DRS_SHADEMODE (1 flat, 2 Gouraud).
    pub shade_mode: u32,
    /// D3DRS_CLIPPLANEENABLE.
    pub clip_plane_enable: u32,
    /// D3DRS_POINTSPRITEENABLE.
    pub point_sprite_enable: u32,
    /// The draw renders D3DPT_POINTLIST.
    pub point_list: u32,
    /// How the layer draws point lists: 0 off, 1 list, 2 strip ([`D3d9sKey::point_expansion`]).
    pub point_expansion: u32,
    /// Software vertex processing.
    pub software_vertex_processing: u32,
    /// The pixel samplers' textures, `D3D9S_TEXTURE_*`.
    pub textures: [u32; 16],
    /// Bit n: pixel sampler n in Fetch4 mode (D3DSAMP_MIPMAPLODBIAS set to `GET4`).
    pub fetch4_samplers: u32,
    /// The vertex samplers' textures (D3DVERTEXTEXTURESAMPLER0–3), `D3D9S_TEXTURE_*`.
    pub vertex_textures: [u32; 4],
    /// D3DTSS_TEXTURETRANSFORMFLAGS of stages 0–7.
    pub texture_transform_flags: [u32; 8],
    /// 0 strict, 1 fast, 2 IEEE (the layer's choice, not a device state).
    pub float_rules: u32,
    /// Every float constant set with `SetVertexShaderConstantF` is finite (leave 0 when unsure).
    pub finite_vertex_constants: u32,
    /// Every float constant set with `SetPixelShaderConstantF` is finite.
    pub finite_pixel_constants: u32,
    /// Bit n: the texture bound to pixel sampler n has a normalised (non-float) format.
    pub normalised_textures: u32,
    /// Bit n: the texture bound to vertex sampler n has a normalised format.
    pub normalised_vertex_textures: u32,
    /// 1: no vertex shader is set, the fixed-function vertex stage feeds the pixel shader; 0
    /// behind a vertex shader. Read with `fixed_function_texcoord_sizes`.
    pub fixed_function_vertex: u32,
    /// With `fixed_function_vertex`: per texture stage, the component count (1–4, 0 for none)
    /// of the TEXCOORD set its D3DTSS_TEXCOORDINDEX reads, from the vertex declaration. A
    /// ps_1_1–1_3 stage projected without a valid count (D3DTTFF_PROJECTED alone, or
    /// 0xffffffff) divides by its last component, and by w behind a vertex shader.
    pub fixed_function_texcoord_sizes: [u32; 8],
}

/// The size of the first `D3d9sDeviceState` layout (up to `normalised_vertex_textures`; in C
/// `offsetof(D3d9sDeviceState, fixed_function_vertex)`), which the library still reads: the
/// vertex stage is then taken to be a shader.
pub(crate) const DEVICE_STATE_SIZE_V1: u32 = std::mem::offset_of!(D3d9sDeviceState, fixed_function_vertex) as u32;

const TEXTURES: [Option<BoundTexture>; 5] = [
    None,
    Some(BoundTexture::Tex2D),
    Some(BoundTexture::Cube),
    Some(BoundTexture::Volume),
    Some(BoundTexture::Depth2D),
];

impl D3d9sDeviceState {
    /// The C form of `d`.
    fn from_rust(d: &DeviceState) -> D3d9sDeviceState {
        let tex = |t: Option<BoundTexture>| TEXTURES.iter().position(|&x| x == t).unwrap_or(0) as u32;
        D3d9sDeviceState {
            size: size_of::<D3d9sDeviceState>() as u32,
            alpha_test_enable: u32::from(d.alpha_test_enable),
            alpha_func: d.alpha_func,
            float_render_target: u32::from(d.float_render_target),
            fog_enable: u32::from(d.fog_enable),
            fog_table_mode: d.fog_table_mode,
            w_fog: u32::from(d.w_fog),
            shade_mode: d.shade_mode,
            clip_plane_enable: d.clip_plane_enable,
            point_sprite_enable: u32::from(d.point_sprite_enable),
            point_list: u32::from(d.point_list),
            point_expansion: d.point_expansion as u32,
            software_vertex_processing: u32::from(d.software_vertex_processing),
            textures: d.textures.map(tex),
            fetch4_samplers: u32::from(d.fetch4_samplers),
            vertex_textures: d.vertex_textures.map(tex),
            texture_transform_flags: d.texture_transform_flags,
            float_rules: d.float_rules as u32,
            finite_vertex_constants: u32::from(d.finite_vertex_constants),
            finite_pixel_constants: u32::from(d.finite_pixel_constants),
            normalised_textures: u32::from(d.normalised_textures),
            normalised_vertex_textures: u32::from(d.normalised_vertex_textures),
            fixed_function_vertex: u32::from(d.fixed_function_texcoords.is_some()),
            fixed_function_texcoord_sizes: d.fixed_function_texcoords.unwrap_or_default().map(u32::from),
        }
    }

    fn to_rust(self) -> Result<DeviceState, Failure> {
        let mut s = DeviceState {
            alpha_test_enable: flag(self.alpha_test_enable, "alpha_test_enable")?,
            alpha_func: self.alpha_func,
            float_render_target: flag(self.float_render_target, "float_render_target")?,
            fog_enable: flag(self.fog_enable, "fog_enable")?,
            fog_table_mode: self.fog_table_mode,
            w_fog: flag(self.w_fog, "w_fog")?,
            shade_mode: self.shade_mode,
            clip_plane_enable: self.clip_plane_enable,
            point_sprite_enable: flag(self.point_sprite_enable, "point_sprite_enable")?,
            point_list: flag(self.point_list, "point_list")?,
            point_expansion: enum_field(PointExpansion::ALL, self.point_expansion, "point_expansion")?,
            software_vertex_processing: flag(self.software_vertex_processing, "software_vertex_processing")?,
            fetch4_samplers: mask(self.fetch4_samplers, "fetch4_samplers")?,
            texture_transform_flags: self.texture_transform_flags,
            fixed_function_texcoords: match flag(self.fixed_function_vertex, "fixed_function_vertex")? {
                false => None,
                true => Some(self.fixed_function_texcoord_sizes.map(|n| n.min(4) as u8)),
            },
            float_rules: enum_field(FloatRules::ALL, self.float_rules, "float_rules")?,
            finite_vertex_constants: flag(self.finite_vertex_constants, "finite_vertex_constants")?,
            finite_pixel_constants: flag(self.finite_pixel_constants, "finite_pixel_constants")?,
            normalised_textures: mask(self.normalised_textures, "normalised_textures")?,
            normalised_vertex_textures: mask::<u8>(self.normalised_vertex_textures, "normalised_vertex_textures")
                .and_then(|m| {
                    (m < 16).then_some(m).ok_or_else(|| Failure::invalid("`normalised_vertex_textures` has bits 0–3"))
                })?,
            ..DeviceState::default()
        };
        for (t, &v) in s.textures.iter_mut().zip(&self.textures) {
            *t = enum_field(&TEXTURES, v, "textures[n]")?;
        }
        for (t, &v) in s.vertex_textures.iter_mut().zip(&self.vertex_textures) {
            *t = enum_field(&TEXTURES, v, "vertex_textures[n]")?;
        }
        Ok(s)
    }
}

/// A device state of this layout or an earlier one, the missing fields at their defaults.
///
/// # Safety
///
/// `state` is NULL or readable for its `size` (this layout's or [`DEVICE_STATE_SIZE_V1`]).
unsafe fn device_state_arg(state: *const D3d9sDeviceState) -> Result<D3d9sDeviceState, Failure> {
    let default = || D3d9sDeviceState::from_rust(&DeviceState::default());
    // SAFETY: the caller's contract.
    unsafe { sized_or_earlier(state, "state", &[DEVICE_STATE_SIZE_V1 as usize], default) }
}

/// Fills `*out` with a freshly created device's state (nothing bound, alpha test and fog off,
/// Gouraud shading, hardware vertex processing, strict float rules).
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_device_state_default(out: *mut D3d9sDeviceState) -> D3d9sStatus {
    guard(|| {
        let value = D3d9sDeviceState::from_rust(&DeviceState::default());
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The minimal key of `shader` under the device state `state` (Rust's `Shader::key`): the
/// fields its stage takes from the state, reduced to what it reads. Every mode is baked, the
/// constants are uniform with no values (they are not render state) and the linkage is NULL:
/// set `delivery`, the constants and `linkage` afterwards, then minimise again with
/// [`d3d9s_shader_minimal_key`]. This key is also the one whose modes
/// `d3d9s_translation_pipeline_constants` turns into pipeline constants.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or live; `state` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_key_from_state(
    shader: *const D3d9sShader,
    state: *const D3d9sDeviceState,
    out: *mut D3d9sKey,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live handle, NULL or readable state (this function's contract).
        let (h, s) = unsafe { (shader_ref(shader)?, device_state_arg(state)?) };
        let value = D3d9sKey::from_rust(&h.shader.key(&s.to_rust()?), std::ptr::null());
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The modes of a key's fields as given, whatever their delivery: the C API's contract
/// (docs/c-api.md: the caller passes the baked key of the state, `d3d9s_shader_key_from_state`).
/// The Rust API refuses a key with a mode delivered otherwise than baked
/// (`Modes::from_key`); the C functions keep reading the fields, so they are read here as if
/// every mode were baked.
pub(crate) fn key_modes(key: &ShaderKey) -> d3d9_shader::key::Modes {
    let baked = ShaderKey { delivery: Deliveries::all(Delivery::Baked), ..key.clone() };
    d3d9_shader::key::Modes::from_key(&baked).expect("every mode is baked")
}
