//! Translation: a shader under a key to a translation handle, its WGSL and SPIR-V, what to
//! bind, where the varyings went, and the pipeline constants of override delivery.

use std::ffi::{c_char, CString};
use std::panic::catch_unwind;

use d3d9_shader::lower::InterfaceSlot;
use d3d9_shader::{RenderState, Translation};

use crate::error::{guard, guard_with_error, hand_out, read, write, write_with, D3d9sError, D3d9sStatus, Failure};
use crate::key::{key_arg, key_modes, D3d9sKey};
use crate::parse::{owned, shader_ref, D3d9sShader};
use crate::{D3d9sBuffer, D3D9S_NONE};

/// A translated shader. Immutable: any thread may read it at once; free it with
/// [`d3d9s_translation_free`]. It holds its own data: the shader may be freed first.
pub struct D3d9sTranslation {
    translation: Translation,
    overrides: Vec<CString>,
}

impl D3d9sTranslation {
    /// A new handle. A specialised translation lists no overrides: naga keeps their
    /// declarations, but no expression reads them any more, and the pipeline sets none.
    fn hand_out(translation: Translation, specialised: bool) -> *mut D3d9sTranslation {
        let overrides =
            if specialised { Vec::new() } else { translation.overrides().iter().map(|n| owned(n)).collect() };
        Box::into_raw(Box::new(D3d9sTranslation { translation, overrides }))
    }
}

/// Translates `shader` under `key` (Rust's `Shader::translate`): a validated module, what to
/// bind, where its varyings went. Call it once per distinct minimal key and cache the result.
/// `*out_translation` is a new handle (NULL on failure); `out_error` as in `d3d9s_shader_parse`.
///
/// Thread safety: any thread, concurrently with any call but the handles' frees.
///
/// # Safety
///
/// `shader` is NULL or live; `key` is NULL or a valid key (its linkage NULL or live);
/// `out_translation`, `out_error` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_translate(
    shader: *const D3d9sShader,
    key: *const D3d9sKey,
    out_translation: *mut *mut D3d9sTranslation,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let make = || {
        // SAFETY: NULL or live handle, NULL or valid key (this function's contract).
        let (h, (k, _)) = unsafe { (shader_ref(shader)?, key_arg(key)?) };
        Ok(D3d9sTranslation::hand_out(h.shader.translate(&k)?, false))
    };
    // SAFETY: NULL or writable (this function's contract): NULL until success.
    let body = || unsafe { hand_out(out_translation, "out_translation", make) };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// Frees a translation; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `translation` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_free(translation: *mut D3d9sTranslation) {
    let _ = catch_unwind(|| {
        if !translation.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `hand_out`, freed once.
            drop(unsafe { Box::from_raw(translation) });
        }
    });
}

/// # Safety
///
/// `t` is NULL or live for `'a`.
unsafe fn translation_ref<'a>(t: *const D3d9sTranslation) -> Result<&'a D3d9sTranslation, Failure> {
    // SAFETY: the caller's contract.
    unsafe { read(t, "translation") }
}

/// The WGSL text (UTF-8, no NUL) into `*out`, a new buffer (free it with `d3d9s_buffer_free`).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_wgsl(
    translation: *const D3d9sTranslation,
    out: *mut D3d9sBuffer,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let t = unsafe { translation_ref(translation) }?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(out, "out", || Ok(D3d9sBuffer::from_vec(t.translation.to_wgsl()?.into_bytes()))) }
    })
}

/// The SPIR-V module as little-endian bytes (a `.spv` file's contents) into `*out`, a new buffer.
/// `major`.`minor` is the SPIR-V version (1.0–1.6); 0.0 picks the lowest the module needs (1.0
/// today, which every Vulkan device loads). A translation with overrides (override delivery)
/// fails with [`D3d9sStatus::HasOverrides`]: specialise it first.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_spirv(
    translation: *const D3d9sTranslation,
    major: u32,
    minor: u32,
    out: *mut D3d9sBuffer,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let t = unsafe { translation_ref(translation) }?;
        let spirv = || {
            if !t.overrides.is_empty() {
                return Err(Failure::new(
                    D3d9sStatus::HasOverrides,
                    "the translation has overrides: specialise it (d3d9s_translation_specialise) before SPIR-V",
                ));
            }
            let words = match (major, minor) {
                (0, 0) => t.translation.to_spirv()?,
                (1, 0..=6) => t.translation.to_spirv_version((major as u8, minor as u8))?,
                _ => return Err(Failure::invalid(format!("SPIR-V {major}.{minor}: 1.0–1.6, or 0.0 for the lowest"))),
            };
            Ok(D3d9sBuffer::from_vec(words.iter().flat_map(|w| w.to_le_bytes()).collect()))
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(out, "out", spirv) }
    })
}

