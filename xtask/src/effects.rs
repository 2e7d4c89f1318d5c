//! `cargo xtask effects`: checks the effect reader and run-time against folders of
//! `NAME.fx.hex` + `NAME.expect.toml` pairs (the format is `docs/effects.md`'s), one verdict per
//! expectation record, and ends with `effects: N passed, M failed`.

use std::path::{Path, PathBuf};

use d3d9_shader::effect::Effect;

use crate::effects_checks::{check_record, Outcome};

/// `cargo xtask effects`.
#[derive(clap::Args)]
#[command(after_help = crate::examples!(
    "cargo xtask effects"
    "cargo xtask effects --dir ../shared/effects --verbose"
))]
pub struct EffectsArgs {
    /// Folders of NAME.fx.hex + NAME.expect.toml pairs (default ../shared/effects).
    #[arg(long = "dir", value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Print every record's verdict, not only the failures.
    #[arg(long)]
    verbose: bool,
}

/// Reads a `.fx.hex` file: little-endian words in hex, any whitespace.
pub fn read_hex(path: &Path) -> Result<Vec<u8>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    for word in text.split_whitespace() {
        let w = u32::from_str_radix(word.trim_start_matches("0x"), 16)
            .map_err(|e| format!("{}: {word:?}: {e}", path.display()))?;
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    Ok(bytes)
}

/// The default folder: `../shared/effects` beside the workspace (`$D3D9_SHARED/effects` when
/// that is set, as for the other shared data).
pub fn default_dir() -> PathBuf {
    match crate::conformance::shared_dir() {
        Some(shared) => shared.join("effects"),
        None => crate::conformance::repo_root().join("../shared/effects"),
    }
}

/// The blob of a record file: `STEM.fx.hex` beside it, or the file its top-level `blob` key
/// names, looked for beside it and then in the shared effects folder (this project's records in
/// `shaders/effects` check rules against the shared blobs without copying them).
fn blob_path(stem: &str, doc: &toml::Table) -> PathBuf {
    let own = PathBuf::from(format!("{stem}.fx.hex"));
    let Some(blob) = doc.get("blob").and_then(|v| v.as_str()) else { return own };
    let dir = Path::new(stem).parent().unwrap_or(Path::new("."));
    [dir.join(blob), default_dir().join(blob)].into_iter().find(|p| p.is_file()).unwrap_or(own)
}

/// Tallies.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    /// Failures listed in `effects_known.rs`.
    known: usize,
}

pub fn main(args: &EffectsArgs) -> i32 {
    let dirs = if args.dirs.is_empty() { vec![default_dir()] } else { args.dirs.clone() };
    // Without ../shared the default run skips, loudly, unless REQUIRE_SHARED=1 (CI) says it must
    // not; folders named with --dir must exist.
    if args.dirs.is_empty() && !dirs[0].is_dir() && std::env::var_os("REQUIRE_SHARED").is_none_or(|v| v != "1") {
        println!(
            "effects: *** {} is absent: nothing checked (REQUIRE_SHARED=1 makes this a failure) ***",
            dirs[0].display()
        );
        return 0;
    }
    let mut tally = Tally::default();
    for dir in &dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            eprintln!("effects: cannot read {}", dir.display());
            tally.failed += 1;
            continue;
        };
        let mut names: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".expect.toml"))
            .collect();
        names.sort();
        for expect in names {
            run_pair(&expect, args.verbose, &mut tally);
        }
    }
    if tally.known > 0 {
        println!("effects: {} of the failures are known (xtask/src/effects_known.rs)", tally.known);
    }
    println!("effects: {} passed, {} failed", tally.passed, tally.failed);
    i32::from(tally.failed > tally.known)
}

