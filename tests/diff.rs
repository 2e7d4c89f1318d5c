//! Differential testing: a generated program becomes a draw case (the harness's TOML format,
//! docs/case-format.md), drawn on the GPU and on the CPU
//! reference and compared under the harness's tolerance policy; a mismatch is shrunk to a small
//! program that still mismatches and still passes the strict validator.
//!
//! The case: an 8×8 float target (A32B32G32R32F, plus targets 1–3 where the shaders write
//! them), a quad covering it, every attribute constant across the quad (only the position
//! varies), culling and the depth test off. The generated program is paired with a partner that
//! passes values through: a vertex program with a pixel shader that writes each interpolated
//! output to a target of its own, a pixel program with a vertex shader that passes each input's
//! attribute on under its semantic.

use std::fmt::Write as _;

use d3d9_shader::asm::{assemble, disassemble, DisasmOptions};
use d3d9_shader::bytecode::{Opcode, Program, RegisterType, ShaderKind, TextureType, Usage};
use d3d9_shader::validate::{validate, ValidationOptions};

use gpu_harness::case::sampler_stage;

use crate::generate::Generated;

/// Side of the square render target.
pub const SIZE: u32 = 8;

/// A case ready to write: its TOML text and its shaders by name.
#[derive(Clone, Debug)]
pub struct DiffCase {
    /// The case file.
    pub toml: String,
    /// (name, program): the generated program and its partner.
    pub shaders: Vec<(String, Program)>,
}

fn usage_name(u: Usage) -> &'static str {
    match u {
        Usage::Position => "POSITION",
        Usage::Color => "COLOR",
        Usage::Normal => "NORMAL",
        Usage::TexCoord => "TEXCOORD",
        Usage::Fog => "FOG",
        Usage::PSize => "PSIZE",
        _ => "TEXCOORD",
    }
}

fn dcl_name(u: Usage, index: u8) -> String {
    format!("dcl_{}{}", usage_name(u).to_ascii_lowercase(), index)
}

/// A float as TOML writes it, exactly (through f64, which holds every f32).
fn toml_float(x: f32) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        let s = format!("{:?}", x as f64);
        if s.contains('.') || s.contains('e') || s.contains("inf") {
            s
        } else {
            format!("{s}.0")
        }
    }
}

fn floats(values: impl IntoIterator<Item = f32>) -> String {
    values.into_iter().map(toml_float).collect::<Vec<_>>().join(", ")
}

