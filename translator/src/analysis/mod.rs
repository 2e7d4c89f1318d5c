//! The signature of a program: what it reads and writes, which constants and samplers it uses,
//! its subroutines and the features it needs. The lowering sizes its variables from it; the
//! `info` command prints it (serde, for `--json`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::bytecode::{
    Instruction, Nesting, Opcode, OpcodeInfo, Payload, Profile, Program, Register, RegisterType, ShaderKind, SrcParam,
    TextureType, Usage,
};

/// One declared or used input/output register.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct IoRegister {
    /// The register as written in assembly (`v3`, `oT0`, `o2`, `vPos`).
    pub register: String,
    /// Register file.
    #[serde(skip)]
    pub file: RegisterType,
    /// Register number.
    pub index: u16,
    /// The `dcl` usage; `None` for undeclared registers. Serialised by its `dcl_` name
    /// (`texcoord`, `color`, …).
    #[serde(serialize_with = "usage_name")]
    pub usage: Option<Usage>,
    /// Usage code (D3DDECLUSAGE) when declared.
    #[serde(skip)]
    pub usage_code: Option<u8>,
    /// Usage index.
    pub usage_index: u8,
    /// Mask of the `dcl` (or of the components used when not declared).
    pub mask: u8,
    /// Components read (inputs) or written (outputs).
    pub used_mask: u8,
    /// `_centroid` on the declaration.
    pub centroid: bool,
}

/// A register range of one constant file.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ConstantUse {
    /// Registers read directly (sorted, without duplicates).
    pub used: Vec<u16>,
    /// Whether some read is relatively addressed (`c[a0.x + n]`, `c[aL + n]`).
    pub relative: bool,
    /// Base registers of relative reads.
    pub relative_bases: Vec<u16>,
    /// Registers defined by `def`/`defi`/`defb`, with their raw values.
    pub defined: BTreeMap<u16, [u32; 4]>,
}

/// A usage by its `dcl_` name (the JSON of `d3d9-shader info --json`).
fn usage_name<S: serde::Serializer>(u: &Option<Usage>, s: S) -> Result<S::Ok, S::Error> {
    match u {
        Some(u) => s.serialize_some(u.name()),
        None => s.serialize_none(),
    }
}

/// A texture type by its `dcl_` name (the JSON of `d3d9-shader info --json`).
fn texture_type_name<S: serde::Serializer>(t: &Option<TextureType>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_some(t.name()),
        None => s.serialize_none(),
    }
}

/// A sampler used by the program.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Sampler {
    /// `s#` number.
    pub index: u16,
    /// The declared texture type, `None` when undeclared (Shader Model 1); serialised by its
    /// `dcl_` name (`2d`, `cube`, `volume`).
    #[serde(serialize_with = "texture_type_name")]
    pub declared: Option<TextureType>,
    /// Declared type.
    #[serde(skip)]
    pub texture_type: Option<TextureType>,
}

/// Features the program uses.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Features {
    /// Some instruction is predicated, or `p0` is read.
    pub predication: bool,
    /// Some register is relatively addressed.
    pub relative_addressing: bool,
    /// `texkill`.
    pub texkill: bool,
    /// `dsx`/`dsy`/`texldd`.
    pub derivatives: bool,
    /// `loop`.
    pub loops: bool,
    /// `rep`.
    pub reps: bool,
    /// `if`/`ifc`.
    pub branches: bool,
    /// `call`/`callnz`.
    pub calls: bool,
    /// `ret` before the end of the main program.
    pub early_return: bool,
    /// Writes oDepth.
    pub depth_output: bool,
    /// Reads vPos.
    pub vpos: bool,
    /// Reads vFace.
    pub vface: bool,
    /// Texture sampling in a vertex shader.
    pub vertex_texture_fetch: bool,
    /// ps_1_x bump-environment mapping (texbem, texbeml, bem).
    pub bump_env: bool,
}

/// A constant-table entry, for reflection.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CtabName {
    /// The uniform's name.
    pub name: String,
    /// `b`, `i`, `c` or `s`.
    pub set: &'static str,
    /// First register.
    pub register: u16,
    /// Registers used.
    pub count: u16,
}

