//! Parameter value calls of the effect run-time beyond `SetFloatArray`/`SetIntArray`: the
//! transpose family of matrix calls, `GetInt` with its D3DCOLOR packing, and `SetArrayRange`
//! (docs/effects.md#methods gives the rules; a call Windows refuses is `EFFECT_REFUSED`).

use d3d9_shader::effect::Handle;

use crate::effect_runtime::{refused, runtime_mut, D3d9sEffectRuntime};
use crate::error::{guard, slice_arg, values_arg, write_with, D3d9sStatus, Failure};

/// `SetMatrixTransposeArray`: `count` D3DXMATRIXes (16 floats each, `_11, _12, … _44`) from
/// `matrices`, element `n` of a matrix array taking the transpose of matrix `n`. More matrices
/// than the parameter has elements (0 for a matrix that is no array), or a parameter that is
/// no matrix, is `EFFECT_REFUSED`; a count of 0 on a matrix sets nothing.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `matrices` is readable for `16 × count` floats (NULL when 0).
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_matrix_transpose_array(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    matrices: *const f32,
    count: usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        let floats = count.checked_mul(16).ok_or_else(|| Failure::invalid("`count` is too large"))?;
        // SAFETY: NULL when 0, else readable for 16 × `count` floats (this function's contract).
        let v = unsafe { values_arg(matrices, floats, "matrices") }?;
        let m: Vec<[f32; 16]> = v.chunks_exact(16).map(|c| std::array::from_fn(|i| c[i])).collect();
        r.set_matrix_transpose_array(Handle(handle), &m).map_err(refused)
    })
}

/// `SetMatrixTransposePointerArray`: as [`d3d9s_effect_runtime_set_matrix_transpose_array`]
/// with `count` pointers to D3DXMATRIXes.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `matrices` is readable for `count` pointers (NULL when 0), each
/// NULL or readable for 16 floats.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_matrix_transpose_pointer_array(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    matrices: *const *const f32,
    count: usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        // SAFETY: NULL when 0, else readable for `count` pointers (this function's contract).
        let pointers = unsafe { values_arg(matrices, count, "matrices") }?;
        let mut m: Vec<&[f32; 16]> = Vec::with_capacity(count);
        for &p in pointers {
            // SAFETY: each pointer is NULL or readable for 16 floats (this function's contract).
            let one = unsafe { slice_arg(p, 16, "matrices[i]") }?;
            m.push(one.try_into().map_err(|_| Failure::invalid("a matrix is 16 floats"))?);
        }
        r.set_matrix_transpose_array(Handle(handle), &m).map_err(refused)
    })
}

/// `GetMatrixTranspose`: 16 floats into `out` (a D3DXMATRIX). A matrix that is no array gives
/// its transpose; a scalar or vector that is no array fills the first row (Windows does not
/// transpose it); anything else is `EFFECT_REFUSED`.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `out` is NULL or writable for 16 floats.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_get_matrix_transpose(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    out: *mut f32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        // SAFETY: NULL or writable for 16 floats (this function's contract).
        unsafe {
            write_with(out.cast::<[f32; 16]>(), "out", || r.get_matrix_transpose(Handle(handle)).map_err(refused))
        }
    })
}

/// `GetMatrixTransposeArray`: the first `count` elements of a matrix array, each transposed,
/// as `16 × count` floats into `out`. A count of 0 writes nothing on any parameter of the
/// effect; otherwise a parameter that is no matrix array of at least `count` elements is
/// `EFFECT_REFUSED`, and `out` is left as it was. (`GetMatrixTransposePointerArray`: call this and copy each matrix
/// where its pointer points.)
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `out` is writable for `16 × count` floats (NULL when 0).
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_get_matrix_transpose_array(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    out: *mut f32,
    count: usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        if count > 0 && out.is_null() {
            return Err(Failure::null("out"));
        }
        let matrices = r.get_matrix_transpose_array(Handle(handle), count).map_err(refused)?;
        for (i, m) in matrices.iter().enumerate() {
            // SAFETY: non-null (count > 0) and writable for 16 × `count` floats (the contract).
            unsafe { out.add(i * 16).cast::<[f32; 16]>().write(*m) };
        }
        Ok(())
    })
}