/// The number of overrides (pipeline-overridable constants) the translation declares: 0 unless
/// a mode is delivered as an override. 0 for NULL.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_override_count(translation: *const D3d9sTranslation) -> usize {
    // SAFETY: NULL or live (this function's contract).
    catch_unwind(|| unsafe { translation.as_ref() }.map_or(0, |t| t.overrides.len())).unwrap_or(0)
}

/// The name of override `index` (the handle's string); NULL for NULL or an index out of range.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_override_name(
    translation: *const D3d9sTranslation,
    index: usize,
) -> *const c_char {
    catch_unwind(|| {
        // SAFETY: NULL or live (this function's contract).
        let t = unsafe { translation.as_ref() }?;
        t.overrides.get(index).map(|n| n.as_ptr())
    })
    .ok()
    .flatten()
    .unwrap_or(std::ptr::null())
}

/// A pipeline constant: an override's name and its value, as WebGPU's
/// `GPUProgrammableStage.constants` (wgpu's `PipelineCompilationOptions::constants`) takes it.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sPipelineConstant {
    /// The override's name (the translation handle's string).
    pub name: *const c_char,
    /// Its value.
    pub value: f64,
}

/// The pipeline constants of the translation's overrides under the modes of `modes` (a key
/// with every mode baked, as `d3d9s_shader_key_from_state` gives for the draw's state; the
/// overrides of the boolean and integer constants take its `bool_constants` and
/// `int_constants`): writes up to `capacity` constants to `out` (which may be NULL
/// when `capacity` is 0) and the number the translation has to `*count`. Call it with 0 first
/// to size the array, or with the override count.
///
/// Thread safety: any thread, concurrently with any call but the handles' frees.
///
/// # Safety
///
/// `translation` is NULL or live; `modes` is NULL or a valid key; `out` is NULL or writable
/// for `capacity` elements; `count` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_pipeline_constants(
    translation: *const D3d9sTranslation,
    modes: *const D3d9sKey,
    out: *mut D3d9sPipelineConstant,
    capacity: usize,
    count: *mut usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live, NULL or a valid key (this function's contract).
        let (t, (k, _)) = unsafe { (translation_ref(translation)?, key_arg(modes)?) };
        // The modes and the boolean and integer constants' overrides, in one call.
        let named = t.translation.pipeline_constants(&key_modes(&k), k.bool_constants, &k.int_constants);
        let values: Vec<D3d9sPipelineConstant> = t
            .overrides
            .iter()
            .filter_map(|n| {
                let value = named.get(n.to_str().ok()?)?;
                Some(D3d9sPipelineConstant { name: n.as_ptr(), value })
            })
            .collect();
        if count.is_null() {
            return Err(Failure::null("count"));
        }
        if capacity > 0 && out.is_null() {
            return Err(Failure::null("out"));
        }
        let n = values.len();
        for (i, v) in values.into_iter().take(capacity).enumerate() {
            // SAFETY: `out` is non-null and writable for `capacity` > i elements (the contract).
            unsafe { out.add(i).write(v) };
        }
        // SAFETY: non-null and writable (this function's contract).
        unsafe { write(count, "count", n) }
    })
}

/// The translation with its overrides replaced by the values of `modes`' modes and constants (as for
/// [`d3d9s_translation_pipeline_constants`]): a module without overrides, for SPIR-V.
/// `*out_translation` is a new handle.
///
/// Thread safety: any thread, concurrently with any call but the handles' frees.
///
/// # Safety
///
/// `translation` is NULL or live; `modes` is NULL or a valid key; `out_translation` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_specialise(
    translation: *const D3d9sTranslation,
    modes: *const D3d9sKey,
    out_translation: *mut *mut D3d9sTranslation,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live, NULL or a valid key (this function's contract).
        let (t, (k, _)) = unsafe { (translation_ref(translation)?, key_arg(modes)?) };
        let make = || {
            let state = RenderState { modes: key_modes(&k), ..RenderState::default() };
            let specialised = t.translation.specialise_with_constants(&state, k.bool_constants, &k.int_constants)?;
            Ok(D3d9sTranslation::hand_out(specialised, true))
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(out_translation, "out_translation", make) }
    })
}

/// What to bind for a translation ([`d3d9s_translation_layout`]); absent bindings are
/// [`D3D9S_NONE`]. The layout is documented in docs/c-api.md (Rust: `lower`'s documentation).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sBindingLayout {
    /// The bind group: 0 for vertex shaders, 1 for pixel shaders.
    pub group: u32,
    /// The float constants' uniform buffer binding.
    pub float_constants: u32,
    /// The number of vec4 registers in it.
    pub float_constant_count: u32,
    /// Software vertex processing: the binding of the second array (c4096 on).
    pub float_constants_high: u32,
    /// The integer constants' binding.
    pub int_constants: u32,
    /// The boolean constants' binding.
    pub bool_constants: u32,
    /// The render-state block's binding.
    pub render_state: u32,
    /// Textures to bind ([`d3d9s_translation_texture`]).
    pub texture_count: usize,
}