/// The names of `program`'s constant table (empty without one, or with one that does not
/// parse). Not part of the [`Signature`]: the translation needs none of them, and reading the
/// table's strings was a sixth of the analysis; reflection reads them when asked.
pub fn ctab_names(program: &Program) -> Vec<CtabName> {
    let Some(Ok(table)) = program.constant_table() else { return Vec::new() };
    table
        .constants
        .iter()
        .map(|c| CtabName {
            name: c.name.clone(),
            set: c.register_set.prefix(),
            register: c.register_index,
            count: c.register_count,
        })
        .collect()
}

/// The signature of a program.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Signature {
    /// `vs_3_0`, …
    pub version: String,
    /// Inputs (v#, t#, vPos, vFace).
    pub inputs: Vec<IoRegister>,
    /// Outputs (oPos, oD#, oT#, oFog, oPts, o#, oC#, oDepth).
    pub outputs: Vec<IoRegister>,
    /// Float constants.
    pub float_constants: ConstantUse,
    /// Integer constants.
    pub int_constants: ConstantUse,
    /// Boolean constants.
    pub bool_constants: ConstantUse,
    /// Samplers.
    pub samplers: Vec<Sampler>,
    /// Highest temp register used + 1.
    pub temps: u16,
    /// Subroutine labels, in stream order.
    pub labels: Vec<u16>,
    /// Features.
    pub features: Features,
    /// Register files addressed relatively (inputs or outputs through aL).
    #[serde(skip)]
    pub relative_files: Vec<RegisterType>,
    /// Index of the main program's closing `ret` (or the instruction count).
    #[serde(skip)]
    pub main_end: usize,
}

impl Signature {
    /// The input register entry, if any.
    pub fn input(&self, file: RegisterType, index: u16) -> Option<&IoRegister> {
        self.inputs.iter().find(|r| r.file == file && r.index == index)
    }

    /// The output register entry, if any.
    pub fn output(&self, file: RegisterType, index: u16) -> Option<&IoRegister> {
        self.outputs.iter().find(|r| r.file == file && r.index == index)
    }

    /// Whether a register file is addressed relatively somewhere.
    pub fn is_relative(&self, file: RegisterType) -> bool {
        self.relative_files.contains(&file)
    }
}

fn is_input(ty: RegisterType, kind: ShaderKind) -> bool {
    matches!(ty, RegisterType::Input | RegisterType::MiscType)
        || (ty == RegisterType::Texture && kind == ShaderKind::Pixel)
}

fn is_output(ty: RegisterType) -> bool {
    matches!(
        ty,
        RegisterType::RastOut
            | RegisterType::AttrOut
            | RegisterType::TexCrdOut
            | RegisterType::Output
            | RegisterType::ColorOut
            | RegisterType::DepthOut
    )
}

fn io_entry(list: &mut Vec<IoRegister>, reg: Register) -> &mut IoRegister {
    if let Some(i) = list.iter().position(|r| r.file == reg.ty && r.index == reg.num) {
        return &mut list[i];
    }
    list.push(IoRegister {
        register: reg.name(),
        file: reg.ty,
        index: reg.num,
        usage: None,
        usage_code: None,
        usage_index: 0,
        mask: 0,
        used_mask: 0,
        centroid: false,
    });
    list.last_mut().expect("just pushed")
}

/// Components of a source's register that a read touches.
fn read_mask(src: &SrcParam, components: u8) -> u8 {
    let mut m = 0;
    for i in 0..4 {
        if components & (1 << i) != 0 {
            m |= 1 << src.swizzle.get(i);
        }
    }
    m
}

