//! The fixed-function halves (docs/layers.md#fixed-function): a vertex and a pixel shader
//! generated for a fixed-function state, keyed or driven by a state block.
//!
//! The state is given as the case format's fixed-function TOML (docs/case-format.md), the form
//! `d3d9-shader ffp STATE.toml` reads: the Rust API builds its keys from that text
//! (`ffp::state_toml::keys_from_toml`) and has no raw device-state form of them yet, so neither
//! has this API; a struct form will follow the Rust one.

use std::panic::catch_unwind;

use d3d9_shader::ffp::state_toml::keys_from_toml;
use d3d9_shader::ffp::{self, FfpShader, PixelInterface};

use crate::error::{
    guard, guard_with_error, hand_out, read, slice_arg, write, write_with, D3d9sError, D3d9sStatus, Failure,
};
use crate::D3d9sBuffer;

/// [`d3d9s_ffp_generate`]: one pair specialised to the state (the least GPU work; another state
/// is another pair).
pub const D3D9S_FFP_KEYED: u32 = 0;
/// One pair per interface, reading the rest of the state from a state block
/// ([`d3d9s_ffp_state_bytes`]): a state change rewrites bytes, no new pipeline.
pub const D3D9S_FFP_UNIFORM: u32 = 1;

/// The vertex half ([`d3d9s_ffp_wgsl`] and the others' `stage`).
pub const D3D9S_FFP_VERTEX: u32 = 0;
/// The pixel half.
pub const D3D9S_FFP_PIXEL: u32 = 1;

/// A generated fixed-function pair. Immutable: any thread may read it at once; free it with
/// [`d3d9s_ffp_free`].
pub struct D3d9sFfp {
    halves: [FfpShader; 2],
    /// The state blocks of the uniform-driven mode (empty when keyed).
    states: [Vec<u8>; 2],
}

/// A generator or backend failure of a half.
fn failed(e: impl std::fmt::Display) -> Failure {
    Failure::new(D3d9sStatus::TranslateFailed, e.to_string())
}

fn generate(text: &str, mode: u32) -> Result<D3d9sFfp, Failure> {
    let (vk, pk) = keys_from_toml(text).map_err(|e| Failure::invalid(format!("fixed-function state: {e}")))?;
    Ok(match mode {
        D3D9S_FFP_KEYED => D3d9sFfp {
            halves: [ffp::generate_vertex(&vk).map_err(failed)?, ffp::generate_pixel(&pk).map_err(failed)?],
            states: [Vec::new(), Vec::new()],
        },
        D3D9S_FFP_UNIFORM => {
            // The smallest interface that draws the pixel key: the textures it samples.
            let pi = PixelInterface { textures: pk.sampled_textures(), flat: pk.flat, varyings: pk.varyings.clone() };
            D3d9sFfp {
                halves: [
                    ffp::generate_vertex_uniform(&vk.interface()).map_err(failed)?,
                    ffp::generate_pixel_uniform(&pi).map_err(failed)?,
                ],
                states: [vk.state_bytes(), pk.state_bytes()],
            }
        }
        n => return Err(Failure::invalid(format!("fixed-function mode {n}: 0 keyed, 1 uniform"))),
    })
}

/// Generates the fixed-function pair of a state given as TOML text (`len` bytes of UTF-8, the
/// case format's fixed-function names: `fvf` or `[[element]]`, `[render_states]`, `[[light]]`,
/// `[[texture]]`, `[[texture_stage]]`) in `mode` (`D3D9S_FFP_KEYED` or `D3D9S_FFP_UNIFORM`).
/// An unknown name or value is [`D3d9sStatus::InvalidArgument`] with the name in the message.
/// `*out_ffp` is a new handle; `out_error` as in `d3d9s_shader_parse`.
///
/// Thread safety: any thread, concurrently with any other call.
///
/// # Safety
///
/// `state_toml` is readable for `len` bytes; `out_ffp`, `out_error` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_generate(
    state_toml: *const std::ffi::c_char,
    len: usize,
    mode: u32,
    out_ffp: *mut *mut D3d9sFfp,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or readable for `len` bytes (this function's contract).
        let bytes = unsafe { slice_arg(state_toml.cast::<u8>(), len, "state_toml") }?;
        let make = || {
            let text = std::str::from_utf8(bytes)
                .map_err(|e| Failure::invalid(format!("not UTF-8 at byte {}", e.valid_up_to())))?;
            Ok(Box::into_raw(Box::new(generate(text, mode)?)))
        };
        // SAFETY: NULL or writable (this function's contract): NULL until success.
        unsafe { hand_out(out_ffp, "out_ffp", make) }
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// Frees a fixed-function pair; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `ffp` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_free(ffp: *mut D3d9sFfp) {
    let _ = catch_unwind(|| {
        if !ffp.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `d3d9s_ffp_generate`, freed once.
            drop(unsafe { Box::from_raw(ffp) });
        }
    });
}

/// One half of a pair.
///
/// # Safety
///
/// `ffp` is NULL or live for `'a`.
unsafe fn half<'a>(ffp: *const D3d9sFfp, stage: u32) -> Result<(&'a FfpShader, &'a [u8]), Failure> {
    // SAFETY: the caller's contract.
    let f = unsafe { read(ffp, "ffp") }?;
    let n = match stage {
        D3D9S_FFP_VERTEX => 0,
        D3D9S_FFP_PIXEL => 1,
        n => return Err(Failure::invalid(format!("stage {n}: 0 vertex, 1 pixel"))),
    };
    Ok((&f.halves[n], &f.states[n]))
}

/// The WGSL of half `stage` (`D3D9S_FFP_VERTEX`, `D3D9S_FFP_PIXEL`) into `*out`, a new buffer.
/// The entry point is `main`; bindings are in docs/layers.md#fixed-function.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `ffp` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_wgsl(ffp: *const D3d9sFfp, stage: u32, out: *mut D3d9sBuffer) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let (h, _) = unsafe { half(ffp, stage) }?;
        let wgsl = || Ok(D3d9sBuffer::from_vec(h.to_wgsl().map_err(failed)?.into_bytes()));
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(out, "out", wgsl) }
    })
}

/// The SPIR-V (little-endian bytes, the lowest version) of half `stage` into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `ffp` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_spirv(ffp: *const D3d9sFfp, stage: u32, out: *mut D3d9sBuffer) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let (h, _) = unsafe { half(ffp, stage) }?;
        let spirv =
            || Ok(D3d9sBuffer::from_vec(h.to_spirv().map_err(failed)?.iter().flat_map(|w| w.to_le_bytes()).collect()));
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(out, "out", spirv) }
    })
}

/// The state block of half `stage` in the uniform-driven mode (group 0 or 1, binding 1; empty
/// when keyed) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `ffp` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_ffp_state_bytes(ffp: *const D3d9sFfp, stage: u32, out: *mut D3d9sBuffer) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let (_, state) = unsafe { half(ffp, stage) }?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", D3d9sBuffer::from_vec(state.to_vec())) }
    })
}
