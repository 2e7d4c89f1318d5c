//! The shader key: the Direct3D 9 state that changes the generated code.
//!
//! A compatibility layer parses a shader once and translates it once per distinct key. The key
//! holds only what changes the code: render-state *modes* live here (alpha function, fog mode,
//! enabled clip planes, sampler types); render-state *values* (alpha reference, fog colour and
//! range, clip-plane equations, point-size limits) are read by the shader from the render-state
//! uniform block the caller fills (layout in [`crate::lower`]'s documentation), so changing a
//! value never needs a new translation.
//!
//! [`ShaderKey::default()`] is the D3D9 default state: strict float rules, no alpha test, no fog,
//! no clip planes, samplers typed by their `dcl`.
//!
//! The parts of the key, each the caller's side of a field or of a value the shader reads:
//!
//! - [`modes`]: the render-state modes (float rules, compare function, fog, …) and their
//!   spellings, one table per enum;
//! - [`device`]: the raw `D3DRS_*` device state a layer records, from which
//!   [`ShaderKey::from_state`] builds a key, reduced by [`ShaderKey::minimal`] to what one shader
//!   reads (below);
//! - [`state_block`]: the render-state block ([`RenderState`]) the caller writes to the uniform
//!   buffer, and the modes' pipeline constants;
//! - [`delivery`]: how each render-state mode reaches the code (baked, override, uniform);
//! - [`constants`]: the boolean and integer constants a key bakes (static flow control);
//! - [`vertex_formats`]: the vertex format of each D3DDECLTYPE ([`ShaderKey::vertex_inputs`]);
//! - [`linkage`]: the locations of a vertex/pixel pair's varyings ([`ShaderKey::linkage`]).
//!
//! The key knows nothing of the lowering, which reads it: no file here imports `lower`
//! (docs/architecture.md#forbidden-imports).
//!
//! # Minimal keys
//!
//! A [`ShaderKey`] reduced to what one shader reads.
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
//! | `finite_constants` | strict rules, and the shader reads float constants from the buffer |
//! | `normalised_samplers` bit n | strict rules, and the shader uses `s n`, bound |
//! | `bool_constants` bit n, `int_constants[n]` | baked delivery, and the shader reads `b n`/`i n` not defined by `defb`/`defi` |
//!
//! A field delivered as an override or a uniform ([`delivery`]) is not read from the key
//! at all: it takes its default, and the delivery of a field the stage cannot read becomes
//! baked, so the keys of all states agree on it (the constants' delivery becomes uniform, their
//! default, when the shader reads none of them).
//!
//! [`Shader::key`](crate::Shader::key) returns the minimal key of the device state.

pub mod constants;
pub mod delivery;
pub mod device;
pub mod linkage;
pub mod modes;
pub mod pipeline_constants;
pub mod set_error;
pub mod state_block;
pub mod vertex_formats;

pub use delivery::{Deliveries, Delivery};
pub use device::{BoundTexture, DeviceState, FOURCC_GET1, FOURCC_GET4};
pub use modes::{AlphaPrecision, CompareFunc, FloatRules, FogMode, FogSource, PointExpansion, UnknownName};
pub use pipeline_constants::PipelineConstants;
pub use set_error::KeySetError;
pub use state_block::{Modes, RenderState};

use crate::analysis::Signature;
use crate::bytecode::{RegisterType, ShaderKind, TextureDimension, TextureType, Usage, Version};
use linkage::{semantic, Linkage};

