//! Pair linking: a vertex/pixel pair's linkage, and the stable interface.

use std::panic::catch_unwind;

use d3d9_shader::key::linkage::{LinkSlot, Linkage};

use crate::error::{guard, guard_with_error, read, write, write_with, D3d9sError, D3d9sStatus, Failure};
use crate::parse::{shader_ref, D3d9sShader};

/// The locations of a pair's varyings by semantic; put it in both keys'
/// `D3d9sKey::linkage`. Immutable: any thread may read it at once;
/// free it with [`d3d9s_linkage_free`] after the last call that reads a key naming it.
pub struct D3d9sLinkage {
    pub(crate) linkage: Linkage,
}

fn hand_out(linkage: Linkage, out: *mut *mut D3d9sLinkage) -> Result<(), Failure> {
    // SAFETY: NULL or writable (the entries' contracts).
    unsafe { write_with(out, "out_linkage", || Ok(Box::into_raw(Box::new(D3d9sLinkage { linkage })))) }
}

/// Links a vertex shader's outputs to a pixel shader's inputs by semantic (Rust's `link`):
/// semantics the pixel shader reads and the vertex shader does not write get D3D9's default
/// value, outputs the pixel shader does not read are dropped. `*out_linkage` is a new handle;
/// [`D3d9sStatus::WrongStage`] when `vs` is not a vertex shader or `ps` not a pixel shader.
/// `out_error` as in `d3d9s_shader_parse` (may be NULL).
///
/// Thread safety: any thread, concurrently with any call but the shaders' frees.
///
/// # Safety
///
/// `vs`, `ps` are NULL or live; `out_linkage`, `out_error` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_link(
    vs: *const D3d9sShader,
    ps: *const D3d9sShader,
    out_linkage: *mut *mut D3d9sLinkage,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or live handles (this function's contract).
        let (vs, ps) = unsafe { (shader_ref(vs)?, read(ps, "ps")?) };
        let linkage = d3d9_shader::link(&vs.shader, &ps.shader)?;
        hand_out(linkage, out_linkage)
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// The stable interface (Rust's `Linkage::stable`): one linkage for every pair whose shaders
/// both say `fits_stable_interface` (`D3d9sShaderInfo`), so that each
/// shader is translated once and pairs freely. `*out_linkage` is a new handle.
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out_linkage` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_linkage_stable(out_linkage: *mut *mut D3d9sLinkage) -> D3d9sStatus {
    guard(|| hand_out(Linkage::stable(), out_linkage))
}

/// Frees a linkage; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it (and of keys naming it).
///
/// # Safety
///
/// `linkage` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_linkage_free(linkage: *mut D3d9sLinkage) {
    let _ = catch_unwind(|| {
        if !linkage.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `hand_out`, freed once.
            drop(unsafe { Box::from_raw(linkage) });
        }
    });
}

/// One semantic of a linkage ([`d3d9s_linkage_slot`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sLinkSlot {
    /// D3DDECLUSAGE code.
    pub usage: u32,
    /// Usage index.
    pub usage_index: u32,
    /// `@location` of the varying, or `D3D9S_NONE` when the pixel shader
    /// reads it and the vertex shader does not write it (the default value is used).
    pub location: u32,
}

/// The number of slots of `linkage` into `*count`, and whether it is the stable interface into
/// `*stable` (0 or 1; `stable` may be NULL).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `linkage` is NULL or live; `count` is NULL or writable; `stable` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_linkage_info(
    linkage: *const D3d9sLinkage,
    count: *mut usize,
    stable: *mut u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let l = &unsafe { read(linkage, "linkage") }?.linkage;
        if !stable.is_null() {
            // SAFETY: non-null and writable (this function's contract).
            unsafe { stable.write(u32::from(l.stable)) };
        }
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(count, "count", l.slots.len()) }
    })
}

/// Slot `index` (below the count of [`d3d9s_linkage_info`], sorted by usage and index) into
/// `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `linkage` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_linkage_slot(
    linkage: *const D3d9sLinkage,
    index: usize,
    out: *mut D3d9sLinkSlot,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let l = &unsafe { read(linkage, "linkage") }?.linkage;
        let &(usage, usage_index, slot) =
            l.slots.get(index).ok_or_else(|| Failure::invalid("slot index out of range"))?;
        let location = match slot {
            LinkSlot::Location(n) => n,
            LinkSlot::Missing => crate::D3D9S_NONE,
        };
        let value = D3d9sLinkSlot { usage: u32::from(usage), usage_index: u32::from(usage_index), location };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}