fn run_pair(expect: &Path, verbose: bool, tally: &mut Tally) {
    let stem = expect.to_string_lossy().trim_end_matches(".expect.toml").to_string();
    let name = Path::new(&stem).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = Path::new(&stem).parent().unwrap_or(Path::new("."));
    let fail = |tally: &mut Tally, why: String| {
        println!("FAIL {name}: {why}");
        tally.failed += 1;
    };
    let text = match std::fs::read_to_string(expect) {
        Ok(t) => t,
        Err(e) => return fail(tally, e.to_string()),
    };
    let doc: toml::Table = match text.parse() {
        Ok(d) => d,
        Err(e) => return fail(tally, format!("expect file: {e}")),
    };
    let bytes = match read_hex(&blob_path(&stem, &doc)).and_then(|b| patch(b, &doc)) {
        Ok(b) => b,
        Err(e) => return fail(tally, e),
    };
    let effect = match Effect::parse(&bytes) {
        Ok(e) => e,
        Err(e) => return fail(tally, format!("parse: {e}")),
    };
    for (kind, value) in &doc {
        let records: Vec<&toml::Value> = match value {
            toml::Value::Array(a) => a.iter().collect(),
            toml::Value::Table(_) => vec![value],
            _ => continue,
        };
        let tables: Vec<&toml::Table> = records.iter().filter_map(|r| r.as_table()).collect();
        let sequence = (kind == "validate" || kind == "find_next_valid")
            .then(|| crate::effects_scenario::check_sequence(&effect, kind, &tables));
        for (i, record) in tables.into_iter().enumerate() {
            let key = format!("{kind}[{i}]");
            let setup = crate::effects_setup::steps(&name, &key);
            let outcome = match &sequence {
                Some(results) => match &results[i] {
                    Ok(()) => Outcome::Pass,
                    Err(e) => Outcome::Fail(e.clone()),
                },
                None => check_record(&effect, &bytes, kind, record, setup, dir),
            };
            let known = crate::effects_known::known(&name, &key);
            match outcome {
                Outcome::Pass => {
                    tally.passed += 1;
                    if known.is_some() {
                        println!("FIXED {name} {key}: listed as known, now passes");
                    } else if verbose {
                        println!("ok   {name} {key}");
                    }
                }
                Outcome::Fail(why) if known.is_some() => {
                    tally.failed += 1;
                    tally.known += 1;
                    println!("KNOWN {name} {key} ({}): {}", source(record), known.unwrap_or(""));
                    if verbose {
                        println!("      {why}");
                    }
                }
                Outcome::Fail(why) => fail(tally, format!("{key} ({}): {why}", source(record))),
                Outcome::NotARecord => {}
            }
        }
    }
}

/// Applies the record file's `[[blob_patch]]` entries (`word`: index counting the magic as word
/// 0, `was` and `now`: hex words), each checked against the word it replaces, so that a record
/// of this project can state a rule on a variant of a shared blob without copying the blob.
fn patch(mut bytes: Vec<u8>, doc: &toml::Table) -> Result<Vec<u8>, String> {
    let patches = doc.get("blob_patch").and_then(|v| v.as_array()).into_iter().flatten();
    for p in patches.filter_map(|p| p.as_table()) {
        let word = p.get("word").and_then(|v| v.as_integer()).ok_or("blob_patch without word")? as usize;
        let hex = |key: &str| {
            let text = p.get(key).and_then(|v| v.as_str()).unwrap_or("");
            u32::from_str_radix(text, 16).map_err(|e| format!("blob_patch {key} {text:?}: {e}"))
        };
        let (was, now) = (hex("was")?, hex("now")?);
        let slot = bytes.get_mut(word * 4..word * 4 + 4).ok_or(format!("blob_patch word {word} is past the blob"))?;
        let found = u32::from_le_bytes([slot[0], slot[1], slot[2], slot[3]]);
        if found != was {
            return Err(format!("blob_patch word {word}: found {found:08x}, expected {was:08x}"));
        }
        slot.copy_from_slice(&now.to_le_bytes());
    }
    Ok(bytes)
}

fn source(record: &toml::Table) -> String {
    let id = record.get("id").and_then(|v| v.as_str()).unwrap_or("");
    let src = record.get("source").and_then(|v| v.as_str()).unwrap_or("");
    format!("{id} {src}").trim().to_string()
}
