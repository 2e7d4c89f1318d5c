//! Per-instruction rules: the instruction exists in the version (from the opcode table),
//! its operands match the table's shape, instruction-token bits (co-issue, predication),
//! register files per operand, source modifiers, swizzles, write masks and result modifiers.

use crate::bytecode::{
    DstParam, Form, Instruction, Opcode, OpcodeInfo, Operand as Slot, Register, RegisterType, SrcModifier, SrcParam,
    Swizzle, Version, VersionId, WriteMask,
};
use crate::validate::{Cx, Rule};

/// The name of an instruction as an author writes it (`texldp`, `if_lt`, `setp_ge`), written
/// only when a message needs it.
#[derive(Clone, Copy)]
pub(crate) struct OpName {
    name: &'static str,
    /// The comparison suffix of `if_lt`, `break_ge`, `setp_eq`…
    suffix: Option<&'static str>,
}

impl std::fmt::Display for OpName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)?;
        match self.suffix {
            Some(suffix) => write!(f, "_{suffix}"),
            None => Ok(()),
        }
    }
}

pub(crate) fn op_name(inst: &Instruction, version: Version) -> OpName {
    op_name_in(inst, inst.opcode.decoding_form(version))
}

/// [`op_name`] with the instruction's form already looked up.
fn op_name_in(inst: &Instruction, form: &Form) -> OpName {
    if let Some(c) = inst.comparison().filter(|_| form.control == crate::bytecode::Control::Comparison) {
        return OpName { name: form.name, suffix: Some(c.suffix()) };
    }
    if form.control == crate::bytecode::Control::TexldVariant {
        if let Some(v) = inst.texld_variant() {
            return OpName { name: v.name(), suffix: None };
        }
    }
    OpName { name: form.name, suffix: None }
}

/// Files that only special operand positions take.
pub(super) fn special(ty: RegisterType) -> bool {
    use RegisterType::*;
    matches!(ty, Loop | ConstInt | ConstBool | Predicate | Label | Sampler)
}

/// Whether a general source may read file `ty` in this version.
pub(super) fn readable(cx: &Cx<'_>, ty: RegisterType) -> bool {
    use RegisterType::*;
    let v = cx.version;
    match ty {
        Temp | Const | Input => true,
        // a0 is a relative address in vs_1_1; from vs_2_0 it may also be read.
        Addr => cx.is_vs() && v.major >= 2,
        Texture => cx.is_ps() && v.major < 3,
        MiscType => cx.is_ps() && v.major == 3,
        _ => false,
    }
}

/// Whether a destination may be register file `ty` in this version (for ordinary instructions).
pub(super) fn writable(cx: &Cx<'_>, ty: RegisterType) -> bool {
    use RegisterType::*;
    let v = cx.version;
    match ty {
        Temp => true,
        Addr => cx.is_vs(),
        RastOut | AttrOut | TexCrdOut => cx.is_vs() && v.major < 3,
        Output => cx.is_vs() && v.major == 3,
        Texture => cx.profile.ps_1_0_to_1_3(),
        ColorOut | DepthOut => cx.is_ps() && v.major >= 2,
        Predicate => cx.sm2x_up(),
        _ => false,
    }
}

/// Every per-instruction rule for instruction `i`, whose row is `info` and form `form`.
pub(super) fn check_instruction(
    cx: &mut Cx<'_>,
    i: usize,
    info: &'static OpcodeInfo,
    form: &'static Form,
    id: VersionId,
) {
    let inst = cx.inst(i);
    let name = op_name_in(inst, form);
    let shape = form.shape;
    if inst.dst.is_some() != shape.dst || inst.src.len() != shape.srcs as usize {
        cx.error(
            Rule::Operands,
            Some(i),
            format_args!("{name} takes {} destination and {} source(s)", shape.dst as u8, shape.srcs),
        );
        return;
    }
    token_bits(cx, i, &name, info);
    if matches!(inst.opcode, Opcode::Dcl) {
        return; // declarations.rs
    }
    if let Some(dst) = &inst.dst {
        destination(cx, i, &name, info, dst);
    }
    for (k, src) in inst.src.iter().enumerate() {
        // The slot of the form decoded (the version's own, since it exists here).
        source(cx, i, &name, k, form.source(k), src);
    }
    specific(cx, i, &name, info, id);
}

