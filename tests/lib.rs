//! Helpers shared by the cross-crate tests: finding `../shared`, reading shaders, and the random
//! program generator used by the differential fuzzer.

use std::path::{Path, PathBuf};

/// The `shared/` data folder beside the repository, if present (`D3D9_SHARED` overrides).
///
/// Tests skip what needs it when it is absent, except under `REQUIRE_SHARED=1` (CI sets it),
/// where a missing folder is a failure: a skip must not pass for a check.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("D3D9_SHARED") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent)?.join("shared"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(!require_shared(), "REQUIRE_SHARED=1 but the shared data folder {} is absent", dir.display());
    None
}

/// A folder of the shared data (`corpus`, `real-corpus`, …): `None` when absent, a failure
/// under `REQUIRE_SHARED=1`.
pub fn shared_subdir(name: &str) -> Option<PathBuf> {
    let dir = shared_dir()?.join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(!require_shared(), "REQUIRE_SHARED=1 but {} is absent", dir.display());
    None
}

/// Whether `REQUIRE_SHARED=1` is set.
pub fn require_shared() -> bool {
    std::env::var_os("REQUIRE_SHARED").is_some_and(|v| v == "1")
}

/// The `shared/` folder for test `test`, or `None`, said loudly, when it is absent (a failure
/// under `REQUIRE_SHARED=1`, as [`shared_dir`] says).
pub fn shared_for_test(test: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        eprintln!("\n*** {test}: ../shared is absent, its shaders are not checked; set REQUIRE_SHARED=1 to make this a failure ***\n");
    }
    dir
}

/// Whether `REQUIRE_TOOLS=1` is set (CI sets it): a missing checker is then a failure, not a skip.
pub fn require_tools() -> bool {
    std::env::var_os("REQUIRE_TOOLS").is_some_and(|v| v == "1")
}

/// The command-line checker `name` (`spirv-val`, `glslangValidator`) when `name --version` runs;
/// else `None`, said loudly for test `test`, or a failure under `REQUIRE_TOOLS=1` whose message
/// names the Debian `package` that installs it.
pub fn tool_for_test(test: &str, name: &'static str, package: &str) -> Option<&'static str> {
    let found = std::process::Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(!require_tools(), "{name} is required (REQUIRE_TOOLS=1) but not installed: apt-get install {package}");
        eprintln!("\n*** {test}: {name} is absent, its output is not checked ***\n");
    }
    found.then_some(name)
}

/// Runs checker `tool` with `args` on `bytes` written to `file`; its message when it refuses them.
pub fn run_tool(tool: &str, args: &[&str], file: &Path, bytes: &[u8]) -> Option<String> {
    std::fs::write(file, bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let out = std::process::Command::new(tool).args(args).arg(file).output().expect("the tool runs");
    (!out.status.success())
        .then(|| format!("{tool}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// `path` as a reader finds it: relative to the repository, or under `../shared/`.
pub fn display_path(path: &Path) -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new("."));
    if let Ok(rel) = path.strip_prefix(repo) {
        return rel.display().to_string();
    }
    match shared_dir().and_then(|s| path.strip_prefix(s).ok().map(Path::to_path_buf)) {
        Some(rel) => format!("../shared/{}", rel.display()),
        None => path.display().to_string(),
    }
}

/// Parses a `.hex` file (the library's reader; the error as text for test messages).
pub fn parse_hex(text: &str) -> Result<Vec<u32>, String> {
    d3d9_shader::input::parse_hex(text).map_err(|e| e.to_string())
}

/// Every file ending in `.EXT` under `dir` (recursively), sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every `.hex` file under `dir` (recursively), sorted.
pub fn hex_files(dir: &Path) -> Vec<PathBuf> {
    files_with_extension(dir, "hex")
}

/// Whether a corpus path is one of the invalid examples.
pub fn is_invalid(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "invalid")
}

/// Every valid shader of the shared `corpus` and `bench-corpus` folders (the invalid examples
/// left out), in that order, with its tokens.
pub fn valid_corpus_shaders(shared: &Path) -> Vec<(PathBuf, Vec<u32>)> {
    let mut out = Vec::new();
    for dir in ["corpus", "bench-corpus"] {
        for path in hex_files(&shared.join(dir)).into_iter().filter(|p| !is_invalid(p)) {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tokens = parse_hex(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path, tokens));
        }
    }
    out
}

pub mod diff;
pub mod ffp_diff;
pub mod fuzz;
pub mod generate;
pub mod tint;
pub mod tint_check;
