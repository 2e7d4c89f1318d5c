//! `d3d9-shader translate` and `d3d9-shader info`.

use std::io::Write;

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::Program;
use d3d9_shader::validate::{validate, ValidationOptions};
use d3d9_shader::{translate, ShaderKey};

use super::{EXIT_REJECTED, EXIT_USAGE};

const TRANSLATE_USAGE: &str = "\
usage: d3d9-shader translate INPUT [--to wgsl|spv|spvasm|msl|glsl|hlsl] [-o OUT] [--key FIELD=VALUE]... [--strict]

  INPUT             a raw blob, a .hex file, an fxc /Fh header, an .asm listing, or - for stdin
  --strict          refuse programs the D3D9 runtime would refuse (default: the lenient rules)

  --to FORMAT       output format (default: from OUT's extension, else wgsl)
  -o OUT            write to OUT (default: stdout; spv needs -o)
  --key FIELD=VALUE state the translation depends on, e.g. --key fog=linear --key alpha_func=greater
                    fields: float_rules alpha_func fog fog_source clip_planes point_size point_sprite
                    flat_shading swvp shadow_samplers unbound_samplers projected sampler<N>

examples:
  d3d9-shader translate shader.hex --to wgsl
  d3d9-shader translate shader.bin -o shader.spv --key float_rules=ieee";

const INFO_USAGE: &str = "usage: d3d9-shader info INPUT [--json]";

fn load(path: &str) -> Result<Program, String> {
    super::input::load_program(path).map(|(p, _)| p)
}

/// Runs the validator (lenient unless `strict`); errors refuse the program.
fn check(program: &Program, name: &str, strict: bool, swvp: bool) -> Result<(), String> {
    let mut options = if strict { ValidationOptions::strict() } else { ValidationOptions::lenient() };
    options.swvp = swvp;
    let v = validate(program, &options);
    if v.is_ok() {
        return Ok(());
    }
    let list: Vec<String> = v.errors.iter().map(|d| format!("  {d}")).collect();
    Err(format!("{name}: rejected by the {} validator:\n{}", if strict { "strict" } else { "lenient" }, list.join("\n")))
}

pub fn main(args: &[String]) -> i32 {
    let mut input = None;
    let mut to = None;
    let mut out = None;
    let mut key = ShaderKey::default();
    let mut strict = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--to" => to = it.next().cloned(),
            "--strict" => strict = true,
            "-o" | "--output" => out = it.next().cloned(),
            "--key" => {
                let Some(kv) = it.next() else {
                    eprintln!("d3d9-shader: --key needs FIELD=VALUE\n\n{TRANSLATE_USAGE}");
                    return EXIT_USAGE;
                };
                if let Err(e) = key.set(kv) {
                    eprintln!("d3d9-shader: --key {e}");
                    return EXIT_USAGE;
                }
            }
            "-h" | "--help" => {
                println!("{TRANSLATE_USAGE}");
                return 0;
            }
            s if input.is_none() && (!s.starts_with('-') || s == "-") => input = Some(s.to_string()),
            other => {
                eprintln!("d3d9-shader: unexpected argument `{other}`\n\n{TRANSLATE_USAGE}");
                return EXIT_USAGE;
            }
        }
    }
    let Some(input) = input else {
        eprintln!("{TRANSLATE_USAGE}");
        return EXIT_USAGE;
    };
    let format = to.unwrap_or_else(|| {
        match out.as_deref().and_then(|o| o.rsplit_once('.')).map(|(_, e)| e) {
            Some("spv") => "spv",
            Some("spvasm") => "spvasm",
            Some("metal" | "msl") => "msl",
            Some("glsl" | "vert" | "frag") => "glsl",
            Some("hlsl") => "hlsl",
            _ => "wgsl",
        }
        .to_string()
    });
    let program = match load(&input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    if let Err(e) = check(&program, &input, strict, key.swvp) {
        eprintln!("d3d9-shader: {e}");
        return EXIT_REJECTED;
    }
    let t = match translate(&program, &key) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("d3d9-shader: {input}: {e}");
            return EXIT_REJECTED;
        }
    };
    let bytes: Result<Vec<u8>, String> = match format.as_str() {
        "wgsl" => t.to_wgsl().map(String::into_bytes).map_err(|e| e.to_string()),
        "spv" => t.to_spirv().map(|w| w.iter().flat_map(|x| x.to_le_bytes()).collect()).map_err(|e| e.to_string()),
        "spvasm" => t.to_spirv().map_err(|e| e.to_string()).and_then(|w| spvasm(&w)),
        #[cfg(feature = "msl")]
        "msl" => t.to_msl().map(String::into_bytes).map_err(|e| e.to_string()),
        #[cfg(feature = "glsl")]
        "glsl" => t.to_glsl().map(String::into_bytes).map_err(|e| e.to_string()),
        #[cfg(feature = "hlsl")]
        "hlsl" => t.to_hlsl().map(String::into_bytes).map_err(|e| e.to_string()),
        "msl" | "glsl" | "hlsl" => Err(format!("this build has no {format} backend (cargo feature `{format}`)")),
        other => {
            eprintln!("d3d9-shader: unknown format `{other}`\n\n{TRANSLATE_USAGE}");
            return EXIT_USAGE;
        }
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("d3d9-shader: {input}: {e}");
            return EXIT_REJECTED;
        }
    };
    let written = match &out {
        Some(path) => std::fs::write(path, &bytes).map_err(|e| format!("{path}: {e}")),
        None if format == "spv" => Err("binary SPIR-V needs -o OUT".to_string()),
        None => std::io::stdout().write_all(&bytes).map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            EXIT_REJECTED
        }
    }
}

