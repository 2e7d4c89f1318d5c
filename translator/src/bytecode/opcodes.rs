//! The opcode table: one row per D3DSIO_* opcode, with the operand shape of each form, the
//! versions where the form exists, its assembly name and its instruction slots.
//!
//! The decoder, encoder, disassembler, assembler and validator all read this table; adding an
//! opcode means adding one row here.

use super::registers::RegisterType;
use super::version::{Version, VersionId, VersionSet};

macro_rules! opcodes {
    ($($name:ident = $value:expr,)*) => {
        /// A D3DSHADER_INSTRUCTION_OPCODE_TYPE value (comment and end tokens are not
        /// instructions in the model).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Opcode { $($name = $value,)* }

        impl Opcode {
            /// Every opcode, in numeric order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];

            /// The opcode with this number, if there is one.
            // Inlined into the decoder, which asks once per instruction.
            #[inline]
            pub fn from_raw(raw: u16) -> Option<Opcode> {
                match raw {
                    $($value => Some(Opcode::$name),)*
                    _ => None,
                }
            }
        }
    };
}

opcodes! {
    Nop = 0, Mov = 1, Add = 2, Sub = 3, Mad = 4, Mul = 5, Rcp = 6, Rsq = 7, Dp3 = 8, Dp4 = 9,
    Min = 10, Max = 11, Slt = 12, Sge = 13, Exp = 14, Log = 15, Lit = 16, Dst = 17, Lrp = 18,
    Frc = 19, M4x4 = 20, M4x3 = 21, M3x4 = 22, M3x3 = 23, M3x2 = 24, Call = 25, CallNz = 26,
    Loop = 27, Ret = 28, EndLoop = 29, Label = 30, Dcl = 31, Pow = 32, Crs = 33, Sgn = 34,
    Abs = 35, Nrm = 36, SinCos = 37, Rep = 38, EndRep = 39, If = 40, Ifc = 41, Else = 42,
    EndIf = 43, Break = 44, BreakC = 45, Mova = 46, DefB = 47, DefI = 48,
    TexCoord = 64, TexKill = 65, Tex = 66, TexBem = 67, TexBemL = 68, TexReg2Ar = 69,
    TexReg2Gb = 70, TexM3x2Pad = 71, TexM3x2Tex = 72, TexM3x3Pad = 73, TexM3x3Tex = 74,
    TexM3x3Diff = 75, TexM3x3Spec = 76, TexM3x3VSpec = 77, ExpP = 78, LogP = 79, Cnd = 80,
    Def = 81, TexReg2Rgb = 82, TexDp3Tex = 83, TexM3x2Depth = 84, TexDp3 = 85, TexM3x3 = 86,
    TexDepth = 87, Cmp = 88, Bem = 89, Dp2Add = 90, Dsx = 91, Dsy = 92, TexLdd = 93, Setp = 94,
    TexLdl = 95, BreakP = 96, Phase = 0xFFFD,
}

/// The low 16 bits of a comment token.
pub const COMMENT_OPCODE: u16 = 0xFFFE;
/// The end token.
pub const END_TOKEN: u32 = 0x0000_FFFF;

/// Raw payload that follows the destination of a declaration or constant definition.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Extra {
    /// Nothing beyond destination and sources.
    None,
    /// `dcl`: a usage token comes before the destination.
    Dcl,
    /// `def`: four raw float DWORDs after the destination.
    Def,
    /// `defi`: four signed integers after the destination.
    DefI,
    /// `defb`: one DWORD after the destination.
    DefB,
}

/// What the opcode-specific control bits (16–23) mean for a form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Control {
    /// Must be 0.
    None,
    /// A comparison (`_gt`, `_eq`, …), 1–6.
    Comparison,
    /// ps 2.0+ `texld` variant: 0 `texld`, 1 `texldp`, 2 `texldb`.
    TexldVariant,
}

/// The operands an instruction form carries (besides relative-address and predicate tokens).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Shape {
    /// A destination parameter comes first.
    pub dst: bool,
    /// Number of source parameters.
    pub srcs: u8,
    /// Raw payload.
    pub extra: Extra,
}

impl Shape {
    /// Tokens after the instruction token, without relative-address and predicate tokens.
    pub const fn tokens(self) -> u32 {
        let extra = match self.extra {
            Extra::None => 0,
            Extra::Dcl | Extra::DefB => 1,
            Extra::Def | Extra::DefI => 4,
        };
        self.dst as u32 + self.srcs as u32 + extra
    }
}

/// One form of an opcode: where it exists, what it is called and what it carries.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    /// Versions where this form is valid.
    pub versions: VersionSet,
    /// Assembly name (comparison suffixes and texld variants are added from the control bits).
    pub name: &'static str,
    /// Operands.
    pub shape: Shape,
    /// Meaning of the control bits.
    pub control: Control,
    /// Instruction slots (the documentation's per-version count for the common case).
    pub slots: u8,
    /// What each source position takes, first source first; positions past the list take
    /// [`Operand::General`].
    pub sources: &'static [Operand],
}

