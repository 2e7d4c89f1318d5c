//! `d3d9-shader info` (translation itself is in `convert.rs`).

use d3d9_shader::analysis::analyse;
use d3d9_shader::{ParseOptions, Shader};

use super::{EXIT_REJECTED, EXIT_USAGE};

const INFO_USAGE: &str = "usage: d3d9-shader info INPUT [--json]
  prints the version, inputs and outputs with their semantics, the constants used (and whether
  relatively addressed), samplers and their types, constant-table names and features used;
  --json prints the reflection as JSON (the same as `d3d9-shader INPUT OUT.json`)

examples:
  d3d9-shader info shader.pso
  d3d9-shader info shader.hex --json";

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
    let (program, _) = match super::input::load_program(&input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    let sig = analyse(&program);
    if json {
        // The front door's reflection, as `d3d9-shader INPUT OUT.json` writes it.
        let reflection = match Shader::from_program(program, &ParseOptions::default()) {
            Ok(shader) => serde_json::to_string_pretty(shader.reflection()),
            Err(e) => {
                eprintln!("d3d9-shader: {input}: {e}");
                return EXIT_REJECTED;
            }
        };
        match reflection {
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
            println!(
                "  {:<8}{sem} mask {:04b} used {:04b}{}",
                r.register,
                r.mask,
                r.used_mask,
                if r.centroid { " centroid" } else { "" }
            );
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
