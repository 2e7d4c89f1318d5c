//! `cargo xtask web`: the library for the browser and its playground page, built into a static
//! folder (`index.html` at its root; no server-side code), then optionally served, tested in
//! Chromium, or timed there against the native library.
//!
//! The build: `web/` (the wasm-bindgen API) for `wasm32-unknown-unknown` in the `wasm` profile
//! (Cargo.toml), `wasm-opt -O3` when binaryen is installed, `wasm-bindgen --target web` into
//! `pkg/` (the module, its JavaScript glue and the TypeScript declarations; with `web/npm/`'s
//! files, an npm package), then the page's files (`web/www/`) and a few of the project's
//! shaders as built-in examples (`examples.js`).

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

/// The project's shaders the page offers as examples: a first pixel shader, then the others.
const EXAMPLES: &[&str] = &[
    "shaders/asm/ps_2_0/texture.asm",
    "shaders/asm/ps_2_0/arith.asm",
    "shaders/asm/ps_3_0/flow.asm",
    "shaders/asm/ps_3_0/case_vpos.asm",
    "shaders/asm/ps_1_4/phase.asm",
    "shaders/asm/vs_3_0/case_passthrough.asm",
];

/// `cargo xtask web`.
#[derive(Args)]
#[command(
    long_about = "Builds the library for wasm32-unknown-unknown with its JavaScript API (web/) and the \
                  playground page into a static folder. --serve serves it on localhost; --test runs the \
                  browser test (Chromium through Playwright; web/tests); --bench times translation of the \
                  bench corpus in Chromium and natively.",
    after_help = crate::examples!(
        "cargo xtask web --serve            # then open http://127.0.0.1:8000/"
        "cargo xtask web --out site && python3 -m http.server -d site"
        "cargo xtask web --test"
        "cargo xtask web --bench --list ../shared/bench-corpus/common.list"
    )
)]
pub struct WebArgs {
    /// The folder to build into [default: target/web].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Serve the folder on 127.0.0.1 after building.
    #[arg(long)]
    serve: bool,
    /// The port for --serve.
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Run the browser test (installs web/tests' npm packages; needs /usr/bin/chromium).
    #[arg(long)]
    test: bool,
    /// Time the bench corpus in Chromium and natively, round-robin.
    #[arg(long)]
    bench: bool,
    /// --bench: the corpus [default: ../shared/bench-corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// --bench: only the shaders named in this file.
    #[arg(long, value_name = "FILE")]
    list: Option<PathBuf>,
}

pub fn main(args: &WebArgs) -> i32 {
    let root = repo_root();
    let out = args.out.clone().unwrap_or_else(|| root.join("target/web"));
    // Before the build: the packages include binaryen, which the build uses.
    if args.test || args.bench {
        if let Err(e) = crate::web_browser::ensure_packages(&root) {
            eprintln!("xtask web: {e}");
            return 1;
        }
    }
    if let Err(e) = build(&root, &out) {
        eprintln!("xtask web: {e}");
        return 1;
    }
    if args.test && !crate::web_browser::test(&root, &out) {
        return 1;
    }
    if args.bench {
        if let Err(e) = crate::web_bench::run(&root, &out, args.corpus.as_deref(), args.list.as_deref()) {
            eprintln!("xtask web: {e}");
            return 1;
        }
    }
    if args.serve {
        return crate::static_server::serve(&out, args.port);
    }
    0
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// Builds the site into `out`.
pub fn build(root: &Path, out: &Path) -> Result<(), String> {
    let version = wasm_bindgen_version(root)?;
    ensure_wasm_target()?;
    ensure_wasm_bindgen(&version)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(&cargo)
        .current_dir(root)
        .args(["build", "--package", "d3d9-shader-web", "--target", "wasm32-unknown-unknown", "--profile", "wasm"])
        .status();
    if !built.is_ok_and(|s| s.success()) {
        return Err("building web/ for wasm32-unknown-unknown failed".into());
    }
    let wasm = optimise(&root.join("target/wasm32-unknown-unknown/wasm/d3d9_shader_web.wasm"))?;
    let pkg = out.join("pkg");
    std::fs::create_dir_all(&pkg).map_err(|e| format!("{}: {e}", pkg.display()))?;
    let bound = Command::new("wasm-bindgen").arg("--target").arg("web").arg("--out-dir").arg(&pkg).arg(&wasm).status();
    if !bound.is_ok_and(|s| s.success()) {
        return Err("wasm-bindgen failed".into());
    }
    let module = pkg.join("d3d9_shader_web_bg.wasm");
    write_npm_package(root, &pkg)?;
    copy_page(root, out)?;
    write_examples(root, out)?;
    let size = std::fs::metadata(&module).map(|m| m.len()).unwrap_or(0);
    println!("web: built {} (WebAssembly module {} bytes, {:.2} MiB)", out.display(), size, size as f64 / 1048576.0);
    Ok(())
}

/// The `wasm-bindgen` version of the lock file: the CLI must be the same version.
fn wasm_bindgen_version(root: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen package".into())
}

fn ensure_wasm_target() -> Result<(), String> {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(o) if String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == "wasm32-unknown-unknown") => Ok(()),
        Ok(_) => {
            eprintln!("xtask web: installing the wasm32-unknown-unknown target");
            let added = Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]).status();
            added.is_ok_and(|s| s.success()).then_some(()).ok_or_else(|| {
                "`rustup target add wasm32-unknown-unknown` failed; the web build needs that target".to_string()
            })
        }
        // Without rustup the toolchain may still have the target; the build will say.
        Err(_) => Ok(()),
    }
}