impl Form {
    /// What source `index` takes.
    pub fn source(&self, index: usize) -> Operand {
        self.sources.get(index).copied().unwrap_or(Operand::General)
    }

    const fn with_sources(self, sources: &'static [Operand]) -> Form {
        Form { sources, ..self }
    }
}

/// The register file an operand position takes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    /// Any register a general source may read in the version (`r#`, `v#`, `c#`, `t#`, …).
    General,
    /// `aL` (first operand of `loop`).
    LoopCounter,
    /// `i#` (`loop`, `rep`).
    Int,
    /// `b#`, or `p0.c` from vs_2_x/ps_2_x on (`if`, `callnz`).
    BoolOrPredicate,
    /// `p0.c` (`breakp`).
    Predicate,
    /// `l#` (`call`, `callnz`, `label`).
    Label,
    /// `s#` (SM2+ texture sampling).
    Sampler,
}

impl Operand {
    /// The one register file the position takes, if it takes only one.
    pub const fn file(self) -> Option<RegisterType> {
        match self {
            Operand::General | Operand::BoolOrPredicate => None,
            Operand::LoopCounter => Some(RegisterType::Loop),
            Operand::Int => Some(RegisterType::ConstInt),
            Operand::Predicate => Some(RegisterType::Predicate),
            Operand::Label => Some(RegisterType::Label),
            Operand::Sampler => Some(RegisterType::Sampler),
        }
    }
}

/// The rows and row width of an `m#x#` matrix macro: `m4x3` is 3 rows of 4 components, each a
/// dot product of source 0 with one of the consecutive registers from source 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Matrix {
    /// Components of each dot product (the first number of the name).
    pub width: u8,
    /// Rows: consecutive registers read from source 1, components written (the second number).
    pub rows: u8,
}

/// How an instruction opens or closes a block of structured flow control.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Nesting {
    /// Neither.
    None,
    /// Opens a block that `closer` ends (`if`/`ifc` → `endif`, `loop` → `endloop`, `rep` →
    /// `endrep`).
    Open {
        /// The instruction that ends the block.
        closer: Opcode,
    },
    /// Closes the `if` half and opens the `else` half.
    Else,
    /// Ends a block.
    Close,
}

/// How an instruction uses screen-space gradients.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Gradients {
    /// It does not.
    None,
    /// Takes them implicitly from the quad to pick a level of detail (`texld`, `texldp`,
    /// `texldb`).
    Implicit,
    /// Computes them (`dsx`, `dsy`): a gradient instruction.
    Computes,
    /// Takes them as operands (`texldd`): a gradient instruction.
    Explicit,
}

impl Gradients {
    /// Whether the result depends on the neighbouring pixels of the quad (undefined inside
    /// dynamic flow control).
    pub const fn from_quad(self) -> bool {
        matches!(self, Gradients::Implicit | Gradients::Computes)
    }

    /// Whether this is one of the gradient instructions of `D3DPS20CAPS_GRADIENTINSTRUCTIONS`.
    pub const fn gradient_instruction(self) -> bool {
        matches!(self, Gradients::Computes | Gradients::Explicit)
    }
}

/// A row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// Its forms: SM1 and SM2+ shapes, or version-specific names.
    pub forms: &'static [Form],
    /// Per version, by [`VersionId`] position: where in `forms` the version's form is
    /// ([`NO_FORM`]: none), so that finding it is one load rather than a search of the forms'
    /// version sets (every stage asks for every instruction). Derived from `forms`.
    form_of: [u8; VersionId::ALL.len()],
    /// A flow-control instruction (counted in flow-control slots and nesting).
    pub flow_control: bool,
    /// A texture instruction (counted against texture slots in ps_2_0 and ps_1_x).
    pub texture: bool,
    /// The one register file the destination may name, for the instructions that write a
    /// special file (`def` c#, `defi` i#, `defb` b#, `setp` p0, `mova` a0).
    pub dst_file: Option<RegisterType>,
    /// The destination names the register the instruction tests rather than one it writes
    /// (`texkill`).
    pub dst_is_source: bool,
    /// The components the instruction produces whatever the write mask says (`sincos` .xy,
    /// `crs` .xyz, `m4x3`/`m3x3` .xyz, `m3x2` .xy, `bem` .xy); the others keep their value.
    pub writes: u8,
    /// Bit k: source k is a scalar operand, which SM2+ gives a replicate swizzle (`rcp`, `rsq`,
    /// `exp`, `log`, `expp`, `logp`, `pow`).
    pub scalar_sources: u8,
    /// Matrix macros (`m4x4` … `m3x2`).
    pub matrix: Option<Matrix>,
    /// Opens or closes a flow-control block.
    pub nesting: Nesting,
    /// A declaration or definition (`dcl`, `def`, `defi`, `defb`): not executed, never
    /// predicated, no instruction slot.
    pub declaration: bool,
    /// ps_1_x: an instruction of a texture stage, executed with the stage's coordinates,
    /// sampler or bump-environment state (every ps_1_x texture instruction but `texkill`, and
    /// `bem`).
    pub stage_op: bool,
    /// Samples a texture: in ps_1_x the stage its destination `t#` names.
    pub samples: bool,
    /// ps_1_x: a row of a texture-matrix instruction (`texm3x2*`, `texm3x3*`).
    pub texm: bool,
    /// Use of screen-space gradients.
    pub gradients: Gradients,
}

