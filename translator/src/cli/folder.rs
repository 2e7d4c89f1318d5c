//! Folder mode: `d3d9-shader translate DIR --to FORMAT -o OUTDIR` converts every shader file
//! under DIR on all cores, mirroring the tree under OUTDIR.
//!
//! Inputs are the files whose extension names an input format (`.bin .pso .vso .cso .fxo .hex
//! .h .asm …`). `a/b.pso` becomes `OUTDIR/a/b.wgsl`; when two inputs share a name but for the
//! extension (`b.pso`, `b.hex`), both keep theirs (`b.pso.wgsl`, `b.hex.wgsl`); a header's arrays
//! become `b.ARRAY.wgsl`. Each worker takes the next file from a shared counter, so a slow
//! shader never holds the others up; results are reported in path order, whatever the timing.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::convert::{convert_input, output_path, Settings};
use super::{EXIT_OK, EXIT_REJECTED, EXIT_USAGE};

/// Input files under `dir` (recursively, sorted, hidden entries and `skip` left out).
fn inputs(dir: &Path, skip: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') || path == skip {
            continue;
        }
        if path.is_dir() {
            inputs(&path, skip, out)?;
        } else if path.to_str().and_then(d3d9_shader::input::Format::from_path).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

/// Where each input's output goes (before array names): the relative path with the new
/// extension, or with the old one kept when two inputs would collide.
fn output_names(root: &Path, files: &[PathBuf], extension: &str) -> Vec<PathBuf> {
    let relative: Vec<&Path> = files.iter().map(|f| f.strip_prefix(root).unwrap_or(f)).collect();
    let mut stems: HashMap<PathBuf, usize> = HashMap::new();
    for r in &relative {
        *stems.entry(r.with_extension("")).or_default() += 1;
    }
    relative
        .iter()
        .map(|r| {
            if stems[&r.with_extension("")] > 1 {
                let mut name = r.as_os_str().to_owned();
                name.push(format!(".{extension}"));
                PathBuf::from(name)
            } else {
                r.with_extension(extension)
            }
        })
        .collect()
}

struct Progress {
    enabled: bool,
    total: usize,
    done: AtomicUsize,
    drawn: Mutex<usize>,
}

impl Progress {
    fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.enabled {
            return;
        }
        const WIDTH: usize = 40;
        let filled = done * WIDTH / self.total.max(1);
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        if filled == *drawn && done != self.total {
            return;
        }
        *drawn = filled;
        let bar: String = "#".repeat(filled) + &"-".repeat(WIDTH - filled);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r[{bar}] {done}/{}", self.total);
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.enabled {
            eprint!("\r{}\r", " ".repeat(60));
        }
    }
}

/// Converts every input under `dir` into `out` with `jobs` threads; the exit status.
pub fn run(dir: &Path, out: &Path, jobs: usize, settings: &Settings) -> i32 {
    let start = Instant::now();
    let mut files = Vec::new();
    if let Err(e) = inputs(dir, out, &mut files) {
        eprintln!("{}", settings.style.error(&dir.display().to_string(), &format!("cannot list: {e}")));
        return EXIT_REJECTED;
    }
    if files.is_empty() {
        eprintln!("d3d9-shader: no shader files under `{}` (looked for .bin .pso .vso .cso .fxo .hex .h .asm …)", dir.display());
        return EXIT_USAGE;
    }
    let names = output_names(dir, &files, settings.format.extension());
    let progress = Progress {
        enabled: !settings.quiet && std::io::stderr().is_terminal(),
        total: files.len(),
        done: AtomicUsize::new(0),
        drawn: Mutex::new(usize::MAX),
    };
    let next = AtomicUsize::new(0);
    // Per file: (shader name, error) for each failure, and the count of shaders converted.
    let results: Vec<Mutex<(usize, Vec<(String, String)>)>> = files.iter().map(|_| Mutex::new((0, Vec::new()))).collect();
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(file) = files.get(i) else { break };
        let outcomes = convert_input(&file.to_string_lossy(), settings);
        let several = outcomes.len() > 1;
        let mut slot = results[i].lock().unwrap_or_else(|e| e.into_inner());
        for o in outcomes {
            let written = o.result.and_then(|bytes| {
                let path = output_path(&out.join(&names[i]), o.array.as_deref(), several);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
                }
                std::fs::write(&path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
            });
            match written {
                Ok(()) => slot.0 += 1,
                Err(e) => slot.1.push((o.name, e)),
            }
        }
        drop(slot);
        progress.tick();
    };
    std::thread::scope(|s| {
        for _ in 1..jobs.min(files.len()) {
            s.spawn(work);
        }
        work();
    });
    progress.finish();
    let (mut passed, mut failures) = (0, Vec::new());
    for r in results {
        let (ok, failed) = r.into_inner().unwrap_or_else(|e| e.into_inner());
        passed += ok;
        failures.extend(failed);
    }
    if !failures.is_empty() {
        eprintln!("failures:");
        for (_, e) in &failures {
            eprintln!("{e}");
        }
    }
    if !settings.quiet || !failures.is_empty() {
        println!(
            "translate: {passed} passed, {} failed ({} files, {} jobs, {:.2} s)",
            failures.len(),
            files.len(),
            jobs,
            start.elapsed().as_secs_f64()
        );
    }
    if failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_REJECTED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colliding_stems_keep_their_extension() {
        let root = Path::new("/in");
        let files: Vec<PathBuf> = ["/in/a.pso", "/in/a.hex", "/in/sub/b.vso", "/in/c.h"].iter().map(PathBuf::from).collect();
        let names = output_names(root, &files, "wgsl");
        let names: Vec<_> = names.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(names, ["a.pso.wgsl", "a.hex.wgsl", "sub/b.wgsl", "c.wgsl"]);
    }
}
