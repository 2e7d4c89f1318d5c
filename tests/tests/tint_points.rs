//! Point expansion ([`d3d9_shader::key::PointExpansion`]) gives modules every checker accepts:
//! translated vertex shaders (vs_2_0 with and without oPts, vs_3_0 with a PSIZE output) under both
//! corner layouts, with and without sprites, under the default and the stable interface, and the
//! fixed-function vertex half with PSIZE, point scale and sprites. WGSL goes through Tint, SPIR-V
//! through `spirv-val --target-env vulkan1.0`, GLSL through `glslangValidator`. A missing tool
//! skips its check, and fails under REQUIRE_TOOLS=1.

use std::path::Path;

use d3d9_shader::asm::assemble;
use d3d9_shader::ffp::key_vertex::VertexInputs;
use d3d9_shader::ffp::points::PointKey;
use d3d9_shader::ffp::{generate_vertex, VertexKey};
use d3d9_shader::key::linkage::Linkage;
use d3d9_shader::key::PointExpansion;
use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::tint::Tint;
use d3d9_tests::{run_tool, tool_for_test};

fn spirv_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn keys() -> Vec<(String, ShaderKey)> {
    let mut out = Vec::new();
    for expansion in [PointExpansion::List, PointExpansion::Strip] {
        for sprite in [false, true] {
            for stable in [false, true] {
                let key = ShaderKey {
                    point_expansion: expansion,
                    point_sprite: sprite,
                    linkage: stable.then(Linkage::stable),
                    ..ShaderKey::default()
                };
                out.push((format!("{expansion:?} sprite={sprite} stable={stable}"), key));
            }
        }
    }
    out
}

#[test]
fn expanded_points_pass_tint_spirv_val_and_glslang() {
    let Some(mut tint) = Tint::for_test("expanded_points_pass_tint_spirv_val_and_glslang") else { return };
    let (val, glslang) = (
        tool_for_test("tint_points", "spirv-val", "spirv-tools"),
        tool_for_test("tint_points", "glslangValidator", "glslang-tools"),
    );
    let tmp = std::env::temp_dir().join(format!("d3d9-points-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm");
    let mut failures = Vec::new();
    let mut check = |what: String, wgsl: String, spirv: Vec<u32>, glsl: Option<String>| {
        for m in tint.check_module(&wgsl).expect("the Tint checker").iter().filter(|m| m.is_error()) {
            failures.push(format!("{what}: tint: {}", m.render(&wgsl)));
        }
        if let Some(val) = val {
            let args = ["--target-env", "vulkan1.0"];
            failures
                .extend(run_tool(val, &args, &tmp.join("p.spv"), &spirv_bytes(&spirv)).map(|e| format!("{what}: {e}")));
        }
        if let (Some(g), Some(glsl)) = (glslang, glsl) {
            failures.extend(run_tool(g, &[], &tmp.join("p.vert"), glsl.as_bytes()).map(|e| format!("{what}: {e}")));
        }
    };
    for shader in ["vs_2_0/case_point_sprite.asm", "vs_2_0/case_point_default.asm", "vs_3_0/case_point_psize.asm"] {
        let program = assemble(&std::fs::read_to_string(dir.join(shader)).unwrap()).unwrap();
        for (name, key) in keys() {
            let t = translate(&program, &key).unwrap_or_else(|e| panic!("{shader} {name}: {e}"));
            assert!(t.to_wgsl().unwrap().contains("@builtin(vertex_index)"), "{shader} {name}");
            check(format!("{shader} {name}"), t.to_wgsl().unwrap(), t.to_spirv().unwrap(), Some(t.to_glsl().unwrap()));
        }
    }
    let inputs = VertexInputs { point_size: true, texcoord_sizes: [2, 0, 0, 0, 0, 0, 0, 0], ..VertexInputs::default() };
    for pretransformed in [false, true] {
        for expansion in [PointExpansion::List, PointExpansion::Strip] {
            let points = Some(PointKey { expansion, scale: true, sprite: true });
            let key = VertexKey { inputs: VertexInputs { pretransformed, ..inputs }, points, ..VertexKey::default() };
            let v = generate_vertex(&key).unwrap_or_else(|e| panic!("ffp {expansion:?}: {e}"));
            let what = format!("ffp {expansion:?} pretransformed={pretransformed}");
            check(what, v.to_wgsl().unwrap(), v.to_spirv().unwrap(), None);
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
