//! `d3d9-shader run INPUT`: executes one invocation in the CPU reference interpreter and prints
//! every output register the shader wrote. A pixel shader runs as a 2×2 quad of equal inputs
//! (so derivatives are 0) and lane 0 is printed.
//!
//! INPUT is any format the tool reads (raw blob, `.hex`, fxc header, assembly listing, `-`).
//!
//! ```text
//! d3d9-shader run INPUT [--input v0=1,2,3,4]... [--input t0=...] [--input vPos=x,y] [--input vFace=-1]
//!                       [--const c0=1,2,3,4]... [--int i0=4,0,1,0]... [--bool b0=true|false]...
//!                       [--float-rules strict|fast|ieee] [--json]
//! ```
//!
//! Values with fewer than four components are expanded as a vertex element is: `1,2` is
//! (1, 2, 0, 1). Registers are named as the disassembler writes them (`oPos`, `oD0`, `oT0`,
//! `oFog`, `oPts`, `o0`…`o11`, `oC0`…`oC3`, `oDepth`; ps_1_x `r0` is printed as `oC0`). With
//! `--json` the output is `{"outputs": {"oC0": [r, g, b, a], ..., "oDepth": d}, "discarded": false}`
//! (`discarded` only for pixel shaders); non-finite numbers are written as the strings `"NaN"`,
//! `"Infinity"` and `"-Infinity"`.

use std::fmt::Write;

use clap::Args;
use d3d9_shader::bytecode::{Program, ShaderKind};
use d3d9_shader::interp::{
    run_pixel, run_vertex, Constants, InterpError, Options, OutputRegister, PixelInput, UnboundSampler, VertexInput,
};
use d3d9_shader::key::FloatRules;

use super::input::load_program;
use super::status::{examples, usage_error, write_stdout, Status, EXIT_REJECTED};

/// `d3d9-shader run`.
#[derive(Args)]
#[command(
    long_about = "Runs one invocation of INPUT in the CPU reference interpreter and prints every output \
                  register it wrote. Values with fewer than four components expand as a vertex element \
                  does (1,2 is 1, 2, 0, 1). A pixel shader runs as a 2x2 quad of equal inputs (so \
                  derivatives are 0); lane 0 is printed.",
    after_help = examples!(
        "d3d9-shader run shader.vso --input v0=1,2,3 --const c0=1,0,0,0 --const c1=0,1,0,0"
        "d3d9-shader run shader.pso --input t0=0.5,0.5 --json"
        "d3d9-shader run loop.vso --int i0=4,0,1,0 --bool b0=true"
    )
)]
pub struct RunArgs {
    /// A blob, .hex, fxc header (its first array) or listing; - for stdin.
    input: String,
    /// An input register's value: v0-v15 (vertex), v0-v9, t0-t7, vPos=x,y, vFace=-1 (pixel).
    #[arg(long = "input", value_name = "REGISTER=X,Y,Z,W", value_parser = input_value)]
    values: Vec<InputValue>,
    /// A float constant, c0-c8191.
    #[arg(long = "const", value_name = "cN=X,Y,Z,W", value_parser = float_constant)]
    floats: Vec<(usize, [f32; 4])>,
    /// An integer constant, i0-i15 (components not given stay 0).
    #[arg(long = "int", value_name = "iN=X,Y,Z,W", value_parser = int_constant)]
    ints: Vec<(usize, Vec<i32>)>,
    /// A boolean constant, b0-b15.
    #[arg(long = "bool", value_name = "bN=true|false", value_parser = bool_constant)]
    bools: Vec<(usize, bool)>,
    /// How multiplications, reciprocals and logarithms treat 0, infinity and NaN.
    #[arg(long, value_enum, default_value_t = FloatRules::Strict)]
    float_rules: FloatRules,
    /// Print `{"outputs": {...}, "discarded": ...}`.
    #[arg(long)]
    json: bool,
}

/// One `--input`: the register's name, its value and how many components were given.
#[derive(Clone)]
struct InputValue {
    name: String,
    value: [f32; 4],
    count: usize,
}

