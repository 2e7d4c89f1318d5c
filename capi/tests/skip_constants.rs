//! `d3d9s_effect_runtime_new_skipping` (D3DXCreateEffectEx's skip list) on Wine's
//! `test_effect_clone` blob from the shared data: a list Windows refuses gives
//! EFFECT_REFUSED with the reason, an accepted one leaves the constant's register unwritten
//! (docs/effects.md#skip-constants). Skips, loudly, when the shared data is absent.

use std::ffi::{CStr, CString};
use std::path::PathBuf;
use std::ptr::null_mut;

use d3d9_shader_capi::*;

fn clone_blob() -> Option<Vec<u8>> {
    let shared = std::env::var_os("D3D9_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let Ok(text) = std::fs::read_to_string(shared.join("effects/wine_clone.fx.hex")) else {
        assert!(std::env::var_os("REQUIRE_SHARED").is_none_or(|v| v != "1"), "REQUIRE_SHARED=1 but no shared data");
        eprintln!("*** skip_constants: ../shared is absent; nothing checked ***");
        return None;
    };
    Some(text.split_whitespace().flat_map(|w| u32::from_str_radix(w, 16).expect("hex word").to_le_bytes()).collect())
}

/// Technique 1 (`skipped` at c4) through a run-time made with `list`: the float registers its
/// one pass uploads, counted.
fn registers(effect: *const D3d9sEffect, list: &str) -> Result<usize, String> {
    let list = CString::new(list).expect("no NUL");
    let mut rt = null_mut();
    // SAFETY: a live effect, a NUL-terminated list, a writable out pointer.
    let status = unsafe { d3d9s_effect_runtime_new_skipping(effect, list.as_ptr(), &mut rt) };
    if status != D3d9sStatus::Ok {
        // SAFETY: the message lives until the thread's next call.
        let message = unsafe { CStr::from_ptr(d3d9s_last_error_message()) };
        return Err(format!("{status:?}: {}", message.to_string_lossy()));
    }
    let mut passes = 0;
    let mut pass = null_mut();
    let mut info = std::mem::MaybeUninit::<D3d9sPassStateInfo>::zeroed();
    // SAFETY: live handles and writable out pointers throughout.
    unsafe {
        assert_eq!(d3d9s_effect_runtime_set_technique(rt, 1), D3d9sStatus::Ok);
        assert_eq!(d3d9s_effect_runtime_begin(rt, &mut passes), D3d9sStatus::Ok);
        assert_eq!(d3d9s_effect_runtime_begin_pass(rt, 0, &mut pass), D3d9sStatus::Ok);
        assert_eq!(d3d9s_pass_state_info(pass, info.as_mut_ptr()), D3d9sStatus::Ok);
        let info = info.assume_init();
        let count = info.vertex_float_count;
        d3d9s_pass_state_free(pass);
        d3d9s_effect_runtime_free(rt);
        Ok(count)
    }
}

#[test]
fn a_refused_list_names_its_reason_and_an_accepted_one_drops_the_register() {
    let Some(blob) = clone_blob() else { return };
    let mut effect = null_mut();
    // SAFETY: the blob is readable; the out pointer writable.
    assert_eq!(unsafe { d3d9s_effect_parse(blob.as_ptr(), blob.len(), &mut effect, null_mut()) }, D3d9sStatus::Ok);
    let refused = registers(effect, "skipped;vs").expect_err("vs is read by tech0's VertexShader state");
    assert!(refused.contains("EffectRefused") && refused.contains("vs is used by technique"), "{refused}");
    assert_eq!(registers(effect, ""), Ok(1), "without a list c4 is uploaded");
    assert_eq!(registers(effect, "skipped"), Ok(0), "skipped: nothing uploaded");
    // SAFETY: live, freed once.
    unsafe { d3d9s_effect_free(effect) };
}
