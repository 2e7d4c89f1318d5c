//! The built converter: `d3d9-shader INPUT OUTPUT` to every output format, `translate` on a
//! folder with a failing blob among good ones, every error path and its exit status
//! (0 success, 1 rejected input, 2 usage error).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-shader");

/// ps_2_0 `mov oC0, c0`: version, mov (opcode 1, two operand tokens), oC0 (register type 8:
/// bits 11-12 = 1, mask .xyzw), c0 (type 2 in bits 28-30, swizzle xyzw), end.
const TOKENS: [u32; 5] = [0xFFFF_0200, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];
const LISTING: &str = "ps_2_0\nmov oC0, c0\n";
/// vs_2_0 moving the position and a texture coordinate through.
const VS: &str = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n";
/// Lenient validation accepts a sampler declared twice with a warning; strict refuses it. The
/// second `dcl` is at token 4: version token, then the first `dcl` (opcode and two operands).
const TWICE: &str = "ps_2_0\ndcl_2d s0\ndcl_2d s0\nmov oC0, c0\n";

/// A folder of the test's own for its files, removed when the test ends.
fn folder() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("d3d9-convert-").tempdir().unwrap()
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).stdin(Stdio::null()).env_remove("CLICOLOR_FORCE").env_remove("NO_COLOR");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_env(args, &[])
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
fn status(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "stdout:\n{}\nstderr:\n{}", out(o), err(o));
}

fn blob() -> Vec<u8> {
    TOKENS.iter().flat_map(|t| t.to_le_bytes()).collect()
}

#[test]
fn each_output_format_by_extension() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("p.pso");
    std::fs::write(&input, blob()).unwrap();
    let convert = |ext: &str| {
        let target = dir.join(format!("p.{ext}"));
        (run(&[s(&input), s(&target)]), target)
    };

    let (o, t) = convert("wgsl");
    status(&o, 0);
    let wgsl = std::fs::read_to_string(t).unwrap();
    assert!(wgsl.contains("@fragment") && wgsl.contains("fn ps_main"), "{wgsl}");
    // naga reads back what it wrote.
    naga::front::wgsl::parse_str(&wgsl).unwrap();

    let (o, t) = convert("spv");
    status(&o, 0);
    // rspirv reads the module back (header, magic number, every instruction): one fragment entry.
    let module = rspirv::dr::load_bytes(std::fs::read(t).unwrap()).unwrap();
    let models: Vec<_> = module.entry_points.iter().map(|e| e.operands[0].unwrap_execution_model()).collect();
    assert_eq!(models, [rspirv::spirv::ExecutionModel::Fragment]);

    // SPIR-V assembly is written in process: no spirv-dis on PATH is needed.
    let no_tools = dir.join("no-tools");
    std::fs::create_dir_all(&no_tools).unwrap();
    let target = dir.join("p.spvasm");
    let o = run_env(&[s(&input), s(&target)], &[("PATH", s(&no_tools))]);
    status(&o, 0);
    let text = std::fs::read_to_string(target).unwrap();
    assert!(text.contains("OpEntryPoint Fragment") && text.contains("OpFunctionEnd"), "{text}");

    let (o, t) = convert("json");
    status(&o, 0);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(t).unwrap()).unwrap();
    assert_eq!((json["version"].as_str(), json["stage"].as_str()), (Some("ps_2_0"), Some("pixel")));
    // c0 is the only constant read.
    assert_eq!(json["float_constants"]["ranges"], serde_json::json!([{"start": 0, "end": 0}]));

    let (o, t) = convert("asm");
    status(&o, 0);
    assert_eq!(std::fs::read_to_string(t).unwrap(), LISTING);

    let (o, t) = convert("hex");
    status(&o, 0);
    assert_eq!(std::fs::read_to_string(t).unwrap(), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");

    let (o, t) = convert("bin");
    status(&o, 0);
    assert_eq!(std::fs::read(t).unwrap(), blob());

    for (ext, feature, on) in [
        ("metal", "msl", cfg!(feature = "msl")),
        ("glsl", "glsl", cfg!(feature = "glsl")),
        ("frag", "glsl", cfg!(feature = "glsl")),
        ("hlsl", "hlsl", cfg!(feature = "hlsl")),
    ] {
        let (o, t) = convert(ext);
        if on {
            status(&o, 0);
            assert!(!std::fs::read(t).unwrap().is_empty());
        } else {
            status(&o, 1);
            assert!(err(&o).contains(&format!("cargo feature `{feature}`")), "{}", err(&o));
        }
    }
}