/// Computes the signature.
pub fn analyse(program: &Program) -> Signature {
    let mut sig = Signature {
        version: program.version.to_string(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        // Every read is listed before the list is sorted and deduplicated: room for one read an
        // instruction up front, not a growth each time the list doubles.
        float_constants: ConstantUse { used: Vec::with_capacity(program.len()), ..ConstantUse::default() },
        int_constants: ConstantUse::default(),
        bool_constants: ConstantUse::default(),
        samplers: Vec::new(),
        temps: 0,
        labels: Vec::new(),
        features: Features::default(),
        relative_files: Vec::new(),
        main_end: program.len(),
    };
    let mut depth = 0usize;
    let mut in_main = true;
    // Once, not per instruction (a tenth of the analysis under callgrind).
    let profile = program.version.profile();
    for (i, inst) in program.iter().enumerate() {
        // The opcode's row, looked up once for the nesting test and the visit.
        let info = inst.opcode.info();
        if in_main {
            match (inst.opcode, info.nesting) {
                (_, Nesting::Open { .. }) => depth += 1,
                (_, Nesting::Close) => depth = depth.saturating_sub(1),
                (Opcode::Ret, _) if depth == 0 => {
                    sig.main_end = i;
                    in_main = false;
                }
                (Opcode::Ret, _) => sig.features.early_return = true,
                (Opcode::Label, _) => {
                    sig.main_end = i;
                    in_main = false;
                }
                _ => {}
            }
        }
        visit(&mut sig, inst, info, profile);
    }
    for list in [&mut sig.float_constants, &mut sig.int_constants, &mut sig.bool_constants] {
        list.used.sort_unstable();
        list.used.dedup();
        list.relative_bases.sort_unstable();
        list.relative_bases.dedup();
    }
    sig.samplers.sort_by_key(|s| s.index);
    sig.inputs.sort_by_key(|r| (r.file, r.index));
    sig.outputs.sort_by_key(|r| (r.file, r.index));
    sig
}

fn visit(sig: &mut Signature, inst: &Instruction, info: &OpcodeInfo, profile: &Profile) {
    use Opcode as O;
    match inst.opcode {
        // Declarations and definitions record what they declare and nothing else.
        O::Dcl => return visit_dcl(sig, inst, profile),
        O::Def | O::DefI | O::DefB => return visit_def(sig, inst),
        O::Label => {
            if let Some(l) = inst.src.get(0) {
                sig.labels.push(l.reg.num);
            }
            return;
        }
        O::Call | O::CallNz => sig.features.calls = true,
        O::Loop => sig.features.loops = true,
        O::Rep => sig.features.reps = true,
        O::If | O::Ifc => sig.features.branches = true,
        O::TexKill => sig.features.texkill = true,
        O::TexDepth | O::TexM3x2Depth => sig.features.depth_output = true,
        O::TexBem | O::TexBemL | O::Bem => sig.features.bump_env = true,
        _ if info.gradients.gradient_instruction() => sig.features.derivatives = true,
        _ => {}
    }
    if inst.predicate.is_some() {
        sig.features.predication = true;
    }
    if let (true, Some(stage)) = (profile.ps_1_x, stage_of(inst, info)) {
        if !sig.samplers.iter().any(|s| s.index == stage) {
            sig.samplers.push(Sampler { index: stage, declared: None, texture_type: None });
        }
    }
    if profile.kind == ShaderKind::Vertex && info.samples {
        sig.features.vertex_texture_fetch = true;
    }
    visit_dst(sig, inst, profile.kind);
    visit_sources(sig, inst, info, profile.kind);
}

/// A `dcl`: a sampler's texture type, or an input's or output's semantic and mask.
fn visit_dcl(sig: &mut Signature, inst: &Instruction, profile: &Profile) {
    let (Some(dst), Payload::Dcl(decl)) = (inst.dst, inst.payload) else { return };
    let reg = dst.reg;
    if reg.ty == RegisterType::Sampler {
        let tt = decl.texture_type();
        match sig.samplers.iter_mut().find(|s| s.index == reg.num) {
            Some(s) => {
                s.texture_type = tt;
                s.declared = tt;
            }
            None => sig.samplers.push(Sampler { index: reg.num, declared: tt, texture_type: tt }),
        }
        return;
    }
    let list = if is_output(reg.ty) { &mut sig.outputs } else { &mut sig.inputs };
    let e = io_entry(list, reg);
    // Pixel shaders before 3.0 declare v#/t# without a semantic (usage token 0x80000000).
    let semantic = match profile.kind {
        ShaderKind::Vertex => true,
        ShaderKind::Pixel => !profile.fixed_io && reg.ty == RegisterType::Input,
    };
    if semantic {
        e.usage = decl.usage();
        e.usage_code = Some(decl.usage);
        e.usage_index = decl.usage_index;
    }
    e.mask |= dst.mask.0;
    e.centroid |= dst.modifiers.centroid();
}

/// A `def`, `defi` or `defb`: the constant's value in its file's list.
fn visit_def(sig: &mut Signature, inst: &Instruction) {
    let Some(dst) = inst.dst else { return };
    let value = match inst.payload {
        Payload::Def(v) => v,
        Payload::DefI(v) => v.map(|x| x as u32),
        Payload::DefB(b) => [b, 0, 0, 0],
        _ => return,
    };
    let list = match dst.reg.ty {
        RegisterType::Const => &mut sig.float_constants,
        RegisterType::ConstInt => &mut sig.int_constants,
        RegisterType::ConstBool => &mut sig.bool_constants,
        _ => return,
    };
    list.defined.insert(dst.reg.num, value);
}

/// The destination of an instruction: temporaries, outputs and relatively addressed files.
fn visit_dst(sig: &mut Signature, inst: &Instruction, kind: ShaderKind) {
    let Some(dst) = &inst.dst else { return };
    let reg = dst.reg;
    match reg.ty {
        RegisterType::Temp => sig.temps = sig.temps.max(reg.num + 1),
        RegisterType::DepthOut => sig.features.depth_output = true,
        _ => {}
    }
    if is_output(reg.ty) {
        io_entry(&mut sig.outputs, reg).used_mask |= dst.mask.0;
    }
    if dst.relative.is_some() {
        sig.features.relative_addressing = true;
        if !sig.relative_files.contains(&reg.ty) {
            sig.relative_files.push(reg.ty);
        }
    }
    // ps_1_x texture ops write t#; they are inputs seeded with coordinates as well.
    if reg.ty == RegisterType::Texture && kind == ShaderKind::Pixel {
        io_entry(&mut sig.inputs, reg);
    }
}

/// The sources and predicate of an instruction: the registers, constants, samplers and
/// inputs they read.
fn visit_sources(sig: &mut Signature, inst: &Instruction, info: &OpcodeInfo, kind: ShaderKind) {
    // m#x# read as many consecutive registers of their matrix operand as the matrix has rows.
    let matrix_rows = info.matrix.map_or(1, |m| u16::from(m.rows));
    // The sources as a slice and the predicate on its own: a chained iterator over both cost
    // more than the visits (callgrind, the bench's common list).
    for (n, src) in inst.src.as_slice().iter().enumerate() {
        visit_source(sig, src, if n == 1 { matrix_rows } else { 1 }, kind);
    }
    if let Some(p) = &inst.predicate {
        visit_source(sig, p, if inst.src.len() == 1 { matrix_rows } else { 1 }, kind);
    }
}

/// One source read, of `rows` consecutive registers.
#[inline(always)]
fn visit_source(sig: &mut Signature, src: &SrcParam, rows: u16, kind: ShaderKind) {
    let reg = src.reg;
    match reg.ty {
        RegisterType::Temp => sig.temps = sig.temps.max(reg.num + 1),
        RegisterType::Const | RegisterType::ConstInt | RegisterType::ConstBool => {
            let list = match reg.ty {
                RegisterType::Const => &mut sig.float_constants,
                RegisterType::ConstInt => &mut sig.int_constants,
                _ => &mut sig.bool_constants,
            };
            if src.relative.is_some() {
                list.relative = true;
                list.relative_bases.push(reg.num);
            } else if rows == 1 {
                list.used.push(reg.num);
            } else {
                list.used.extend((0..rows).map(|r| reg.num.saturating_add(r)));
            }
        }
        RegisterType::Sampler if !sig.samplers.iter().any(|s| s.index == reg.num) => {
            sig.samplers.push(Sampler { index: reg.num, declared: None, texture_type: None });
        }
        RegisterType::Predicate => sig.features.predication = true,
        RegisterType::MiscType => {
            if reg.num == crate::bytecode::registers::misc::POSITION {
                sig.features.vpos = true;
            } else {
                sig.features.vface = true;
            }
        }
        _ => {}
    }
    if is_input(reg.ty, kind) {
        io_entry(&mut sig.inputs, reg).used_mask |= read_mask(src, 0xF);
    }
    if src.relative.is_some() {
        sig.features.relative_addressing = true;
        if reg.ty != RegisterType::Const && !sig.relative_files.contains(&reg.ty) {
            sig.relative_files.push(reg.ty);
        }
    }
}

/// The texture stage a ps_1_x instruction samples: the destination register's number.
pub fn sm1_stage(inst: &Instruction) -> Option<u16> {
    stage_of(inst, inst.opcode.info())
}

/// [`sm1_stage`] with the opcode's row already looked up (the analysis has it for every
/// instruction).
fn stage_of(inst: &Instruction, info: &OpcodeInfo) -> Option<u16> {
    if info.stage_op && info.samples {
        inst.dst.map(|d| d.reg.num)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
