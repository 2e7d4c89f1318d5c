//! The browser side of `cargo xtask web`: Debian's Chromium and the npm packages of `web/tests`
//! (Playwright's core, no browser download), installed when missing, and the browser test.

use std::path::Path;
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

/// Installs Chromium (as root, with apt) and `web/tests`' npm packages when missing.
pub fn ensure_packages(root: &Path) -> Result<(), String> {
    if !Path::new(CHROMIUM).exists() {
        let root_user = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        if !(root_user && Path::new("/usr/bin/apt-get").exists()) {
            return Err(format!("{CHROMIUM} is missing; install it with: sudo apt-get install -y chromium"));
        }
        eprintln!("xtask web: installing chromium (Debian package)");
        let installed = Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends", "chromium"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success());
        if !installed || !Path::new(CHROMIUM).exists() {
            return Err("installing chromium failed; the browser test needs it".into());
        }
    }
    let dir = root.join("web/tests");
    if dir.join("node_modules/playwright-core/package.json").exists() {
        return Ok(());
    }
    eprintln!("xtask web: installing web/tests' npm packages (playwright-core)");
    let ok = Command::new("npm").current_dir(&dir).args(["ci", "--no-audit", "--no-fund"]).status();
    ok.is_ok_and(|s| s.success())
        .then_some(())
        .ok_or_else(|| "`npm ci` in web/tests failed; install with: npm ci --prefix web/tests".to_string())
}

/// Runs `web/tests/browser.mjs` against the site in `out`; screenshots go to `target/web-test`.
pub fn test(root: &Path, out: &Path) -> bool {
    let shots = root.join("target/web-test");
    let status = Command::new("node")
        .current_dir(root.join("web/tests"))
        .arg("browser.mjs")
        .arg(out)
        .arg(&shots)
        .env("CHROMIUM", CHROMIUM)
        .status();
    let ok = status.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("xtask web: the browser test failed");
    }
    ok
}
