//! `dcl` and `def` rules: which registers each version declares, usages and texture types,
//! duplicates, declarations before the first executable instruction, and registers used
//! without the declaration the version requires.
//!
//! - vs_1_1 (Direct3D 9) to vs_2_x: `dcl_<usage>` on inputs `v#`;
//! - vs_3_0: also outputs `o#` (by semantic) and samplers `s0`–`s3`;
//! - ps_1_x: no declarations; Direct3D 8 vertex shaders need none (the vertex declaration maps
//!   their inputs) but may carry them;
//! - ps_2_0/2_x: `dcl` on `t#` and `v#` (no semantic) and `dcl_2d/cube/volume` on `s#`;
//! - ps_3_0: `dcl_<usage>` on `v0`–`v9` (not `position`: the pixel position is `vPos`), `vPos`,
//!   `vFace`, samplers.

// Looked up, never iterated: the Fx hash (as the lowering) rather than SipHash.
use rustc_hash::{FxHashMap as FastMap, FxHashSet as FastSet};

use super::{Api, Cx, Rule};
use crate::bytecode::{Decl, DstParam, Opcode, Payload, Register, RegisterType, TextureType, Usage};

/// The declaration and definition rules; with `undeclared_uses`, also registers used without the
/// `dcl` they need (a rule that only warns in lenient mode).
pub(crate) fn check(cx: &mut Cx<'_>, undeclared_uses: bool) {
    let d3d8_vs = cx.options.api == Api::D3d8 && cx.is_vs();
    // Looked up, never iterated: the lowering's fast hasher, not SipHash.
    // Each declared register's components so far: one mask, no list (no allocation per register).
    let mut declared: FastMap<Register, u8> = FastMap::default();
    let mut semantics: Semantics = FastMap::default();
    let mut defined: FastMap<Register, usize> = FastMap::default();
    let mut executable_seen = None::<usize>;
    for (i, inst) in cx.program.iter().enumerate() {
        match (inst.opcode, inst.dst, inst.payload) {
            (Opcode::Def | Opcode::DefI | Opcode::DefB, dst, _) => {
                check_def(cx, i, dst.map(|d| d.reg), executable_seen, &mut defined)
            }
            (Opcode::Dcl, Some(dst), Payload::Dcl(decl)) => {
                if check_dcl(cx, i, dst, decl, executable_seen, &mut semantics) {
                    let components = declared.entry(dst.reg).or_default();
                    if *components & dst.mask.0 != 0 {
                        cx.error(Rule::Declaration, Some(i), format_args!("{} is declared twice", dst.reg));
                    }
                    *components |= dst.mask.0;
                }
            }
            (Opcode::Dcl | Opcode::Label | Opcode::Phase, ..) => {}
            _ => {
                executable_seen.get_or_insert(i);
            }
        }
    }
    if undeclared_uses && !d3d8_vs {
        undeclared(cx, &declared);
    }
}

/// The first instruction declaring each semantic: (output?, usage, index).
type Semantics = FastMap<(bool, u8, u8), usize>;

/// A `def`, `defi` or `defb` of `reg` at instruction `i`: before the first executable
/// instruction, once per register.
fn check_def(
    cx: &mut Cx<'_>,
    i: usize,
    reg: Option<Register>,
    executable_seen: Option<usize>,
    defined: &mut FastMap<Register, usize>,
) {
    // Constant definitions come before the first arithmetic or texture instruction
    // (the def reference pages).
    if let Some(first) = executable_seen {
        cx.error(
            Rule::Definition,
            Some(i),
            format_args!("definition after the first instruction (instruction {first})"),
        );
    }
    let Some(reg) = reg else { return };
    if let Some(&first) = defined.get(&reg) {
        cx.error(Rule::Definition, Some(i), format_args!("{reg} is defined twice (first at instruction {first})"));
    } else {
        defined.insert(reg, i);
    }
}

/// A `dcl` at instruction `i`: whether this version declares the register at all, the form of
/// the destination and the semantic or texture type. False when the declaration is refused
/// outright (its components then count as undeclared).
fn check_dcl(
    cx: &mut Cx<'_>,
    i: usize,
    dst: DstParam,
    decl: Decl,
    executable_seen: Option<usize>,
    semantics: &mut Semantics,
) -> bool {
    let v = cx.version;
    if cx.profile.ps_1_x {
        cx.error(Rule::Declaration, Some(i), "ps_1_x has no dcl");
        return false;
    }
    if let Some(first) = executable_seen {
        cx.error(Rule::Declaration, Some(i), format_args!("dcl after the first instruction (instruction {first})"));
    }
    let name = dst.reg;
    let ty = dst.reg.ty;
    let allowed = match (cx.is_vs(), v.major) {
        (true, 3) => matches!(ty, RegisterType::Input | RegisterType::Output | RegisterType::Sampler),
        (true, _) => ty == RegisterType::Input,
        (false, 2) => matches!(ty, RegisterType::Input | RegisterType::Texture | RegisterType::Sampler),
        (false, _) => matches!(ty, RegisterType::Input | RegisterType::MiscType | RegisterType::Sampler),
    };
    if !allowed {
        // No meaning to give a declaration of a file that takes none (see the register-file
        // rules in version_rules/instructions.rs): refused in both modes.
        cx.hard_error(Rule::Declaration, Some(i), format_args!("{name} cannot be declared in {v}"));
        return false;
    }
    check_dcl_form(cx, i, dst);
    if ty == RegisterType::Sampler {
        check_sampler_type(cx, i, name, decl);
    } else if ty == RegisterType::MiscType {
        // vPos and vFace carry no semantic; vFace is one value.
        if dst.reg.num == crate::bytecode::registers::misc::FACE && dst.mask.0 != 0xF && dst.mask.0 != 0x1 {
            cx.relaxable(Rule::Declaration, Some(i), "vFace is declared whole");
        }
    } else if (cx.is_vs() || v.major == 3) && matches!(ty, RegisterType::Input | RegisterType::Output) {
        check_semantic(cx, i, name, decl, semantics);
    }
    true
}