/// Co-issue (ps_1_x) and predication (2_x and later) as the instruction token allows them.
fn token_bits(cx: &mut Cx<'_>, i: usize, name: &OpName, info: &OpcodeInfo) {
    let inst = cx.inst(i);
    if inst.coissue {
        let texture_op = info.texture;
        if !cx.profile.ps_1_x {
            cx.error(Rule::InstructionToken, Some(i), "co-issue (+) exists only in ps_1_x");
        } else if i == 0 || texture_op || matches!(inst.opcode, Opcode::Def | Opcode::Phase | Opcode::Nop) {
            cx.error(Rule::InstructionToken, Some(i), format_args!("{name} cannot be co-issued"));
        } else {
            let prev = cx.inst(i - 1);
            let (a, b) = (prev.dst.map_or(0, |d| d.mask.0), inst.dst.map_or(0, |d| d.mask.0));
            if prev.coissue || prev.opcode.info().texture || a & b != 0 {
                cx.error(
                    Rule::InstructionToken,
                    Some(i),
                    "a co-issued pair must be two arithmetic instructions writing different components",
                );
            }
        }
    }
    if let Some(p) = inst.predicate {
        let allowed = match cx.id {
            Some(VersionId::Vs2x) => cx.options.caps.vs_predication,
            Some(VersionId::Ps2x) => cx.options.caps.ps_predication,
            _ => cx.sm2x_up(),
        };
        if !allowed {
            cx.error(Rule::InstructionToken, Some(i), "predicated instructions need vs_2_x/ps_2_x or later");
        } else if info.flow_control || info.declaration {
            cx.error(Rule::InstructionToken, Some(i), format_args!("{name} cannot be predicated"));
        }
        if p.reg.ty != RegisterType::Predicate
            || p.relative.is_some()
            || !matches!(p.modifier, SrcModifier::None | SrcModifier::Not)
        {
            cx.hard_error(Rule::RegisterType, Some(i), "the predicate must be p0 or !p0");
        }
    }
}

// A register file used where it has no meaning (written where it cannot be, read where it
// cannot be, in an operand slot of another file, as a predicate) is refused in both modes:
// lenient mode relaxes rules whose meaning is clear, and here there is none to give (the
// translator would have to build ill-typed IR; the fuzzer found `texcoord p0`, `mov aL, r0`,
// `(c0) mov` and `rsq r0, i3.x` reaching naga's validator).
fn destination(cx: &mut Cx<'_>, i: usize, name: &OpName, info: &OpcodeInfo, dst: &DstParam) {
    let inst = cx.inst(i);
    let v = cx.version;
    let ty = dst.reg.ty;
    use Opcode::*;
    let expected = info.dst_file;
    let reg = dst.reg;
    if let Some(e) = expected {
        if ty != e {
            cx.hard_error(Rule::RegisterType, Some(i), format_args!("{name} cannot write {reg}"));
        }
    } else if info.dst_is_source {
        // texkill names the register it tests in destination format: it reads it.
        let ok = matches!(ty, RegisterType::Temp)
            || (ty == RegisterType::Texture && v.major < 3)
            || (ty == RegisterType::Input && v.major == 3);
        if !ok {
            cx.hard_error(Rule::RegisterType, Some(i), format_args!("{name} cannot test {reg}"));
        }
    } else if !writable(cx, ty) {
        cx.hard_error(Rule::RegisterType, Some(i), format_args!("{reg} cannot be written in {v}"));
    } else if ty == RegisterType::Predicate {
        cx.hard_error(Rule::RegisterType, Some(i), format_args!("only setp writes {reg}"));
    } else if ty == RegisterType::Addr && (inst.opcode != Mov || v.major >= 2) {
        let how = if v.major >= 2 { "mova" } else { "mov" };
        cx.error(Rule::RegisterType, Some(i), format_args!("{reg} is written only by {how} in {v}"));
    }

    // Relative destinations: o[aL] in vs_3_0 only.
    if let Some(rel) = dst.relative {
        let ok = ty == RegisterType::Output && rel.reg.ty == RegisterType::Loop;
        if !ok {
            cx.error(
                Rule::RelativeAddressing,
                Some(i),
                format_args!("{reg} cannot be written through relative addressing"),
            );
        }
    }

    if dst.mask.0 == 0 {
        cx.error(Rule::WriteMask, Some(i), format_args!("{name} writes no component of {reg}"));
    }

    // Result modifiers and shifts.
    // `dcl` is checked in declarations.rs: the declarations here are the definitions.
    let definition = info.declaration;
    if dst.shift != 0 {
        if !cx.profile.ps_1_x || definition || info.dst_is_source {
            cx.error(Rule::ResultModifier, Some(i), "result shifts (_x2, _d2, ...) exist only in ps_1_x arithmetic");
        } else if !(-1..=2).contains(&dst.shift) && !cx.profile.ps_1_4 {
            cx.error(Rule::ResultModifier, Some(i), "_x8, _d4 and _d8 exist only in ps_1_4");
        }
    }
    let m = dst.modifiers;
    // vs: _sat from 3_0, on anything but frc, sincos and texldl (vertex shader instruction
    // modifiers page). ps_1_x: no instruction modifier on texture address instructions.
    let vs_sat_refused = cx.is_vs() && (v.major < 3 || matches!(inst.opcode, Frc | SinCos | TexLdl));
    let ps1_texture_address = cx.profile.ps_1_x && info.texture;
    if m.saturate() && (definition || info.dst_is_source || vs_sat_refused || ps1_texture_address) {
        cx.error(Rule::ResultModifier, Some(i), format_args!("_sat is not allowed on {name} in {v}"));
    }
    if dst.shift != 0 && ps1_texture_address && !info.dst_is_source {
        cx.error(
            Rule::ResultModifier,
            Some(i),
            format_args!("{name}: texture address instructions take no instruction modifier"),
        );
    }
    if m.partial_precision() && (cx.is_vs() || v.major < 2 || definition) {
        cx.error(Rule::ResultModifier, Some(i), "_pp exists only in ps_2_0 and later");
    }
    if m.centroid() && (cx.is_vs() || v.major < 2 || !info.texture) {
        cx.error(Rule::ResultModifier, Some(i), format_args!("_centroid is not allowed on {name}"));
    }

    write_mask(cx, i, name, info, dst);
}

