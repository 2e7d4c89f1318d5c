//! `d3d9-shader translate --deliver`: one WGSL module for every value of the delivered modes
//! (issue 14's test: alpha function and fog mode under override and uniform delivery).

use std::process::Command;

fn translate(input: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
        .arg("translate")
        .arg(input)
        .args(["--to", "wgsl"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn override_and_uniform_delivery_make_one_module_for_every_alpha_function_and_fog_mode() {
    let ps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm/ps_2_0/case_texld.asm");
    let a = ["--key", "alpha_func=less", "--key", "fog=linear"];
    let b = ["--key", "alpha_func=greater", "--key", "fog=exp"];
    for mode in ["override", "uniform"] {
        let deliver = format!("all={mode}");
        let wa = translate(&ps, &[&a[..], &["--deliver", &deliver]].concat());
        let wb = translate(&ps, &[&b[..], &["--deliver", &deliver]].concat());
        assert_eq!(wa, wb, "{mode}");
        assert_eq!(wa.contains("override alpha_func: u32"), mode == "override", "{wa}");
        assert_eq!(wa.contains("override fog_mode: u32"), mode == "override", "{wa}");
    }
    // Baked (the default, and `--deliver all=baked`), the two states differ.
    assert_ne!(translate(&ps, &a), translate(&ps, &b));
    assert_eq!(translate(&ps, &a), translate(&ps, &[&a[..], &["--deliver", "all=baked"]].concat()));
    // One field only: the fog is an override, the alpha function stays baked.
    let w = translate(&ps, &[&a[..], &["--deliver", "fog=override"]].concat());
    assert!(w.contains("override fog_mode: u32") && !w.contains("override alpha_func"), "{w}");
}

#[test]
fn a_bad_delivery_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_d3d9-shader"))
        .args(["translate", "-", "--deliver", "shadow_samplers=override"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("always baked"));
}

#[test]
fn emit_json_writes_the_artifact() {
    let ps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm/ps_2_0/case_texld.asm");
    let json = translate(&ps, &["--emit-json", "--deliver", "all=override"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stage"], "pixel");
    assert_eq!(v["hash"].as_str().unwrap().len(), 32);
    assert!(v["wgsl"].as_str().unwrap().contains("override alpha_func"));
    assert!(v["spirv"].is_null());
    // s0's texture at binding 16 of group 1 (the pixel group), in the layout.
    assert_eq!(v["layout"]["group"], 1);
    assert_eq!(v["layout"]["textures"][0]["texture_binding"], 16);
    assert_eq!(v["interface"]["inputs"][0]["usage"], "texcoord");
    // Baked, the SPIR-V is there.
    let json = translate(&ps, &["--emit-json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["spirv"][0], 0x0723_0203);
}

#[test]
fn the_constants_are_read_from_their_buffers_unless_delivered_otherwise() {
    // b1 and i2 from the application (no defb/defi).
    let dir = std::env::temp_dir().join(format!("cli_deliver_constants_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vs = dir.join("flow.asm");
    std::fs::write(
        &vs,
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndef c0, 0.5, 0, 0, 1\nmov r0, v0\nrep i2\nadd r0, r0, c0.x\n\
         endrep\nif b1\nmov r0, -r0\nendif\nmov o0, r0\n",
    )
    .unwrap();
    let values = ["--key", "int2=3,0,1", "--key", "bool_constants=2"];
    // Uniform by default: the buffers, whatever the key's values.
    let plain = translate(&vs, &values);
    assert!(plain.contains("var<uniform> i: array<vec4<i32>, 16>") && plain.contains("var<uniform> b:"), "{plain}");
    assert_eq!(plain, translate(&vs, &[]));
    assert_eq!(
        plain,
        translate(
            &vs,
            &[
                &values[..],
                &[
                    "--deliver",
                    "all=baked",
                    "--deliver",
                    "bool_constants=uniform",
                    "--deliver",
                    "int_constants=uniform"
                ]
            ]
            .concat()
        )
    );
    // Baked: the rep count and the if condition are literals.
    let baked = translate(&vs, &[&values[..], &["--deliver", "all=baked"]].concat());
    assert!(
        baked.contains("min(3i, 255i)") && baked.contains("if true {") && !baked.contains("var<uniform> i"),
        "{baked}"
    );
    // Override: named i32 and u32 overrides.
    let over = translate(
        &vs,
        &[&values[..], &["--deliver", "int_constants=override", "--deliver", "bool_constants=override"]].concat(),
    );
    assert!(
        over.contains("override int_constant2_count: i32") && over.contains("override bool_constants: u32"),
        "{over}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