impl OpcodeInfo {
    /// The form valid in the version `id`, if the opcode exists there (see [`Opcode::form_in`]).
    pub fn form_in(&self, id: VersionId) -> Option<&'static Form> {
        self.forms.get(usize::from(self.form_of[id as usize]))
    }

    const fn base(opcode: Opcode, forms: &'static [Form]) -> OpcodeInfo {
        OpcodeInfo {
            opcode,
            forms,
            form_of: form_positions(forms),
            flow_control: false,
            texture: false,
            dst_file: None,
            dst_is_source: false,
            writes: 0xF,
            scalar_sources: 0,
            matrix: None,
            nesting: Nesting::None,
            declaration: false,
            stage_op: false,
            samples: false,
            texm: false,
            gradients: Gradients::None,
        }
    }
    const fn dst(self, file: RegisterType) -> OpcodeInfo {
        OpcodeInfo { dst_file: Some(file), ..self }
    }
    const fn writes(self, mask: u8) -> OpcodeInfo {
        OpcodeInfo { writes: mask, ..self }
    }
    const fn scalar(self, sources: u8) -> OpcodeInfo {
        OpcodeInfo { scalar_sources: sources, ..self }
    }
    const fn matrix(self, width: u8, rows: u8) -> OpcodeInfo {
        let writes = (1u8 << rows) - 1;
        OpcodeInfo { matrix: Some(Matrix { width, rows }), writes, ..self }
    }
    const fn opens(self, closer: Opcode) -> OpcodeInfo {
        OpcodeInfo { nesting: Nesting::Open { closer }, ..self }
    }
    const fn nesting(self, nesting: Nesting) -> OpcodeInfo {
        OpcodeInfo { nesting, ..self }
    }
    const fn declaration(self) -> OpcodeInfo {
        OpcodeInfo { declaration: true, ..self }
    }
    /// A ps_1_x texture-stage instruction that samples its stage.
    const fn sampling_stage(self) -> OpcodeInfo {
        OpcodeInfo { stage_op: true, samples: true, ..self }
    }
    const fn stage(self) -> OpcodeInfo {
        OpcodeInfo { stage_op: true, ..self }
    }
    const fn samples(self) -> OpcodeInfo {
        OpcodeInfo { samples: true, ..self }
    }
    const fn dst_is_source(self) -> OpcodeInfo {
        OpcodeInfo { dst_is_source: true, ..self }
    }
    const fn texm(self) -> OpcodeInfo {
        OpcodeInfo { texm: true, ..self }
    }
    const fn gradients(self, gradients: Gradients) -> OpcodeInfo {
        OpcodeInfo { gradients, ..self }
    }
}

// Version sets used by the table.
const fn set(ids: &[VersionId]) -> VersionSet {
    let mut bits = 0;
    let mut i = 0;
    while i < ids.len() {
        bits |= ids[i].bit();
        i += 1;
    }
    VersionSet(bits)
}

use VersionId::*;
const VS1: VersionSet = set(&[Vs10, Vs11]);
const VS2: VersionSet = set(&[Vs20, Vs2x, Vs2sw]);
const VS2X: VersionSet = set(&[Vs2x, Vs2sw, Vs30, Vs3sw]);
const VS3: VersionSet = set(&[Vs30, Vs3sw]);
const VS20UP: VersionSet = VS2.union(VS3);
const VS_ALL: VersionSet = VS1.union(VS20UP);
const PS10_13: VersionSet = set(&[Ps10, Ps11, Ps12, Ps13]);
const PS12_13: VersionSet = set(&[Ps12, Ps13]);
const PS13: VersionSet = set(&[Ps13]);
const PS14: VersionSet = set(&[Ps14]);
const PS1: VersionSet = PS10_13.union(PS14);
const PS2: VersionSet = set(&[Ps20, Ps2x, Ps2sw]);
const PS2X: VersionSet = set(&[Ps2x, Ps2sw, Ps30, Ps3sw]);
const PS3: VersionSet = set(&[Ps30, Ps3sw]);
const PS20UP: VersionSet = PS2.union(PS3);
const PS_ALL: VersionSet = PS1.union(PS20UP);
const ALL: VersionSet = VS_ALL.union(PS_ALL);
const NOWHERE: VersionSet = VersionSet::NONE;

