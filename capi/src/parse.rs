//! Parsing: a blob (or assembly text) and the parse options to a shader handle.

use std::ffi::{c_char, CString};
use std::panic::catch_unwind;
use std::sync::OnceLock;

use d3d9_shader::validate::{Api, Mode, ValidationOptions};
use d3d9_shader::{ParseOptions, Shader};

use crate::error::{
    c_string, guard_with_error, hand_out, read, sized, slice_arg, write, D3d9sError, D3d9sStatus, Failure,
};

/// Validation under the Direct3D 9 runtime's rules ([`D3d9sParseOptions::api`]).
pub const D3D9S_API_D3D9: u32 = 0;
/// Validation under the Direct3D 8 runtime's rules: at most vs_1_1 and ps_1_4, vertex shaders
/// without `dcl`.
pub const D3D9S_API_D3D8: u32 = 1;

/// How [`d3d9s_shader_parse`] validates. Fill it with [`d3d9s_parse_options_default`], then
/// change fields; booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3d9sParseOptions {
    /// `sizeof(D3d9sParseOptions)`: the version of the struct the caller was compiled with.
    pub size: u32,
    /// 1: strict validation (what the Direct3D runtime refuses is an error); 0 (the default):
    /// lenient (what drivers accept when the meaning is clear is a warning,
    /// `d3d9s_shader_warning`).
    pub strict: u32,
    /// [`D3D9S_API_D3D9`] (the default) or [`D3D9S_API_D3D8`].
    pub api: u32,
    /// 1: software vertex processing (8192 float constants, the `_sw` vertex models).
    pub swvp: u32,
    /// 1, lenient mode only: float constants past the version's count are warnings.
    pub relaxed_constant_limit: u32,
}

/// Fills `*out` with the default options (lenient Direct3D 9 validation) and its `size`.
///
/// Thread safety: any thread.
///
/// # Safety
///
/// `out` is NULL or valid for writes of a `D3d9sParseOptions`.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_parse_options_default(out: *mut D3d9sParseOptions) -> D3d9sStatus {
    crate::error::guard(|| {
        let value = D3d9sParseOptions {
            size: size_of::<D3d9sParseOptions>() as u32,
            strict: 0,
            api: D3D9S_API_D3D9,
            swvp: 0,
            relaxed_constant_limit: 0,
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// A 0/1 field of a C struct.
pub(crate) fn flag(value: u32, field: &str) -> Result<bool, Failure> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::invalid(format!("`{field}` is {value}: a flag is 0 or 1"))),
    }
}

impl D3d9sParseOptions {
    fn to_rust(self) -> Result<ParseOptions, Failure> {
        let api = match self.api {
            D3D9S_API_D3D9 => Api::D3d9,
            D3D9S_API_D3D8 => Api::D3d8,
            n => return Err(Failure::invalid(format!("`api` is {n}: 0 (D3D9) or 1 (D3D8)"))),
        };
        let mode = if flag(self.strict, "strict")? { Mode::Strict } else { Mode::Lenient };
        let validation = ValidationOptions {
            mode,
            api,
            swvp: flag(self.swvp, "swvp")?,
            relaxed_constant_limit: flag(self.relaxed_constant_limit, "relaxed_constant_limit")?,
            ..ValidationOptions::default()
        };
        Ok(ParseOptions { validation })
    }
}

/// A parsed, validated shader. Immutable: any number of threads may reflect on it, key and
/// translate it at once; free it with [`d3d9s_shader_free`] after every other use.
pub struct D3d9sShader {
    pub(crate) shader: Shader,
    /// The reflection's strings as C strings, made on the first reflection call.
    pub(crate) strings: OnceLock<crate::reflect::Strings>,
}

impl D3d9sShader {
    pub(crate) fn strings(&self) -> &crate::reflect::Strings {
        self.strings.get_or_init(|| crate::reflect::Strings::new(&self.shader))
    }
}