#[test]
fn header_with_two_arrays_gives_two_outputs() {
    let scratch = folder();
    let dir = scratch.path();
    let words = |t: &[u32]| t.iter().map(|w| format!("0x{w:08x}")).collect::<Vec<_>>().join(", ");
    let header =
        format!("const DWORD g_ps[] = {{ {} }};\nconst DWORD g_ps2[] = {{ {} }};\n", words(&TOKENS), words(&TOKENS));
    let input = dir.join("both.h");
    std::fs::write(&input, header).unwrap();
    let o = run(&[s(&input), s(&dir.join("both.hex"))]);
    status(&o, 0);
    for array in ["g_ps", "g_ps2"] {
        let text = std::fs::read_to_string(dir.join(format!("both.{array}.hex"))).unwrap();
        assert_eq!(text, "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
    }
}

#[test]
fn stdin_and_stdout() {
    let mut child = Command::new(BIN)
        .args(["translate", "-", "--to", "asm"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&blob()).unwrap();
    let o = child.wait_with_output().unwrap();
    status(&o, 0);
    assert_eq!(out(&o), LISTING);
    // `-` as OUTPUT is stdout, the format from --to.
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("p.pso");
    std::fs::write(&input, blob()).unwrap();
    let o = run(&[s(&input), "-", "--to", "hex"]);
    status(&o, 0);
    assert_eq!(out(&o), "ffff0200 02000001 800f0800 a0e40000 0000ffff\n");
}

/// Two good shaders (one in a subfolder) and one whose instruction token claims more operands
/// than the stream holds.
fn corpus(dir: &Path) -> PathBuf {
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("a.pso"), blob()).unwrap();
    std::fs::write(input.join("sub/v.asm"), VS).unwrap();
    std::fs::write(input.join("broken.hex"), "ffff0200 03000002 800f0800\n").unwrap();
    std::fs::write(input.join("notes.txt"), "not a shader").unwrap();
    input
}

#[test]
fn folder_with_a_failing_blob() {
    let scratch = folder();
    let dir = scratch.path();
    let input = corpus(dir);
    let target = dir.join("out");
    let o = run(&["translate", s(&input), "--to", "wgsl", "-o", s(&target)]);
    status(&o, 1);
    assert!(out(&o).starts_with("translate: 2 passed, 1 failed"), "{}", out(&o));
    // The failure names the file and its error; the good ones are written, the tree mirrored.
    assert!(err(&o).contains("broken.hex") && err(&o).contains("token"), "{}", err(&o));
    assert!(!err(&o).contains("a.pso"), "{}", err(&o));
    // stderr is a pipe here: no progress bar (it would redraw with carriage returns).
    assert!(!err(&o).contains('\r'), "{}", err(&o));
    assert!(std::fs::read_to_string(target.join("a.wgsl")).unwrap().contains("@fragment"));
    assert!(std::fs::read_to_string(target.join("sub/v.wgsl")).unwrap().contains("@vertex"));
    assert!(!target.join("broken.wgsl").exists() && !target.join("notes.wgsl").exists());

    // Files named one by one (as a shell glob gives them) land in OUTDIR by file name.
    let listed = dir.join("listed");
    let (a, v) = (input.join("a.pso"), input.join("sub/v.asm"));
    let o = run(&["translate", s(&a), s(&v), "--to", "hex", "-o", s(&listed)]);
    status(&o, 0);
    assert!(out(&o).starts_with("translate: 2 passed, 0 failed"), "{}", out(&o));
    assert_eq!(
        std::fs::read_to_string(listed.join("a.hex")).unwrap(),
        "ffff0200 02000001 800f0800 a0e40000 0000ffff\n"
    );
    assert!(listed.join("v.hex").exists());
    // A folder among files is a usage error.
    status(&run(&["translate", s(&a), s(&input), "-o", s(&listed)]), 2);
}

#[test]
fn folder_output_does_not_depend_on_the_thread_count() {
    let scratch = folder();
    let dir = scratch.path();
    let input = corpus(dir);
    std::fs::remove_file(input.join("broken.hex")).unwrap();
    for n in 0..6 {
        std::fs::write(input.join(format!("copy{n}.pso")), blob()).unwrap();
    }
    let read = |target: &Path| {
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for e in std::fs::read_dir(target).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push((p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()));
            }
        }
        files.sort();
        files
    };
    let one = dir.join("one");
    let many = dir.join("many");
    status(&run(&["translate", s(&input), "--to", "spv", "-o", s(&one), "--jobs", "1"]), 0);
    let o = run(&["translate", s(&input), "--to", "spv", "-o", s(&many), "-j", "4"]);
    status(&o, 0);
    assert!(out(&o).starts_with("translate: 8 passed, 0 failed"), "{}", out(&o));
    assert_eq!(read(&one).len(), 7);
    assert_eq!(read(&one), read(&many));
    // --quiet: nothing on stdout when everything passed.
    let o = run(&["translate", s(&input), "--to", "spv", "-o", s(&many), "--quiet"]);
    status(&o, 0);
    assert_eq!(out(&o), "");
}