const fn shape(dst: bool, srcs: u8) -> Shape {
    Shape { dst, srcs, extra: Extra::None }
}
/// [`OpcodeInfo::form_of`] for a version with no form of the opcode.
const NO_FORM: u8 = u8::MAX;

/// Each version's form: the first of `forms` whose set holds the version.
const fn form_positions(forms: &'static [Form]) -> [u8; VersionId::ALL.len()] {
    let mut positions = [NO_FORM; VersionId::ALL.len()];
    let mut v = 0;
    while v < VersionId::ALL.len() {
        let mut f = 0;
        while f < forms.len() {
            if forms[f].versions.contains(VersionId::ALL[v]) {
                positions[v] = f as u8;
                break;
            }
            f += 1;
        }
        v += 1;
    }
    positions
}

const fn form(versions: VersionSet, name: &'static str, shape: Shape, slots: u8) -> Form {
    Form { versions, name, shape, control: Control::None, slots, sources: &[] }
}
const fn cmp_form(versions: VersionSet, name: &'static str, shape: Shape, slots: u8) -> Form {
    Form { versions, name, shape, control: Control::Comparison, slots, sources: &[] }
}

const NONE: Shape = shape(false, 0);
const S1: Shape = shape(false, 1);
const S2: Shape = shape(false, 2);
const D: Shape = shape(true, 0);
const DS1: Shape = shape(true, 1);
const DS2: Shape = shape(true, 2);
const DS3: Shape = shape(true, 3);
const DS4: Shape = shape(true, 4);

const fn row(opcode: Opcode, forms: &'static [Form]) -> OpcodeInfo {
    OpcodeInfo::base(opcode, forms)
}
const fn flow(opcode: Opcode, forms: &'static [Form]) -> OpcodeInfo {
    OpcodeInfo { flow_control: true, ..OpcodeInfo::base(opcode, forms) }
}
const fn tex(opcode: Opcode, forms: &'static [Form]) -> OpcodeInfo {
    OpcodeInfo { texture: true, ..OpcodeInfo::base(opcode, forms) }
}

use Operand as Op;
const SAMPLER_1: &[Operand] = &[Op::General, Op::Sampler];

/// The row of each opcode numbered up to `breakp` (0x60), by number: every opcode but `phase`
/// (0xFFFD), the last row. Numbers that are no opcode point at the last row too; no `Opcode`
/// has them.
static ROW_OF_RAW: [&OpcodeInfo; 0x61] = {
    let last = &OPCODES[OPCODES.len() - 1];
    let mut rows = [last; 0x61];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let raw = Opcode::ALL[i] as usize;
        if raw < rows.len() {
            rows[raw] = &OPCODES[i];
        }
        i += 1;
    }
    rows
};