/// Parses a token blob: little-endian DWORDs from the version token on, as given to
/// `CreateVertexShader`/`CreatePixelShader` (bytes after the end token are ignored).
///
/// `options` may be NULL (the defaults). On success `*out_shader` is a new handle (free it with
/// [`d3d9s_shader_free`]); on failure it is set to NULL, the status says why
/// ([`D3d9sStatus::BadBlob`], [`D3d9sStatus::InvalidShader`], …) and, when `out_error` is not
/// NULL, `*out_error` is an error handle with the diagnostics (free it with
/// `d3d9s_error_free`); on success `*out_error` is set to NULL.
///
/// Thread safety: any thread, concurrently with any other call.
///
/// # Safety
///
/// `bytes` is valid for reads of `len` bytes; `options` is NULL or points to a
/// `D3d9sParseOptions`; `out_shader` and `out_error` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_parse(
    bytes: *const u8,
    len: usize,
    options: *const D3d9sParseOptions,
    out_shader: *mut *mut D3d9sShader,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or readable for `len` bytes (this function's contract).
        let blob = unsafe { slice_arg(bytes, len, "bytes") }?;
        // SAFETY: NULL or writable, NULL or readable (this function's contract).
        unsafe { parse_with(out_shader, options, |o| Shader::parse(blob, o)) }
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// Assembles shader assembly text (`vs_3_0` / `ps_2_0` … listings as fxc prints them), `len`
/// bytes of UTF-8 (no NUL needed), and validates it as [`d3d9s_shader_parse`] does; its
/// diagnostics carry no token (the text has none) but say the line and column.
///
/// Thread safety: any thread, concurrently with any other call.
///
/// # Safety
///
/// As [`d3d9s_shader_parse`], with `text` readable for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_assemble(
    text: *const c_char,
    len: usize,
    options: *const D3d9sParseOptions,
    out_shader: *mut *mut D3d9sShader,
    out_error: *mut *mut D3d9sError,
) -> D3d9sStatus {
    let body = || {
        // SAFETY: NULL or readable for `len` bytes (this function's contract).
        let bytes = unsafe { slice_arg(text.cast::<u8>(), len, "text") }?;
        let text = std::str::from_utf8(bytes).map_err(|e| {
            Failure::new(D3d9sStatus::BadBlob, format!("the text is not UTF-8 (byte {})", e.valid_up_to()))
        })?;
        // SAFETY: NULL or writable, NULL or readable (this function's contract).
        unsafe { parse_with(out_shader, options, |o| Shader::from_asm(text, o)) }
    };
    // SAFETY: `out_error` is NULL or writable (this function's contract).
    unsafe { guard_with_error(out_error, body) }
}

/// The common part of the two parse entries.
///
/// # Safety
///
/// `out_shader` is NULL or writable; `options` is NULL or readable.
pub(crate) unsafe fn parse_with(
    out_shader: *mut *mut D3d9sShader,
    options: *const D3d9sParseOptions,
    parse: impl FnOnce(&ParseOptions) -> d3d9_shader::error::Result<Shader>,
) -> Result<(), Failure> {
    let make = || {
        let options = match options.is_null() {
            true => ParseOptions::default(),
            // SAFETY: non-null and readable (this function's contract).
            false => unsafe { *sized(options, "options")? }.to_rust()?,
        };
        let shader = parse(&options)?;
        Ok(Box::into_raw(Box::new(D3d9sShader { shader, strings: OnceLock::new() })))
    };
    // SAFETY: NULL or writable (this function's contract): NULL until success.
    unsafe { hand_out(out_shader, "out_shader", make) }
}

/// Frees a shader handle; NULL is accepted. Translations and linkages made from it stay valid
/// (they hold their own data).
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `shader` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_free(shader: *mut D3d9sShader) {
    let _ = catch_unwind(|| {
        if !shader.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `parse_with`, freed once.
            drop(unsafe { Box::from_raw(shader) });
        }
    });
}

/// The borrowed shader of a handle argument.
///
/// # Safety
///
/// `shader` is NULL or a live handle for `'a`.
pub(crate) unsafe fn shader_ref<'a>(shader: *const D3d9sShader) -> Result<&'a D3d9sShader, Failure> {
    // SAFETY: the caller's contract.
    unsafe { read(shader, "shader") }
}

/// A C string kept by a handle.
pub(crate) fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

/// A C string of a reflection string (cut at a NUL, which names never hold).
pub(crate) fn owned(s: &str) -> CString {
    c_string(s)
}
