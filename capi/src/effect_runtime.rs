//! The effect run-time (docs/effects.md): parameter values, the current technique, and what a
//! pass sets (states, the shaders it binds, their constants), as D3DX's `ID3DXEffect` gives
//! them between `Begin`/`BeginPass` and `EndPass`/`End`.

use std::ffi::{c_char, CStr, CString};
use std::panic::catch_unwind;
use std::sync::Arc;

use d3d9_shader::effect::runtime::{AppliedState, PassState, RuntimeError, StateValue};
use d3d9_shader::effect::states::{LIGHT_WORDS, MATERIAL_WORDS};
use d3d9_shader::effect::{Effect, EffectRuntime, Handle, StateClass};

use crate::effect::D3d9sEffect;
use crate::error::{guard, read, values_arg, write, write_with, D3d9sStatus, Failure};
use crate::D3D9S_NONE;

/// An effect in use. Mutable: one thread at a time (as `ID3DXEffect`); free it with
/// [`d3d9s_effect_runtime_free`]. It keeps its effect alive: the effect handle may be freed
/// first.
pub struct D3d9sEffectRuntime {
    // Declared before `effect`, so dropped first: it borrows the effect `effect` keeps alive.
    runtime: EffectRuntime<'static>,
    _effect: Arc<Effect>,
}

/// The status of a run-time error: [`D3d9sStatus::BadHandle`] for a handle or index that names
/// nothing in the effect, [`D3d9sStatus::EffectRefused`] for the rest.
pub(crate) fn refused(e: RuntimeError) -> Failure {
    let status = match e {
        RuntimeError::BadHandle { .. } => D3d9sStatus::BadHandle,
        _ => D3d9sStatus::EffectRefused,
    };
    Failure::new(status, e.to_string())
}

/// A new run-time of `effect`: every parameter at its default, the first technique current.
///
/// Thread safety: any thread, concurrently with any call but the effect's free.
///
/// # Safety
///
/// `effect` is NULL or live; `out_runtime` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_new(
    effect: *const D3d9sEffect,
    out_runtime: *mut *mut D3d9sEffectRuntime,
) -> D3d9sStatus {
    // SAFETY: the same contract.
    guard(|| unsafe { new_runtime(effect, None, out_runtime) })
}

/// A new run-time of `effect` created as `D3DXCreateEffectEx` with `pSkipConstants`:
/// `skip_constants` (`"World;Bones"`) names the shader constants the application sets itself, so
/// begin_pass and commit never give their registers. A list Windows refuses (a constant the
/// compiler placed rather than the source bound with `register(cN)`, or one a state, preshader
/// or sampler reads) gives [`D3d9sStatus::EffectRefused`] and the reason in the thread's last
/// error (docs/effects.md#skip-constants). NULL or `""` skips nothing. Added beside
/// [`d3d9s_effect_runtime_new`], whose signature stays as it was.
///
/// Thread safety: any thread, concurrently with any call but the effect's free.
///
/// # Safety
///
/// `effect` is NULL or live; `skip_constants` is NULL or a NUL-terminated string;
/// `out_runtime` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_new_skipping(
    effect: *const D3d9sEffect,
    skip_constants: *const c_char,
    out_runtime: *mut *mut D3d9sEffectRuntime,
) -> D3d9sStatus {
    guard(|| {
        let list = if skip_constants.is_null() {
            None
        } else {
            // SAFETY: non-null and NUL-terminated (this function's contract).
            let text = unsafe { CStr::from_ptr(skip_constants) };
            Some(text.to_str().map_err(|_| Failure::invalid("the skip list is not UTF-8"))?)
        };
        // SAFETY: the same contract.
        unsafe { new_runtime(effect, list, out_runtime) }
    })
}