fn write_mask(cx: &mut Cx<'_>, i: usize, name: &OpName, info: &OpcodeInfo, dst: &DstParam) {
    let inst = cx.inst(i);
    let v = cx.version;
    let mask = dst.mask;
    use Opcode::*;
    let full = mask == WriteMask::ALL;
    let ps1 = cx.profile.ps_1_x;
    // The components the opcode produces (the table's `writes`): the runtime refuses a mask
    // past them for sincos and crs.
    let past_writes = mask.0 & !info.writes != 0;
    use MaskRule as M;
    // (refused, relaxable in lenient mode, the rule); the message is written only when refused.
    let (refused, relaxable, rule) = match inst.opcode {
        _ if info.declaration => (!full, false, M::Definition),
        // Drivers test the named components; the runtime wants all four.
        TexKill if v.major >= 2 => (!full, true, M::TexKill),
        SinCos => (past_writes, false, M::SinCos),
        Crs => (past_writes, false, M::Crs),
        Tex if v.major == 2 => (!full, true, M::Ps2Texld),
        // ps_1_0–1_3 arithmetic writes .rgba, .rgb or .a; ps_1_4 any ordered subset.
        Phase => (false, false, M::Definition),
        _ if ps1 && !info.texture => (!cx.profile.ps_1_4 && !matches!(mask.0, 0xF | 0x7 | 0x8), false, M::Ps1Arith),
        _ if ps1 && inst.opcode != TexCoord => (!full, false, M::Ps1Texture),
        _ => (false, false, M::Definition),
    };
    let message = MaskMessage { rule, name: *name, version: v };
    if refused && relaxable {
        cx.relaxable(Rule::WriteMask, Some(i), message);
    } else if refused {
        cx.error(Rule::WriteMask, Some(i), message);
    }
    if dst.reg.ty == RegisterType::Addr && v.major == 1 && mask.0 != 0x1 {
        cx.error(Rule::WriteMask, Some(i), "vs_1_1 writes only a0.x");
    }
}

/// Which write-mask rule an instruction falls under.
#[derive(Clone, Copy)]
enum MaskRule {
    Definition,
    TexKill,
    SinCos,
    Crs,
    Ps2Texld,
    Ps1Arith,
    Ps1Texture,
}

/// The message of a refused write mask, written only when a diagnostic is made.
struct MaskMessage {
    rule: MaskRule,
    name: OpName,
    version: Version,
}

impl std::fmt::Display for MaskMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, v) = (self.name, self.version);
        match self.rule {
            MaskRule::Definition => write!(f, "{name} defines the whole register"),
            MaskRule::TexKill => f.write_str("texkill takes the whole register (.xyzw)"),
            MaskRule::SinCos => f.write_str("sincos writes only .x, .y or .xy"),
            MaskRule::Crs => f.write_str("crs cannot write .w"),
            MaskRule::Ps2Texld => write!(f, "{name} writes the whole register before ps_3_0"),
            MaskRule::Ps1Arith => write!(f, "{name} may write only .rgba, .rgb or .a in {v}"),
            MaskRule::Ps1Texture => write!(f, "{name} writes the whole register"),
        }
    }
}

