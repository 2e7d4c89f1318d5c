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

use d3d9_shader::bytecode::ShaderKind;
use d3d9_shader::interp::{
    run_pixel, run_vertex, Constants, FloatRules, Options, OutputRegister, PixelInput, UnboundSampler, VertexInput,
};

use super::input::load_program;
use super::{EXIT_REJECTED, EXIT_USAGE};

struct Args {
    input: String,
    json: bool,
    options: Options,
    constants: Constants,
    values: Vec<(String, [f32; 4], usize)>,
}

fn usage(msg: &str) -> i32 {
    eprintln!("d3d9-shader run: {msg}");
    eprintln!(
        "usage: d3d9-shader run INPUT [--input v0=1,2,3,4]... [--const c0=...]... [--int i0=...]... \
         [--bool b0=true|false]... [--float-rules strict|fast|ieee] [--json]"
    );
    EXIT_USAGE
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

/// `c12=...` → ("c", 12, "...").
fn split_assignment<'a>(s: &'a str, prefix: &str) -> Result<(usize, &'a str), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected {prefix}N=VALUE"))?;
    let n = name
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("`{name}`: expected {prefix}N"))?;
    Ok((n, value))
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        input: String::new(),
        json: false,
        options: Options::default(),
        constants: Constants::default(),
        values: Vec::new(),
    };
    let mut input = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--json" => a.json = true,
            "--float-rules" => {
                a.options.float_rules = match value(arg)?.as_str() {
                    "strict" => FloatRules::Strict,
                    "fast" => FloatRules::Fast,
                    "ieee" => FloatRules::Ieee,
                    other => return Err(format!("unknown float rules `{other}`")),
                }
            }
            "--input" => {
                let v = value(arg)?;
                let (name, val) = v.split_once('=').ok_or_else(|| format!("`{v}`: expected REGISTER=VALUES"))?;
                let (vals, n) = parse_floats(val)?;
                a.values.push((name.to_string(), vals, n));
            }
            "--const" => {
                let v = value(arg)?;
                let (n, val) = split_assignment(&v, "c")?;
                if n >= 8192 {
                    return Err(format!("c{n}: float constants go up to c8191"));
                }
                if a.constants.float.len() <= n {
                    a.constants.float.resize(n + 1, [0.0; 4]);
                }
                a.constants.float[n] = parse_floats(val)?.0;
            }
            "--int" => {
                let v = value(arg)?;
                let (n, val) = split_assignment(&v, "i")?;
                let slot = a.constants.int.get_mut(n).ok_or_else(|| format!("i{n}: integer constants go up to i15"))?;
                let parts: Vec<&str> = val.split(',').map(str::trim).collect();
                if parts.len() > 4 {
                    return Err(format!("`{val}`: at most 4 integers"));
                }
                for (i, p) in parts.iter().enumerate() {
                    slot[i] = p.parse().map_err(|_| format!("`{p}` is not an integer"))?;
                }
            }
            "--bool" => {
                let v = value(arg)?;
                let (n, val) = split_assignment(&v, "b")?;
                let slot = a.constants.bool.get_mut(n).ok_or_else(|| format!("b{n}: bool constants go up to b15"))?;
                *slot = match val {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    other => return Err(format!("`{other}`: expected true or false")),
                };
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s => {
                if input.replace(s.to_string()).is_some() {
                    return Err("more than one INPUT".into());
                }
            }
        }
    }
    a.input = input.ok_or("missing INPUT")?;
    Ok(a)
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

pub fn main(args: &[String]) -> i32 {
    let a = match parse_args(args) {
        Ok(a) => a,
        Err(e) => return usage(&e),
    };
    let program = match load_program(&a.input) {
        Ok((p, _)) => p,
        Err(e) => {
            eprintln!("d3d9-shader run: {e}");
            return EXIT_REJECTED;
        }
    };
    let mut outputs: Vec<(String, Value)> = Vec::new();
    let mut discarded = None;
    let push_reg = |outputs: &mut Vec<(String, Value)>, name: String, r: &OutputRegister| {
        if r.is_written() {
            outputs.push((name, Value::Vector(r.value)));
        }
    };
    let result = match program.version.kind {
        ShaderKind::Vertex => {
            let mut input = VertexInput::default();
            for (name, v, _) in &a.values {
                match name.strip_prefix('v').and_then(|n| n.parse::<usize>().ok()).filter(|&n| n < 16) {
                    Some(n) => input.v[n] = *v,
                    None => return usage(&format!("`{name}` is not a vertex input (v0–v15)")),
                }
            }
            run_vertex(&program, &input, &a.constants, &a.options, &UnboundSampler).map(|out| {
                if !program.version.profile().fixed_io {
                    for (i, r) in out.outputs.iter().enumerate() {
                        push_reg(&mut outputs, format!("o{i}"), r);
                    }
                } else {
                    push_reg(&mut outputs, "oPos".into(), &out.position);
                    for (i, r) in out.colors.iter().enumerate() {
                        push_reg(&mut outputs, format!("oD{i}"), r);
                    }
                    for (i, r) in out.texcoords.iter().enumerate() {
                        push_reg(&mut outputs, format!("oT{i}"), r);
                    }
                    push_reg(&mut outputs, "oFog".into(), &out.fog);
                    push_reg(&mut outputs, "oPts".into(), &out.point_size);
                }
            })
        }
        ShaderKind::Pixel => {
            let mut input = PixelInput::default();
            for (name, v, count) in &a.values {
                let index = |p: &str, max: usize| {
                    name.strip_prefix(p).and_then(|n| n.parse::<usize>().ok()).filter(|&n| n < max)
                };
                if name == "vPos" {
                    input.vpos = [v[0], if *count > 1 { v[1] } else { 0.0 }];
                } else if name == "vFace" {
                    input.vface = v[0];
                } else if let Some(n) = index("v", 10) {
                    input.v[n] = *v;
                } else if let Some(n) = index("t", 8) {
                    input.t[n] = *v;
                } else {
                    return usage(&format!("`{name}` is not a pixel input (v0–v9, t0–t7, vPos, vFace)"));
                }
            }
            run_pixel(&program, &input, &a.constants, &a.options, &UnboundSampler).map(|out| {
                for (i, c) in out.color.iter().enumerate() {
                    if let Some(c) = c {
                        outputs.push((format!("oC{i}"), Value::Vector(*c)));
                    }
                }
                if let Some(d) = out.depth {
                    outputs.push(("oDepth".into(), Value::Scalar(d)));
                }
                discarded = Some(out.discarded);
            })
        }
    };
    if let Err(e) = result {
        eprintln!("d3d9-shader run: {}: {e}", a.input);
        return EXIT_REJECTED;
    }
    if a.json {
        let fields: Vec<String> = outputs
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
        if let Some(d) = discarded {
            text.push_str(&format!(", \"discarded\": {d}"));
        }
        println!("{text}}}");
    } else {
        for (name, v) in &outputs {
            match v {
                Value::Vector(v) => println!("{name} = ({}, {}, {}, {})", v[0], v[1], v[2], v[3]),
                Value::Scalar(x) => println!("{name} = {x}"),
            }
        }
        if discarded == Some(true) {
            println!("discarded");
        }
    }
    0
}
