//! Folder mode: `d3d9-shader translate DIR --to FORMAT -o OUTDIR` converts every shader file
//! under DIR on all cores, mirroring the tree under OUTDIR (`translate A B C… -o OUTDIR` does
//! the same for the files named).
//!
//! Inputs are the files whose extension names an input format (`.bin .pso .vso .cso .fxo .hex
//! .h .asm …`). `a/b.pso` becomes `OUTDIR/a/b.wgsl`; when two inputs share a name but for the
//! extension (`b.pso`, `b.hex`), both keep theirs (`b.pso.wgsl`, `b.hex.wgsl`); a header's arrays
//! become `b.ARRAY.wgsl`. Each worker takes the next file from a shared counter, so a slow
//! shader never holds the others up; results are reported in path order, whatever the timing.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::convert::{convert_input, output_path, Settings};
use super::status::{write_stdout, EXIT_OK, EXIT_REJECTED, EXIT_USAGE};

/// Input files under `dir` (recursively, sorted, hidden entries and `skip` left out).
fn inputs(dir: &Path, skip: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') || path == skip {
            continue;
        }
        // The entry's own type costs no system call; only links need a look at their target.
        let kind = e.file_type()?;
        let is_dir = if kind.is_symlink() { path.is_dir() } else { kind.is_dir() };
        if is_dir {
            inputs(&path, skip, out)?;
        } else if path.to_str().and_then(d3d9_shader::input::Format::from_path).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

/// Where each input's output goes (before array names): its path relative to the input folder
/// with the new extension, or with the old one kept when two inputs would collide.
fn output_names(relative: &[PathBuf], extension: &str) -> Vec<PathBuf> {
    let mut stems: HashMap<PathBuf, usize> = HashMap::new();
    for r in relative {
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

/// What to convert.
pub enum Inputs<'a> {
    /// Every shader file under a folder; outputs mirror the tree.
    Folder(&'a Path),
    /// Files named on the command line (a shell glob); outputs take their file names.
    Files(&'a [String]),
}

/// What became of one input file's shaders.
#[derive(Default)]
struct FileResult {
    /// Shaders converted and written.
    passed: usize,
    /// Each failure, rendered.
    failures: Vec<String>,
}

/// The progress bar: on stderr when it is a terminal and the run is not `--quiet`; hidden
/// otherwise (piped, redirected, CI), where it draws nothing at all.
fn progress_bar(total: usize, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("[{bar:40}] {pos}/{len} {elapsed} (eta {eta})") {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar
}

/// The input files and their paths relative to the output folder (before the new extension);
/// `Err` holds the exit status, the reason printed.
fn listed(what: Inputs, out: &Path, settings: &Settings) -> Result<(Vec<PathBuf>, Vec<PathBuf>), i32> {
    match what {
        Inputs::Folder(dir) => {
            let mut files = Vec::new();
            if let Err(e) = inputs(dir, out, &mut files) {
                eprintln!("{}", settings.style.error(&dir.display().to_string(), &format!("cannot list: {e}")));
                return Err(EXIT_REJECTED);
            }
            if files.is_empty() {
                eprintln!(
                    "d3d9-shader: no shader files under `{}` (looked for .bin .pso .vso .cso .fxo .hex .h .asm …)",
                    dir.display()
                );
                return Err(EXIT_USAGE);
            }
            let relative = files.iter().map(|f| f.strip_prefix(dir).unwrap_or(f).to_path_buf()).collect();
            Ok((files, relative))
        }
        Inputs::Files(names) => {
            let files: Vec<PathBuf> = names.iter().map(PathBuf::from).collect();
            let relative = files.iter().map(|f| PathBuf::from(f.file_name().unwrap_or(f.as_os_str()))).collect();
            Ok((files, relative))
        }
    }
}

/// Makes the output folders, once here rather than by every worker for every file.
fn make_folders(out: &Path, names: &[PathBuf], settings: &Settings) -> Result<(), i32> {
    let mut folders: Vec<PathBuf> = names.iter().filter_map(|n| out.join(n).parent().map(Path::to_path_buf)).collect();
    folders.dedup();
    for folder in &folders {
        if let Err(e) = std::fs::create_dir_all(folder) {
            eprintln!("{}", settings.style.error(&folder.display().to_string(), &format!("cannot create: {e}")));
            return Err(EXIT_REJECTED);
        }
    }
    Ok(())
}

/// Converts `files[i]` into `out/names[i]` on `jobs` threads; each file's result, in order.
fn convert_all(files: &[PathBuf], names: &[PathBuf], out: &Path, jobs: usize, settings: &Settings) -> Vec<FileResult> {
    let progress = progress_bar(files.len(), settings.quiet);
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<FileResult>> = files.iter().map(|_| Mutex::new(FileResult::default())).collect();
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(file) = files.get(i) else { break };
        let outcomes = convert_input(&file.to_string_lossy(), settings);
        let several = outcomes.len() > 1;
        let mut slot = results[i].lock().unwrap_or_else(|e| e.into_inner());
        for o in outcomes {
            let written = o.result.and_then(|bytes| {
                let path = output_path(&out.join(&names[i]), o.array.as_deref(), several);
                std::fs::write(&path, bytes)
                    .map_err(|e| settings.style.error(&path.display().to_string(), &format!("cannot write: {e}")))
            });
            match written {
                Ok(()) => slot.passed += 1,
                Err(e) => slot.failures.push(e),
            }
        }
        drop(slot);
        progress.inc(1);
    };
    std::thread::scope(|s| {
        for _ in 1..jobs.min(files.len()) {
            s.spawn(work);
        }
        work();
    });
    progress.finish_and_clear();
    results.into_iter().map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

/// Converts every input under `dir` into `out` with `jobs` threads; the exit status.
pub fn run(what: Inputs, out: &Path, jobs: usize, settings: &Settings) -> i32 {
    let start = Instant::now();
    let (files, relative) = match listed(what, out, settings) {
        Ok(l) => l,
        Err(status) => return status,
    };
    let names = output_names(&relative, settings.format.extension());
    if let Err(status) = make_folders(out, &names, settings) {
        return status;
    }
    let (mut passed, mut failures) = (0, Vec::new());
    for r in convert_all(&files, &names, out, jobs, settings) {
        passed += r.passed;
        failures.extend(r.failures);
    }
    if !failures.is_empty() {
        eprintln!("failures:");
        for e in &failures {
            eprintln!("{e}");
        }
    }
    let status = if failures.is_empty() { EXIT_OK } else { EXIT_REJECTED };
    if !settings.quiet || !failures.is_empty() {
        let summary = format!(
            "translate: {passed} passed, {} failed ({} files, {} jobs, {:.2} s)\n",
            failures.len(),
            files.len(),
            jobs,
            start.elapsed().as_secs_f64()
        );
        // A closed stdout is no failure of the conversion; another write error is.
        return status.max(write_stdout(summary.as_bytes()));
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colliding_stems_keep_their_extension() {
        let relative: Vec<PathBuf> = ["a.pso", "a.hex", "sub/b.vso", "c.h"].iter().map(PathBuf::from).collect();
        let names = output_names(&relative, "wgsl");
        let names: Vec<_> = names.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(names, ["a.pso.wgsl", "a.hex.wgsl", "sub/b.wgsl", "c.wgsl"]);
    }
}