/// `1,2,3` → ([1, 2, 3, 1], 3): missing components as a vertex element expands them.
fn parse_floats(s: &str) -> Result<([f32; 4], usize), String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 4 {
        return Err(format!("`{s}`: expected 1 to 4 comma-separated numbers"));
    }
    let mut v = [0.0, 0.0, 0.0, 1.0];
    for (i, p) in parts.iter().enumerate() {
        v[i] = p.parse().map_err(|_| format!("`{p}` is not a number"))?;
    }
    Ok((v, parts.len()))
}

/// `c12=...` with prefix `c` below `count` → (12, "...").
fn split_assignment<'a>(s: &'a str, prefix: &str, count: usize) -> Result<(usize, &'a str), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected {prefix}N=VALUE"))?;
    let n = name
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("`{name}`: expected {prefix}N"))?;
    if n >= count {
        return Err(format!("{prefix}{n}: the registers go up to {prefix}{}", count - 1));
    }
    Ok((n, value))
}

fn input_value(s: &str) -> Result<InputValue, String> {
    let (name, values) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected REGISTER=VALUES"))?;
    let (value, count) = parse_floats(values)?;
    Ok(InputValue { name: name.to_string(), value, count })
}

fn float_constant(s: &str) -> Result<(usize, [f32; 4]), String> {
    let (n, value) = split_assignment(s, "c", 8192)?;
    Ok((n, parse_floats(value)?.0))
}

fn int_constant(s: &str) -> Result<(usize, Vec<i32>), String> {
    let (n, value) = split_assignment(s, "i", 16)?;
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    if parts.len() > 4 {
        return Err(format!("`{value}`: at most 4 integers"));
    }
    let ints: Result<Vec<i32>, String> =
        parts.iter().map(|p| p.parse().map_err(|_| format!("`{p}` is not an integer"))).collect();
    Ok((n, ints?))
}

fn bool_constant(s: &str) -> Result<(usize, bool), String> {
    let (n, value) = split_assignment(s, "b", 16)?;
    match value {
        "true" | "1" => Ok((n, true)),
        "false" | "0" => Ok((n, false)),
        other => Err(format!("`{other}`: expected true or false")),
    }
}

impl RunArgs {
    fn constants(&self) -> Constants {
        let mut c = Constants::default();
        for &(n, value) in &self.floats {
            if c.float.len() <= n {
                c.float.resize(n + 1, [0.0; 4]);
            }
            c.float[n] = value;
        }
        for (n, ints) in &self.ints {
            c.int[*n][..ints.len()].copy_from_slice(ints);
        }
        for &(n, b) in &self.bools {
            c.bool[n] = b;
        }
        c
    }

    fn options(&self) -> Options {
        Options { float_rules: self.float_rules, ..Options::default() }
    }
}

enum Value {
    Vector([f32; 4]),
    Scalar(f32),
}

fn json_number(x: f32) -> String {
    if x.is_nan() {
        "\"NaN\"".into()
    } else if x.is_infinite() {
        if x > 0.0 { "\"Infinity\"" } else { "\"-Infinity\"" }.into()
    } else {
        // serde_json writes the shortest representation that reads back as the same number.
        serde_json::Value::from(x as f64).to_string()
    }
}

/// What one invocation wrote: the registers in order, and (pixel shaders) whether it discarded.
#[derive(Default)]
struct Written {
    outputs: Vec<(String, Value)>,
    discarded: Option<bool>,
}

impl Written {
    fn push(&mut self, name: String, r: &OutputRegister) {
        if r.is_written() {
            self.outputs.push((name, Value::Vector(r.value)));
        }
    }
}

/// The run failed: a usage error (an input register the stage has not) or the interpreter's.
enum Failure {
    Usage(String),
    Interp(InterpError),
}