/// The table, in opcode order.
pub static OPCODES: [OpcodeInfo; Opcode::ALL.len()] = [
    row(Opcode::Nop, &[form(ALL, "nop", NONE, 1)]),
    row(Opcode::Mov, &[form(ALL, "mov", DS1, 1)]),
    row(Opcode::Add, &[form(ALL, "add", DS2, 1)]),
    row(Opcode::Sub, &[form(ALL, "sub", DS2, 1)]),
    row(Opcode::Mad, &[form(ALL, "mad", DS3, 1)]),
    row(Opcode::Mul, &[form(ALL, "mul", DS2, 1)]),
    row(Opcode::Rcp, &[form(VS_ALL.union(PS20UP), "rcp", DS1, 1)]).scalar(0b1),
    row(Opcode::Rsq, &[form(VS_ALL.union(PS20UP), "rsq", DS1, 1)]).scalar(0b1),
    row(Opcode::Dp3, &[form(ALL, "dp3", DS2, 1)]),
    row(Opcode::Dp4, &[form(VS_ALL.union(PS12_13).union(PS14).union(PS20UP), "dp4", DS2, 1)]),
    row(Opcode::Min, &[form(VS_ALL.union(PS20UP), "min", DS2, 1)]),
    row(Opcode::Max, &[form(VS_ALL.union(PS20UP), "max", DS2, 1)]),
    row(Opcode::Slt, &[form(VS_ALL, "slt", DS2, 1)]),
    row(Opcode::Sge, &[form(VS_ALL, "sge", DS2, 1)]),
    row(Opcode::Exp, &[form(VS_ALL.union(PS20UP), "exp", DS1, 1)]).scalar(0b1),
    row(Opcode::Log, &[form(VS_ALL.union(PS20UP), "log", DS1, 1)]).scalar(0b1),
    row(Opcode::Lit, &[form(VS_ALL, "lit", DS1, 3)]),
    row(Opcode::Dst, &[form(VS_ALL, "dst", DS2, 1)]),
    row(Opcode::Lrp, &[form(VS20UP.union(PS_ALL), "lrp", DS3, 2)]),
    row(Opcode::Frc, &[form(VS_ALL.union(PS20UP), "frc", DS1, 1)]),
    row(Opcode::M4x4, &[form(VS_ALL.union(PS20UP), "m4x4", DS2, 4)]).matrix(4, 4),
    row(Opcode::M4x3, &[form(VS_ALL.union(PS20UP), "m4x3", DS2, 3)]).matrix(4, 3),
    row(Opcode::M3x4, &[form(VS_ALL.union(PS20UP), "m3x4", DS2, 4)]).matrix(3, 4),
    row(Opcode::M3x3, &[form(VS_ALL.union(PS20UP), "m3x3", DS2, 3)]).matrix(3, 3),
    row(Opcode::M3x2, &[form(VS_ALL.union(PS20UP), "m3x2", DS2, 2)]).matrix(3, 2),
    flow(Opcode::Call, &[form(VS20UP.union(PS2X), "call", S1, 2).with_sources(&[Op::Label])]),
    flow(Opcode::CallNz, &[form(VS20UP.union(PS2X), "callnz", S2, 3).with_sources(&[Op::Label, Op::BoolOrPredicate])]),
    flow(Opcode::Loop, &[form(VS20UP.union(PS3), "loop", S2, 3).with_sources(&[Op::LoopCounter, Op::Int])])
        .opens(Opcode::EndLoop),
    flow(Opcode::Ret, &[form(VS20UP.union(PS2X), "ret", NONE, 1)]),
    flow(Opcode::EndLoop, &[form(VS20UP.union(PS3), "endloop", NONE, 2)]).nesting(Nesting::Close),
    flow(Opcode::Label, &[form(VS20UP.union(PS2X), "label", S1, 0).with_sources(&[Op::Label])]),
    row(
        Opcode::Dcl,
        &[
            form(VS1, "dcl", Shape { dst: true, srcs: 0, extra: Extra::Dcl }, 0),
            form(VS20UP.union(PS20UP), "dcl", Shape { dst: true, srcs: 0, extra: Extra::Dcl }, 0),
        ],
    )
    .declaration(),
    row(Opcode::Pow, &[form(VS20UP.union(PS20UP), "pow", DS2, 3)]).scalar(0b11),
    row(Opcode::Crs, &[form(VS20UP.union(PS20UP), "crs", DS2, 2)]).writes(0b0111),
    row(Opcode::Sgn, &[form(VS2, "sgn", DS3, 3), form(VS3, "sgn", DS1, 3)]),
    row(Opcode::Abs, &[form(VS20UP.union(PS20UP), "abs", DS1, 1)]),
    row(Opcode::Nrm, &[form(VS20UP.union(PS20UP), "nrm", DS1, 3)]),
    row(Opcode::SinCos, &[form(VS2.union(PS2), "sincos", DS3, 8), form(VS3.union(PS3), "sincos", DS1, 8)])
        .writes(0b0011),
    flow(Opcode::Rep, &[form(VS20UP.union(PS2X), "rep", S1, 3).with_sources(&[Op::Int])]).opens(Opcode::EndRep),
    flow(Opcode::EndRep, &[form(VS20UP.union(PS2X), "endrep", NONE, 2)]).nesting(Nesting::Close),
    flow(Opcode::If, &[form(VS20UP.union(PS2X), "if", S1, 3).with_sources(&[Op::BoolOrPredicate])])
        .opens(Opcode::EndIf),
    flow(Opcode::Ifc, &[cmp_form(VS2X.union(PS2X), "if", S2, 3)]).opens(Opcode::EndIf),
    flow(Opcode::Else, &[form(VS20UP.union(PS2X), "else", NONE, 1)]).nesting(Nesting::Else),
    flow(Opcode::EndIf, &[form(VS20UP.union(PS2X), "endif", NONE, 1)]).nesting(Nesting::Close),
    flow(Opcode::Break, &[form(VS2X.union(PS2X), "break", NONE, 1)]),
    flow(Opcode::BreakC, &[cmp_form(VS2X.union(PS2X), "break", S2, 3)]),
    row(Opcode::Mova, &[form(VS20UP, "mova", DS1, 1)]).dst(RegisterType::Addr),
    row(Opcode::DefB, &[form(VS20UP.union(PS2X), "defb", Shape { dst: true, srcs: 0, extra: Extra::DefB }, 0)])
        .dst(RegisterType::ConstBool)
        .declaration(),
    row(Opcode::DefI, &[form(VS20UP.union(PS2X), "defi", Shape { dst: true, srcs: 0, extra: Extra::DefI }, 0)])
        .dst(RegisterType::ConstInt)
        .declaration(),
    tex(Opcode::TexCoord, &[form(PS10_13, "texcoord", D, 1), form(PS14, "texcrd", DS1, 1)]).stage(),
    tex(Opcode::TexKill, &[form(PS_ALL, "texkill", D, 1)]).dst_is_source(),
    tex(
        Opcode::Tex,
        &[
            form(PS10_13, "tex", D, 1),
            form(PS14, "texld", DS1, 1),
            Form {
                versions: PS20UP,
                name: "texld",
                shape: DS2,
                control: Control::TexldVariant,
                slots: 1,
                sources: SAMPLER_1,
            },
        ],
    )
    .sampling_stage()
    .gradients(Gradients::Implicit),
    tex(Opcode::TexBem, &[form(PS10_13, "texbem", DS1, 1)]).sampling_stage(),
    tex(Opcode::TexBemL, &[form(PS10_13, "texbeml", DS1, 2)]).sampling_stage(),
    tex(Opcode::TexReg2Ar, &[form(PS10_13, "texreg2ar", DS1, 1)]).sampling_stage(),
    tex(Opcode::TexReg2Gb, &[form(PS10_13, "texreg2gb", DS1, 1)]).sampling_stage(),
    tex(Opcode::TexM3x2Pad, &[form(PS10_13, "texm3x2pad", DS1, 1)]).stage().texm(),
    tex(Opcode::TexM3x2Tex, &[form(PS10_13, "texm3x2tex", DS1, 1)]).sampling_stage().texm(),
    tex(Opcode::TexM3x3Pad, &[form(PS10_13, "texm3x3pad", DS1, 1)]).stage().texm(),
    tex(Opcode::TexM3x3Tex, &[form(PS10_13, "texm3x3tex", DS1, 1)]).sampling_stage().texm(),
    tex(Opcode::TexM3x3Diff, &[form(NOWHERE, "texm3x3diff", DS1, 1)]),
    tex(Opcode::TexM3x3Spec, &[form(PS10_13, "texm3x3spec", DS2, 1)]).sampling_stage().texm(),
    tex(Opcode::TexM3x3VSpec, &[form(PS10_13, "texm3x3vspec", DS1, 1)]).sampling_stage().texm(),
    row(Opcode::ExpP, &[form(VS_ALL, "expp", DS1, 1)]).scalar(0b1),
    row(Opcode::LogP, &[form(VS_ALL, "logp", DS1, 1)]).scalar(0b1),
    row(Opcode::Cnd, &[form(PS1, "cnd", DS3, 1)]),
    row(Opcode::Def, &[form(ALL, "def", Shape { dst: true, srcs: 0, extra: Extra::Def }, 0)])
        .dst(RegisterType::Const)
        .declaration(),
    tex(Opcode::TexReg2Rgb, &[form(PS12_13, "texreg2rgb", DS1, 1)]).sampling_stage(),
    tex(Opcode::TexDp3Tex, &[form(PS12_13, "texdp3tex", DS1, 1)]).sampling_stage(),
    tex(Opcode::TexM3x2Depth, &[form(PS13, "texm3x2depth", DS1, 1)]).stage().texm(),
    tex(Opcode::TexDp3, &[form(PS12_13, "texdp3", DS1, 1)]).stage(),
    tex(Opcode::TexM3x3, &[form(PS12_13, "texm3x3", DS1, 1)]).stage().texm(),
    tex(Opcode::TexDepth, &[form(PS14, "texdepth", D, 1)]).stage(),
    row(Opcode::Cmp, &[form(PS12_13.union(PS14).union(PS20UP), "cmp", DS3, 1)]),
    row(Opcode::Bem, &[form(PS14, "bem", DS2, 2)]).stage().writes(0b0011),
    row(Opcode::Dp2Add, &[form(PS20UP, "dp2add", DS3, 2)]),
    row(Opcode::Dsx, &[form(PS2X, "dsx", DS1, 2)]).gradients(Gradients::Computes),
    row(Opcode::Dsy, &[form(PS2X, "dsy", DS1, 2)]).gradients(Gradients::Computes),
    tex(Opcode::TexLdd, &[form(PS2X, "texldd", DS4, 3).with_sources(SAMPLER_1)])
        .samples()
        .gradients(Gradients::Explicit),
    row(Opcode::Setp, &[cmp_form(VS2X.union(PS2X), "setp", DS2, 1)]).dst(RegisterType::Predicate),
    tex(Opcode::TexLdl, &[form(VS3.union(PS3), "texldl", DS2, 2).with_sources(SAMPLER_1)]).samples(),
    flow(Opcode::BreakP, &[form(VS2X.union(PS2X), "breakp", S1, 3).with_sources(&[Op::Predicate])]),
    row(Opcode::Phase, &[form(PS14, "phase", NONE, 0)]),
];

