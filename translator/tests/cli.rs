//! The `d3d9-shader` binary: disasm, asm to each output format, stdin, and the exit statuses
//! (0 success, 1 rejected input, 2 usage error; never a crash).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-shader");

/// ps_2_0 `mov oC0, c0`, token by token: version, mov with two operand tokens, oC0 (type 8 is
/// bits 11-12 = 1), c0 (type 2 in bits 28-30), end.
const TOKENS: [u32; 5] = [0xFFFF_0200, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];
const LISTING: &str = "ps_2_0\nmov oC0, c0\n";

/// A folder of the test's own for its files, removed when the test ends.
fn folder() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("d3d9-cli-test-").tempdir().unwrap()
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn disasm_prints_the_listing() {
    let dir = folder();
    let hex = dir.path().join("d.hex");
    std::fs::write(&hex, "ffff0200 02000001 800f0800 a0e40000 0000ffff\n").unwrap();
    let o = run(&["disasm", hex.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), LISTING);
}

#[test]
fn asm_writes_each_output_format() {
    let dir = folder();
    let src = dir.path().join("a.asm");
    std::fs::write(&src, LISTING).unwrap();
    let raw: Vec<u8> = TOKENS.iter().flat_map(|t| t.to_le_bytes()).collect();
    for ext in ["bin", "pso", "vso"] {
        let out = dir.path().join(format!("a.{ext}"));
        let o = run(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()], None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(std::fs::read(&out).unwrap(), raw, ".{ext}");
    }
    let out = dir.path().join("a.hex");
    let o = run(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
    let o = run(&["asm", src.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
}

#[test]
fn stdin_is_read_for_dash() {
    let o = run(&["asm", "-"], Some(LISTING.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
    let raw: Vec<u8> = TOKENS.iter().flat_map(|t| t.to_le_bytes()).collect();
    let o = run(&["disasm", "-"], Some(&raw));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), LISTING);
}

#[test]
fn rejected_input_exits_1_naming_the_place() {
    let dir = folder();
    let o = run(&["asm", "-"], Some(b"ps_2_0\nmov oC0, q0\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("<stdin>: line 2, column 10"), "{}", stderr(&o));

    let bad = dir.path().join("bad.hex");
    // Token 1 is opcode 0x31, which Direct3D 9 does not define.
    std::fs::write(&bad, "ffff0200 00000031 0000ffff").unwrap();
    let o = run(&["disasm", bad.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("bad.hex") && e.contains("token 1 (byte 4)") && e.contains("unknown opcode"), "{e}");

    let o = run(&["disasm", dir.path().join("missing.bin").to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.bin"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["disasm"],
        &["disasm", "--bogus", "x.hex"],
        &["disasm", "a.hex", "b.hex"],
        &["asm", "a.asm", "-o"],
        &["asm", "a.asm", "-o", "out.txt"],
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty(), "{args:?} says why");
    }
    let o = run(&["--help"], None);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn invalid_corpus_files_never_crash() {
    let Some(shared) = std::env::var_os("D3D9_SHARED")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent()?.parent()?.join("shared")))
        .filter(|p| p.is_dir())
    else {
        // CI sets REQUIRE_SHARED=1: there a missing ../shared is a failure, not a skip.
        assert!(
            std::env::var_os("REQUIRE_SHARED").is_none_or(|v| v != "1"),
            "REQUIRE_SHARED=1 but ../shared is absent"
        );
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let mut count = 0;
    for dir in std::fs::read_dir(shared.join("corpus")).unwrap().flatten() {
        let Ok(files) = std::fs::read_dir(dir.path().join("invalid")) else { continue };
        for f in files.flatten() {
            let path = f.path();
            if path.extension().is_some_and(|e| e == "why") {
                continue;
            }
            count += 1;
            let o = run(&["disasm", path.to_str().unwrap()], None);
            let code = o.status.code();
            assert!(matches!(code, Some(0 | 1)), "{}: exit {code:?}\n{}", path.display(), stderr(&o));
        }
    }
    assert!(count >= 26, "expected the invalid corpus files, found {count}");
}

#[test]
fn keep_comments_reproduces_the_blob() {
    let dir = folder();
    // ps_2_0 with a two-DWORD comment block ('CTAB' would be parsed; this FourCC is 'Note').
    let tokens = [0xFFFF_0200u32, 0x0002_FFFE, 0x6574_6F4E, 7, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];
    let blob = dir.path().join("c.pso");
    std::fs::write(&blob, tokens.iter().flat_map(|t| t.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let o = run(&["disasm", "--keep-comments", blob.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listing = stdout(&o);
    assert!(listing.contains("'Note'"), "{listing}");
    let o = run(&["asm", "-"], Some(listing.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let words: Vec<u32> = stdout(&o).split_whitespace().map(|w| u32::from_str_radix(w, 16).unwrap()).collect();
    assert_eq!(words, tokens);
    // Without the flag the note stays a note and the block is dropped.
    let o = run(&["disasm", blob.to_str().unwrap()], None);
    let o = run(&["asm", "-"], Some(&o.stdout));
    assert_eq!(stdout(&o), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
}

/// Runs the tool with stdout a pipe whose reading end closes after `keep` bytes (none: closed
/// at once, before the tool can write): what `| head` does.
fn run_with_stdout_closed(args: &[&str], keep: usize) -> Output {
    use std::io::Read;
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0; keep];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let dir = folder();
    // A listing far longer than a pipe's buffer (64 KiB on Linux): the tool is still writing
    // when the reader goes away, so its write fails with EPIPE.
    let mut words = vec![0xFFFF_0200u32];
    for _ in 0..10_000 {
        words.extend_from_slice(&TOKENS[1..4]);
    }
    words.push(0x0000_FFFF);
    let hex = dir.path().join("long.hex");
    std::fs::write(&hex, words.iter().map(|w| format!("{w:08x}\n")).collect::<String>()).unwrap();
    let cases: [(&[&str], usize); 4] = [
        (&["disasm", hex.to_str().unwrap()], 7),
        (&["translate", "--help"], 0),
        (&["--help"], 0),
        (&["completions", "zsh"], 0),
    ];
    for (args, keep) in cases {
        let o = run_with_stdout_closed(args, keep);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell], None);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        // Every command and a subcommand's flag are completed (fish writes `-l key-file`).
        for word in ["d3d9-shader", "translate", "disasm", "key-file", "keep-comments"] {
            assert!(script.contains(word), "{shell}: no `{word}`");
        }
    }
    let o = run(&["completions", "tcsh"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn ffp_writes_both_halves_and_rejects_unknown_states() {
    let dir = folder();
    let state = dir.path().join("ffp_state.toml");
    std::fs::write(
        &state,
        "fvf = \"D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1\"\n[render_states]\nLIGHTING = true\n[[light]]\ntype = \"SPOT\"\n\
         [[texture]]\nstage = 0\ntype = \"2d\"\n[[texture_stage]]\nstage = 0\nCOLOROP = \"MODULATE2X\"\n",
    )
    .unwrap();
    let out = dir.path().join("ffp.wgsl");
    let o = run(&["ffp", state.to_str().unwrap(), "-o", out.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let vs = std::fs::read_to_string(out.with_extension("vs.wgsl")).unwrap();
    let ps = std::fs::read_to_string(out.with_extension("ps.wgsl")).unwrap();
    assert!(vs.contains("@vertex") && ps.contains("@fragment") && ps.contains("texture_2d"), "{vs}\n{ps}");
    // The uniform-driven pair, with the state blocks beside it: the pixel block is 8 stages of
    // 64 bytes and 4 words (docs/layers.md#fixed-function), 132 words in 33 rows of 4.
    let out = dir.path().join("ffp_uniform.spvasm");
    let o = run(&["ffp", state.to_str().unwrap(), "--mode", "uniform", "-o", out.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ps = std::fs::read_to_string(out.with_extension("ps.spvasm")).unwrap();
    assert!(ps.contains("OpEntryPoint Fragment"), "{ps}");
    let block = std::fs::read_to_string(out.with_extension("ps.state.hex")).unwrap();
    assert_eq!(block.lines().count(), 33, "{block}");
    assert!(block.lines().all(|l| l.split(' ').count() == 4), "{block}");
    std::fs::write(&state, "[render_states]\nNOT_A_STATE = 1\n").unwrap();
    let o = run(&["ffp", state.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("NOT_A_STATE"), "{}", stderr(&o));
}
