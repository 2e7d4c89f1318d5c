//! Effects (fx_2_0, docs/effects.md): parse a blob, list its techniques and passes, and take
//! out the shaders it stores as shader handles to translate. The run-time (parameters,
//! preshaders, what a pass sets) is `effect_runtime.rs`.

use std::ffi::{c_char, CString};
use std::panic::catch_unwind;
use std::sync::Arc;

use d3d9_shader::effect::Effect;
use d3d9_shader::Shader;

use crate::error::{guard, guard_with_error, hand_out, read, slice_arg, write, D3d9sError, D3d9sStatus, Failure};
use crate::parse::{owned, D3d9sParseOptions, D3d9sShader};

/// A parsed effect. Immutable: any thread may read it at once; free it with
/// [`d3d9s_effect_free`]. Shaders taken from it hold their own data.
pub struct D3d9sEffect {
    /// Shared with the run-times made from it, which may outlive the handle.
    pub(crate) effect: Arc<Effect>,
    /// Technique names, and per technique its pass names.
    names: Vec<(CString, Vec<CString>)>,
    /// The stored shaders: object id, version text.
    shaders: Vec<(u32, CString)>,
}

/// Parses an effect blob (fx_2_0, or inside XNA's wrapper). `*out_effect` is a new handle, NULL
/// on failure ([`D3d9sStatus::BadEffect`]; the message names the byte at fault); `out_error` as
/// in `d3d9s_shader_parse`.
///
/// Thread safety: any thread, concurrently with any other call.
///
/// # Safety
///
/// `bytes` is readable for `len` bytes; `out_effect`, `out_error` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_parse(
    bytes: *const u8,
    len: usize,
    out_effect: *mut *mut D3d9sEffect,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or readable for `len` bytes (this function's contract).
        let blob = unsafe { slice_arg(bytes, len, "bytes") }?;
        let make = || {
            let effect = Effect::parse(blob).map_err(|e| Failure::new(D3d9sStatus::BadEffect, e.to_string()))?;
            let names = effect
                .techniques
                .iter()
                .map(|t| (owned(&t.name), t.passes.iter().map(|p| owned(&p.name)).collect()))
                .collect();
            let shaders = effect.shaders().map(|(id, s)| (id as u32, owned(&s.version))).collect();
            Ok(Box::into_raw(Box::new(D3d9sEffect { effect: Arc::new(effect), names, shaders })))
        };
        // SAFETY: NULL or writable (this function's contract): NULL until success.
        unsafe { hand_out(out_effect, "out_effect", make) }
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// Frees an effect; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `effect` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_free(effect: *mut D3d9sEffect) {
    let _ = catch_unwind(|| {
        if !effect.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `d3d9s_effect_parse`, freed once.
            drop(unsafe { Box::from_raw(effect) });
        }
    });
}

/// An effect's counts ([`d3d9s_effect_info`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sEffectInfo {
    /// Techniques ([`d3d9s_effect_technique`]).
    pub technique_count: usize,
    /// Top-level parameters.
    pub parameter_count: usize,
    /// Shaders stored in the effect ([`d3d9s_effect_shader`]).
    pub shader_count: usize,
}

/// The effect's counts into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `effect` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_info(effect: *const D3d9sEffect, out: *mut D3d9sEffectInfo) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let e = unsafe { read(effect, "effect") }?;
        let value = D3d9sEffectInfo {
            technique_count: e.effect.techniques.len(),
            parameter_count: e.effect.parameters.len(),
            shader_count: e.shaders.len(),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Technique `technique`'s name (the handle's) into `*name` and its pass count into
/// `*pass_count` (either may be NULL).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `effect` is NULL or live; `name` and `pass_count` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_technique(
    effect: *const D3d9sEffect,
    technique: usize,
    name: *mut *const c_char,
    pass_count: *mut usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let e = unsafe { read(effect, "effect") }?;
        let (n, passes) = e.names.get(technique).ok_or_else(|| Failure::invalid("technique index out of range"))?;
        if !name.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { name.write(n.as_ptr()) };
        }
        if !pass_count.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { pass_count.write(passes.len()) };
        }
        Ok(())
    })
}

/// Pass `pass` of technique `technique`: its name (the handle's) into `*name`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `effect` is NULL or live; `name` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_pass(
    effect: *const D3d9sEffect,
    technique: usize,
    pass: usize,
    name: *mut *const c_char,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let e = unsafe { read(effect, "effect") }?;
        let n = e
            .names
            .get(technique)
            .and_then(|(_, passes)| passes.get(pass))
            .ok_or_else(|| Failure::invalid("technique or pass index out of range"))?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(name, "name", n.as_ptr()) }
    })
}

/// Stored shader `index` (below `D3d9sEffectInfo::shader_count`): its object id into
/// `*object_id` (may be NULL), its version (`"vs_2_0"`, the handle's) into `*version` (may be
/// NULL), and a new shader handle parsed from its tokens under `options` (NULL: the defaults)
/// into `*out_shader`, as `d3d9s_shader_parse` does (with its failures).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `effect` is NULL or live; `options` is NULL or readable; the outputs are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_shader(
    effect: *const D3d9sEffect,
    index: usize,
    options: *const D3d9sParseOptions,
    object_id: *mut u32,
    version: *mut *const c_char,
    out_shader: *mut *mut D3d9sShader,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or live (this function's contract).
        let e = unsafe { read(effect, "effect") }?;
        let (id, v) = e.shaders.get(index).ok_or_else(|| Failure::invalid("shader index out of range"))?;
        let tokens = &e.effect.shaders().nth(index).expect("the same list as `shaders`").1.tokens;
        if !object_id.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { object_id.write(*id) };
        }
        if !version.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { version.write(v.as_ptr()) };
        }
        // SAFETY: NULL or writable, NULL or readable (this function's contract).
        unsafe { crate::parse::parse_with(out_shader, options, |o| Shader::from_tokens(tokens, o)) }
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}