fn source(cx: &mut Cx<'_>, i: usize, name: &OpName, k: usize, s: Slot, src: &SrcParam) {
    let v = cx.version;
    let ty = src.reg.ty;
    let reg = src.reg;
    let ordinal = k + 1;
    match s.file() {
        Some(want) if ty != want => {
            cx.error(
                Rule::RegisterType,
                Some(i),
                format_args!("{name} source {ordinal} must be {}, not {reg}", want_name(want)),
            );
        }
        Some(_) => {}
        None if s == Slot::BoolOrPredicate => {
            let pred_ok = ty == RegisterType::Predicate && cx.sm2x_up();
            if ty != RegisterType::ConstBool && !pred_ok {
                cx.error(
                    Rule::RegisterType,
                    Some(i),
                    format_args!(
                        "{name} tests a boolean constant b#{}, not {reg}",
                        if cx.sm2x_up() { " or p0" } else { "" }
                    ),
                );
            }
        }
        None => {
            if special(ty) || !readable(cx, ty) {
                cx.hard_error(Rule::RegisterType, Some(i), format_args!("{name} cannot read {reg} in {v}"));
            }
        }
    }

    // Relative addressing: c# everywhere with a0 (vs) or aL (vs_2_0+, ps_3_0), v# with aL in
    // vs_3_0/ps_3_0. Pixel shaders before 3.0 have no relative addressing.
    if let Some(rel) = src.relative {
        if !relative_source(cx, ty, rel.reg.ty) {
            cx.error(
                Rule::RelativeAddressing,
                Some(i),
                format_args!("{reg} cannot be addressed relative to {} in {v}", rel.reg),
            );
        }
    }

    source_modifier(cx, i, name, ordinal, s, src);
    swizzle(cx, i, name, ordinal, s, src);
}

/// Whether a source of file `ty` may be addressed relative to `index` (`a0` or `aL`) here.
pub(super) fn relative_source(cx: &Cx<'_>, ty: RegisterType, index: RegisterType) -> bool {
    let v = cx.version;
    match (ty, index) {
        (RegisterType::Const, RegisterType::Addr) => cx.is_vs(),
        (RegisterType::Const, RegisterType::Loop) => (cx.is_vs() && v.major >= 2) || (cx.is_ps() && v.major == 3),
        (RegisterType::Input, RegisterType::Loop) => v.major == 3,
        _ => false,
    }
}

fn want_name(ty: RegisterType) -> &'static str {
    match ty {
        RegisterType::Loop => "aL",
        RegisterType::ConstInt => "an integer constant i#",
        RegisterType::Predicate => "p0",
        RegisterType::Label => "a label l#",
        RegisterType::Sampler => "a sampler s#",
        _ => "another register",
    }
}

fn source_modifier(cx: &mut Cx<'_>, i: usize, name: &OpName, ordinal: usize, s: Slot, src: &SrcParam) {
    use SrcModifier::*;
    let inst = cx.inst(i);
    let v = cx.version;
    let m = src.modifier;
    if m == None {
        return;
    }
    let boolean = matches!(src.reg.ty, RegisterType::ConstBool | RegisterType::Predicate);
    let ok = match m {
        None => true,
        Not => boolean && matches!(s, Slot::BoolOrPredicate | Slot::Predicate),
        _ if s != Slot::General => false,
        Dz | Dw => {
            cx.profile.ps_1_4
                && matches!(inst.opcode, Opcode::Tex | Opcode::TexCoord)
                && !(m == Dz && src.reg.ty == RegisterType::Temp && inst.opcode == Opcode::TexCoord)
        }
        _ => general_modifier(cx, m),
    };
    if !ok {
        let reg = src.reg;
        cx.error(
            Rule::SourceModifier,
            Some(i),
            format_args!(
                "{name} source {ordinal} ({}): the {} modifier is not allowed here in {v}",
                modifier_spelling(m, &reg),
                modifier_name(m)
            ),
        );
        return;
    }
    if negated_matrix(inst.opcode.info(), ordinal - 1, m) {
        cx.error(Rule::SourceModifier, Some(i), format_args!("{name}: the matrix (source 2) cannot be negated"));
    }
    if cx.profile.ps_1_x {
        // ps_1_x texture address instructions take only _bx2 on their source (ps_1_1: texm*
        // only); ps_1_4's texld/texcrd take _dz/_dw. ps_1_4 refuses modifiers on constants.
        let texm = inst.opcode.info().texm;
        let texture_address = inst.opcode.info().texture && !matches!(inst.opcode, Opcode::Tex | Opcode::TexCoord);
        if texture_address && !cx.profile.ps_1_4 && !(m == Sign && (texm || v.minor >= 2)) {
            cx.error(
                Rule::SourceModifier,
                Some(i),
                format_args!("{name} source {ordinal}: texture address instructions take only _bx2 in {v}"),
            );
        }
        if cx.profile.ps_1_4 && src.reg.ty == RegisterType::Const {
            cx.error(
                Rule::SourceModifier,
                Some(i),
                format_args!("{name} source {ordinal}: ps_1_4 allows no modifier on a constant"),
            );
        }
    }
}