/// Installs `wasm-bindgen-cli` at the crate's version when it is missing or another version.
fn ensure_wasm_bindgen(version: &str) -> Result<(), String> {
    let current = Command::new("wasm-bindgen").arg("--version").output();
    let found = current.ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    if found == format!("wasm-bindgen {version}") {
        return Ok(());
    }
    eprintln!(
        "xtask web: installing wasm-bindgen-cli {version} (found: {})",
        if found.is_empty() { "none" } else { &found }
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // --locked first: the CLI's own lock file, so that a new release of one of its dependencies
    // cannot break a clean machine's install. A registry that lacks one of the locked versions
    // refuses that at once (a mirror may); then the newest versions the CLI's manifest allows.
    let pinned = format!("={version}");
    let install = |locked: bool| {
        let mut cmd = Command::new(&cargo);
        cmd.args(["install", "wasm-bindgen-cli", "--version", &pinned]);
        if locked {
            cmd.arg("--locked");
        }
        cmd.status().is_ok_and(|s| s.success())
    };
    let installed = install(true) || {
        eprintln!("xtask web: `cargo install --locked` failed; again with the registry's newest compatible versions");
        install(false)
    };
    let now = Command::new("wasm-bindgen").arg("--version").output();
    if installed && now.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == format!("wasm-bindgen {version}")) {
        return Ok(());
    }
    Err(format!(
        "installing wasm-bindgen-cli failed (or another version is first on PATH); install it with: \
         cargo install wasm-bindgen-cli --version ={version} --locked"
    ))
}

/// `wasm-opt -O3` over rustc's module, before wasm-bindgen: returns the module to bind, in
/// `opt/` under the same file name (wasm-bindgen names its output after it). Before, because
/// wasm-bindgen's output has a second table (its `externref` one) and binaryen 108 (Debian 12's)
/// misreads the export of a table other than the first: the optimised module exports the
/// function table in its place and fails to instantiate. rustc's module has one table.
/// Without binaryen the module works, only larger; `REQUIRE_TOOLS=1` makes that a failure.
fn optimise(module: &Path) -> Result<PathBuf, String> {
    let dir = module.with_file_name("opt");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let optimised = dir.join(module.file_name().unwrap_or_default());
    // The features rustc's wasm32 target enables by default.
    let features = [
        "--enable-bulk-memory",
        "--enable-mutable-globals",
        "--enable-nontrapping-float-to-int",
        "--enable-sign-ext",
        "--enable-reference-types",
        "--enable-multivalue",
    ];
    let status = Command::new("wasm-opt").arg("-O3").args(features).arg(module).arg("-o").arg(&optimised).status();
    let problem = match status {
        Ok(s) if s.success() => return Ok(optimised),
        Ok(_) => "wasm-opt failed",
        Err(_) => "wasm-opt (Debian: binaryen) not found",
    };
    if std::env::var_os("REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        return Err(format!("{problem} (REQUIRE_TOOLS=1)"));
    }
    eprintln!("xtask web: {problem}; the module is not size-optimised");
    Ok(module.to_path_buf())
}

/// Makes `pkg/` an npm package (`npm pack` packs it): `web/npm/`'s package.json (its version
/// the workspace's), README and Node.js entry point beside wasm-bindgen's files, and the
/// workspace's licence files (package.json's `files` lists them).
fn write_npm_package(root: &Path, pkg: &Path) -> Result<(), String> {
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root.join(licence), pkg.join(licence)).map_err(|e| format!("{licence}: {e}"))?;
    }
    let npm = root.join("web/npm");
    let entries = std::fs::read_dir(&npm).map_err(|e| format!("{}: {e}", npm.display()))?;
    for entry in entries.flatten() {
        let text = std::fs::read_to_string(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
        let to = pkg.join(entry.file_name());
        std::fs::write(&to, text.replace("@VERSION@", env!("CARGO_PKG_VERSION")))
            .map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

fn copy_page(root: &Path, out: &Path) -> Result<(), String> {
    let www = root.join("web/www");
    let entries = std::fs::read_dir(&www).map_err(|e| format!("{}: {e}", www.display()))?;
    for entry in entries.flatten() {
        let to = out.join(entry.file_name());
        std::fs::copy(entry.path(), &to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

/// `examples.js`: `export default [{ name, text }, …]` from [`EXAMPLES`].
fn write_examples(root: &Path, out: &Path) -> Result<(), String> {
    let mut list = Vec::new();
    for path in EXAMPLES {
        let text = std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"))?;
        let name = path.trim_start_matches("shaders/asm/").trim_end_matches(".asm");
        list.push(serde_json::json!({ "name": name, "text": text }).to_string());
    }
    let js =
        format!("// Generated by `cargo xtask web` from shaders/.\nexport default [\n  {}\n];\n", list.join(",\n  "));
    std::fs::write(out.join("examples.js"), js).map_err(|e| format!("examples.js: {e}"))
}