/// The partner of a generated program (assembly text).
fn partner(g: &Generated) -> String {
    let v = g.program.version;
    match v.kind {
        ShaderKind::Vertex if v.major >= 3 => {
            "ps_3_0\ndcl_color0 v0\ndcl_texcoord0 v1\nmov oC0, v0\nmov oC1, v1\n".into()
        }
        ShaderKind::Vertex => {
            "ps_2_0\ndcl v0\ndcl v1\ndcl t0\ndcl t1\nmov oC0, v0\nmov oC1, v1\nmov oC2, t0\nmov oC3, t1\n".into()
        }
        ShaderKind::Pixel if v.major >= 3 => {
            let mut s = String::from("vs_3_0\ndcl_position v0\ndcl_position o0\n");
            for (k, input) in g.inputs.iter().enumerate() {
                let _ = writeln!(s, "{} v{}", dcl_name(input.usage, input.usage_index), k + 1);
                let _ = writeln!(s, "{} o{}", dcl_name(input.usage, input.usage_index), k + 1);
            }
            s.push_str("mov o0, v0\n");
            for k in 0..g.inputs.len() {
                let _ = writeln!(s, "mov o{}, v{}", k + 1, k + 1);
            }
            s
        }
        ShaderKind::Pixel => {
            let mut s = String::from("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
            for (k, input) in g.inputs.iter().enumerate() {
                let _ = writeln!(s, "{} v{}", dcl_name(input.usage, input.usage_index), k + 1);
            }
            for (k, input) in g.inputs.iter().enumerate() {
                let out = match (input.usage, input.reg.ty) {
                    (Usage::Color, _) => format!("oD{}", input.usage_index),
                    _ => format!("oT{}", input.usage_index),
                };
                let _ = writeln!(s, "mov {out}, v{}", k + 1);
            }
            s
        }
    }
}

/// The attributes the vertex stage reads: (semantic, index, value); the position comes first.
fn attributes(g: &Generated) -> Vec<(Usage, u8, [f32; 4])> {
    match g.program.version.kind {
        ShaderKind::Vertex => g.inputs.iter().map(|i| (i.usage, i.usage_index, i.value)).collect(),
        ShaderKind::Pixel => {
            let mut out = vec![(Usage::Position, 0, [0.0, 0.0, 0.5, 1.0])];
            out.extend(g.inputs.iter().map(|i| (i.usage, i.usage_index, i.value)));
            out
        }
    }
}

/// Colour targets the pixel stage writes (always target 0).
fn targets(g: &Generated) -> u32 {
    let v = g.program.version;
    match v.kind {
        ShaderKind::Vertex if v.major >= 3 => 2,
        ShaderKind::Vertex => 4,
        ShaderKind::Pixel => {
            let highest = g
                .program
                .instructions
                .iter()
                .filter_map(|i| i.dst.as_ref())
                .filter(|d| d.reg.ty == RegisterType::ColorOut)
                .map(|d| d.reg.num as u32 + 1)
                .max();
            highest.unwrap_or(1).max(1)
        }
    }
}

/// Distinct texels: a running index in red, the rest from a small hash. Red is never 0, so no
/// texel is black: texm3x3tex/texm3x3spec use a texel as a normal, and D3D9 defines no result
/// for a zero normal (its cube direction is 0 or NaN), so a black texel makes a draw undefined.
fn texels(count: u32, stage: u16) -> Vec<u32> {
    (0..count)
        .map(|i| {
            let h = (i.wrapping_mul(0x9E37_79B9) ^ (stage as u32).wrapping_mul(0x85EB_CA6B)).rotate_left(13);
            let r = 1 + i * 254 / count.max(1);
            (h & 0xFF00_00FF) | r << 16 | (h >> 8 & 0xff) << 8
        })
        .collect()
}

/// The case of `g`, named `name` (its shaders are `NAME_vs` and `NAME_ps`).
pub fn case_for(g: &Generated, name: &str) -> Result<DiffCase, String> {
    let vertex = g.program.version.kind == ShaderKind::Vertex;
    let partner = assemble(&partner(g)).map_err(|e| format!("partner shader: {e}"))?;
    let (vs, ps) = if vertex { (g.program.clone(), partner) } else { (partner, g.program.clone()) };
    let (vs_name, ps_name) = (format!("{name}_vs"), format!("{name}_ps"));
    let mut t = String::new();
    write_header(&mut t, g, name);
    write_textures(&mut t, g, vertex);
    write_draw(&mut t, g, &vs_name, &ps_name);
    write_constants(&mut t, g, if vertex { "vs" } else { "ps" });
    Ok(DiffCase { toml: t, shaders: vec![(vs_name, vs), (ps_name, ps)] })
}

/// The case's name and description, its float render targets (as many as `g` writes) and the
/// render states that let every pixel through.
fn write_header(t: &mut String, g: &Generated, name: &str) {
    let v = g.program.version;
    let _ = writeln!(t, "name = \"{name}\"");
    let _ = writeln!(t, "source = \"cargo xtask fuzz-diff (generated {v})\"");
    let _ = writeln!(t, "description = \"A generated {v} program: GPU against the CPU reference.\"");
    let _ = writeln!(t, "category = \"fuzz-diff\"\n");
    let _ = writeln!(
        t,
        "[render_target]\nwidth = {SIZE}\nheight = {SIZE}\nformat = \"A32B32G32R32F\"\nclear_color = 0x00000000"
    );
    let extra = targets(g);
    if extra > 1 {
        let list: Vec<String> = (1..extra)
            .map(|i| format!("{{ index = {i}, format = \"A32B32G32R32F\", clear_color = 0x00000000 }}"))
            .collect();
        let _ = writeln!(t, "render_targets = [{}]", list.join(", "));
    }
    let _ = writeln!(t, "\n[render_states]\nZENABLE = false\nCULLMODE = \"NONE\"\n");
}

/// A texture of distinct texels for each sampler `g` declares, and a pixel program's bump
/// environment stages.
fn write_textures(t: &mut String, g: &Generated, vertex: bool) {
    // A vertex program's s n is D3DVERTEXTEXTURESAMPLERn: texture stage 257 + n.
    for &(sampler, ty) in &g.samplers {
        let stage = sampler_stage(vertex, u32::from(sampler));
        let (kind, depth, faces) = match ty {
            TextureType::Cube => ("cube", 1, 6),
            TextureType::Volume => ("volume", 4, 1),
            _ => ("2d", 1, 1),
        };
        let _ = writeln!(t, "[[texture]]\nstage = {stage}\ntype = \"{kind}\"\nwidth = 4\nheight = 4\ndepth = {depth}");
        let _ = writeln!(t, "format = \"A8R8G8B8\"\nfilter = \"point\"\nmip_filter = \"none\"\naddress = \"wrap\"");
        let list: Vec<String> = texels(16 * depth * faces, sampler).iter().map(|x| format!("0x{x:08x}")).collect();
        let _ = writeln!(t, "texels = [{}]\n", list.join(", "));
    }
    if !vertex {
        for &(stage, m, scale, offset) in &g.bump_env {
            let _ = writeln!(
                t,
                "[[texture_stage]]\nstage = {stage}\nBUMPENVMAT00 = {}\nBUMPENVMAT01 = {}\nBUMPENVMAT10 = {}\nBUMPENVMAT11 = {}\nBUMPENVLSCALE = {}\nBUMPENVLOFFSET = {}\n",
                toml_float(m[0][0]),
                toml_float(m[0][1]),
                toml_float(m[1][0]),
                toml_float(m[1][1]),
                toml_float(scale),
                toml_float(offset)
            );
        }
    }
}

/// The draw: a full-target quad whose vertices carry `g`'s inputs, position 0 at the corners.
fn write_draw(t: &mut String, g: &Generated, vs_name: &str, ps_name: &str) {
    let attrs = attributes(g);
    let _ = writeln!(t, "[[draw]]\nvertex_shader = \"{vs_name}\"\npixel_shader = \"{ps_name}\"");
    let _ = writeln!(t, "primitive = \"triangle_strip\"\nprimitive_count = 2");
    let elements: Vec<String> = attrs
        .iter()
        .enumerate()
        .map(|(k, (u, n, _))| {
            format!(
                "{{ stream = 0, offset = {}, type = \"FLOAT4\", usage = \"{}\", usage_index = {n} }}",
                16 * k,
                usage_name(*u)
            )
        })
        .collect();
    let _ = writeln!(t, "elements = [\n  {},\n]", elements.join(",\n  "));
    let corners = [[-1.0f32, 1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]];
    let rows: Vec<String> = corners
        .iter()
        .map(|[x, y]| {
            let values =
                attrs.iter().flat_map(
                    |(u, n, value)| {
                        if *u == Usage::Position && *n == 0 {
                            [*x, *y, 0.5, 1.0]
                        } else {
                            *value
                        }
                    },
                );
            format!("[{}]", floats(values))
        })
        .collect();
    let _ = writeln!(t, "vertices = [\n  {},\n]", rows.join(",\n  "));
}

/// `g`'s float, integer and boolean constants for the stage `prefix` (`vs` or `ps`).
fn write_constants(t: &mut String, g: &Generated, prefix: &str) {
    for &(reg, value) in &g.float_consts {
        let _ = writeln!(
            t,
            "\n[[draw.constants]]\nkind = \"{prefix}_float\"\nstart_register = {reg}\nvalues = [{}]",
            floats(value)
        );
    }
    for &(reg, value) in &g.int_consts {
        let list: Vec<String> = value.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(
            t,
            "\n[[draw.constants]]\nkind = \"{prefix}_int\"\nstart_register = {reg}\nvalues = [{}]",
            list.join(", ")
        );
    }
    for &(reg, value) in &g.bool_consts {
        let _ =
            writeln!(t, "\n[[draw.constants]]\nkind = \"{prefix}_bool\"\nstart_register = {reg}\nvalues = [{value}]");
    }
}

/// Writes a case into `dir`: `NAME.toml`, and each shader as `.hex` (what the case names) and
/// `.asm` (to read).
pub fn write_case(dir: &std::path::Path, name: &str, case: &DiffCase) -> std::io::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)?;
    for (shader, program) in &case.shaders {
        let tokens = d3d9_shader::bytecode::encode(program);
        let hex: Vec<String> = tokens.iter().map(|w| format!("{w:08x}")).collect();
        std::fs::write(dir.join(format!("{shader}.hex")), hex.join("\n") + "\n")?;
        std::fs::write(dir.join(format!("{shader}.asm")), disassemble(program, &DisasmOptions::default()))?;
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, &case.toml)?;
    Ok(path)
}