/// The state a translation depends on. Small, `Hash + Eq + Clone`: use it as a cache key.
///
/// What the caller must bind for each field is said on the field; the bindings themselves are
/// documented in [`crate::lower`].
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ShaderKey {
    /// Float arithmetic rules. Nothing to bind.
    pub float_rules: FloatRules,
    /// Pixel shaders: alpha test on oC0.a against `RenderState::alpha_ref`, run after fog.
    /// Needs the render-state block.
    pub alpha_func: CompareFunc,
    /// Pixel shaders: the precision of the alpha test, render target 0's. Nothing to bind.
    pub alpha_precision: AlphaPrecision,
    /// Pixel shaders before ps_3_0: fog blended into oC0.rgb with `RenderState::fog_color`.
    /// Needs the render-state block (fog colour, start, end, density).
    pub fog: FogMode,
    /// Depth used by table fog.
    pub fog_source: FogSource,
    /// Vertex shaders: bit n enables user clip plane n (D3DRS_CLIPPLANEENABLE). Each enabled
    /// plane becomes a clip distance `dot(oPos, RenderState::clip_planes[n])`; the pipeline must
    /// allow clip distances (wgpu feature CLIP_DISTANCES). Needs the render-state block.
    pub clip_planes: u8,
    /// Vertex shaders: emit the point-size built-in (oPts, or `RenderState::point_size` when the
    /// shader does not write it), clamped to `[point_size_min, point_size_max]`. Only for
    /// point-list pipelines on backends with point-size output (SPIR-V, GLSL, MSL; WGSL has
    /// none). Needs the render-state block.
    pub point_size: bool,
    /// Pixel shaders: point sprites (D3DRS_POINTSPRITEENABLE): TEXCOORD inputs read the point
    /// coordinate (u, v, 0, 1) instead of the interpolated value. Vertex shaders expanding points
    /// ([`ShaderKey::point_expansion`]): every TEXCOORD output is the sprite coordinate instead,
    /// and the pixel shader is translated with this off.
    pub point_sprite: bool,
    /// Vertex shaders: draw points as quads ([`PointExpansion`]); `point_size` is then ignored.
    /// Needs the render-state block (point size, limits, viewport).
    pub point_expansion: PointExpansion,
    /// Pixel shaders: D3DSHADE_FLAT: COLOR inputs are not interpolated. The vertex shader of the
    /// pair must be translated with the same value.
    pub flat_shading: bool,
    /// Bit n: sampler s# is a depth texture sampled with comparison (shadow map); the reference
    /// is coords.z (2D) and the result is replicated to all four components. Bind a depth
    /// texture and a comparison sampler.
    pub shadow_samplers: u16,
    /// Pixel shaders, bit n: sampler s# is in AMD's Fetch4 mode (D3DSAMP_MIPMAPLODBIAS set to
    /// `GET4`, see [`FOURCC_GET4`]): a read of its 2D texture returns the 2×2 texel
    /// block in D3D9's order (docs/d3d9-rules.md#fetch4). Ignored on cube, volume and shadow
    /// samplers. Always baked. Bind a single-channel texture (its red channel is read).
    pub fetch4_samplers: u16,
    /// Bit n: no texture is bound to s#: reads return (0, 0, 0, 1) and no binding is emitted.
    pub unbound_samplers: u16,
    /// Texture type per sampler, overriding (or, in Shader Model 1, supplying) the declared
    /// type. `None` keeps the `dcl`; undeclared samplers default to 2D.
    pub sampler_types: [Option<TextureType>; 16],
    /// ps_1_x, per stage: 0, or the stage's D3DTTFF_COUNTn (1–4) when D3DTTFF_PROJECTED is set:
    /// its coordinates are divided by their last counted component, component n − 1 (COUNT3
    /// divides by z), before sampling (and before the bump offset). Nothing to bind.
    pub projected: [u8; 8],
    /// Software vertex processing: 8192 float constant registers, as for the `_sw` versions
    /// (two uniform arrays; see [`crate::lower::FloatConstantsBinding`]).
    pub swvp: bool,
    /// Input/output locations decided by [`linkage::link`] for a VS/PS pair; `None` uses
    /// the default fixed-function map.
    pub linkage: Option<Linkage>,
    /// How each render-state mode reaches the code ([`delivery`]): baked (the default:
    /// the field above is in the code), or an override or the render-state block, one module
    /// for every value (the field above is then ignored).
    pub delivery: Deliveries,
    /// Vertex shaders: the D3DDECLTYPE of the element feeding `v n` ([`vertex_formats`]);
    /// `None` is a `float32x4` attribute. The caller declares the attribute with
    /// [`vertex_formats::vertex_format`]'s format.
    pub vertex_inputs: [Option<vertex_formats::DeclType>; 16],
    /// Strict rules: every float constant the application set for the stage is finite (no
    /// infinity, no NaN), so a product of a constant and a value nothing is known of needs one
    /// zero guard instead of two (docs/d3d9-rules.md#zero-product). Set it only when true (a
    /// layer checks the constants it uploads): with it set, an infinite constant times zero
    /// is left to the GPU. Always baked; nothing to bind.
    pub finite_constants: bool,
    /// Strict rules, bit n: the texture bound to `s n` has a normalised format (every D3DFORMAT
    /// but the float ones, R16F to A32B32G32R32F), so its texels are in [−1, 1] and a product
    /// of a sample needs fewer zero guards (docs/d3d9-rules.md#zero-product). Set a bit only
    /// when true. Always baked; nothing to bind.
    pub normalised_samplers: u16,
    /// Bit n: the boolean constant `b n` is true (b0–b15). Read only when
    /// [`Deliveries::bool_constants`] is baked ([`constants`]); a layer sets it from the
    /// application's constants ([`ShaderKey::set_constants`]). Nothing to bind then.
    pub bool_constants: u16,
    /// The integer constants `i0`–`i15` (count, start, step, and the fourth component), read
    /// only when [`Deliveries::int_constants`] is baked ([`constants`]).
    pub int_constants: [[i32; 4]; 16],
}

