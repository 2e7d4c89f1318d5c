//! `cargo xtask test`: make sure the machine can run every test, then run them: the workspace's
//! tests, then `cargo xtask conformance`, `cargo xtask sweep` and `cargo xtask fuzz-diff --ffp`
//! (GPU against CPU draws) and `cargo xtask effects` (the effect run-time against Windows results),
//! then `cargo xtask web --test` (the playground in Chromium), then a small `cargo xtask gpu-check
//! --quick` whose report is checked.
//!
//! The GPU tests draw on Mesa's software Vulkan driver when no hardware GPU is present, the
//! translator's tests hand every SPIR-V module to `spirv-val` and every GLSL shader to
//! `glslangValidator`, the Tint tests run Chromium's WGSL compiler under Node.js, and the
//! playground's test runs in Chromium, its module shrunk by binaryen's `wasm-opt`, and the C
//! API's tests build C programs with `cc` under AddressSanitizer, `pkg-config` and `cmake`. All come
//! from Debian packages; as root on Debian this command installs what is missing (after
//! `apt-get update`), otherwise it stops and prints the exact command to run. It then installs
//! the Tint check's npm package (`npm ci` in `tests/tint`) when it is missing or stale, and fails
//! when it cannot.

use std::path::Path;
use std::process::Command;

/// A system prerequisite: how to tell it is there, and the Debian package that brings it.
struct Prerequisite {
    what: &'static str,
    package: &'static str,
    present: fn() -> bool,
}

fn any_exists(paths: &[&str]) -> bool {
    paths.iter().any(|p| Path::new(p).exists())
}

fn vulkan_loader() -> bool {
    any_exists(&[
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
        "/usr/lib64/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
    ])
}

fn vulkan_driver() -> bool {
    ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"]
        .iter()
        .any(|dir| std::fs::read_dir(dir).map(|mut entries| entries.any(|e| e.is_ok())).unwrap_or(false))
}

/// Whether `tool --version` runs and succeeds: the tool is installed.
fn answers_version(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn node() -> bool {
    ["node", "npm"].into_iter().all(answers_version)
}

const PREREQUISITES: &[Prerequisite] = &[
    Prerequisite { what: "the Vulkan loader (libvulkan.so.1)", package: "libvulkan1", present: vulkan_loader },
    Prerequisite {
        what: "a Vulkan driver (Mesa's software rasterizer when there is no GPU)",
        package: "mesa-vulkan-drivers",
        present: vulkan_driver,
    },
    Prerequisite {
        what: "spirv-val (SPIR-V validator)",
        package: "spirv-tools",
        present: || answers_version("spirv-val"),
    },
    Prerequisite {
        what: "glslangValidator (GLSL compiler)",
        package: "glslang-tools",
        present: || answers_version("glslangValidator"),
    },
    Prerequisite {
        what: "Node.js and npm (to run Tint, the WGSL compiler of Chromium)",
        package: "nodejs npm",
        present: node,
    },
    Prerequisite { what: "Chromium (the playground's browser test)", package: "chromium", present: chromium },
    Prerequisite {
        what: "wasm-opt (shrinks the playground's module)",
        package: "binaryen",
        present: || answers_version("wasm-opt"),
    },
    Prerequisite {
        what: "a C compiler with AddressSanitizer (the C API's tests)",
        package: "gcc",
        present: || answers_version("cc"),
    },
    Prerequisite {
        what: "pkg-config (the C API's install test)",
        package: "pkg-config",
        present: || answers_version("pkg-config"),
    },
    Prerequisite {
        what: "CMake (the C API's package-config test)",
        package: "cmake",
        present: || answers_version("cmake"),
    },
];

fn chromium() -> bool {
    Path::new("/usr/bin/chromium").exists()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn has_apt() -> bool {
    Path::new("/usr/bin/apt-get").exists()
}

fn run(cmd: &mut Command) -> bool {
    eprintln!("xtask: running {cmd:?}");
    cmd.status().is_ok_and(|s| s.success())
}

/// Installs missing prerequisites where possible; returns false when the tests cannot run.
fn ensure_prerequisites() -> bool {
    let missing: Vec<&Prerequisite> = PREREQUISITES.iter().filter(|p| !(p.present)()).collect();
    if missing.is_empty() {
        return true;
    }
    let packages: Vec<&str> = missing.iter().flat_map(|p| p.package.split(' ')).collect();
    for p in &missing {
        eprintln!("xtask: missing {} (Debian package {})", p.what, p.package);
    }
    if is_root() && has_apt() {
        eprintln!("xtask: installing {}", packages.join(" "));
        let updated = run(Command::new("apt-get").arg("update"));
        let installed = updated
            && run(Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends"])
                .args(&packages)
                .env("DEBIAN_FRONTEND", "noninteractive"));
        if installed && missing.iter().all(|p| (p.present)()) {
            return true;
        }
        eprintln!("xtask: installing {} failed", packages.join(" "));
    }
    eprintln!(
        "xtask: cannot run the tests without them; install them with:\n    sudo apt-get update && sudo apt-get install -y {}",
        packages.join(" ")
    );
    false
}

/// Whether `tests/tint/node_modules` holds what `tests/tint/package-lock.json` pins: npm writes
/// its own copy of the lock file there (`node_modules/.package-lock.json`) when it installs.
fn tint_package_current(dir: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&dir.join("node_modules/.package-lock.json"));
    let wanted = modified(&dir.join("package-lock.json"));
    let webgpu = dir.join("node_modules/webgpu/package.json");
    matches!((installed, wanted), (Some(i), Some(w)) if i >= w) && webgpu.exists()
}

/// Installs the npm package of the Tint check (`tests/tint`: Dawn's node binding, which runs
/// Chromium's WGSL compiler; `tests/tint.rs`) when it is missing or older than its lock file.
fn ensure_tint_package(root: &Path) -> bool {
    let dir = root.join("tests/tint");
    if tint_package_current(&dir) {
        return true;
    }
    eprintln!("xtask: installing the Tint check's npm package (tests/tint)");
    if run(Command::new("npm").current_dir(&dir).args(["ci", "--no-audit", "--no-fund"])) && tint_package_current(&dir)
    {
        return true;
    }
    eprintln!("xtask: `npm ci` in tests/tint failed; the Tint tests need it. Install it with:\n    npm ci --prefix tests/tint");
    false
}

/// `cargo xtask test`.
#[derive(clap::Args)]
#[command(
    long_about = "Checks the system prerequisites (installing them as root on Debian) and the Tint check's \
                  npm package (npm ci in tests/tint), checks formatting \
                  and clippy (-D warnings), runs every test of the workspace, then `conformance` and \
                  `sweep` (all in release), `effects`, the playground's browser test (`web --test`), and a \
                  sparse `gpu-check --quick` whose report it checks.",
    after_help = crate::examples!(
        "cargo xtask test"
        "cargo xtask test -- --test cli     # arguments after -- go to cargo test"
    )
)]
pub struct TestArgs {
    /// Passed to `cargo test --workspace --release`.
    #[arg(last = true, value_name = "CARGO TEST ARGS")]
    cargo_test_args: Vec<String>,
}