/// Whether every temporary component an instruction reads is surely written before: by the
/// straight-line code before the first flow-control instruction (what subroutines may rely on),
/// or, for the main body, also by unconditional code before the read. Writes inside blocks do
/// not count. The shrinker keeps programs free of undefined reads, which would make any two
/// implementations disagree.
pub fn reads_only_written_temps(p: &Program) -> bool {
    let mut prefix = [0u8; 32];
    let mut main = [0u8; 32];
    let mut in_prefix = true;
    let mut in_subroutine = false;
    let mut depth = 0i32;
    let ps1 = p.version.is_sm1() && p.version.kind == ShaderKind::Pixel;
    for i in &p.instructions {
        use Opcode::*;
        match i.opcode {
            Dcl | Def | DefI | DefB => continue,
            If | Ifc | Loop | Rep => {
                in_prefix = false;
                depth += 1;
            }
            EndIf | EndLoop | EndRep => depth -= 1,
            Call | CallNz | Else | Break | BreakC | BreakP => in_prefix = false,
            Label => {
                in_prefix = false;
                in_subroutine = true;
            }
            _ => {}
        }
        let known = if in_subroutine { &prefix } else { &main };
        for s in i.src.iter() {
            if s.reg.ty == RegisterType::Temp {
                let n = s.reg.num as usize;
                if n >= 32 {
                    return false;
                }
                let needed = (0..4).fold(0u8, |m, c| m | 1 << ((s.swizzle.0 >> (2 * c)) & 3));
                // ps_1_x: a register written at all counts (texture-stage reads, phases).
                if known[n] & needed != needed && !(ps1 && known[n] != 0) {
                    return false;
                }
            }
        }
        if let Some(d) = &i.dst {
            if d.reg.ty == RegisterType::Temp && (d.reg.num as usize) < 32 && i.predicate.is_none() {
                let n = d.reg.num as usize;
                if in_prefix {
                    prefix[n] |= d.mask.0 & 0xF;
                }
                if !in_subroutine && depth == 0 {
                    main[n] |= d.mask.0 & 0xF;
                }
            }
        }
    }
    true
}

