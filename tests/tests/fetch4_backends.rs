//! Fetch4 translations (docs/d3d9-rules.md#fetch4) on the backends other than WGSL (Tint checks
//! the WGSL in `tint_shaders.rs`): every pixel shader of `shaders/asm`, translated with every
//! sampler in Fetch4 mode, gives SPIR-V that `spirv-val --target-env vulkan1.0` accepts and GLSL
//! that `glslangValidator` compiles. Skips a missing tool loudly; fails under REQUIRE_TOOLS=1.

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::{files_with_extension, tool_for_test};

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| e.to_string())?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn fetch4_pixel_shaders_pass_spirv_val_and_glslang() {
    let (spirv_val, glslang) = (
        tool_for_test("fetch4_backends", "spirv-val", "spirv-tools"),
        tool_for_test("fetch4_backends", "glslangValidator", "glslang-tools"),
    );
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("shaders/asm");
    let tmp: PathBuf = std::env::temp_dir().join(format!("d3d9-fetch4-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let key = ShaderKey { fetch4_samplers: 0xffff, ..ShaderKey::default() };
    let (mut checked, mut failures) = (0, Vec::new());
    for p in files_with_extension(&own, "asm") {
        let program = d3d9_shader::asm::assemble(&std::fs::read_to_string(&p).unwrap()).unwrap();
        if !program.version.is_pixel() {
            continue;
        }
        let t = translate(&program, &key).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let (spv, frag) = (tmp.join(format!("{checked}.spv")), tmp.join(format!("{checked}.frag")));
        std::fs::write(&spv, spirv_bytes(&t.to_spirv().unwrap())).unwrap();
        std::fs::write(&frag, t.to_glsl().unwrap()).unwrap();
        let mut results = Vec::new();
        if let Some(v) = spirv_val {
            results.push(run(Command::new(v).args(["--target-env", "vulkan1.0"]).arg(&spv)));
        }
        if let Some(g) = glslang {
            results.push(run(Command::new(g).arg(&frag)));
        }
        failures.extend(results.into_iter().filter_map(Result::err).map(|e| format!("{}: {e}", p.display())));
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("fetch4 backends: {checked} pixel shaders, {} failures", failures.len());
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn spirv_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