pub fn main(args: &TestArgs) -> i32 {
    if !ensure_prerequisites() {
        return 1;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace");
    if !ensure_tint_package(root) {
        return 1;
    }
    let extra = &args.cargo_test_args;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // The house rules first: formatting (rustfmt.toml) and clippy with every warning an error.
    let lints: [&[&str]; 2] =
        [&["fmt", "--all", "--", "--check"], &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]];
    for args in lints {
        if !run(Command::new(&cargo).current_dir(root).args(args)) {
            eprintln!("xtask: `cargo {}` failed", args.join(" "));
            return 1;
        }
    }
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(root).args(["test", "--workspace", "--release"]).args(extra);
    if !run(&mut cmd) {
        return 1;
    }
    // The layer example (translator/examples/layer.rs): two draws on the GPU, one translation per
    // stage, its two PNGs in target/layer-example. `cargo test` built it (the tests crate turns
    // on the library's `wgpu` feature, which the example requires); it runs in a second.
    // Under REQUIRE_GPU=1 a missing adapter fails it.
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(root).args([
        "run",
        "--quiet",
        "--release",
        "-p",
        "d3d9-shader",
        "--features",
        "wgpu",
        "--example",
        "layer",
        "--",
    ]);
    if !run(cmd.arg(root.join("target/layer-example"))) {
        eprintln!("xtask: the layer example failed");
        return 1;
    }
    // Then the draws: every conformance case and every corpus shader, GPU against CPU, in release
    // (the harness and the interpreter are workspace crates, slow unoptimised). Both inherit
    // REQUIRE_GPU: with it set, a missing adapter fails them instead of skipping the GPU side.
    // The sweep runs every shader under each float rule mode with four input sets (two plain,
    // two with edge values): about a minute per mode on two cores with Mesa's software driver.
    // Then 300 random fixed-function states, the library's generator against the harness's
    // reference (under a minute), and the effect run-time against the Windows results of
    // ../shared/effects and against the project's own hand-derived records in shaders/effects
    // (seconds each). Last the playground in Chromium (`web --test`: builds the wasm
    // module, installing the wasm32 target, wasm-bindgen-cli at Cargo.lock's version and
    // web/tests' npm packages when missing).
    let draws: [&[&str]; 8] = [
        &["conformance"],
        &["sweep", "--inputs", "4"],
        &["sweep", "--float-rules", "fast", "--inputs", "4"],
        &["sweep", "--float-rules", "ieee", "--inputs", "4"],
        &["fuzz-diff", "--ffp", "--count", "300"],
        &["effects"],
        &["effects", "--dir", "shaders/effects"],
        &["web", "--test"],
    ];
    let mut ok = true;
    for command in draws {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(root).args(["run", "--quiet", "--release", "--package", "xtask", "--"]).args(command);
        ok &= run(&mut cmd);
    }
    ok &= gpu_check(root, &cargo);
    if ok {
        0
    } else {
        1
    }
}

/// `gpu-check --quick` with a sparse sample (every 32nd case and shader): the conformance and
/// sweeps above already draw everything, so this adds what they do not (the program fuzz-diff
/// batch, `bench --gpu`'s draws, the adapter's choice and the report) in about two minutes on
/// two cores with lavapipe; then its report.json must name the adapter and hold every part's counts.
/// The fuzz-diff batch starts at a fixed seed, so that a test run's verdict does not depend on the
/// clock; new seeds are `cargo xtask fuzz-diff --minutes M`'s work. This one is the batch in which
/// a CI run found vs_1_x `logp` reading its exponent from a rounded log2 (seed 1796678336).
fn gpu_check(root: &Path, cargo: &str) -> bool {
    let out = root.join("target/gpu-check-ci");
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["run", "--quiet", "--release", "--package", "xtask", "--", "gpu-check", "--quick", "--sample", "32"])
        .args(["--seed", "1796678334"])
        .arg("--out")
        .arg(&out);
    if !run(&mut cmd) {
        return false;
    }
    match crate::gpu_check_report::check(&out.join("report.json"), crate::gpu_check::PARTS) {
        Ok(report) => {
            eprintln!("xtask: gpu-check report: {} parts on {}", report.parts.len(), report.adapter.name);
            true
        }
        Err(e) => {
            eprintln!("xtask: gpu-check report: {e}");
            false
        }
    }
}