/// Whether the shrinker may remove instruction `i`: declarations, definitions, writes of
/// output registers and of a0/p0 stay (an unwritten output or an undeclared input is undefined, and would
/// turn the reproducer into a different disagreement).
fn removable(i: &d3d9_shader::bytecode::Instruction) -> bool {
    use RegisterType::*;
    let kept = matches!(i.opcode, Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB)
        || i.dst.as_ref().is_some_and(|d| matches!(d.reg.ty, RastOut | AttrOut | TexCrdOut | Output | ColorOut | DepthOut))
        // a0 and p0 loads: relative reads and predicates after them would read undefined values.
        || i.dst.as_ref().is_some_and(|d| matches!(d.reg.ty, Addr | Predicate));
    let ps1_colour = i.dst.as_ref().is_some_and(|d| d.reg.ty == Temp && d.reg.num == 0);
    !kept && !ps1_colour
}

/// Shrinks `g` by delta debugging over its removable instructions: removes runs of them
/// (halving the run length down to one) while the result still passes the strict validator,
/// reads no unwritten temporary and `still_fails` says it still mismatches. Returns the smallest
/// program found. (`r0` writes stay too: r0 is the ps_1_x colour.)
pub fn shrink(g: &Generated, mut still_fails: impl FnMut(&Generated) -> bool, budget: usize) -> Generated {
    let strict = ValidationOptions { swvp: g.program.version.is_sw(), ..ValidationOptions::strict() };
    let mut best = g.clone();
    let mut tries = 0;
    let count = |g: &Generated| g.program.instructions.iter().filter(|i| removable(i)).count();
    let mut run = (count(&best) / 2).max(1);
    loop {
        let mut progressed = false;
        let mut start = 0;
        while start < count(&best) && tries < budget {
            let mut candidate = best.clone();
            let mut k = 0;
            candidate.program.instructions.retain(|i| {
                if !removable(i) {
                    return true;
                }
                k += 1;
                !(start..start + run).contains(&(k - 1))
            });
            let keepable =
                validate(&candidate.program, &strict).is_ok() && reads_only_written_temps(&candidate.program);
            if keepable {
                tries += 1;
                if still_fails(&candidate) {
                    best = candidate;
                    progressed = true;
                    continue;
                }
            }
            start += run;
        }
        if tries >= budget || (run == 1 && !progressed) {
            break;
        }
        if !progressed {
            run = (run / 2).max(1);
        }
    }
    best
}