impl ShaderKey {
    /// The texture type of sampler `n`: the key's override, else the declared type.
    pub fn sampler_type(&self, n: usize, declared: Option<TextureType>) -> TextureType {
        match self.sampler_types.get(n).copied().flatten().or(declared) {
            Some(TextureType::Unknown | TextureType::Tex1D) | None => TextureType::Tex2D,
            Some(t) => t,
        }
    }

    /// Sets one field from a `FIELD=VALUE` string (the CLI's `--key`). The modes take their
    /// spellings ([`modes`]): `float_rules` ([`FloatRules::NAMES`]), `alpha_func`
    /// ([`CompareFunc::NAMES`]), `alpha_precision`, `fog`, `fog_source`, `point_expansion`;
    /// `clip_planes`, `shadow_samplers`, `unbound_samplers`, `fetch4_samplers`,
    /// `normalised_samplers` are masks (decimal or `0x` hex); `point_size`, `point_sprite`,
    /// `flat_shading`, `swvp`, `finite_constants` booleans; `projected`
    /// a mask of the stages divided by w; `bool_constants` a mask (bit n: `b n`). Indexed fields:
    /// `projected<N>` (stage N's count 1–4, 0 for none), `sampler<N>` (2d|cube|volume|3d),
    /// `vertex_input<N>` (a D3DDECLTYPE name), `int<N>` (`count,start,step[,w]`: `i N`).
    pub fn set(&mut self, assignment: &str) -> Result<(), KeySetError> {
        let (field, value) = assignment
            .split_once('=')
            .ok_or_else(|| KeySetError::MissingEquals { assignment: assignment.to_string() })?;
        let (field, value) = (field.trim(), value.trim().to_ascii_lowercase());
        let bad = |expected: &'static [&'static str]| KeySetError::BadValue {
            field: field.to_string(),
            value: value.clone(),
            expected,
        };
        let name = |e: UnknownName| bad(e.expected);
        let number = || bad(&[]);
        let flag = || bad(BOOLEANS);
        let v = value.as_str();
        match field {
            "float_rules" => self.float_rules = v.parse().map_err(name)?,
            "alpha_func" => self.alpha_func = v.parse().map_err(name)?,
            "alpha_precision" => self.alpha_precision = v.parse().map_err(name)?,
            "fog" => self.fog = v.parse().map_err(name)?,
            "fog_source" => self.fog_source = v.parse().map_err(name)?,
            "point_expansion" => self.point_expansion = v.parse().map_err(name)?,
            "clip_planes" => self.clip_planes = int(v).ok_or_else(number)?,
            "shadow_samplers" => self.shadow_samplers = int(v).ok_or_else(number)?,
            "unbound_samplers" => self.unbound_samplers = int(v).ok_or_else(number)?,
            "fetch4_samplers" => self.fetch4_samplers = int(v).ok_or_else(number)?,
            "point_size" => self.point_size = boolean(v).ok_or_else(flag)?,
            "point_sprite" => self.point_sprite = boolean(v).ok_or_else(flag)?,
            "flat_shading" => self.flat_shading = boolean(v).ok_or_else(flag)?,
            "swvp" => self.swvp = boolean(v).ok_or_else(flag)?,
            "finite_constants" => self.finite_constants = boolean(v).ok_or_else(flag)?,
            "normalised_samplers" => self.normalised_samplers = int(v).ok_or_else(number)?,
            "bool_constants" => self.set_bool_constants(v).ok_or_else(number)?,
            "projected" => {
                let mask: u8 = int(v).ok_or_else(number)?;
                self.projected = std::array::from_fn(|n| if mask & (1 << n) != 0 { 4 } else { 0 });
            }
            _ => return self.set_indexed(field, v),
        }
        Ok(())
    }

    /// `projected<N>`, `sampler<N>` and `vertex_input<N>` of [`ShaderKey::set`].
    fn set_indexed(&mut self, field: &str, v: &str) -> Result<(), KeySetError> {
        let unknown = || KeySetError::UnknownField { field: field.to_string() };
        let bad = |expected: &'static [&'static str]| KeySetError::BadValue {
            field: field.to_string(),
            value: v.to_string(),
            expected,
        };
        let (stem, index) = field.split_at(field.find(|c: char| c.is_ascii_digit()).ok_or_else(unknown)?);
        let n: usize = index.parse().map_err(|_| unknown())?;
        let range = |what: &'static str| KeySetError::IndexOutOfRange { field: field.to_string(), what };
        match stem {
            "projected" => {
                let slot = self.projected.get_mut(n).ok_or_else(|| range("stage"))?;
                *slot = int(v).filter(|&c: &u8| c <= 4).ok_or_else(|| bad(&[]))?;
            }
            "sampler" => {
                let slot = self.sampler_types.get_mut(n).ok_or_else(|| range("sampler index"))?;
                // `3d` is the volume texture's other name (D3DSAMPLER_TEXTURE_TYPE is `volume`).
                let ty = if v == "3d" { Some(TextureDimension::Volume) } else { TextureDimension::from_name(v) };
                *slot = Some(ty.ok_or_else(|| bad(TextureDimension::NAMES))?.into());
            }
            "int" => return self.set_int_constant(field, n, v),
            "vertex_input" => {
                let slot = self.vertex_inputs.get_mut(n).ok_or_else(|| range("input index"))?;
                *slot = Some(
                    vertex_formats::DeclType::from_name_or_number(v)
                        .ok_or_else(|| bad(vertex_formats::DeclType::NAMES))?,
                );
            }
            _ => return Err(unknown()),
        }
        Ok(())
    }

    /// The key for a shader of `version` under `state`.
    ///
    /// Vertex shaders take the float rules, clip planes, point size, flat shading, software
    /// vertex processing and the vertex textures; pixel shaders the float rules, alpha test, fog
    /// (before ps_3_0, which does its own), point sprites, flat shading and the pixel textures.
    /// Texture types override the declaration only in Shader Model 1, which has none. The
    /// linkage is left empty: set it from [`crate::link`] for a pair. The boolean and integer
    /// constants are not render state: they are left at 0 (a layer that bakes them sets them
    /// with [`ShaderKey::set_constants`]).
    pub fn from_state(version: Version, state: &DeviceState) -> ShaderKey {
        let flat = state.shade_mode == 1;
        let mut key = ShaderKey { float_rules: state.float_rules, flat_shading: flat, ..ShaderKey::default() };
        let profile = version.profile();
        let textures: &[Option<BoundTexture>] = match version.kind {
            ShaderKind::Vertex => {
                key.clip_planes = state.clip_plane_enable as u8;
                let expand = state.point_list && state.point_expansion != PointExpansion::Off;
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
                    // D3DCMP_ALWAYS, and values the runtime would refuse, leave the test off.
                    key.alpha_func = CompareFunc::from_d3d(state.alpha_func).unwrap_or(CompareFunc::Always);
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
                key.point_sprite =
                    state.point_sprite_enable && !(state.point_list && state.point_expansion != PointExpansion::Off);
                // ps_1_0–1_3 project by the stage's texture transform flags (ps_1_4 and later
                // say it in the instruction: texld_dw, texldp).
                if profile.ps_1_0_to_1_3() {
                    for (n, flags) in state.texture_transform_flags.iter().enumerate() {
                        if flags & D3DTTFF_PROJECTED != 0 {
                            // D3DTTFF_COUNT1..4 in the low byte divide by that component; any
                            // other low byte is no count: the last component the fixed-function
                            // vertex stage was given, or w behind a vertex shader
                            // (docs/d3d9-rules.md#ffp-texcoords).
                            key.projected[n] = match (flags & 0xff, state.fixed_function_texcoords) {
                                (c @ 1..=4, _) => c as u8,
                                (_, Some(sizes)) => sizes[n].clamp(1, 4),
                                (_, None) => 4,
                            };
                        }
                    }
                }
                &state.textures
            }
        };
        key.bind_textures(version, textures, state.fetch4_samplers);
        (key.finite_constants, key.normalised_samplers) = match version.kind {
            ShaderKind::Vertex => (state.finite_vertex_constants, u16::from(state.normalised_vertex_textures)),
            ShaderKind::Pixel => (state.finite_pixel_constants, state.normalised_textures),
        };
        key.normalised_samplers &= !key.unbound_samplers;
        key
    }

    /// The sampler fields for the textures bound to a stage's samplers: unbound, shadow and
    /// Fetch4 masks, and in Shader Model 1 (which declares no sampler types) the types.
    fn bind_textures(&mut self, version: Version, textures: &[Option<BoundTexture>], fetch4: u16) {
        let ps_1_x = version.profile().ps_1_x;
        for (n, bound) in textures.iter().enumerate() {
            let bit = 1u16 << n;
            match bound {
                None => self.unbound_samplers |= bit,
                Some(BoundTexture::Depth2D) => self.shadow_samplers |= bit,
                // Fetch4 reads 2D colour textures in pixel shaders only.
                Some(BoundTexture::Tex2D) if version.kind == ShaderKind::Pixel => self.fetch4_samplers |= fetch4 & bit,
                Some(_) => {}
            }
            if ps_1_x {
                self.sampler_types[n] = bound.map(|b| match b {
                    BoundTexture::Tex2D | BoundTexture::Depth2D => TextureType::Tex2D,
                    BoundTexture::Cube => TextureType::Cube,
                    BoundTexture::Volume => TextureType::Volume,
                });
            }
        }
    }

    /// This key with every field a program of `version` and signature `sig` does not read reset
    /// to its default (the table in the [module documentation](self#minimal-keys)). Translating under the result gives
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
                k.alpha_func = CompareFunc::Always;
                k.fog = FogMode::None;
                k.fog_source = FogSource::Z;
                // Sprite coordinates are the vertex shader's only when it expands points.
                k.point_sprite &= k.point_expansion != PointExpansion::Off;
                if k.point_expansion != PointExpansion::Off {
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
                k.point_expansion = PointExpansion::Off;
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
        k.minimal_value_facts(sig);
        k.minimal_constants(sig);
        k
    }

    /// The facts about values serve the strict rule's products only, and only where the shader
    /// reads what they describe: application constants, bound samplers.
    fn minimal_value_facts(&mut self, sig: &Signature) {
        if self.float_rules != FloatRules::Strict {
            (self.finite_constants, self.normalised_samplers) = (false, 0);
            return;
        }
        let fc = &sig.float_constants;
        self.finite_constants &= fc.relative || fc.used.iter().any(|n| !fc.defined.contains_key(n));
        let used = sig.samplers.iter().filter(|s| s.index < 16).fold(0u16, |m, s| m | 1 << s.index);
        self.normalised_samplers &= used & !self.unbound_samplers;
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
            self.alpha_func = CompareFunc::Always;
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

/// D3DTTFF_PROJECTED.
const D3DTTFF_PROJECTED: u32 = 256;

/// A `--key` boolean.
/// The spellings [`boolean`] takes, for [`KeySetError::BadValue`].
const BOOLEANS: &[&str] = &["1", "true", "on", "yes", "0", "false", "off", "no"];

fn boolean(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// A `--key` integer, decimal or `0x` hex, that fits `T`.
fn int<T: TryFrom<u32>>(v: &str) -> Option<T> {
    let parsed = match v.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => v.parse(),
    };
    T::try_from(parsed.ok()?).ok()
}

/// Why [`Modes::from_key`](state_block::Modes::from_key) refused a key: it delivers a mode
/// otherwise than baked, so the key's value of that field is not the device's
/// ([`ShaderKey::minimal`] resets it to its default, and the translation ignores it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the key delivers `{field}` as {delivery}, so its `{field}` is not the device's (a minimal key resets it): \
     take the modes from the device state (Shader::modes, Modes::from_state) or from the key before its deliveries"
)]
pub struct DeliveredModeError {
    /// The field ([`delivery::FIELDS`] spelling).
    pub field: &'static str,
    /// Its delivery in the key.
    pub delivery: Delivery,
}