/// # Safety
///
/// As [`d3d9s_effect_runtime_new`].
unsafe fn new_runtime(
    effect: *const D3d9sEffect,
    skip: Option<&str>,
    out_runtime: *mut *mut D3d9sEffectRuntime,
) -> Result<(), Failure> {
    // SAFETY: NULL or live (the caller's contract).
    let e = unsafe { read(effect, "effect") }?;
    let make = || {
        let shared = Arc::clone(&e.effect);
        // SAFETY: the effect lives on the heap behind `shared`, which the run-time's struct keeps
        // and drops after the run-time (field order); an `Arc` gives shared access only, so
        // nothing mutates or moves it while the `'static` borrow lives.
        let effect: &'static Effect = unsafe { &*Arc::as_ptr(&shared) };
        let runtime = match skip {
            Some(list) => EffectRuntime::with_skip_constants(effect, list).map_err(refused)?,
            None => EffectRuntime::new(effect),
        };
        Ok(Box::into_raw(Box::new(D3d9sEffectRuntime { runtime, _effect: shared })))
    };
    // SAFETY: NULL or writable (the caller's contract).
    unsafe { write_with(out_runtime, "out_runtime", make) }
}

/// Frees a run-time; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `runtime` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_free(runtime: *mut D3d9sEffectRuntime) {
    let _ = catch_unwind(|| {
        if !runtime.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `d3d9s_effect_runtime_new`, freed once.
            drop(unsafe { Box::from_raw(runtime) });
        }
    });
}

/// # Safety
///
/// `runtime` is NULL or live and not used by another thread for `'a`.
pub(crate) unsafe fn runtime_mut<'a>(
    runtime: *mut D3d9sEffectRuntime,
) -> Result<&'a mut EffectRuntime<'static>, Failure> {
    // SAFETY: the caller's contract.
    unsafe { runtime.as_mut() }.map(|r| &mut r.runtime).ok_or_else(|| Failure::null("runtime"))
}

/// Makes technique `index` current (`SetTechnique`); an index past the technique count is
/// [`D3d9sStatus::BadHandle`].
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_technique(
    runtime: *mut D3d9sEffectRuntime,
    index: usize,
) -> D3d9sStatus {
    // SAFETY: NULL or live (this function's contract).
    guard(|| unsafe { runtime_mut(runtime) }?.set_technique(index).map_err(refused))
}

/// The handle of the parameter named `name` (a NUL-terminated D3DX full name: `"World"`,
/// `"light.color"`, `"bones[3]"`) into `*handle`; [`D3d9sStatus::EffectRefused`] when none.
/// Every call that takes a handle answers [`D3d9sStatus::BadHandle`] for one that names nothing
/// in the run-time's effect (past its parameters, elements, members and annotations), and
/// writes no output.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `name` is NULL or a NUL-terminated string; `handle` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_parameter(
    runtime: *mut D3d9sEffectRuntime,
    name: *const c_char,
    handle: *mut u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        if name.is_null() {
            return Err(Failure::null("name"));
        }
        // SAFETY: non-null and NUL-terminated (this function's contract).
        let name = unsafe { CStr::from_ptr(name) }.to_str().map_err(|_| Failure::invalid("the name is not UTF-8"))?;
        let h = r.handle(name).map_err(refused)?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(handle, "handle", h.0) }
    })
}

/// Sets a parameter's value from `count` floats (`SetFloatArray`; matrices row by row).
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `values` is readable for `count` floats (NULL when 0).
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_floats(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    values: *const f32,
    count: usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        // SAFETY: NULL when 0, else readable for `count` floats (this function's contract).
        let v = unsafe { values_arg(values, count, "values") }?;
        r.set_floats(Handle(handle), v).map_err(refused)
    })
}

/// Sets a parameter's value from `count` integers (`SetIntArray`; booleans as 0 or 1).
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `values` is readable for `count` integers (NULL when 0).
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_set_ints(
    runtime: *mut D3d9sEffectRuntime,
    handle: u32,
    values: *const i32,
    count: usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let r = unsafe { runtime_mut(runtime) }?;
        // SAFETY: NULL when 0, else readable for `count` integers (this function's contract).
        let v = unsafe { values_arg(values, count, "values") }?;
        r.set_ints(Handle(handle), v).map_err(refused)
    })
}