#[test]
fn key_on_the_command_line_and_in_a_file() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("p.asm");
    std::fs::write(&input, LISTING).unwrap();
    let plain = run(&["translate", s(&input)]);
    status(&plain, 0);
    let flag = run(&["translate", s(&input), "--key", "alpha_func=greater"]);
    status(&flag, 0);
    // The alpha test adds a discard to the pixel shader.
    assert!(!out(&plain).contains("discard") && out(&flag).contains("discard"), "{}", out(&flag));
    let file = dir.join("state.toml");
    std::fs::write(&file, "alpha_func = \"greater\"\nclip_planes = 0\npoint_sprite = false\n").unwrap();
    let from_file = run(&["translate", s(&input), "--key-file", s(&file)]);
    status(&from_file, 0);
    assert_eq!(out(&from_file), out(&flag));
}

#[test]
fn bad_keys_and_options_are_usage_errors() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("p.asm");
    std::fs::write(&input, LISTING).unwrap();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "fog = [1, 2]\n").unwrap();
    let unknown_field = dir.join("unknown.toml");
    std::fs::write(&unknown_field, "sideways = true\n").unwrap();
    let not_toml = dir.join("not.toml");
    std::fs::write(&not_toml, "fog = \n").unwrap();
    let missing = dir.join("missing.toml");
    let cases: Vec<Vec<&str>> = vec![
        vec!["translate", s(&input), "--key", "fog=sideways"],
        vec!["translate", s(&input), "--key"],
        vec!["translate", s(&input), "--key-file", s(&bad_toml)],
        vec!["translate", s(&input), "--key-file", s(&unknown_field)],
        vec!["translate", s(&input), "--key-file", s(&not_toml)],
        vec!["translate", s(&input), "--key-file", s(&missing)],
        vec!["translate", s(&input), "--to", "pdf"],
        vec!["translate", s(&input), "--jobs", "0"],
        vec!["translate", s(&input), "--frobnicate"],
        vec!["translate"],
        vec!["translate", s(&input), s(&input)],
        vec!["translate", s(&input), "--to", "spv"],
        vec![s(&input), "p.unknown"],
        vec![s(dir), "out.wgsl"],
        vec!["translate", s(dir), "--to", "wgsl"],
        vec!["frobnicate"],
    ];
    for args in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(!err(&o).is_empty(), "{args:?}");
    }
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    status(&run(&["translate", s(&empty), "-o", s(&dir.join("o"))]), 2);
}

#[test]
fn rejected_inputs_exit_1_and_show_where() {
    let scratch = folder();
    let dir = scratch.path();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    // An assembly error: the line and a caret under the column.
    let asm = write("bad.asm", b"ps_2_0\nmov oC0, q0\n");
    let o = run(&[s(&asm), s(&dir.join("x.wgsl"))]);
    status(&o, 1);
    assert!(
        err(&o).contains("line 2, column 10") && err(&o).contains(" 2 | mov oC0, q0\n   |          ^"),
        "{}",
        err(&o)
    );
    // A hex word that is not one.
    let hex = write("bad.hex", b"ffff0200 zz\n");
    let o = run(&[s(&hex), s(&dir.join("x.wgsl"))]);
    status(&o, 1);
    assert!(err(&o).contains("line 1, column 10") && err(&o).contains("1 | ffff0200 zz"), "{}", err(&o));
    // A truncated stream: the token, shown among its neighbours.
    let cut = write("cut.hex", b"ffff0200 03000002 800f0800\n");
    let o = run(&[s(&cut), s(&dir.join("x.wgsl"))]);
    status(&o, 1);
    assert!(err(&o).contains("token"), "{}", err(&o));
    // A blob whose length is not a whole number of tokens.
    let odd = write("odd.bin", &[0x00, 0x02, 0xFF, 0xFF, 0x01]);
    status(&run(&[s(&odd), s(&dir.join("x.wgsl"))]), 1);
    // An empty file; a missing file.
    let empty = write("empty.bin", b"");
    status(&run(&[s(&empty), s(&dir.join("x.wgsl"))]), 1);
    let o = run(&[s(&dir.join("absent.pso")), s(&dir.join("x.wgsl"))]);
    status(&o, 1);
    assert!(err(&o).contains("absent.pso"), "{}", err(&o));
    // An output that cannot be written.
    let good = write("good.pso", &blob());
    status(&run(&[s(&good), s(&dir.join("no/such/dir/x.wgsl"))]), 1);
}

