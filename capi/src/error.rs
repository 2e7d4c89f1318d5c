//! Status codes, the per-thread last error, the error handle with its diagnostics, and the
//! guard every entry runs its body in (no panic crosses the boundary).

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use d3d9_shader::error::Location;
use d3d9_shader::Error;

/// What a call did. Every function that can fail returns one; 0 is success.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D3d9sStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// An argument is out of its documented range (an index past a count, an enum value the
    /// library does not know, a field of a struct out of range).
    InvalidArgument = 2,
    /// A struct's `size` field is not a size the library knows (set it with `sizeof`, or fill
    /// the struct with its `_default` function).
    BadStructSize = 3,
    /// The blob is not a token stream (its length is not a multiple of 4, or a token does not
    /// decode); the error's diagnostic has the token index.
    BadBlob = 4,
    /// The validator refused the program; the error lists every diagnostic.
    InvalidShader = 5,
    /// The translator refused the program, or naga or a backend failed.
    TranslateFailed = 6,
    /// SPIR-V was asked of a translation that has overrides: specialise it first
    /// (`d3d9s_translation_specialise`).
    HasOverrides = 7,
    /// `d3d9s_link` was given shaders of the wrong stages.
    WrongStage = 8,
    /// The effect blob does not parse (the message names the byte at fault).
    BadEffect = 9,
    /// The effect run-time refused the call (no parameter of that name, a value of the wrong
    /// size, a call out of order, a state that cannot be applied).
    EffectRefused = 10,
    /// A handle or index passed to the effect run-time names nothing in its effect: a parameter
    /// handle past the effect's parameters, elements, members and annotations (made up, or
    /// another effect's), or a technique or pass index past the count. The message names it.
    BadHandle = 11,
    /// An internal error (a caught panic): a bug in the library, please report it. The call's
    /// outputs are NULL or empty (or untouched), nothing leaks into the caller's handles, and
    /// the library stays usable.
    Panic = 99,
}

/// A failure on its way out of an entry: the status and the message the thread keeps.
pub(crate) struct Failure {
    pub status: D3d9sStatus,
    pub message: String,
    /// The library's error, when one caused it (kept for an error handle's diagnostics).
    pub error: Option<Error>,
}

impl Failure {
    pub fn new(status: D3d9sStatus, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into(), error: None }
    }

    pub fn null(what: &str) -> Failure {
        Failure::new(D3d9sStatus::NullPointer, format!("`{what}` is NULL"))
    }

    pub fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(D3d9sStatus::InvalidArgument, message)
    }

    /// The status of the library's error, with its message.
    pub fn from_error(e: Error) -> Failure {
        let status = match &e {
            Error::Input(_) | Error::Decode(_) | Error::Asm(_) => D3d9sStatus::BadBlob,
            Error::Invalid { .. } => D3d9sStatus::InvalidShader,
            Error::Stage { .. } => D3d9sStatus::WrongStage,
            _ => D3d9sStatus::TranslateFailed,
        };
        Failure { status, message: e.to_string(), error: Some(e) }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::from_error(e)
    }
}

impl From<d3d9_shader::emit::EmitError> for Failure {
    fn from(e: d3d9_shader::emit::EmitError) -> Failure {
        Failure::from_error(Error::from(e))
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message cannot hold a NUL; were one there, the text stops before it.
    let text = message.split('\0').next().unwrap_or_default();
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs an entry's body: its failure becomes a status and the thread's last error, a panic
/// becomes [`D3d9sStatus::Panic`].
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> D3d9sStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => D3d9sStatus::Ok,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_last_error(&format!("internal error (panic): {what}"));
            D3d9sStatus::Panic
        }
    }
}

/// [`guard`] for a body that also hands out an error handle through `out_error` (which may be
/// NULL): set to NULL on success, to a new handle on failure.
///
/// # Safety
///
/// `out_error` is NULL or valid for writes of a handle pointer.
pub(crate) unsafe fn guard_with_error(
    out_error: *mut *mut D3d9sError,
    body: impl FnOnce() -> Result<(), Failure>,
) -> D3d9sStatus {
    let mut failure_error = None;
    let status = guard(|| {
        body().map_err(|mut f| {
            failure_error = Some((f.status, f.message.clone(), f.error.take()));
            f
        })
    });
    if !out_error.is_null() {
        let handle = match failure_error {
            Some((status, message, error)) => D3d9sError::new(status, &message, error.as_ref()),
            // A panic has no error handle: the status and the last error say it.
            None if status != D3d9sStatus::Ok => D3d9sError::new(status, &last_error(), None),
            None => std::ptr::null_mut(),
        };
        // SAFETY: non-null, and valid for writes (this function's contract).
        unsafe { out_error.write(handle) };
    }
    status
}