/// `Begin`: the current technique's pass count into `*passes`.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `passes` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_begin(
    runtime: *mut D3d9sEffectRuntime,
    passes: *mut usize,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let n = unsafe { runtime_mut(runtime) }?.begin().map_err(refused)?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(passes, "passes", n) }
    })
}

/// `BeginPass(pass)`: everything the pass sets, as a new pass-state handle in `*out_state`. A
/// pass some of whose states fail still gives its state (with `error_count` > 0), and is not
/// entered, as on Windows. A pass index past the technique's count is
/// [`D3d9sStatus::BadHandle`].
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `out_state` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_begin_pass(
    runtime: *mut D3d9sEffectRuntime,
    pass: usize,
    out_state: *mut *mut D3d9sPassState,
) -> D3d9sStatus {
    let make = || {
        // SAFETY: NULL or live (this function's contract).
        let state = unsafe { runtime_mut(runtime) }?.begin_pass(pass).map_err(refused)?;
        Ok(D3d9sPassState::hand_out(state))
    };
    // SAFETY: NULL or writable (this function's contract).
    guard(|| unsafe { write_with(out_state, "out_state", make) })
}

/// `CommitChanges`: what changed since the pass began or the last commit, as a new pass-state
/// handle.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live; `out_state` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_commit(
    runtime: *mut D3d9sEffectRuntime,
    out_state: *mut *mut D3d9sPassState,
) -> D3d9sStatus {
    let make = || {
        // SAFETY: NULL or live (this function's contract).
        let state = unsafe { runtime_mut(runtime) }?.commit().map_err(refused)?;
        Ok(D3d9sPassState::hand_out(state))
    };
    // SAFETY: NULL or writable (this function's contract).
    guard(|| unsafe { write_with(out_state, "out_state", make) })
}

/// `EndPass`.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_end_pass(runtime: *mut D3d9sEffectRuntime) -> D3d9sStatus {
    // SAFETY: NULL or live (this function's contract).
    guard(|| unsafe { runtime_mut(runtime) }?.end_pass().map_err(refused))
}

/// `End`.
///
/// Thread safety: one thread at a time per run-time.
///
/// # Safety
///
/// `runtime` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_effect_runtime_end(runtime: *mut D3d9sEffectRuntime) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        unsafe { runtime_mut(runtime) }?.end();
        Ok(())
    })
}

/// What a pass sets (from `BeginPass` or `CommitChanges`). Immutable: any thread may read it;
/// free it with [`d3d9s_pass_state_free`].
pub struct D3d9sPassState {
    state: PassState,
    /// The states' names, and per sampler state its sub-states' names.
    names: Vec<(CString, Vec<CString>)>,
    errors: Vec<CString>,
}

impl D3d9sPassState {
    fn hand_out(state: PassState) -> *mut D3d9sPassState {
        let names = state
            .states
            .iter()
            .map(|s| {
                let sub = match &s.value {
                    StateValue::Sampler { states } => states.iter().map(|x| crate::parse::owned(x.name)).collect(),
                    _ => Vec::new(),
                };
                (crate::parse::owned(s.name), sub)
            })
            .collect();
        let errors = state.errors.iter().map(|e| crate::parse::owned(&e.to_string())).collect();
        Box::into_raw(Box::new(D3d9sPassState { state, names, errors }))
    }
}

/// Frees a pass state; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `state` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_free(state: *mut D3d9sPassState) {
    let _ = catch_unwind(|| {
        if !state.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `hand_out`, freed once.
            drop(unsafe { Box::from_raw(state) });
        }
    });
}