#[test]
fn strict_refuses_and_lenient_warns_with_the_instruction_shown() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("twice.asm");
    std::fs::write(&input, TWICE).unwrap();
    let target = dir.join("t.wgsl");
    let o = run(&[s(&input), s(&target)]);
    status(&o, 0);
    assert!(err(&o).contains("warning:") && err(&o).contains("declared twice"), "{}", err(&o));
    let o = run(&[s(&input), s(&target), "--quiet"]);
    status(&o, 0);
    assert_eq!(err(&o), "");
    let o = run(&[s(&input), s(&target), "--strict"]);
    status(&o, 1);
    assert!(err(&o).contains("error:") && err(&o).contains("token 4 | dcl_2d s0"), "{}", err(&o));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("bad.asm");
    std::fs::write(&input, "ps_2_0\nmov oC0, q0\n").unwrap();
    let target = dir.join("x.wgsl");
    let piped = run(&[s(&input), s(&target)]);
    assert!(!err(&piped).contains('\x1b'), "{}", err(&piped));
    let forced = run_env(&[s(&input), s(&target)], &[("CLICOLOR_FORCE", "1")]);
    assert!(err(&forced).contains("\x1b[1;31merror:\x1b[0m"), "{}", err(&forced));
}

#[test]
fn help_everywhere_with_examples() {
    for args in
        [vec!["--help"], vec!["translate", "--help"], vec!["info", "--help"], vec!["in.pso", "out.wgsl", "--help"]]
    {
        let o = run(&args);
        status(&o, 0);
        assert!(out(&o).contains("Examples:"), "{args:?}: {}", out(&o));
    }
    for command in ["disasm", "asm", "validate", "run", "completions"] {
        let o = run(&[command, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{command}: {}", err(&o));
        assert!(out(&o).contains("Usage:") && out(&o).contains("Examples:"), "{command}: {}", out(&o));
    }
}

#[test]
fn every_subcommand_shows_where_its_input_is_wrong() {
    let scratch = folder();
    let dir = scratch.path();
    let asm = dir.join("bad.asm");
    std::fs::write(&asm, "ps_2_0\nmov oC0, q0\n").unwrap();
    for command in ["disasm", "asm", "validate", "info", "run"] {
        let o = run(&[command, s(&asm)]);
        status(&o, 1);
        assert!(err(&o).contains(" 2 | mov oC0, q0\n   |          ^"), "{command}: {}", err(&o));
    }
}

/// An integer constant in a key file as a TOML array of its components, as `--key` takes the
/// same components as a string (`rep i2` baked: the count is in the code).
#[test]
fn key_file_integer_constants_as_arrays() {
    let scratch = folder();
    let dir = scratch.path();
    let input = dir.join("v.asm");
    std::fs::write(
        &input,
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nrep i2\nadd r0, r0, v0\nendrep\nmov o0, r0\n",
    )
    .unwrap();
    let baked = ["--deliver", "int_constants=baked"];
    let flag = run(&[&["translate", s(&input), "--key", "int2=3,0,1,0"][..], &baked].concat());
    status(&flag, 0);
    let file = dir.join("state.toml");
    std::fs::write(&file, "int2 = [3, 0, 1, 0]\n").unwrap();
    let from_file = run(&[&["translate", s(&input), "--key-file", s(&file)][..], &baked].concat());
    status(&from_file, 0);
    assert_eq!(out(&from_file), out(&flag));
    let other = dir.join("other.toml");
    std::fs::write(&other, "int2 = [4, 0, 1, 0]\n").unwrap();
    let four = run(&[&["translate", s(&input), "--key-file", s(&other)][..], &baked].concat());
    assert_ne!(out(&four), out(&flag), "another count is another translation");
    for bad in ["int2 = [3, \"0\", 1]\n", "int2 = [3, 0]\n", "int2 = [1, 2, 3, 4, 5]\n"] {
        std::fs::write(&other, bad).unwrap();
        let o = run(&["translate", s(&input), "--key-file", s(&other)]);
        assert!(!o.status.success(), "{bad} was taken");
    }
}