/// The destination of a `dcl`: some component, no result modifier but the pixel shader
/// inputs' `_pp` and `_centroid`.
fn check_dcl_form(cx: &mut Cx<'_>, i: usize, dst: DstParam) {
    let name = dst.reg;
    if dst.mask.0 == 0 {
        cx.error(Rule::Declaration, Some(i), format_args!("dcl of {name} declares no component"));
    }
    if dst.modifiers.saturate() || dst.shift != 0 || dst.relative.is_some() {
        cx.error(Rule::Declaration, Some(i), format_args!("dcl of {name} takes no _sat, shift or relative address"));
    }
    let pixel_input =
        cx.is_ps() && matches!(name.ty, RegisterType::Input | RegisterType::Texture | RegisterType::Sampler);
    if (dst.modifiers.centroid() || dst.modifiers.partial_precision()) && !pixel_input {
        cx.error(
            Rule::Declaration,
            Some(i),
            format_args!("_pp/_centroid apply to pixel shader inputs only, not {name}"),
        );
    }
}

/// A sampler's `dcl_2d`, `dcl_cube` or `dcl_volume`.
fn check_sampler_type(cx: &mut Cx<'_>, i: usize, name: Register, decl: Decl) {
    match decl.texture_type() {
        Some(TextureType::Tex2D | TextureType::Cube | TextureType::Volume) => {}
        Some(TextureType::Tex1D) => {
            cx.relaxable(Rule::Declaration, Some(i), format_args!("{name}: 1D samplers are declared dcl_2d"))
        }
        _ => cx.error(
            Rule::Declaration,
            Some(i),
            format_args!("{name} needs a texture type (dcl_2d, dcl_cube or dcl_volume)"),
        ),
    }
}

/// The semantic of an input or output `dcl`: a known usage, once per semantic, and no
/// `position0` on a pixel shader input.
fn check_semantic(cx: &mut Cx<'_>, i: usize, name: Register, decl: Decl, semantics: &mut Semantics) {
    let output = name.ty == RegisterType::Output;
    match decl.usage() {
        None => cx.error(Rule::Declaration, Some(i), format_args!("{name}: unknown usage {}", decl.usage)),
        // ps_3_0 refuses position0 on an input (the pixel position is vPos) but accepts
        // position1 and up (Windows accepted wine's test_position_index shaders).
        Some(Usage::Position) if cx.is_ps() && decl.usage_index == 0 => cx.error(
            Rule::Declaration,
            Some(i),
            format_args!("{name}: pixel shader inputs cannot be position0 (the pixel position is vPos)"),
        ),
        Some(u) => {
            if let Some(first) = semantics.insert((output, decl.usage, decl.usage_index), i) {
                let message =
                    format_args!("{}{} is declared twice (first at instruction {first})", u.name(), decl.usage_index);
                if output {
                    // Two output registers under one semantic: no way to tell which one
                    // the pixel shader reads (the fuzzer's vs_3_0 `dcl_color1` on o1 and
                    // o2 made the translator emit two outputs at one location).
                    cx.hard_error(Rule::Declaration, Some(i), message);
                } else {
                    cx.error(Rule::Declaration, Some(i), message);
                }
            }
        }
    }
}

/// Registers that need a declaration in this version.
fn needs_dcl(cx: &Cx<'_>, ty: RegisterType) -> bool {
    let v = cx.version;
    match ty {
        RegisterType::Input => v.major >= 2 || cx.is_vs(),
        RegisterType::Texture => cx.is_ps() && v.major == 2,
        RegisterType::Sampler | RegisterType::MiscType => v.major >= 2,
        RegisterType::Output => true,
        _ => false,
    }
}

fn undeclared(cx: &mut Cx<'_>, declared: &FastMap<Register, u8>) {
    let mut reported = FastSet::default();
    // The destination, then the sources, in plain loops (an iterator chain per instruction
    // cost more than the check under callgrind).
    let program = cx.program;
    for (i, inst) in program.iter().enumerate() {
        if inst.opcode == Opcode::Dcl {
            continue;
        }
        if let Some(d) = inst.dst.filter(|d| d.relative.is_none()) {
            undeclared_use(cx, declared, &mut reported, i, d.reg);
        }
        for s in inst.src.iter().filter(|s| s.relative.is_none()) {
            undeclared_use(cx, declared, &mut reported, i, s.reg);
        }
    }
}

/// Reports `reg`, used by instruction `i`, when it needs a declaration it lacks (once).
// The test is inlined into the loop over every operand; the report, rare, is not.
#[inline(always)]
fn undeclared_use(
    cx: &mut Cx<'_>,
    declared: &FastMap<Register, u8>,
    reported: &mut FastSet<Register>,
    i: usize,
    reg: Register,
) {
    if needs_dcl(cx, reg.ty) && !declared.contains_key(&reg) {
        report_undeclared(cx, reported, i, reg);
    }
}

#[cold]
fn report_undeclared(cx: &mut Cx<'_>, reported: &mut FastSet<Register>, i: usize, reg: Register) {
    if reported.insert(reg) {
        let what = if reg.ty == RegisterType::Output { "written" } else { "used" };
        cx.error(Rule::Undeclared, Some(i), format_args!("{} {what} without a dcl", reg));
    }
}