/// A pass state's summary ([`d3d9s_pass_state_info`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sPassStateInfo {
    /// States, in pass order ([`d3d9s_pass_state_state`]).
    pub state_count: usize,
    /// 1 when the pass sets a vertex shader.
    pub sets_vertex_shader: u32,
    /// Its object id (`d3d9s_effect_shader`'s `object_id`), `D3D9S_NONE` for NULL.
    pub vertex_shader: u32,
    /// 1 when the pass sets a pixel shader.
    pub sets_pixel_shader: u32,
    /// Its object id, `D3D9S_NONE` for NULL.
    pub pixel_shader: u32,
    /// Float constant registers to upload for the vertex shader ([`d3d9s_pass_state_constant`]).
    pub vertex_float_count: usize,
    /// For the pixel shader.
    pub pixel_float_count: usize,
    /// Integer constant registers for the vertex shader.
    pub vertex_int_count: usize,
    /// For the pixel shader.
    pub pixel_int_count: usize,
    /// Boolean constant registers for the vertex shader.
    pub vertex_bool_count: usize,
    /// For the pixel shader.
    pub pixel_bool_count: usize,
    /// Lights to send whole ([`d3d9s_pass_state_light`]): D3DX keeps one D3DLIGHT9 per light,
    /// zeroed at `BeginPass`, and sends each light a state changed.
    pub light_count: usize,
    /// 1 when a material state changed: send [`d3d9s_pass_state_material`] whole.
    pub has_material: u32,
    /// States that could not be applied ([`d3d9s_pass_state_error`]).
    pub error_count: usize,
}

/// D3DLIGHT9 as 32-bit words: Type, Diffuse, Specular, Ambient (4 each), Position, Direction
/// (3 each), Range, Falloff, Attenuation0–2, Theta, Phi.
pub const D3D9S_LIGHT_WORDS: u32 = 26;
/// D3DMATERIAL9 as 32-bit words: Diffuse, Ambient, Specular, Emissive (4 each), Power.
pub const D3D9S_MATERIAL_WORDS: u32 = 17;
// Literals for the header; the library's sizes.
const _: () = assert!(D3D9S_LIGHT_WORDS as usize == LIGHT_WORDS && D3D9S_MATERIAL_WORDS as usize == MATERIAL_WORDS);

/// # Safety
///
/// `state` is NULL or live for `'a`.
unsafe fn pass_ref<'a>(state: *const D3d9sPassState) -> Result<&'a D3d9sPassState, Failure> {
    // SAFETY: the caller's contract.
    unsafe { read(state, "state") }
}