impl Opcode {
    /// The table row of this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        // Every consumer asks for every instruction (several times): one load from the table
        // of rows by number, not a search; `phase`, numbered past it, is the last row.
        let raw = self as usize;
        if raw < ROW_OF_RAW.len() {
            ROW_OF_RAW[raw]
        } else {
            &OPCODES[OPCODES.len() - 1]
        }
    }

    /// The form valid in `version`, if the opcode exists there.
    pub fn form(self, version: Version) -> Option<&'static Form> {
        self.form_in(version.id()?)
    }

    /// The form valid in the version `id`, if the opcode exists there: [`Opcode::form`] for a
    /// caller that knows the id already (the validator asks for every instruction).
    pub fn form_in(self, id: VersionId) -> Option<&'static Form> {
        self.info().form_in(id)
    }

    /// The form used to decode the opcode in `version`: the version's own form, or (for the
    /// validator to reject later) a form of the same encoding generation, or the first form.
    pub fn decoding_form(self, version: Version) -> &'static Form {
        self.decoding_form_in(version.id(), version)
    }

    /// [`Opcode::decoding_form`] for a caller that found `version`'s id once (the lowering
    /// asks for every instruction, and finding the id cost as much as finding the form).
    pub fn decoding_form_in(self, id: Option<VersionId>, version: Version) -> &'static Form {
        if let Some(f) = id.and_then(|id| self.form_in(id)) {
            return f;
        }
        let forms = self.info().forms;
        let same_generation = |f: &&Form| {
            VersionId::ALL.iter().any(|&id| f.versions.contains(id) && id.version().is_sm1() == version.is_sm1())
        };
        forms.iter().find(same_generation).unwrap_or(&forms[0])
    }

    /// Whether the opcode exists in `version`.
    pub fn exists_in(self, version: Version) -> bool {
        self.form(version).is_some()
    }
}

