//! Register counts per version, and the check that every register number is in range.
//!
//! Counts are the D3D9 shader reference's register tables: vs c0–c255 (the device's
//! `MaxVertexShaderConst`, c0–c8191 with software vertex processing and in the `_sw` models),
//! ps_1_x c0–c7, ps_2_0/2_x c0–c31, ps_3_0 c0–c223, i0–i15 and b0–b15 (2048 in the `_sw`
//! models), and so on.

use crate::bytecode::{Instruction, Register, RegisterType, VersionId};
use crate::validate::{Cx, Mode, Rule, ValidationOptions};

/// How many registers of each file a version has (0: the file does not exist there).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// `r#`.
    pub temps: u16,
    /// `v#`.
    pub inputs: u16,
    /// `c#`.
    pub consts: u16,
    /// `i#`.
    pub ints: u16,
    /// `b#`.
    pub bools: u16,
    /// `s#`.
    pub samplers: u16,
    /// `t#` (pixel shaders before 3.0).
    pub textures: u16,
    /// `l#`.
    pub labels: u16,
    /// `oT#` (vs before 3.0) or `o#` (vs_3_0).
    pub texcoord_outputs: u16,
    /// `oD#`.
    pub color_attr_outputs: u16,
    /// `oC#`.
    pub color_outputs: u16,
    /// `a0`.
    pub addr: u16,
    /// `p0`.
    pub predicate: u16,
    /// `aL`.
    pub loop_counter: u16,
}

/// The register counts of version `id` under `options` (caps and software vertex
/// processing), e.g. to size constant buffers: `limits(VersionId::Ps20, &opts).consts` is 32.
pub fn limits(id: VersionId, options: &ValidationOptions) -> Limits {
    use VersionId::*;
    let caps = &options.caps;
    // Software vertex processing gives every vertex shader 8192 float constants.
    let vs_consts = if options.swvp { 8192 } else { caps.max_vertex_shader_const };
    let rts = caps.num_simultaneous_rts as u16;
    let l = Limits::default();
    match id {
        Vs10 | Vs11 => Limits {
            temps: 12,
            inputs: 16,
            consts: vs_consts,
            addr: 1,
            texcoord_outputs: 8,
            color_attr_outputs: 2,
            ..l
        },
        Vs20 | Vs2x | Vs2sw => Limits {
            temps: match id {
                Vs20 => 12,
                Vs2x => caps.vs_num_temps as u16,
                _ => 32,
            },
            inputs: 16,
            consts: if id == Vs2sw { 8192 } else { vs_consts },
            ints: if id == Vs2sw { 2048 } else { 16 },
            bools: if id == Vs2sw { 2048 } else { 16 },
            labels: if id == Vs2sw { 2048 } else { 16 },
            addr: 1,
            predicate: (id == Vs2sw || (id == Vs2x && caps.vs_predication)) as u16,
            loop_counter: 1,
            texcoord_outputs: 8,
            color_attr_outputs: 2,
            ..l
        },
        Vs30 | Vs3sw => Limits {
            temps: 32,
            inputs: 16,
            consts: if id == Vs3sw { 8192 } else { vs_consts },
            ints: if id == Vs3sw { 2048 } else { 16 },
            bools: if id == Vs3sw { 2048 } else { 16 },
            labels: 2048,
            samplers: 4,
            addr: 1,
            predicate: 1,
            loop_counter: 1,
            texcoord_outputs: 12,
            ..l
        },
        Ps10 | Ps11 | Ps12 | Ps13 => Limits { temps: 2, inputs: 2, consts: 8, textures: 4, ..l },
        Ps14 => Limits { temps: 6, inputs: 2, consts: 8, textures: 6, ..l },
        Ps20 => Limits { temps: 12, inputs: 2, consts: 32, textures: 8, samplers: 16, color_outputs: rts, ..l },
        Ps2x | Ps2sw => {
            let sw = id == Ps2sw;
            Limits {
                temps: if sw { 32 } else { caps.ps_num_temps as u16 },
                inputs: 2,
                consts: if sw { 8192 } else { 32 },
                ints: if sw { 2048 } else { 16 },
                bools: if sw { 2048 } else { 16 },
                labels: if sw { 2048 } else { 16 },
                textures: 8,
                samplers: 16,
                predicate: (sw || caps.ps_predication) as u16,
                color_outputs: rts,
                ..l
            }
        }
        Ps30 | Ps3sw => {
            let sw = id == Ps3sw;
            Limits {
                temps: 32,
                inputs: 10,
                consts: if sw { 8192 } else { 224 },
                ints: if sw { 2048 } else { 16 },
                bools: if sw { 2048 } else { 16 },
                labels: 2048,
                samplers: 16,
                predicate: 1,
                loop_counter: 1,
                color_outputs: rts,
                ..l
            }
        }
    }
}