/// The pass state's summary into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_info(
    state: *const D3d9sPassState,
    out: *mut D3d9sPassStateInfo,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = &unsafe { pass_ref(state) }?.state;
        let shader =
            |s: Option<Option<usize>>| (u32::from(s.is_some()), s.flatten().map_or(D3D9S_NONE, |id| id as u32));
        let (sets_vs, vs) = shader(p.vertex_shader);
        let (sets_ps, ps) = shader(p.pixel_shader);
        let value = D3d9sPassStateInfo {
            state_count: p.states.len(),
            sets_vertex_shader: sets_vs,
            vertex_shader: vs,
            sets_pixel_shader: sets_ps,
            pixel_shader: ps,
            vertex_float_count: p.vertex_constants.float.len(),
            pixel_float_count: p.pixel_constants.float.len(),
            vertex_int_count: p.vertex_constants.int.len(),
            pixel_int_count: p.pixel_constants.int.len(),
            vertex_bool_count: p.vertex_constants.bool.len(),
            pixel_bool_count: p.pixel_constants.bool.len(),
            light_count: p.lights.len(),
            has_material: u32::from(p.material.is_some()),
            error_count: p.errors.len(),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// A state's value is words ([`D3d9sAppliedState::kind`]).
pub const D3D9S_STATE_WORDS: u32 = 0;
/// A shader (`object`).
pub const D3D9S_STATE_SHADER: u32 = 1;
/// A texture (`parameter`, the texture parameter's handle).
pub const D3D9S_STATE_TEXTURE: u32 = 2;
/// A sampler (`sampler_state_count` sub-states, [`d3d9s_pass_state_sampler_state`]).
pub const D3D9S_STATE_SAMPLER: u32 = 3;

/// One state a pass sets.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sAppliedState {
    /// Its name in the effect file (`"ZENABLE"`, `"MipFilter"`; the pass state's).
    pub name: *const c_char,
    /// What it sets: 0 render state, 1 texture stage, 2 N-patch mode, 3 FVF, 4 transform,
    /// 5 material member, 6 light member, 7 light enable, 8 vertex shader, 9 pixel shader,
    /// 10 shader constant, 11 texture, 12 sampler state, 13 sampler.
    pub state_class: u32,
    /// The D3D9 enumerant (D3DRS_*, D3DTSS_*, D3DSAMP_*, D3DTS_*, light member).
    pub code: u32,
    /// The light, stage, sampler, first register or world matrix.
    pub index: u32,
    /// `D3D9S_STATE_*`.
    pub kind: u32,
    /// Words of a `D3D9S_STATE_WORDS` value (the pass state's): one DWORD for most states (a
    /// float as its bits), 16 for a transform, 4 for a colour.
    pub words: *const u32,
    /// Their count.
    pub word_count: usize,
    /// A shader's object id, `D3D9S_NONE` for NULL or another kind.
    pub object: u32,
    /// A texture's parameter handle, `D3D9S_NONE` for NULL or another kind.
    pub parameter: u32,
    /// A sampler's sub-state count.
    pub sampler_state_count: usize,
}

// The numbering `class` documents is the declaration order of the Rust enum.
const _: () = assert!(StateClass::ShaderConstant as u32 == 10 && StateClass::Sampler as u32 == 13);

fn applied(s: &AppliedState, name: &CString) -> D3d9sAppliedState {
    let mut out = D3d9sAppliedState {
        name: name.as_ptr(),
        state_class: s.class as u32,
        code: s.code,
        index: s.index,
        kind: D3D9S_STATE_WORDS,
        words: std::ptr::null(),
        word_count: 0,
        object: D3D9S_NONE,
        parameter: D3D9S_NONE,
        sampler_state_count: 0,
    };
    match &s.value {
        StateValue::Words { words, .. } => (out.words, out.word_count) = (words.as_ptr(), words.len()),
        StateValue::Shader { object } => {
            (out.kind, out.object) = (D3D9S_STATE_SHADER, object.map_or(D3D9S_NONE, |o| o as u32))
        }
        StateValue::Texture { parameter } => {
            (out.kind, out.parameter) = (D3D9S_STATE_TEXTURE, parameter.map_or(D3D9S_NONE, |h| h.0))
        }
        StateValue::Sampler { states } => (out.kind, out.sampler_state_count) = (D3D9S_STATE_SAMPLER, states.len()),
    }
    out
}

/// State `index` (below `state_count`) into `*out`; its pointers are the pass state's.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_state(
    state: *const D3d9sPassState,
    index: usize,
    out: *mut D3d9sAppliedState,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = unsafe { pass_ref(state) }?;
        let s = p.state.states.get(index).ok_or_else(|| Failure::invalid("state index out of range"))?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", applied(s, &p.names[index].0)) }
    })
}

/// Sub-state `sub` of the sampler state `index` into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_sampler_state(
    state: *const D3d9sPassState,
    index: usize,
    sub: usize,
    out: *mut D3d9sAppliedState,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = unsafe { pass_ref(state) }?;
        let s = match p.state.states.get(index).map(|s| &s.value) {
            Some(StateValue::Sampler { states }) => states.get(sub),
            _ => None,
        };
        let s = s.ok_or_else(|| Failure::invalid("not a sampler state, or sub-state index out of range"))?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", applied(s, &p.names[index].1[sub])) }
    })
}