/// Beside the key rather than in `state_block.rs`, which the key's module re-exports: the block
/// names no key type, so the two files import each other in one direction only.
impl state_block::Modes {
    /// The modes of a shader of `version` under the device state: the values a baked key would
    /// have had, for the pipeline constants of override delivery and the block's modes of
    /// uniform delivery. What a layer calls ([`crate::Shader::modes`]); unlike the key it
    /// translates under, the device state cannot have lost a field to [`ShaderKey::minimal`].
    pub fn from_state(version: Version, state: &DeviceState) -> Self {
        Self::baked(&ShaderKey::from_state(version, state))
    }

    /// The modes a key bakes (the values its baked translation has in its code). Refuses a key
    /// that delivers a mode otherwise than baked: such a key's field holds the default, not the
    /// device's value, once [`ShaderKey::minimal`] has run (the trap of taking the pipeline
    /// constants from the key translated under). Use [`Modes::from_state`](Self::from_state).
    pub fn from_key(key: &ShaderKey) -> Result<Self, DeliveredModeError> {
        let d = &key.delivery;
        let fields = [d.alpha_func, d.fog, d.fog_source, d.clip_planes, d.unbound_samplers, d.projected];
        if let Some((field, &delivery)) =
            delivery::FIELDS.iter().zip(&fields).find(|(_, &delivery)| delivery != Delivery::Baked)
        {
            return Err(DeliveredModeError { field, delivery });
        }
        Ok(Self::baked(key))
    }