fn last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().to_string_lossy().into_owned())
}

/// The message of the last call that failed on the calling thread (`""` when none has). The
/// string is the library's; it stays valid until the next failing call on this thread.
///
/// Thread safety: any thread; each thread has its own message.
#[no_mangle]
pub extern "C" fn d3d9s_last_error_message() -> *const c_char {
    catch_unwind(|| LAST_ERROR.with(|e| e.borrow().as_ptr())).unwrap_or(c"internal error".as_ptr())
}

/// A CString of `s`, cut at a NUL should one be in it.
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.split('\0').next().unwrap_or_default()).unwrap_or_default()
}

/// One diagnostic of an error (see [`d3d9s_error_diagnostic`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sDiagnostic {
    /// The message (the error handle's; valid until it is freed).
    pub message: *const c_char,
    /// The validator's rule (`"operands"`, …), or NULL when the diagnostic is not the
    /// validator's.
    pub rule: *const c_char,
    /// Index of the token at fault (0 = the version token), or -1 when not known.
    pub token: i64,
    /// Its byte offset in the blob (4 × token), or -1.
    pub byte_offset: i64,
    /// Index of the instruction at fault, or -1.
    pub instruction: i64,
}

struct Diag {
    message: CString,
    rule: Option<CString>,
    token: Option<u64>,
    instruction: Option<u64>,
}

/// An error with its diagnostics, from a call that takes a `D3d9sError **out_error`. Free it
/// with [`d3d9s_error_free`]. Immutable: any thread may read it at once.
pub struct D3d9sError {
    status: D3d9sStatus,
    message: CString,
    diagnostics: Vec<Diag>,
}

impl D3d9sError {
    fn new(status: D3d9sStatus, message: &str, error: Option<&Error>) -> *mut D3d9sError {
        let diagnostics = match error {
            Some(Error::Invalid { errors }) => errors
                .iter()
                .map(|d| Diag {
                    message: c_string(&d.message),
                    rule: Some(c_string(&d.rule.to_string())),
                    token: d.token.map(u64::from),
                    instruction: d.instruction.map(|i| i as u64),
                })
                .collect(),
            Some(e) => {
                let token = match e.location() {
                    Some(Location::Token(t)) => Some(t as u64),
                    _ => None,
                };
                vec![Diag { message: c_string(message), rule: None, token, instruction: None }]
            }
            None => vec![Diag { message: c_string(message), rule: None, token: None, instruction: None }],
        };
        Box::into_raw(Box::new(D3d9sError { status, message: c_string(message), diagnostics }))
    }
}

/// Frees an error handle; NULL is accepted.
///
/// Thread safety: once per handle, after every other use of it.
///
/// # Safety
///
/// `error` is NULL or a handle this library returned, not freed since.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_error_free(error: *mut D3d9sError) {
    let _ = catch_unwind(|| {
        if !error.is_null() {
            // SAFETY: a handle from `Box::into_raw` in `D3d9sError::new`, freed once.
            drop(unsafe { Box::from_raw(error) });
        }
    });
}

/// The error's status (as the failing call returned it); [`D3d9sStatus::NullPointer`] for NULL.
///
/// Thread safety: any thread, concurrently with other readers of the handle.
///
/// # Safety
///
/// `error` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_error_status(error: *const D3d9sError) -> D3d9sStatus {
    // SAFETY: NULL or a live handle (the caller's contract).
    catch_unwind(|| unsafe { error.as_ref() }.map_or(D3d9sStatus::NullPointer, |e| e.status))
        .unwrap_or(D3d9sStatus::Panic)
}

/// The error's message (the first diagnostic, and how many more there are); NULL for NULL.
/// Valid until the handle is freed.
///
/// Thread safety: any thread, concurrently with other readers of the handle.
///
/// # Safety
///
/// `error` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_error_message(error: *const D3d9sError) -> *const c_char {
    // SAFETY: NULL or a live handle (the caller's contract).
    catch_unwind(|| unsafe { error.as_ref() }.map_or(std::ptr::null(), |e| e.message.as_ptr()))
        .unwrap_or(std::ptr::null())
}