/// Constant `index` of file `file` (`D3D9S_CONSTANTS_FLOAT`, `_INT`, `_BOOL`; counts in the
/// info) of the vertex (`stage` 0) or pixel (1) shader: its register into `*register_index` and
/// its value into `value[0..4]` (four float bit patterns, four integers, or the boolean in
/// `value[0]` and zeros).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `register_index` is NULL or writable; `value` is NULL or writable
/// for 4 words.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_constant(
    state: *const D3d9sPassState,
    stage: u32,
    file: u32,
    index: usize,
    register_index: *mut u32,
    value: *mut u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = &unsafe { pass_ref(state) }?.state;
        let c = match stage {
            0 => &p.vertex_constants,
            1 => &p.pixel_constants,
            n => return Err(Failure::invalid(format!("stage {n}: 0 vertex, 1 pixel"))),
        };
        let found = match file {
            crate::D3D9S_CONSTANTS_FLOAT => c.float.get(index).copied(),
            crate::D3D9S_CONSTANTS_INT => c.int.get(index).map(|&(r, v)| (r, v.map(|x| x as u32))),
            crate::D3D9S_CONSTANTS_BOOL => c.bool.get(index).map(|&(r, b)| (r, [u32::from(b), 0, 0, 0])),
            n => return Err(Failure::invalid(format!("constant file {n}: 0 float, 1 int, 2 bool"))),
        };
        let (register, words) = found.ok_or_else(|| Failure::invalid("constant index out of range"))?;
        // SAFETY: NULL or writable, `value` NULL or writable for 4 words (this function's contract).
        unsafe {
            write_with(register_index, "register_index", || {
                write(value.cast::<[u32; 4]>(), "value", words)?;
                Ok(register)
            })
        }
    })
}

/// Light `index` (below `light_count`) to send: its number into `*light` and its D3DLIGHT9 as
/// [`D3D9S_LIGHT_WORDS`] words into `words`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `light` is NULL or writable; `words` is NULL or writable for
/// `D3D9S_LIGHT_WORDS` words.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_light(
    state: *const D3d9sPassState,
    index: usize,
    light: *mut u32,
    words: *mut u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = &unsafe { pass_ref(state) }?.state;
        let &(n, values) = p.lights.get(index).ok_or_else(|| Failure::invalid("light index out of range"))?;
        // SAFETY: NULL or writable, `words` NULL or writable for LIGHT_WORDS words (the contract).
        unsafe {
            write_with(light, "light", || {
                write(words.cast::<[u32; LIGHT_WORDS]>(), "words", values)?;
                Ok(n)
            })
        }
    })
}

/// The D3DMATERIAL9 to send, as [`D3D9S_MATERIAL_WORDS`] words into `words`
/// ([`D3d9sStatus::InvalidArgument`] when `has_material` is 0).
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live; `words` is NULL or writable for `D3D9S_MATERIAL_WORDS` words.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_material(state: *const D3d9sPassState, words: *mut u32) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = &unsafe { pass_ref(state) }?.state;
        let m = p.material.ok_or_else(|| Failure::invalid("the pass changed no material state"))?;
        // SAFETY: NULL or writable for MATERIAL_WORDS words (this function's contract).
        unsafe { write(words.cast::<[u32; MATERIAL_WORDS]>(), "words", m) }
    })
}

/// The message of failed state `index` (below `error_count`; the pass state's), NULL for NULL
/// or an index out of range.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `state` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_pass_state_error(state: *const D3d9sPassState, index: usize) -> *const c_char {
    catch_unwind(|| {
        // SAFETY: NULL or live (this function's contract).
        let p = unsafe { state.as_ref() }?;
        p.errors.get(index).map(|e| e.as_ptr())
    })
    .ok()
    .flatten()
    .unwrap_or(std::ptr::null())
}