/// SPIR-V assembly through `spirv-dis` (spirv-tools).
fn spvasm(words: &[u32]) -> Result<Vec<u8>, String> {
    let tmp = std::env::temp_dir().join(format!("d3d9-shader-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&tmp, bytes).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("spirv-dis").arg(&tmp).output();
    let _ = std::fs::remove_file(&tmp);
    let out = out.map_err(|e| format!("spvasm needs spirv-dis (spirv-tools): {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(out.stdout)
}

pub fn info_main(args: &[String]) -> i32 {
    let mut json = false;
    let mut input = None;
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            "-h" | "--help" => {
                println!("{INFO_USAGE}");
                return 0;
            }
            s if input.is_none() => input = Some(s.to_string()),
            other => {
                eprintln!("d3d9-shader: unexpected argument `{other}`\n\n{INFO_USAGE}");
                return EXIT_USAGE;
            }
        }
    }
    let Some(input) = input else {
        eprintln!("{INFO_USAGE}");
        return EXIT_USAGE;
    };
    let program = match load(&input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    let sig = analyse(&program);
    if json {
        match serde_json::to_string_pretty(&sig) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("d3d9-shader: {e}");
                return EXIT_REJECTED;
            }
        }
        return 0;
    }
    println!("version: {}", sig.version);
    let io = |title: &str, list: &[d3d9_shader::analysis::IoRegister]| {
        println!("{title}:");
        for r in list {
            let sem = r.usage.as_ref().map(|u| format!(" {u}{}", r.usage_index)).unwrap_or_default();
            println!("  {:<8}{sem} mask {:04b} used {:04b}{}", r.register, r.mask, r.used_mask, if r.centroid { " centroid" } else { "" });
        }
    };
    io("inputs", &sig.inputs);
    io("outputs", &sig.outputs);
    for (name, c) in [("float", &sig.float_constants), ("int", &sig.int_constants), ("bool", &sig.bool_constants)] {
        if c.used.is_empty() && !c.relative && c.defined.is_empty() {
            continue;
        }
        println!(
            "{name} constants: used {:?}{}, defined {:?}",
            c.used,
            if c.relative { format!(", relative from {:?}", c.relative_bases) } else { String::new() },
            c.defined.keys().collect::<Vec<_>>()
        );
    }
    for s in &sig.samplers {
        println!("sampler s{}: {}", s.index, s.declared.as_deref().unwrap_or("undeclared"));
    }
    for c in &sig.ctab {
        println!("ctab: {} = {}{} ({} registers)", c.name, c.set, c.register, c.count);
    }
    println!("features: {}", serde_json::to_string(&sig.features).unwrap_or_default());
    0
}