/// The outcome of one differential run.
#[derive(Clone, Debug)]
pub enum DiffOutcome {
    /// GPU and CPU agree.
    Pass,
    /// Not drawn, and why.
    Skip(String),
    /// They disagree (or one side failed): the runner's messages.
    Mismatch(Vec<String>),
}

/// Draws `g` as case `name` (files written to `dir`) on the GPU and the CPU and compares.
pub fn run(g: &Generated, name: &str, gpu: Option<&gpu_harness::device::Gpu>, dir: &std::path::Path) -> DiffOutcome {
    let case = match case_for(g, name) {
        Ok(c) => c,
        Err(e) => return DiffOutcome::Mismatch(vec![e]),
    };
    run_written(&case, name, gpu, dir)
}

/// Writes `case` into `dir` as `name`, draws it on the GPU and the CPU and compares.
pub fn run_written(
    case: &DiffCase,
    name: &str,
    gpu: Option<&gpu_harness::device::Gpu>,
    dir: &std::path::Path,
) -> DiffOutcome {
    use gpu_harness::runner::{Backend, Runner, Verdict};
    let path = match write_case(dir, name, case) {
        Ok(p) => p,
        Err(e) => return DiffOutcome::Skip(format!("cannot write the case: {e}")),
    };
    let parsed = match gpu_harness::case::Case::parse(&case.toml, &path) {
        Ok(c) => c,
        Err(e) => return DiffOutcome::Mismatch(vec![format!("the case does not parse: {e}")]),
    };
    let backend = if gpu.is_some() { Backend::Both } else { Backend::Cpu };
    let runner = Runner {
        preloaded: case.shaders.iter().cloned().collect(),
        // Every fixed-function half is drawn keyed and uniform-driven, the images compared.
        ffp_mode: gpu_harness::ffp_modes::FfpModes::Both,
        ..Runner::new(
            gpu,
            &gpu_harness::interpreted::Interpreter,
            &gpu_harness::translated::Translator,
            vec![dir.to_path_buf()],
            backend,
        )
    };
    match runner.run_case(&parsed, &path).verdict {
        Verdict::Pass => DiffOutcome::Pass,
        Verdict::Skip(s) => DiffOutcome::Skip(s),
        Verdict::Fail(f) => DiffOutcome::Mismatch(f),
    }
}

/// Submits `g`'s case (what [`run`] draws) to the Tint checker: the linked pair must compile in
/// Tint and create a Dawn render pipeline. Nothing is written; the verdict lands in `checker`
/// (its failures are labelled `name`). Returns the reason when the runner would skip the case.
pub fn tint_check(
    g: &Generated,
    name: &str,
    checker: &mut crate::tint_check::Checker,
) -> Result<Option<String>, crate::tint::TintError> {
    let case = match case_for(g, name) {
        Ok(c) => c,
        Err(e) => {
            checker.fail(name.to_string(), e);
            return Ok(None);
        }
    };
    let path = std::path::Path::new(name).with_extension("toml");
    let parsed = match gpu_harness::case::Case::parse(&case.toml, &path) {
        Ok(c) => c,
        Err(e) => {
            checker.fail(name.to_string(), format!("the case does not parse: {e}"));
            return Ok(None);
        }
    };
    let runner = gpu_harness::runner::Runner {
        preloaded: case.shaders.iter().cloned().collect(),
        ..gpu_harness::runner::Runner::without_gpu(Some(&gpu_harness::translated::Translator), vec![])
    };
    checker.case(&runner, &parsed, name)
}
