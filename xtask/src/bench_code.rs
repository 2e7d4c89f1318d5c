//! What the strict float rules cost in code, for `cargo xtask bench --gpu`, measured without
//! drawing: every shader of the selection translated under the measured rules and under IEEE,
//! optimised by `spirv-opt -O` (SPIR-V Tools), and the instructions inside functions counted
//! (the code, without types, names and decorations). The ratio of the sums per stage does not
//! depend on the machine's load.
//!
//! Each count is made twice: under the plain key, and with the facts a layer knows of its draw
//! (`finite_constants`, every sampler in `normalised_samplers`; docs/d3d9-rules.md#zero-product),
//! which spare zero guards. Beside them, the strict products of the translations by the guards
//! they kept ([`guards`]): the measure of what the value-range pass decides.

use std::path::Path;
use std::process::Command;

use d3d9_shader::bytecode::ShaderKind;
use d3d9_shader::{ParseOptions, Shader, ShaderKey};
use naga::{BinaryOperator, Expression, Literal, Module};

use crate::bench_corpus::Entry;
use crate::bench_gpu::RulePair;
use crate::stats::geomean;

/// The keys each count is made under: the plain key, and the draw's facts.
const FACTS: [(&str, bool); 2] = [("plain key", false), ("finite constants, normalised samplers", true)];

/// One key's counts per stage (vertex, pixel): the measured rule's and the IEEE sums, the
/// per-shader ratios, and the measured rule's products by guards kept (0, 1, 2).
#[derive(Default)]
struct Sums {
    code: [usize; 2],
    ratios: Vec<f64>,
    guards: [usize; 3],
}

/// One shader's plain-key counts, kept for the comparison with vkd3d-shader.
struct Counted {
    name: String,
    kind: ShaderKind,
    tokens: Vec<u8>,
    code: [usize; 2],
}

