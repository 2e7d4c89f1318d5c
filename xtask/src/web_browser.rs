//! The browser side of `cargo xtask web`: Debian's Chromium, binaryen's `wasm-opt` and the npm
//! packages of `web/tests` (Playwright's core, no browser download), installed when missing, and
//! the browser test.

use std::path::Path;
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn wasm_opt_present() -> bool {
    Command::new("wasm-opt").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The Debian packages the web build and its browser test use: Chromium, and binaryen, whose
/// `wasm-opt` shrinks the module (the build works without it, larger, except under
/// `REQUIRE_TOOLS=1`).
fn missing_packages() -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.push("chromium");
    }
    if !wasm_opt_present() {
        missing.push("binaryen");
    }
    missing
}

/// Installs the missing Debian packages as root with apt; otherwise says how.
pub fn ensure_system_packages() -> Result<(), String> {
    let missing = missing_packages();
    if missing.is_empty() {
        return Ok(());
    }
    let list = missing.join(" ");
    let root_user = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if root_user && Path::new("/usr/bin/apt-get").exists() {
        eprintln!("xtask web: installing {list} (Debian packages)");
        let apt = |args: &[&str]| {
            Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .is_ok_and(|s| s.success())
        };
        let install = [&["install", "-y", "--no-install-recommends"][..], &missing].concat();
        // A fresh machine's package lists may be empty or stale: update once if the first try fails.
        if (apt(&install) || (apt(&["update"]) && apt(&install))) && missing_packages().is_empty() {
            return Ok(());
        }
    }
    Err(format!("missing {list}; install with: sudo apt-get update && sudo apt-get install -y {list}"))
}

/// Whether `node_modules` holds what `package-lock.json` pins: npm writes its own copy of the
/// lock file there (`node_modules/.package-lock.json`) when it installs.
fn npm_packages_current(dir: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&dir.join("node_modules/.package-lock.json"));
    let wanted = modified(&dir.join("package-lock.json"));
    let playwright = dir.join("node_modules/playwright-core/package.json");
    matches!((installed, wanted), (Some(i), Some(w)) if i >= w) && playwright.exists()
}

/// Installs the system packages and `web/tests`' npm packages when missing.
pub fn ensure_packages(root: &Path) -> Result<(), String> {
    ensure_system_packages()?;
    let dir = root.join("web/tests");
    if npm_packages_current(&dir) {
        return Ok(());
    }
    eprintln!("xtask web: installing web/tests' npm packages (playwright-core)");
    let ok = Command::new("npm").current_dir(&dir).args(["ci", "--no-audit", "--no-fund"]).status();
    if ok.is_ok_and(|s| s.success()) && npm_packages_current(&dir) {
        return Ok(());
    }
    Err("`npm ci` in web/tests failed; install with: npm ci --prefix web/tests".into())
}

/// Runs `web/tests/browser.mjs` against the site in `out`, served by the same server as
/// `--serve` (screenshots go to `target/web-test`), then the npm package test.
pub fn test(root: &Path, out: &Path) -> bool {
    let url = match crate::static_server::spawn(out) {
        Ok(url) => url,
        Err(e) => {
            eprintln!("xtask web: {e}");
            return false;
        }
    };
    let shots = root.join("target/web-test");
    let status = Command::new("node")
        .current_dir(root.join("web/tests"))
        .arg("browser.mjs")
        .arg(&url)
        .arg(&shots)
        .env("CHROMIUM", CHROMIUM)
        .status();
    let ok = status.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("xtask web: the browser test failed");
    }
    npm_package_test(root, out) && ok
}

/// Runs `web/tests/npm.mjs`: `pkg/` packed with `npm pack`, installed from the tarball into a
/// temporary project and used from Node.js.
fn npm_package_test(root: &Path, out: &Path) -> bool {
    let status = Command::new("node").current_dir(root.join("web/tests")).arg("npm.mjs").arg(out.join("pkg")).status();
    let ok = status.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("xtask web: the npm package test failed");
    }
    ok
}