    /// The key's mode fields, whatever their delivery.
    fn baked(key: &ShaderKey) -> Self {
        let fog_mode = match key.fog {
            FogMode::None => 0,
            FogMode::Exp => 1,
            FogMode::Exp2 => 2,
            FogMode::Linear => 3,
            FogMode::Vertex => 4,
        };
        Self {
            alpha_func: key.alpha_func.d3d(),
            fog_mode,
            fog_source: u32::from(key.fog_source == FogSource::W),
            clip_plane_mask: u32::from(key.clip_planes),
            unbound_samplers: u32::from(key.unbound_samplers),
            projected: key.projected.map(u32::from),
        }
    }
}

// A key written compactly: the fields that differ from the default as the `FIELD=VALUE`
// assignments `ShaderKey::set` reads (the CLI's `--key`), and the fields two keys differ in,
// for a layer's cache logs ("why another translation?").

/// Every field of a key as (name, value) in `--key` spelling; deliveries as `deliver.FIELD`, the
/// linkage as `linkage` (`stable`, or `linked:N` slots).
fn key_fields(k: &ShaderKey) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = vec![
        ("float_rules".into(), k.float_rules.to_string()),
        ("alpha_func".into(), k.alpha_func.to_string()),
        ("alpha_precision".into(), k.alpha_precision.to_string()),
        ("fog".into(), k.fog.to_string()),
        ("fog_source".into(), k.fog_source.to_string()),
        ("clip_planes".into(), format!("{:#x}", k.clip_planes)),
        ("point_size".into(), k.point_size.to_string()),
        ("point_sprite".into(), k.point_sprite.to_string()),
        ("point_expansion".into(), k.point_expansion.to_string()),
        ("flat_shading".into(), k.flat_shading.to_string()),
        ("shadow_samplers".into(), format!("{:#x}", k.shadow_samplers)),
        ("fetch4_samplers".into(), format!("{:#x}", k.fetch4_samplers)),
        ("unbound_samplers".into(), format!("{:#x}", k.unbound_samplers)),
        ("swvp".into(), k.swvp.to_string()),
        ("finite_constants".into(), k.finite_constants.to_string()),
        ("normalised_samplers".into(), format!("{:#x}", k.normalised_samplers)),
        ("bool_constants".into(), format!("{:#x}", k.bool_constants)),
    ];
    let name = |t: Option<crate::bytecode::TextureType>| match t.and_then(|t| t.dimension()) {
        Some(d) => d.to_string(),
        None => "default".into(),
    };
    v.extend(k.sampler_types.iter().enumerate().map(|(n, &t)| (format!("sampler{n}"), name(t))));
    v.extend(k.projected.iter().enumerate().map(|(n, p)| (format!("projected{n}"), p.to_string())));
    let input = |t: Option<vertex_formats::DeclType>| t.map_or("default".to_string(), |t| t.to_string());
    v.extend(k.vertex_inputs.iter().enumerate().map(|(n, &t)| (format!("vertex_input{n}"), input(t))));
    v.extend(
        k.int_constants
            .iter()
            .enumerate()
            .map(|(n, c)| (format!("int{n}"), format!("{},{},{},{}", c[0], c[1], c[2], c[3]))),
    );
    let linkage = match &k.linkage {
        None => "none".to_string(),
        Some(l) if l.stable => "stable".to_string(),
        Some(l) => format!("linked:{}", l.slots.len()),
    };
    v.push(("linkage".into(), linkage));
    v.extend(delivery::FIELDS.iter().zip(k.delivery.in_order()).map(|(f, d)| (format!("deliver.{f}"), d.to_string())));
    v
}