/// The number of registers of file `ty` (`None`: the file has no count of its own to check here,
/// such as `vPos`/`vFace` or `oPos`/`oFog`/`oPts`, whose numbers are checked by name).
pub(crate) fn count(cx: &Cx<'_>, limits: &Limits, ty: RegisterType) -> u16 {
    use RegisterType::*;
    match ty {
        Temp => limits.temps,
        Input => limits.inputs,
        Const => limits.consts,
        ConstInt => limits.ints,
        ConstBool => limits.bools,
        Sampler => limits.samplers,
        Texture => limits.textures,
        Label => limits.labels,
        TexCrdOut | Output => limits.texcoord_outputs,
        AttrOut => limits.color_attr_outputs,
        ColorOut => limits.color_outputs,
        Addr => limits.addr,
        Predicate => limits.predicate,
        Loop => limits.loop_counter,
        RastOut => {
            if cx.is_vs() && cx.version.major < 3 {
                3
            } else {
                0
            }
        }
        DepthOut => (cx.is_ps() && cx.version.major >= 2) as u16,
        MiscType => {
            if cx.is_ps() && cx.version.major == 3 {
                2
            } else {
                0
            }
        }
        TempFloat16 => 0,
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
    for (i, inst) in cx.program.iter().enumerate() {
        for reg in registers(inst) {
            check_register(cx, &limits, i, reg);
        }
    }
}

fn registers(inst: &Instruction) -> impl Iterator<Item = Register> + '_ {
    let dst = inst.dst.iter().flat_map(|d| std::iter::once(d.reg).chain(d.relative.map(|r| r.reg)));
    let pred = inst.predicate.iter().map(|p| p.reg);
    let src = inst.src.iter().flat_map(|s| std::iter::once(s.reg).chain(s.relative.map(|r| r.reg)));
    dst.chain(pred).chain(src)
}

fn check_register(cx: &mut Cx<'_>, limits: &Limits, i: usize, reg: Register) {
    let n = count(cx, limits, reg.ty);
    if n == 0 || reg.num < n {
        // A file that does not exist in this version is the register-type rule's to report.
        return;
    }
    let message = format_args!("{} is out of range: the {} are numbered 0 to {}", reg.name(), file_name(reg.ty), n - 1);
    // Constants index buffers the caller sizes from the version: past the count they are an
    // error in both modes, unless the caller sizes them from the program.
    let constant = matches!(reg.ty, RegisterType::Const | RegisterType::ConstInt | RegisterType::ConstBool);
    let relaxed =
        reg.ty == RegisterType::Const && cx.options.mode == Mode::Lenient && cx.options.relaxed_constant_limit;
    // A ps_1_x t# past the count names a texture stage that does not exist (D3D9 has eight),
    // whose coordinates and stage state the translator cannot supply (the fuzzer's
    // `texbeml t10, t1` in ps_1_0 reached naga's validator): refused in both modes.
    let missing_stage = reg.ty == RegisterType::Texture && cx.is_ps() && cx.version.major == 1;
    // The same for the fixed files that name a built-in or a fixed output (vPos/vFace, oPos,
    // oFog, oPts, oD#, oT#, oC#, oDepth): past the end there is nothing to bind (the fuzzer's
    // `dcl vMisc513` duplicated the front-facing built-in, `oD256` collided with another output).
    use RegisterType::{AttrOut, ColorOut, DepthOut, MiscType, RastOut, TexCrdOut};
    let missing_builtin = matches!(reg.ty, MiscType | RastOut | AttrOut | TexCrdOut | ColorOut | DepthOut);
    if (constant && !relaxed) || missing_stage || missing_builtin {
        cx.hard_error(Rule::RegisterIndex, Some(i), message);
    } else {
        cx.error(Rule::RegisterIndex, Some(i), message);
    }
}