/// Whether a general source may carry modifier `m` in this version, whatever the instruction
/// (`_dz`/`_dw`, which depend on it, and `!`, which general sources never take, are `false`).
/// Whether source `k` (from 0) carries a negation that the matrix operand of `m4x4`, `m3x3`, …
/// (their second source) cannot take.
pub(super) fn negated_matrix(info: &OpcodeInfo, k: usize, m: SrcModifier) -> bool {
    info.matrix.is_some() && k == 1 && m == SrcModifier::Neg
}

pub(super) fn general_modifier(cx: &Cx<'_>, m: SrcModifier) -> bool {
    use SrcModifier::*;
    match m {
        None | Neg => true,
        Bias | BiasNeg | Sign | SignNeg | Comp => cx.profile.ps_1_x,
        X2 | X2Neg => cx.profile.ps_1_4,
        Abs | AbsNeg => cx.version.major == 3,
        Dz | Dw | Not => false,
    }
}

/// How an author writes register `reg` with modifier `m` (`-r0`, `r0_bx2`, `1-r0`, `!b0`).
fn modifier_spelling(m: SrcModifier, reg: &Register) -> String {
    use SrcModifier::*;
    match m {
        None => reg.to_string(),
        Neg => format!("-{reg}"),
        Bias => format!("{reg}_bias"),
        BiasNeg => format!("-{reg}_bias"),
        Sign => format!("{reg}_bx2"),
        SignNeg => format!("-{reg}_bx2"),
        Comp => format!("1-{reg}"),
        X2 => format!("{reg}_x2"),
        X2Neg => format!("-{reg}_x2"),
        Dz => format!("{reg}_dz"),
        Dw => format!("{reg}_dw"),
        Abs => format!("{reg}_abs"),
        AbsNeg => format!("-{reg}_abs"),
        Not => format!("!{reg}"),
    }
}

/// The modifier's name in the reference pages.
fn modifier_name(m: SrcModifier) -> &'static str {
    use SrcModifier::*;
    match m {
        None => "no",
        Neg => "negate",
        Bias => "bias",
        BiasNeg => "negated bias",
        Sign => "signed scale (_bx2)",
        SignNeg => "negated signed scale (-_bx2)",
        Comp => "invert (1-)",
        X2 => "scale by 2 (_x2)",
        X2Neg => "negated scale by 2",
        Dz => "_dz",
        Dw => "_dw",
        Abs => "absolute value (_abs)",
        AbsNeg => "negated absolute value (-_abs)",
        Not => "not (!)",
    }
}

/// A swizzle as written (`.yxzw`).
fn swizzle_name(sw: Swizzle) -> String {
    let letters = ['x', 'y', 'z', 'w'];
    std::iter::once('.').chain(sw.components().iter().map(|&c| letters[c])).collect()
}

/// The swizzles ps_2_0 (and ps_2_x without `D3DPS20CAPS_ARBITRARYSWIZZLE`) can express:
/// identity, the four replicates, .yzxw, .zxyw and .wzyx.
pub(super) fn ps20_swizzle(sw: Swizzle) -> bool {
    sw == Swizzle::IDENTITY || sw.is_replicate() || matches!(sw.0, 0xC9 | 0xD2 | 0x1B)
}