fn run_vertex_shader(program: &Program, args: &RunArgs) -> Result<Written, Failure> {
    let mut input = VertexInput::default();
    for v in &args.values {
        match v.name.strip_prefix('v').and_then(|n| n.parse::<usize>().ok()).filter(|&n| n < 16) {
            Some(n) => input.v[n] = v.value,
            None => return Err(Failure::Usage(format!("`{}` is not a vertex input (v0–v15)", v.name))),
        }
    }
    let out =
        run_vertex(program, &input, &args.constants(), &args.options(), &UnboundSampler).map_err(Failure::Interp)?;
    let mut w = Written::default();
    if !program.version.profile().fixed_io {
        for (i, r) in out.outputs.iter().enumerate() {
            w.push(format!("o{i}"), r);
        }
    } else {
        w.push("oPos".into(), &out.position);
        for (i, r) in out.colors.iter().enumerate() {
            w.push(format!("oD{i}"), r);
        }
        for (i, r) in out.texcoords.iter().enumerate() {
            w.push(format!("oT{i}"), r);
        }
        w.push("oFog".into(), &out.fog);
        w.push("oPts".into(), &out.point_size);
    }
    Ok(w)
}

fn run_pixel_shader(program: &Program, args: &RunArgs) -> Result<Written, Failure> {
    let mut input = PixelInput::default();
    for InputValue { name, value: v, count } in &args.values {
        let index =
            |p: &str, max: usize| name.strip_prefix(p).and_then(|n| n.parse::<usize>().ok()).filter(|&n| n < max);
        if name == "vPos" {
            input.vpos = [v[0], if *count > 1 { v[1] } else { 0.0 }];
        } else if name == "vFace" {
            input.vface = v[0];
        } else if let Some(n) = index("v", 10) {
            input.v[n] = *v;
        } else if let Some(n) = index("t", 8) {
            input.t[n] = *v;
        } else {
            return Err(Failure::Usage(format!("`{name}` is not a pixel input (v0–v9, t0–t7, vPos, vFace)")));
        }
    }
    let out =
        run_pixel(program, &input, &args.constants(), &args.options(), &UnboundSampler).map_err(Failure::Interp)?;
    let mut w = Written::default();
    for (i, c) in out.color.iter().enumerate() {
        if let Some(c) = c {
            w.outputs.push((format!("oC{i}"), Value::Vector(*c)));
        }
    }
    if let Some(d) = out.depth {
        w.outputs.push(("oDepth".into(), Value::Scalar(d)));
    }
    w.discarded = Some(out.discarded);
    Ok(w)
}

pub fn main(args: &RunArgs) -> Status {
    let program = match load_program(&args.input) {
        Ok((p, _)) => p,
        Err(e) => {
            eprintln!("d3d9-shader run: {e}");
            return Ok(EXIT_REJECTED);
        }
    };
    let result = match program.version.kind {
        ShaderKind::Vertex => run_vertex_shader(&program, args),
        ShaderKind::Pixel => run_pixel_shader(&program, args),
    };
    let written = match result {
        Ok(w) => w,
        Err(Failure::Usage(message)) => return usage_error(Some("run"), message),
        Err(Failure::Interp(e)) => {
            eprintln!("d3d9-shader run: {}: {e}", args.input);
            return Ok(EXIT_REJECTED);
        }
    };
    let text = if args.json { json(&written) } else { plain(&written) };
    Ok(write_stdout(text.as_bytes()))
}

fn json(w: &Written) -> String {
    let fields: Vec<String> = w
        .outputs
        .iter()
        .map(|(name, v)| {
            let value = match v {
                Value::Vector(v) => format!("[{}]", v.map(json_number).join(", ")),
                Value::Scalar(x) => json_number(*x),
            };
            format!("\"{name}\": {value}")
        })
        .collect();
    let mut text = format!("{{\"outputs\": {{{}}}", fields.join(", "));
    if let Some(d) = w.discarded {
        let _ = write!(text, ", \"discarded\": {d}");
    }
    text.push_str("}\n");
    text
}

fn plain(w: &Written) -> String {
    let mut text = String::new();
    for (name, v) in &w.outputs {
        let _ = match v {
            Value::Vector(v) => writeln!(text, "{name} = ({}, {}, {}, {})", v[0], v[1], v[2], v[3]),
            Value::Scalar(x) => writeln!(text, "{name} = {x}"),
        };
    }
    if w.discarded == Some(true) {
        text.push_str("discarded\n");
    }
    text
}