impl std::fmt::Display for ShaderKey {
    /// The fields that differ from the default, space-separated (`default` when none): e.g.
    /// `alpha_func=greater fog=linear unbound_samplers=0xfffe deliver.fog=override`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.diff(&ShaderKey::default()))
    }
}

/// The fields in which one key differs from another ([`ShaderKey::diff`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDiff {
    /// (field, value in the key, value in the other key), in the key's field order.
    pub fields: Vec<(String, String, String)>,
}

impl std::fmt::Display for KeyDiff {
    /// Space-separated `field=value` of the key for each differing field (`default` when none).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.fields.is_empty() {
            return f.write_str("default");
        }
        let parts: Vec<String> = self.fields.iter().map(|(n, a, _)| format!("{n}={a}")).collect();
        f.write_str(&parts.join(" "))
    }
}

impl ShaderKey {
    /// The fields in which `self` differs from `other`. Its `Display` gives `self`'s values;
    /// [`KeyDiff::fields`] holds both.
    pub fn diff(&self, other: &ShaderKey) -> KeyDiff {
        let fields = key_fields(self)
            .into_iter()
            .zip(key_fields(other))
            .filter(|((_, a), (_, b))| a != b)
            .map(|((n, a), (_, b))| (n, a, b))
            .collect();
        KeyDiff { fields }
    }
}

#[cfg(test)]
mod tests;