fn swizzle(cx: &mut Cx<'_>, i: usize, name: &OpName, ordinal: usize, s: Slot, src: &SrcParam) {
    let inst = cx.inst(i);
    let v = cx.version;
    let sw = src.swizzle;
    if sw == Swizzle::IDENTITY {
        return;
    }
    let reg = src.reg;
    if s == Slot::Sampler && v.major == 3 {
        // ps_3_0 accepts a swizzled sampler (Windows ran wine's fetch4 test, `texld r0, v0, s0.yzwx`).
        return;
    }
    if matches!(s, Slot::Sampler | Slot::Label | Slot::Int | Slot::LoopCounter) {
        cx.error(Rule::Swizzle, Some(i), format_args!("{name} source {ordinal} ({reg}) takes no swizzle"));
        return;
    }
    let matrix = inst.opcode.info().matrix.is_some();
    if matrix && ordinal == 2 {
        cx.error(Rule::Swizzle, Some(i), format_args!("{name}: the matrix (source 2) takes no swizzle"));
        return;
    }
    if cx.is_vs() || v.major == 3 {
        return;
    }
    let texld = inst.opcode == Opcode::Tex;
    if v.major == 2 {
        if texld {
            // Drivers apply the swizzle; the runtime refuses it before ps_3_0.
            cx.relaxable(
                Rule::Swizzle,
                Some(i),
                format_args!("{name} source {ordinal} ({reg}) takes no swizzle before ps_3_0"),
            );
        } else if !(ps20_swizzle(sw)
            || (cx.id == Some(VersionId::Ps2x) && cx.options.caps.ps_arbitrary_swizzle)
            || cx.id == Some(VersionId::Ps2sw))
        {
            cx.error(Rule::Swizzle, Some(i), format_args!("{name} source {ordinal} ({reg}{}): arbitrary swizzles need ps_2_x with D3DPS20CAPS_ARBITRARYSWIZZLE or ps_3_0", swizzle_name(sw)));
        }
        return;
    }
    // ps_1_x.
    let ok = if cx.profile.ps_1_4 {
        if matches!(inst.opcode, Opcode::Tex | Opcode::TexCoord) {
            matches!(sw.0, 0xA4 | 0xF4) // .xyz and .xyw
        } else {
            sw.is_replicate()
        }
    } else {
        // ps_1_0–1_3: alpha replicate, and blue replicate when only alpha is written.
        sw.0 == 0xFF || (sw.0 == 0xAA && inst.dst.is_some_and(|d| d.mask.0 == 0x8))
    };
    if !ok {
        cx.error(
            Rule::Swizzle,
            Some(i),
            format_args!("{name} source {ordinal} ({reg}{}): this swizzle does not exist in {v}", swizzle_name(sw)),
        );
    }
}

/// Rules of single instructions.
fn specific(cx: &mut Cx<'_>, i: usize, name: &OpName, info: &OpcodeInfo, id: VersionId) {
    let inst = cx.inst(i);
    let v = cx.version;
    use Opcode::*;
    // ps_1_0–1_3 cnd chooses on r0.a alone.
    if inst.opcode == Cnd && !cx.profile.ps_1_4 {
        let s0 = inst.src[0];
        let r0 = crate::bytecode::Register::new(RegisterType::Temp, 0);
        if s0.reg != r0 || s0.swizzle.0 != 0xFF || s0.modifier != SrcModifier::None {
            cx.error(Rule::RegisterType, Some(i), "cnd's first source must be r0.a before ps_1_4");
        }
    }
    // Scalar operands of SM2+ take a replicate swizzle (one component), as do predicate
    // sources of if/callnz/breakp.
    let scalar_sources = info.scalar_sources;
    if !v.is_sm1() {
        for (k, s) in inst.src.iter().enumerate() {
            let predicate = s.reg.ty == RegisterType::Predicate;
            let scalar = scalar_sources & (1 << k) != 0;
            if (scalar || predicate) && !s.swizzle.is_replicate() {
                let what = if predicate { "a predicate source" } else { "a scalar operand" };
                cx.error(
                    Rule::Swizzle,
                    Some(i),
                    format_args!(
                        "{name} source {} ({}): {what} takes one component (.x, .y, .z or .w)",
                        k + 1,
                        s.reg.name()
                    ),
                );
            }
        }
    }
    // ps_2_x gradient instructions depend on a cap.
    let gradient_instruction = info.gradients.gradient_instruction();
    if gradient_instruction && id == VersionId::Ps2x && !cx.options.caps.ps_gradient_instructions {
        cx.error(Rule::Instruction, Some(i), format_args!("{name} needs D3DPS20CAPS_GRADIENTINSTRUCTIONS"));
    }
}
