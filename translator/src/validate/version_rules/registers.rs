//! Register counts per version, and the check that every register number is in range.
//!
//! The counts are the version profile's ([`crate::bytecode::profile`], the D3D9 shader
//! reference's register tables), narrowed by the device's caps where the reference says so.

use crate::bytecode::profile::SW_FLOAT_CONSTANTS;
use crate::bytecode::registers::push_decimal;
use crate::bytecode::{Profile, Register, RegisterCounts, RegisterType, VersionId};
use crate::validate::{Cx, Mode, Rule, ValidationOptions};

/// How many registers of each file a version has (0: the file does not exist there): the
/// profile's counts, narrowed by the device's caps.
pub type Limits = RegisterCounts;

/// The register counts of version `id` under `options` (caps and software vertex
/// processing), e.g. to size constant buffers: `limits(VersionId::Ps20, &opts).consts` is 32.
pub fn limits(id: VersionId, options: &ValidationOptions) -> Limits {
    use VersionId::*;
    let caps = &options.caps;
    let p = Profile::of(id);
    let mut l = p.registers;
    if p.is_vertex() && !p.software {
        // Software vertex processing gives every vertex shader 8192 float constants.
        l.consts = if options.swvp { SW_FLOAT_CONSTANTS } else { caps.max_vertex_shader_const };
    }
    if l.color_outputs > 0 {
        l.color_outputs = caps.num_simultaneous_rts as u16;
    }
    match id {
        Vs2x => {
            l.temps = caps.vs_num_temps as u16;
            l.predicate = caps.vs_predication as u16;
        }
        Ps2x => {
            l.temps = caps.ps_num_temps as u16;
            l.predicate = caps.ps_predication as u16;
        }
        _ => {}
    }
    l
}

/// The number of registers of file `ty` (`None`: the file has no count of its own to check here,
/// such as `vPos`/`vFace` or `oPos`/`oFog`/`oPts`, whose numbers are checked by name).
pub(crate) fn count(cx: &Cx<'_>, limits: &Limits, ty: RegisterType) -> u16 {
    use RegisterType::*;
    if let Some(n) = limits.of(ty) {
        return n;
    }
    let p = cx.profile;
    match ty {
        // oPos, oFog, oPts.
        RastOut if p.is_vertex() && p.fixed_io => 3,
        // oDepth.
        DepthOut if p.is_pixel() && !p.ps_1_x => 1,
        // vPos, vFace.
        MiscType if p.is_pixel() && !p.fixed_io => 2,
        _ => 0,
    }
}

fn file_name(ty: RegisterType) -> &'static str {
    use RegisterType::*;
    match ty {
        Temp => "temporary registers r#",
        Input => "input registers v#",
        Const => "float constants c#",
        ConstInt => "integer constants i#",
        ConstBool => "boolean constants b#",
        Sampler => "samplers s#",
        Texture => "texture registers t#",
        Label => "labels l#",
        TexCrdOut => "texture coordinate outputs oT#",
        Output => "outputs o#",
        AttrOut => "colour outputs oD#",
        ColorOut => "colour outputs oC#",
        Addr => "address registers a#",
        Predicate => "predicate registers p#",
        Loop => "loop counters aL",
        RastOut => "rasterizer outputs",
        DepthOut => "depth outputs",
        MiscType => "vPos/vFace registers",
        TempFloat16 => "half-precision temporaries",
    }
}

/// Every register number of every instruction is within its file's count.
pub(crate) fn check(cx: &mut Cx<'_>) {
    let Some(id) = cx.id else { return };
    let limits = limits(id, cx.options);
    // Each file's count once, indexed by the file: the loop below asks for every operand.
    let counts: [u16; 19] = std::array::from_fn(|t| count(cx, &limits, RegisterType::ALL[t]));
    // The operands in order (destination, its address, predicate, each source and its
    // address) without a chain of iterators: the chained `Option`s cost a tenth of the
    // validation under callgrind.
    let program = cx.program;
    for (i, inst) in program.iter().enumerate() {
        if let Some(d) = &inst.dst {
            in_range(cx, &counts, i, d.reg);
            if let Some(r) = d.relative {
                in_range(cx, &counts, i, r.reg);
            }
        }
        if let Some(p) = &inst.predicate {
            in_range(cx, &counts, i, p.reg);
        }
        for s in inst.src.iter() {
            in_range(cx, &counts, i, s.reg);
            if let Some(r) = s.relative {
                in_range(cx, &counts, i, r.reg);
            }
        }
    }
}

/// Checks one register of instruction `i` against its file's count.
// Inlined into the loop over every operand (a call per operand was a tenth of this check);
// the report, rare, is not.
#[inline(always)]
fn in_range(cx: &mut Cx<'_>, counts: &[u16; 19], i: usize, reg: Register) {
    let n = counts[reg.ty as usize];
    // A file that does not exist in this version is the register-type rule's to report.
    if n != 0 && reg.num >= n {
        out_of_range(cx, i, reg, n);
    }
}

/// Reports register `reg` of instruction `i` past its file's count `n`.
#[cold]
fn out_of_range(cx: &mut Cx<'_>, i: usize, reg: Register, n: u16) {
    // `{reg} is out of range: the {file} are numbered 0 to {n - 1}`, appended piece by piece:
    // the common list's shaders name a few dozen constants past the count each.
    // A vertex shader's c256 and up is the common mistake of a shader written for software
    // vertex processing, whose 8192 float constants every vertex model has (`limits`):
    // the message says which option allows it.
    let swvp_would_allow =
        reg.ty == RegisterType::Const && cx.profile.is_vertex() && !cx.options.swvp && reg.num < SW_FLOAT_CONSTANTS;
    let message = |text: &mut String| {
        reg.push_name(text);
        text.push_str(" is out of range: the ");
        text.push_str(file_name(reg.ty));
        text.push_str(" are numbered 0 to ");
        push_decimal(text, u32::from(n - 1));
        if swvp_would_allow {
            text.push_str(" (software vertex processing, the `swvp` option, allows c0 to c8191)");
        }
    };
    // Constants index buffers the caller sizes from the version: past the count they are an
    // error in both modes, unless the caller sizes them from the program.
    let constant = matches!(reg.ty, RegisterType::Const | RegisterType::ConstInt | RegisterType::ConstBool);
    let relaxed =
        reg.ty == RegisterType::Const && cx.options.mode == Mode::Lenient && cx.options.relaxed_constant_limit;
    // A ps_1_x t# past the count names a texture stage that does not exist (D3D9 has eight),
    // whose coordinates and stage state the translator cannot supply (the fuzzer's
    // `texbeml t10, t1` in ps_1_0 reached naga's validator): refused in both modes.
    let missing_stage = reg.ty == RegisterType::Texture && cx.profile.ps_1_x;
    // The same for the fixed files that name a built-in or a fixed output (vPos/vFace, oPos,
    // oFog, oPts, oD#, oT#, oC#, oDepth): past the end there is nothing to bind (the fuzzer's
    // `dcl vMisc513` duplicated the front-facing built-in, `oD256` collided with another output).
    use RegisterType::{AttrOut, ColorOut, DepthOut, MiscType, RastOut, TexCrdOut};
    let missing_builtin = matches!(reg.ty, MiscType | RastOut | AttrOut | TexCrdOut | ColorOut | DepthOut);
    if (constant && !relaxed) || missing_stage || missing_builtin {
        cx.hard_error_with(Rule::RegisterIndex, Some(i), message);
    } else {
        cx.error_with(Rule::RegisterIndex, Some(i), message);
    }
}
