//! `d3d9-shader info INPUT [--json]`: what a shader reads and writes.

use std::fmt::Write;

use clap::Args;
use d3d9_shader::analysis::{analyse, ctab_names, IoRegister};
use d3d9_shader::{ParseOptions, Shader};

use super::status::{examples, write_stdout, EXIT_REJECTED};

/// `d3d9-shader info`.
#[derive(Args)]
#[command(
    long_about = "Prints the version, the inputs and outputs with their semantics, the constants used \
                  (and whether relatively addressed), the samplers and their types, the constant table's \
                  names and the features used.",
    after_help = examples!(
        "d3d9-shader info shader.pso"
        "d3d9-shader info shader.hex --json"
    )
)]
pub struct InfoArgs {
    /// A blob, .hex, fxc header (its first array) or listing; - for stdin.
    input: String,
    /// The reflection as JSON (as `d3d9-shader INPUT OUT.json` writes it).
    #[arg(long)]
    json: bool,
}

pub fn main(args: &InfoArgs) -> i32 {
    let (program, _) = match super::input::load_program(&args.input) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    if args.json {
        // The front door's reflection, as `d3d9-shader INPUT OUT.json` writes it.
        let reflection = match Shader::from_program(program, &ParseOptions::default()) {
            Ok(shader) => serde_json::to_string_pretty(shader.reflection()),
            Err(e) => {
                eprintln!("d3d9-shader: {}: {e}", args.input);
                return EXIT_REJECTED;
            }
        };
        return match reflection {
            Ok(s) => write_stdout(format!("{s}\n").as_bytes()),
            Err(e) => {
                eprintln!("d3d9-shader: {e}");
                EXIT_REJECTED
            }
        };
    }
    write_stdout(summary(&program).as_bytes())
}

/// The plain-text summary.
fn summary(program: &d3d9_shader::bytecode::Program) -> String {
    let sig = analyse(program);
    let mut out = String::new();
    let _ = writeln!(out, "version: {}", sig.version);
    let io = |out: &mut String, title: &str, list: &[IoRegister]| {
        let _ = writeln!(out, "{title}:");
        for r in list {
            let sem = r.usage.map(|u| format!(" {}{}", u.name(), r.usage_index)).unwrap_or_default();
            let centroid = if r.centroid { " centroid" } else { "" };
            let _ = writeln!(out, "  {:<8}{sem} mask {:04b} used {:04b}{centroid}", r.register, r.mask, r.used_mask);
        }
    };
    io(&mut out, "inputs", &sig.inputs);
    io(&mut out, "outputs", &sig.outputs);
    for (name, c) in [("float", &sig.float_constants), ("int", &sig.int_constants), ("bool", &sig.bool_constants)] {
        if c.used.is_empty() && !c.relative && c.defined.is_empty() {
            continue;
        }
        let relative = if c.relative { format!(", relative from {:?}", c.relative_bases) } else { String::new() };
        let defined: Vec<_> = c.defined.keys().collect();
        let _ = writeln!(out, "{name} constants: used {:?}{relative}, defined {defined:?}", c.used);
    }
    for s in &sig.samplers {
        let _ = writeln!(out, "sampler s{}: {}", s.index, s.declared.map_or("undeclared", |t| t.name()));
    }
    for c in &ctab_names(program) {
        let _ = writeln!(out, "ctab: {} = {}{} ({} registers)", c.name, c.set, c.register, c.count);
    }
    let _ = writeln!(out, "features: {}", serde_json::to_string(&sig.features).unwrap_or_default());
    out
}