/// A comparison (control bits of `ifc`, `breakc`, `setp`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Comparison {
    /// `_gt`.
    Gt = 1,
    /// `_eq`.
    Eq = 2,
    /// `_ge`.
    Ge = 3,
    /// `_lt`.
    Lt = 4,
    /// `_ne` (true when either side is NaN).
    Ne = 5,
    /// `_le`.
    Le = 6,
}

impl Comparison {
    /// Every comparison.
    pub const ALL: [Comparison; 6] =
        [Comparison::Gt, Comparison::Eq, Comparison::Ge, Comparison::Lt, Comparison::Ne, Comparison::Le];

    /// Decodes control bits.
    pub fn from_raw(raw: u8) -> Option<Comparison> {
        Comparison::ALL.into_iter().find(|c| *c as u8 == raw)
    }

    /// The assembly suffix without the underscore (`gt`, `eq`, …).
    pub fn suffix(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }

    /// Evaluates the comparison with D3D9's rules: ordered except `ne`.
    pub fn eval(self, a: f32, b: f32) -> bool {
        match self {
            Comparison::Gt => a > b,
            Comparison::Eq => a == b,
            Comparison::Ge => a >= b,
            Comparison::Lt => a < b,
            Comparison::Ne => a != b,
            Comparison::Le => a <= b,
        }
    }
}

/// The ps 2.0+ `texld` variants (control bits of opcode 66).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TexldVariant {
    /// `texld`.
    Plain,
    /// `texldp`: divide the coordinates by w.
    Project,
    /// `texldb`: add w to the level-of-detail bias.
    Bias,
}

impl TexldVariant {
    /// Decodes control bits.
    pub fn from_raw(raw: u8) -> Option<TexldVariant> {
        match raw {
            0 => Some(TexldVariant::Plain),
            1 => Some(TexldVariant::Project),
            2 => Some(TexldVariant::Bias),
            _ => None,
        }
    }