/// The number of diagnostics (at least 1 for a live handle; 0 for NULL).
///
/// Thread safety: any thread, concurrently with other readers of the handle.
///
/// # Safety
///
/// `error` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_error_diagnostic_count(error: *const D3d9sError) -> usize {
    // SAFETY: NULL or a live handle (the caller's contract).
    catch_unwind(|| unsafe { error.as_ref() }.map_or(0, |e| e.diagnostics.len())).unwrap_or(0)
}

/// Diagnostic `index` (from 0, below [`d3d9s_error_diagnostic_count`]) into `*out`; its
/// strings are the handle's.
///
/// Thread safety: any thread, concurrently with other readers of the handle.
///
/// # Safety
///
/// `error` is NULL or a live handle; `out` is NULL or points to writable memory for a
/// `D3d9sDiagnostic`.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_error_diagnostic(
    error: *const D3d9sError,
    index: usize,
    out: *mut D3d9sDiagnostic,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (the caller's contract).
        let e = unsafe { error.as_ref() }.ok_or_else(|| Failure::null("error"))?;
        let d = e.diagnostics.get(index).ok_or_else(|| Failure::invalid("diagnostic index out of range"))?;
        let signed = |v: Option<u64>| v.map_or(-1, |v| v as i64);
        let value = D3d9sDiagnostic {
            message: d.message.as_ptr(),
            rule: d.rule.as_ref().map_or(std::ptr::null(), |r| r.as_ptr()),
            token: signed(d.token),
            byte_offset: signed(d.token.map(|t| t * 4)),
            instruction: signed(d.instruction),
        };
        // SAFETY: `out` is NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Writes `value` through an output pointer, or fails with [`D3d9sStatus::NullPointer`].
///
/// # Safety
///
/// `out` is NULL or valid for writes of a `T`.
pub(crate) unsafe fn write<T>(out: *mut T, name: &str, value: T) -> Result<(), Failure> {
    // SAFETY: the caller's contract.
    unsafe { write_with(out, name, || Ok(value)) }
}

/// Checks an output pointer, then computes what goes there and writes it: NULL fails with
/// [`D3d9sStatus::NullPointer`] before `value` runs, so a call whose output cannot be given
/// does no work and changes no state (a run-time's pass, a handle it would allocate). A
/// failure of `value` leaves `*out` as it was.
///
/// # Safety
///
/// `out` is NULL or valid for writes of a `T`.
pub(crate) unsafe fn write_with<T>(
    out: *mut T,
    name: &str,
    value: impl FnOnce() -> Result<T, Failure>,
) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::null(name));
    }
    let value = value()?;
    // SAFETY: non-null, so valid for writes of a `T` (this function's contract); `write`
    // does not drop the old contents, which C may have left uninitialised.
    unsafe { out.write(value) };
    Ok(())
}

/// [`write_with`] for a new handle that is NULL until success: `*out` is set to NULL once the
/// pointer is checked, and to the handle `make` gives when it succeeds (docs/c-api.md: a failed
/// call's output handle is NULL).
///
/// # Safety
///
/// `out` is NULL or valid for writes of a handle pointer.
pub(crate) unsafe fn hand_out<H>(
    out: *mut *mut H,
    name: &str,
    make: impl FnOnce() -> Result<*mut H, Failure>,
) -> Result<(), Failure> {
    // SAFETY: the caller's contract.
    unsafe { write(out, name, std::ptr::null_mut()) }?;
    // SAFETY: checked non-null just above, writable by the caller's contract.
    unsafe { write_with(out, name, make) }
}

