//! The shaders `cargo xtask bench` times: one file per shader of a corpus, optionally only the
//! names of a list file.
//!
//! A corpus may hold the same shader as a binary blob (`.bin`), as hex tokens (`.hex`) and as
//! an assembly listing (`.asm`); the bench takes one of them, preferring the blob (what a
//! runtime is handed), then hex, then the listing. A shader's name is its path under the corpus
//! without that last extension (`vs_skin_b1.vs_2_0` for `vs_skin_b1.vs_2_0.bin`); the corpora's
//! `invalid/` examples are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The extensions read, most preferred first.
const PREFERENCE: [&str; 3] = ["bin", "hex", "asm"];

/// One shader of the corpus.
#[derive(Debug)]
pub struct Entry {
    /// Its name: the path under the corpus, `/`-separated, without the extension.
    pub name: String,
    /// The file chosen for it.
    pub path: PathBuf,
}

/// One file per shader under `dir` (recursively), sorted by name.
pub fn shaders(dir: &Path) -> Vec<Entry> {
    let mut chosen: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
    for ext in PREFERENCE {
        for path in d3d9_tests::files_with_extension(dir, ext) {
            if d3d9_tests::is_invalid(&path) {
                continue;
            }
            let rank = PREFERENCE.iter().position(|e| *e == ext).unwrap_or(PREFERENCE.len());
            let name = name_of(dir, &path);
            match chosen.get(&name) {
                Some((r, _)) if *r <= rank => {}
                _ => {
                    chosen.insert(name, (rank, path));
                }
            }
        }
    }
    chosen.into_iter().map(|(name, (_, path))| Entry { name, path }).collect()
}

fn name_of(dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path).with_extension("");
    relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The names of a list file: one a line; blank lines and `#` comments are skipped.
pub fn read_list(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// The entries `list` names, in the corpus's order. A list name matches a shader's name or
/// the name's last part (so a flat list also names shaders in sub-folders); a list name no
/// shader has is an error, since timing fewer shaders than asked would mislead.
pub fn restrict(entries: Vec<Entry>, list: &[String]) -> Result<Vec<Entry>, String> {
    let wanted: BTreeSet<&str> = list.iter().map(String::as_str).collect();
    let last = |name: &str| name.rsplit('/').next().unwrap_or(name).to_string();
    let kept: Vec<Entry> = entries
        .into_iter()
        .filter(|e| wanted.contains(e.name.as_str()) || wanted.contains(last(&e.name).as_str()))
        .collect();
    let found: BTreeSet<String> = kept.iter().flat_map(|e| [e.name.clone(), last(&e.name)]).collect();
    let missing: Vec<&str> = wanted.iter().copied().filter(|w| !found.contains(*w)).collect();
    if missing.is_empty() {
        Ok(kept)
    } else {
        Err(format!("the list names {} shaders the corpus lacks: {}", missing.len(), missing.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-bench-corpus-{}-{}", std::process::id(), files.len()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"").unwrap();
        }
        dir
    }

    #[test]
    fn one_file_per_shader_the_blob_first() {
        let dir = corpus(&[
            "a.vs_2_0.bin",
            "a.vs_2_0.hex",
            "a.vs_2_0.asm",
            "b.ps_3_0.hex",
            "b.ps_3_0.asm",
            "sub/c.asm",
            "invalid/d.hex",
        ]);
        let got: Vec<(String, String)> = shaders(&dir)
            .into_iter()
            .map(|e| (e.name, e.path.extension().unwrap().to_string_lossy().into_owned()))
            .collect();
        let want = [("a.vs_2_0", "bin"), ("b.ps_3_0", "hex"), ("sub/c", "asm")];
        assert_eq!(got, want.map(|(n, e)| (n.to_string(), e.to_string())));
        let kept = restrict(shaders(&dir), &["c".into(), "a.vs_2_0".into()]).unwrap();
        assert_eq!(kept.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["a.vs_2_0", "sub/c"]);
        assert!(restrict(shaders(&dir), &["a".into()]).unwrap_err().contains("lacks: a"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