    /// The assembly name.
    pub fn name(self) -> &'static str {
        match self {
            TexldVariant::Plain => "texld",
            TexldVariant::Project => "texldp",
            TexldVariant::Bias => "texldb",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_versions_form_is_the_first_whose_set_holds_it() {
        for (position, id) in VersionId::ALL.into_iter().enumerate() {
            assert_eq!(id as usize, position, "form_of is indexed by the id's position");
            for info in &OPCODES {
                let searched = info.forms.iter().find(|f| f.versions.contains(id));
                assert_eq!(info.form_in(id).map(|f| f as *const Form), searched.map(|f| f as *const Form));
            }
        }
    }

    #[test]
    fn table_is_in_opcode_order_and_complete() {
        assert_eq!(OPCODES.len(), Opcode::ALL.len());
        for (row, op) in OPCODES.iter().zip(Opcode::ALL) {
            assert_eq!(row.opcode, *op);
            assert!(!row.forms.is_empty());
            assert_eq!(op.info().opcode, *op, "info() finds the opcode's own row");
        }
    }

    #[test]
    fn version_specific_forms() {
        let v = |t| Version::from_token(t).unwrap();
        assert_eq!(Opcode::Tex.form(v(0xFFFF_0101)).unwrap().name, "tex");
        assert_eq!(Opcode::Tex.form(v(0xFFFF_0104)).unwrap().shape, DS1);
        assert_eq!(Opcode::Tex.form(v(0xFFFF_0200)).unwrap().shape, DS2);
        assert!(Opcode::Tex.form(v(0xFFFE_0300)).is_none(), "vs_3_0 samples only with texldl");
        assert_eq!(Opcode::SinCos.form(v(0xFFFE_0200)).unwrap().shape, DS3);
        assert_eq!(Opcode::SinCos.form(v(0xFFFF_0300)).unwrap().shape, DS1);
        assert!(Opcode::DefB.form(v(0xFFFF_0200)).is_none(), "ps_2_0 has no bool constants");
        assert!(Opcode::Loop.form(v(0xFFFF_0201)).is_none(), "loop is ps_3_0 only");
        // An opcode that does not exist in a version still decodes with a same-generation shape.
        assert_eq!(Opcode::Dp2Add.decoding_form(v(0xFFFE_0200)).shape, DS3);
    }

    #[test]
    fn per_opcode_facts() {
        // m<width>x<rows>: the name gives the dot width and the row count (the m4x3 page: three
        // dp4 of src0 with src1, src1+1, src1+2 into .xyz).
        for (op, width, rows) in [
            (Opcode::M4x4, 4, 4),
            (Opcode::M4x3, 4, 3),
            (Opcode::M3x4, 3, 4),
            (Opcode::M3x3, 3, 3),
            (Opcode::M3x2, 3, 2),
        ] {
            let info = op.info();
            assert_eq!(info.matrix, Some(Matrix { width, rows }));
            assert_eq!(info.writes, (1 << rows) - 1);
            assert!(info.forms[0].name.starts_with(&format!("m{width}x{rows}")));
        }
        assert_eq!(OPCODES.iter().filter(|r| r.matrix.is_some()).count(), 5);
        assert_eq!(Opcode::SinCos.info().writes, 0b0011);
        assert_eq!(Opcode::Crs.info().writes, 0b0111);
        assert_eq!(Opcode::Bem.info().writes, 0b0011, "bem's destination is rM.xy (the bem page)");
        // Every block opener names a closer, and the closers are exactly the Close rows.
        let closers: Vec<Opcode> = OPCODES.iter().filter(|r| r.nesting == Nesting::Close).map(|r| r.opcode).collect();
        assert_eq!(closers, [Opcode::EndLoop, Opcode::EndRep, Opcode::EndIf]);
        for row in &OPCODES {
            if let Nesting::Open { closer } = row.nesting {
                assert_eq!(closer.info().nesting, Nesting::Close, "{:?}", row.opcode);
                assert!(row.flow_control);
            }
        }
        // Operand files: sampler of SM2 texld, but not of ps_1_4's texld.
        let v = |t| Version::from_token(t).unwrap();
        assert_eq!(Opcode::Tex.form(v(0xFFFF_0200)).unwrap().source(1), Operand::Sampler);
        assert_eq!(Opcode::Tex.form(v(0xFFFF_0104)).unwrap().source(0), Operand::General);
        assert_eq!(Opcode::Loop.form(v(0xFFFE_0200)).unwrap().source(0).file(), Some(RegisterType::Loop));
        assert_eq!(Opcode::Setp.info().dst_file, Some(RegisterType::Predicate));
        // The ps_1_x texture-stage instructions are the ps_1_x texture rows but texkill (and the
        // texm3x3diff that no version has), and bem.
        let ps1 = VersionSet(set(&[Ps10, Ps11, Ps12, Ps13, Ps14]).0);
        for row in &OPCODES {
            let ps1_texture = row.texture && row.forms.iter().any(|f| f.versions.0 & ps1.0 != 0);
            let expected = (ps1_texture && !matches!(row.opcode, Opcode::TexKill)) || row.opcode == Opcode::Bem;
            assert_eq!(row.stage_op, expected, "{:?}", row.opcode);
        }
        // Gradient instructions (D3DPS20CAPS_GRADIENTINSTRUCTIONS): dsx, dsy, texldd.
        let gradient: Vec<Opcode> =
            OPCODES.iter().filter(|r| r.gradients.gradient_instruction()).map(|r| r.opcode).collect();
        assert_eq!(gradient, [Opcode::Dsx, Opcode::Dsy, Opcode::TexLdd]);
    }
}