/// The referent of an input pointer, or [`D3d9sStatus::NullPointer`].
///
/// # Safety
///
/// `p` is NULL or valid for reads of a `T` for `'a`.
pub(crate) unsafe fn read<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller's contract.
    unsafe { p.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// An input array of `len` elements (a blob, a text): NULL is [`D3d9sStatus::NullPointer`],
/// even when `len` is 0.
///
/// # Safety
///
/// `p` is NULL or valid for reads of `len` elements for `'a`.
pub(crate) unsafe fn slice_arg<'a, T>(p: *const T, len: usize, name: &str) -> Result<&'a [T], Failure> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: non-null and readable for `len` elements for `'a` (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// An array of `len` values that may be NULL when `len` is 0 (an empty array).
///
/// # Safety
///
/// `p` is NULL or valid for reads of `len` elements for `'a`.
pub(crate) unsafe fn values_arg<'a, T>(p: *const T, len: usize, name: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: the caller's contract.
    unsafe { slice_arg(p, len, name) }
}

/// The referent of a pointer to a struct with a leading `uint32_t size`: NULL is
/// [`D3d9sStatus::NullPointer`], a size other than `sizeof(T)` is [`D3d9sStatus::BadStructSize`]
/// (read before the rest, so that a shorter struct is never read past its end).
///
/// # Safety
///
/// `p` is NULL or valid for reads of its `size` bytes (at least 4) for `'a`.
pub(crate) unsafe fn sized<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: NULL or readable for at least the leading u32 (the caller's contract).
    let size = *unsafe { read(p.cast::<u32>(), name) }?;
    if size as usize != size_of::<T>() {
        let message = format!("`{name}`: its size field is {size}, not {} (set it with sizeof)", size_of::<T>());
        return Err(Failure::new(D3d9sStatus::BadStructSize, message));
    }
    // SAFETY: non-null and, its size being `sizeof(T)`, readable for a `T` (the contract).
    Ok(unsafe { &*p })
}

/// Reads a struct with a leading `u32` size that may also be one of the `earlier` sizes (a
/// caller built against an older header; docs/c-api.md, "Rules"): the fields past that size,
/// which the caller's struct does not have, are `default`'s. The size field keeps the caller's.
///
/// # Safety
///
/// `p` is NULL or valid for reads of its `size` bytes (at least 4).
pub(crate) unsafe fn sized_or_earlier<T: Copy>(
    p: *const T,
    name: &str,
    earlier: &[usize],
    default: impl FnOnce() -> T,
) -> Result<T, Failure> {
    // SAFETY: NULL or readable for at least the leading u32 (the caller's contract).
    let size = *unsafe { read(p.cast::<u32>(), name) }? as usize;
    if !earlier.contains(&size) || size >= size_of::<T>() {
        // SAFETY: the caller's contract.
        return unsafe { sized(p, name) }.copied();
    }
    let mut value = default();
    // SAFETY: `p` is readable for `size` bytes (the contract), less than a `T`, and `value` is a
    // `T` of plain fields: the earlier layout is this one's first `size` bytes.
    unsafe { std::ptr::copy_nonoverlapping(p.cast::<u8>(), (&raw mut value).cast::<u8>(), size) };
    Ok(value)
}

/// Writes the first `size` bytes of `value` (a struct with a leading `u32` size, written as
/// `size`): an earlier layout for a caller that passed one in.
///
/// # Safety
///
/// `out` is NULL or writable for `size` bytes, and `size` is at most `sizeof(T)` and at least 4.
pub(crate) unsafe fn write_sized<T>(out: *mut T, name: &str, mut value: T, size: usize) -> Result<(), Failure> {
    if size >= size_of::<T>() {
        // SAFETY: the caller's contract.
        return unsafe { write(out, name, value) };
    }
    if out.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: `T` leads with its `u32` size (the contract).
    unsafe { (&raw mut value).cast::<u32>().write(size as u32) };
    // SAFETY: `out` is writable for `size` bytes and `value` readable for more (the contract).
    unsafe { std::ptr::copy_nonoverlapping((&raw const value).cast::<u8>(), out.cast::<u8>(), size) };
    std::mem::forget(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: the thread's message, valid until its next failing call.
        unsafe { CStr::from_ptr(d3d9s_last_error_message()) }.to_string_lossy().into_owned()
    }

    #[test]
    fn a_panic_is_a_status_and_the_threads_message() {
        let status = guard(|| panic!("a bug"));
        assert_eq!(status, D3d9sStatus::Panic);
        assert_eq!(last(), "internal error (panic): a bug");
        // The library stays usable, and the message stays until the next failure.
        assert_eq!(guard(|| Ok(())), D3d9sStatus::Ok);
        assert_eq!(last(), "internal error (panic): a bug");
    }

    #[test]
    fn a_panic_gives_an_error_handle_too() {
        let mut handle: *mut D3d9sError = std::ptr::null_mut();
        // SAFETY: `handle` is a writable slot.
        let status = unsafe { guard_with_error(&mut handle, || panic!("{}", 7)) };
        assert_eq!(status, D3d9sStatus::Panic);
        // SAFETY: the handle the call made, freed once below.
        unsafe {
            assert_eq!(d3d9s_error_status(handle), D3d9sStatus::Panic);
            assert_eq!(CStr::from_ptr(d3d9s_error_message(handle)).to_str(), Ok("internal error (panic): 7"));
            d3d9s_error_free(handle);
        }
    }

    #[test]
    fn messages_with_a_nul_stop_before_it() {
        assert_eq!(guard(|| Err(Failure::invalid("before\0after"))), D3d9sStatus::InvalidArgument);
        assert_eq!(last(), "before");
    }
}