/// The translation's binding layout into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_layout(
    translation: *const D3d9sTranslation,
    out: *mut D3d9sBindingLayout,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let l = &unsafe { translation_ref(translation) }?.translation.layout;
        let f = l.float_constants.as_ref();
        let value = D3d9sBindingLayout {
            group: l.group,
            float_constants: f.map_or(D3D9S_NONE, |f| f.binding),
            float_constant_count: f.map_or(0, |f| f.count),
            float_constants_high: f.and_then(|f| f.high_binding).unwrap_or(D3D9S_NONE),
            int_constants: l.int_constants.unwrap_or(D3D9S_NONE),
            bool_constants: l.bool_constants.unwrap_or(D3D9S_NONE),
            render_state: l.render_state.unwrap_or(D3D9S_NONE),
            texture_count: l.textures.len(),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// One sampler's texture and sampler bindings.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sTextureBinding {
    /// The `s#` number.
    pub sampler: u32,
    /// The texture's binding.
    pub texture_binding: u32,
    /// The sampler's binding.
    pub sampler_binding: u32,
    /// 2 = 2D, 3 = cube, 4 = volume.
    pub texture_type: u32,
    /// 1: a depth texture with a comparison sampler.
    pub shadow: u32,
}

/// Texture binding `index` (below [`D3d9sBindingLayout::texture_count`]) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_texture(
    translation: *const D3d9sTranslation,
    index: usize,
    out: *mut D3d9sTextureBinding,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let l = &unsafe { translation_ref(translation) }?.translation.layout;
        let t = l.textures.get(index).ok_or_else(|| Failure::invalid("texture index out of range"))?;
        let value = D3d9sTextureBinding {
            sampler: u32::from(t.sampler),
            texture_binding: t.texture_binding,
            sampler_binding: t.sampler_binding,
            texture_type: t.texture_type as u32,
            shadow: u32::from(t.shadow),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// The entry point's inputs ([`d3d9s_translation_interface`]).
pub const D3D9S_INTERFACE_INPUTS: u32 = 0;
/// The entry point's outputs.
pub const D3D9S_INTERFACE_OUTPUTS: u32 = 1;

/// Where one input or output of a translation went.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sInterfaceSlot {
    /// The D3D9 register's file (D3DSPR_*), or [`D3D9S_NONE`] for slots no register holds (the
    /// fixed-function fog factor, the stable interface's unwritten outputs, sprite coordinates).
    pub register_file: u32,
    /// The register's number.
    pub register_index: u32,
    /// D3DDECLUSAGE code, -1 when none.
    pub usage: i32,
    /// Usage index.
    pub usage_index: u32,
    /// `@location`, or [`D3D9S_NONE`] for built-ins and inputs read as their default.
    pub location: u32,
    /// 1 for a built-in (position, depth, facing, point size).
    pub builtin: u32,
    /// 1 when `default_value` holds what a pixel input reads without a vertex output.
    pub has_default: u32,
    /// That value.
    pub default_value: [f32; 4],
}

fn slot(s: &InterfaceSlot) -> D3d9sInterfaceSlot {
    let (file, index) = s.register.map_or((D3D9S_NONE, 0), |r| (r.ty.to_raw(r.num).0, u32::from(r.num)));
    D3d9sInterfaceSlot {
        register_file: file,
        register_index: index,
        usage: s.usage.map_or(-1, |u| i32::from(u as u8)),
        usage_index: u32::from(s.usage_index),
        location: s.location.unwrap_or(D3D9S_NONE),
        builtin: u32::from(s.builtin.is_some()),
        has_default: u32::from(s.default.is_some()),
        default_value: s.default.unwrap_or_default(),
    }
}

/// The interface slots of `direction` (`D3D9S_INTERFACE_*`): when `out` is NULL, only their
/// number into `*count`; else slot `index` into `*out` (and the number into `*count` when
/// `count` is not NULL).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `translation` is NULL or live; `out` and `count` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_translation_interface(
    translation: *const D3d9sTranslation,
    direction: u32,
    index: usize,
    out: *mut D3d9sInterfaceSlot,
    count: *mut usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let i = &unsafe { translation_ref(translation) }?.translation.interface;
        let slots = match direction {
            D3D9S_INTERFACE_INPUTS => &i.inputs,
            D3D9S_INTERFACE_OUTPUTS => &i.outputs,
            n => return Err(Failure::invalid(format!("direction {n}: 0 inputs, 1 outputs"))),
        };
        if out.is_null() && count.is_null() {
            return Err(Failure::null("out and count"));
        }
        if !count.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { count.write(slots.len()) };
        }
        if out.is_null() {
            return Ok(());
        }
        let s = slots.get(index).ok_or_else(|| Failure::invalid("slot index out of range"))?;
        // SAFETY: non-null and writable (this function's contract).
        unsafe { write(out, "out", slot(s)) }
    })
}