/// Each shader's optimised code instructions under both rules, summed per stage, under each key;
/// then the plain key's against vkd3d-shader's translation of the same blobs, when `peers` has
/// its program.
pub fn spirv_opt_counts(entries: &[Entry], rules: RulePair, peers: Option<&Path>) {
    if Command::new("spirv-opt").arg("--version").output().is_err() {
        println!("spirv-opt: not installed (SPIR-V Tools), the optimised instruction counts are skipped");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xtask-bench-gpu-{}", std::process::id()));
    let mut counted = Vec::new();
    for (label, facts) in FACTS {
        let mut stages: [Sums; 2] = Default::default();
        let mut failed = Vec::new();
        for e in entries {
            match optimised_counts(e, &tmp, rules, facts) {
                Ok((kind, code, guards, tokens)) => {
                    if !facts {
                        counted.push(Counted { name: e.name.clone(), kind, tokens, code });
                    }
                    let s = &mut stages[usize::from(kind == ShaderKind::Pixel)];
                    s.code[0] += code[0];
                    s.code[1] += code[1];
                    s.ratios.push(code[0] as f64 / code[1].max(1) as f64);
                    (0..3).for_each(|g| s.guards[g] += guards[g]);
                }
                Err(why) => failed.push(format!("{}: {why}", e.name)),
            }
        }
        for f in &failed {
            println!("  spirv-opt: not counted: {f}");
        }
        report(label, &stages, rules);
    }
    match peers.map(|p| p.join("vkd3ddrv")).filter(|p| p.is_file()) {
        Some(program) => {
            if let Err(e) = against_vkd3d(&program, &counted, rules, &tmp) {
                println!("spirv-opt against vkd3d-shader: {e}");
            }
        }
        None => println!("spirv-opt against vkd3d-shader: no peers' vkd3ddrv (--peers DIR), skipped"),
    }
    for ext in ["in.spv", "out.spv"] {
        let _ = std::fs::remove_file(tmp.with_extension(ext));
    }
}

/// The plain key's counts against vkd3d-shader's SPIR-V of the same blobs (its `check` mode,
/// `../shared/peers/README.md`), optimised and counted alike, over the shaders it translates.
/// vkd3d-shader implements no zero rule: its code is the IEEE rules' peer.
fn against_vkd3d(program: &Path, counted: &[Counted], rules: RulePair, tmp: &Path) -> Result<(), String> {
    let scratch = tmp.with_extension("vkd3d");
    let (blobs, out) = (scratch.join("blobs"), scratch.join("out"));
    for c in counted {
        crate::bench_peers::write_creating(&blobs.join(format!("{}.bin", c.name)), &c.tokens)?;
    }
    let names: Vec<String> = counted.iter().map(|c| c.name.clone()).collect();
    let ok = crate::bench_peers::accepted(program, &[], &names, &blobs, &out, &scratch)?;
    // Per stage: ours under the measured rules, ours under IEEE, vkd3d-shader's; and the count.
    let mut sums = [[0usize; 4]; 2];
    for c in counted.iter().filter(|c| ok.contains(&c.name)) {
        let bytes = std::fs::read(out.join(format!("{}.spv", c.name))).map_err(|e| format!("{}: {e}", c.name))?;
        let words: Vec<u32> = bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let theirs = optimised(&words, tmp).map_err(|e| format!("{}: {e}", c.name))?;
        let s = &mut sums[usize::from(c.kind == ShaderKind::Pixel)];
        s[0] += c.code[0];
        s[1] += c.code[1];
        s[2] += theirs;
        s[3] += 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for (s, stage) in sums.iter().zip(["vertex", "pixel"]) {
        let ratio = |x: usize| x as f64 / s[2].max(1) as f64;
        println!(
            "spirv-opt -O against vkd3d-shader: {} {stage} shaders, code instructions vkd3d {}; ours {} {} = {:.3}×, ieee {} = {:.3}×",
            s[3],
            s[2],
            rules[0].1,
            s[0],
            ratio(s[0]),
            s[1],
            ratio(s[1]),
        );
    }
    Ok(())
}

fn report(label: &str, stages: &[Sums; 2], rules: RulePair) {
    for (s, stage) in stages.iter().zip(["vertex", "pixel"]) {
        if s.ratios.is_empty() {
            println!("spirv-opt: no {stage} shader counted");
            continue;
        }
        println!(
            "spirv-opt -O ({label}): {} {stage} shaders, code instructions {} {} / ieee {} = {:.3} (geometric mean per shader {:.3}); {} products with 0 / 1 / 2 zero guards: {} / {} / {}",
            s.ratios.len(),
            rules[0].1,
            s.code[0],
            s.code[1],
            s.code[0] as f64 / s.code[1] as f64,
            geomean(&s.ratios),
            rules[0].1,
            s.guards[0],
            s.guards[1],
            s.guards[2],
        );
    }
}

/// A shader's stage, its optimised counts (the measured rule's, IEEE's), the measured rule's
/// products by guards, and its tokens' bytes.
type Measured = (ShaderKind, [usize; 2], [usize; 3], Vec<u8>);

/// A shader's stage, its optimised counts (the measured rule's, IEEE's) and the measured
/// rule's products by guards.
fn optimised_counts(e: &Entry, tmp: &Path, rules: RulePair, facts: bool) -> Result<Measured, String> {
    let file = std::fs::read(&e.path).map_err(|e| e.to_string())?;
    let loaded = d3d9_shader::input::load(&file, &e.path.to_string_lossy()).map_err(|e| e.to_string())?;
    let tokens = &loaded.first().ok_or("no shader in the file")?.tokens;
    let shader = Shader::from_tokens(tokens, &ParseOptions::lenient()).map_err(|e| e.to_string())?;
    let mut counts = [0; 2];
    let mut kept = [0; 3];
    for (slot, (float_rules, _)) in counts.iter_mut().zip(rules) {
        let key = ShaderKey {
            float_rules,
            finite_constants: facts,
            normalised_samplers: if facts { u16::MAX } else { 0 },
            ..ShaderKey::default()
        };
        let t = shader.translate(&key).map_err(|e| e.to_string())?;
        if float_rules == rules[0].0 {
            kept = guards(&t.module);
        }
        let words = t.to_spirv().map_err(|e| e.to_string())?;
        *slot = optimised(&words, tmp)?;
    }
    let bytes = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    Ok((shader.stage(), counts, kept, bytes))
}

/// The float products of a module by the zero guards they kept: a call of the strict rule's
/// function (`mul_rule_*`, two guards), a multiply with a factor selected to zero (`x · (x == 0
/// ? 0 : y)`, one), any other multiply (none; under the IEEE rules every product). Multiplies
/// the lowering makes for other reasons (a scale, a projection) count as products without
/// guards, so the first number is an upper bound of the plain products.
pub fn guards(module: &Module) -> [usize; 3] {
    let mut n = [0; 3];
    let rule = |h: naga::Handle<naga::Function>| {
        module.functions[h].name.as_deref().is_some_and(|s| s.starts_with("mul_rule"))
    };
    let bodies = module.functions.iter().filter(|(h, _)| !rule(*h)).map(|(_, f)| f);
    for f in bodies.chain(module.entry_points.iter().map(|e| &e.function)) {
        let e = &f.expressions;
        let zero_select = |h| matches!(e[h], Expression::Select { accept, .. } if is_zero(module, e, accept));
        for (_, x) in e.iter() {
            match *x {
                Expression::CallResult(h) if rule(h) => n[2] += 1,
                Expression::Binary { op: BinaryOperator::Multiply, left, right } => {
                    n[usize::from(zero_select(left) || zero_select(right))] += 1;
                }
                _ => {}
            }
        }
    }
    n
}

/// A zero the lowering selects: a `0.0` literal, a splat of one, or a module constant of zeros.
fn is_zero(module: &Module, e: &naga::Arena<Expression>, h: naga::Handle<Expression>) -> bool {
    let zero_literal = |x: &Expression| matches!(x, Expression::Literal(Literal::F32(v)) if *v == 0.0);
    match &e[h] {
        Expression::Splat { value, .. } => zero_literal(&e[*value]),
        Expression::Constant(c) => match &module.global_expressions[module.constants[*c].init] {
            Expression::ZeroValue(_) => true,
            Expression::Compose { components, .. } => {
                components.iter().all(|&c| zero_literal(&module.global_expressions[c]))
            }
            x => zero_literal(x),
        },
        x => zero_literal(x),
    }
}

/// Instructions inside functions of a SPIR-V module (OpFunction … OpFunctionEnd, both counted).
fn code_instructions(words: &[u32]) -> usize {
    const OP_FUNCTION: u32 = 54;
    const OP_FUNCTION_END: u32 = 56;
    let (mut at, mut inside, mut n) = (5, false, 0);
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xFFFF);
        if op == OP_FUNCTION {
            inside = true;
        }
        if inside {
            n += 1;
        }
        if op == OP_FUNCTION_END {
            inside = false;
        }
        at += count.max(1);
    }
    n
}

/// `spirv-opt -O` of `words`: the optimised module's code instructions.
fn optimised(words: &[u32], tmp: &Path) -> Result<usize, String> {
    let input = tmp.with_extension("in.spv");
    let output = tmp.with_extension("out.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&input, bytes).map_err(|e| e.to_string())?;
    let out = Command::new("spirv-opt").arg("-O").arg(&input).arg("-o").arg(&output).output();
    let out = out.map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("spirv-opt: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let bytes = std::fs::read(&output).map_err(|e| e.to_string())?;
    let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok(code_instructions(&words))
}