/// `GetInt` into `*value`: a 1×1 value that is no array converted, or a float3/float4 (or a
/// 3×1/4×1 float matrix) packed as the D3DCOLOR 0xAARRGGBB, each channel
/// trunc(clamp(x, 0, 1) × 255), alpha 0 for three values. Anything else is `EFFECT_REFUSED`.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `value` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_get_int(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    value: *mut i32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write_with(value, "value", || r.get_int(Handle(handle)).map_err(refused)) }
    })
}

/// `SetArrayRange`: accepted; it changes nothing the run-time gives (no Windows result shows
/// an effect of it, docs/effects.md#methods).
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_array_range(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    start: u32,
    end: u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        r.set_array_range(Handle(handle), start, end).map_err(refused)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{d3d9s_effect_free, d3d9s_effect_parse, d3d9s_effect_runtime_free, d3d9s_effect_runtime_new};
    use crate::{d3d9s_effect_runtime_parameter, D3d9sEffect};

    /// The library's sample effect, whose one parameter is `float4 g_Color = (1, 0.5, 0, 1)`.
    fn sample() -> (*mut D3d9sEffect, *mut D3d9sEffectRuntime, u32) {
        let blob = d3d9_shader::fuzz::sample_effect();
        let (mut fx, mut rt, mut h) = (std::ptr::null_mut(), std::ptr::null_mut(), 0u32);
        // SAFETY: live pointers to locals; the blob outlives the call.
        unsafe {
            assert_eq!(d3d9s_effect_parse(blob.as_ptr(), blob.len(), &mut fx, std::ptr::null_mut()), D3d9sStatus::Ok);
            assert_eq!(d3d9s_effect_runtime_new(fx, &mut rt), D3d9sStatus::Ok);
            assert_eq!(d3d9s_effect_runtime_parameter(rt, c"g_Color".as_ptr(), &mut h), D3d9sStatus::Ok);
        }
        (fx, rt, h)
    }

    #[test]
    fn get_int_packs_the_sample_colour_and_a_vector_reads_as_the_first_row() {
        let (fx, rt, h) = sample();
        let mut value = 0i32;
        let mut m = [7.0f32; 16];
        // SAFETY: `rt` is live; the outputs are locals of the right size.
        unsafe {
            // (1, 0.5, 0, 1): a = ff, r = ff, g = trunc(127.5) = 7f, b = 00.
            assert_eq!(d3d9s_effect_runtime_get_int(rt, h, &mut value), D3d9sStatus::Ok);
            assert_eq!(value as u32, 0xffff_7f00);
            // A vector is not transposed: its 4 values fill _11.._14, the rest 0.
            assert_eq!(d3d9s_effect_runtime_get_matrix_transpose(rt, h, m.as_mut_ptr()), D3d9sStatus::Ok);
            let mut want = [0.0f32; 16];
            want[..4].copy_from_slice(&[1.0, 0.5, 0.0, 1.0]);
            assert_eq!(m, want);
            // No matrix array: count 0 answers, anything else is refused and writes nothing.
            let none = std::ptr::null_mut();
            assert_eq!(d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, none, 0), D3d9sStatus::Ok);
            let status = d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, m.as_mut_ptr(), 1);
            assert_eq!(status, D3d9sStatus::EffectRefused);
            assert_eq!(m, want);
            let identity: [f32; 16] = std::array::from_fn(|i| if i % 5 == 0 { 1.0 } else { 0.0 });
            let status = d3d9s_effect_runtime_set_matrix_transpose_array(rt, h, identity.as_ptr(), 1);
            assert_eq!(status, D3d9sStatus::EffectRefused);
            let pointers = [identity.as_ptr()];
            let status = d3d9s_effect_runtime_set_matrix_transpose_pointer_array(rt, h, pointers.as_ptr(), 1);
            assert_eq!(status, D3d9sStatus::EffectRefused);
            assert_eq!(d3d9s_effect_runtime_set_array_range(rt, h, 0, 1), D3d9sStatus::Ok);
            assert_eq!(d3d9s_effect_runtime_get_int(rt, h, std::ptr::null_mut()), D3d9sStatus::NullPointer);
            d3d9s_effect_runtime_free(rt);
            d3d9s_effect_free(fx);
        }
    }

    fn last_error() -> String {
        // SAFETY: the thread's message, valid until its next failing call.
        unsafe { std::ffi::CStr::from_ptr(crate::d3d9s_last_error_message()) }.to_string_lossy().into_owned()
    }

    /// The sample effect has handles 0 (g_Color) and 1 (its annotation), one technique of one
    /// pass: every call given a handle or index past those answers `BadHandle` naming it.
    #[test]
    fn bad_handles_are_refused_by_name_not_a_panic() {
        use crate::{d3d9s_effect_runtime_begin, d3d9s_effect_runtime_begin_pass, d3d9s_effect_runtime_set_floats};
        use crate::{d3d9s_effect_runtime_set_ints, d3d9s_effect_runtime_set_technique};
        let (fx, rt, _) = sample();
        let matrix = [0.0f32; 16];
        let mut out = [7.0f32; 16];
        let mut value = 5i32;
        let named = |status: D3d9sStatus, what: &str| {
            assert_eq!(status, D3d9sStatus::BadHandle, "{what}");
            let message = last_error();
            assert!(message.contains(what), "{message:?} does not name {what:?}");
        };
        // SAFETY: `rt` is live; the inputs and outputs are locals of the sizes each call reads.
        unsafe {
            for h in [2, 1000, u32::MAX] {
                let what = format!("parameter handle {h} is out of range (valid: below 2)");
                named(d3d9s_effect_runtime_set_floats(rt, h, matrix.as_ptr(), 4), &what);
                named(d3d9s_effect_runtime_set_ints(rt, h, [1i32, 2].as_ptr(), 2), &what);
                named(d3d9s_effect_runtime_set_matrix_transpose_array(rt, h, matrix.as_ptr(), 1), &what);
                let pointers = [matrix.as_ptr()];
                named(d3d9s_effect_runtime_set_matrix_transpose_pointer_array(rt, h, pointers.as_ptr(), 1), &what);
                named(d3d9s_effect_runtime_set_array_range(rt, h, 0, 1), &what);
                named(d3d9s_effect_runtime_get_matrix_transpose(rt, h, out.as_mut_ptr()), &what);
                named(d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, out.as_mut_ptr(), 1), &what);
                named(d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, std::ptr::null_mut(), 0), &what);
                named(d3d9s_effect_runtime_get_int(rt, h, &mut value), &what);
            }
            assert_eq!((out, value), ([7.0; 16], 5), "a refused call writes nothing");
            named(d3d9s_effect_runtime_set_technique(rt, 1), "technique 1 is out of range (valid: below 1)");
            named(d3d9s_effect_runtime_set_technique(rt, usize::MAX), "technique ");
            let mut passes = 0;
            assert_eq!(d3d9s_effect_runtime_begin(rt, &mut passes), D3d9sStatus::Ok);
            assert_eq!(passes, 1);
            let mut state = std::ptr::null_mut();
            named(d3d9s_effect_runtime_begin_pass(rt, 1, &mut state), "pass 1 is out of range (valid: below 1)");
            assert!(state.is_null());
            // Still usable: g_Color packs as before.
            assert_eq!(d3d9s_effect_runtime_get_int(rt, 0, &mut value), D3d9sStatus::Ok);
            assert_eq!(value as u32, 0xffff_7f00);
            d3d9s_effect_runtime_free(rt);
            d3d9s_effect_free(fx);
        }
    }
}
