//! What the validator is told and what it answers: the options ([`ValidationOptions`], [`Mode`],
//! [`Api`]), the rules a diagnostic names ([`Rule`]) and the diagnostics ([`Validation`]).

use std::fmt;

use super::caps::Caps;

/// How strictly to validate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Mode {
    /// The D3D9 runtime's rules: anything Windows refuses is an error.
    Strict,
    /// The translator's default: what drivers accept when the meaning is clear is a warning.
    #[default]
    Lenient,
}

/// Which runtime's rules apply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Api {
    /// Direct3D 9.
    #[default]
    D3d9,
    /// Direct3D 8: at most vs_1_1 and ps_1_4; vertex shaders need no `dcl` (the vertex
    /// declaration given at creation maps the inputs). Windows' Direct3D 8 runtime does accept a
    /// vs_1_1 token stream that carries `dcl` (wine's d3d8 `test_unsupported_shaders` creates
    /// one), so a `dcl` there is checked like any other, not refused.
    D3d8,
}

/// What to validate against.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ValidationOptions {
    /// Strict or lenient.
    pub mode: Mode,
    /// Direct3D 9 or 8.
    pub api: Api,
    /// Software vertex processing: vertex shaders may use 8192 float constants, and the `_sw`
    /// vertex models are allowed.
    pub swvp: bool,
    /// Lenient mode only: float constants past the version's count (up to c8191, the most the
    /// token can name) are warnings instead of errors, for callers that size the constant
    /// buffer from the program.
    pub relaxed_constant_limit: bool,
    /// The device's capabilities, for the limits that depend on them.
    pub caps: Caps,
}

impl ValidationOptions {
    /// Strict Direct3D 9 validation with the default caps.
    pub fn strict() -> ValidationOptions {
        ValidationOptions { mode: Mode::Strict, ..Default::default() }
    }

    /// Lenient Direct3D 9 validation with the default caps (the translator's default).
    pub fn lenient() -> ValidationOptions {
        ValidationOptions::default()
    }

    /// The same options under another API.
    pub fn with_api(self, api: Api) -> ValidationOptions {
        ValidationOptions { api, ..self }
    }
}

/// The rule a diagnostic is about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// The version token: unknown, non-canonical minor, `_sw` model without software vertex
    /// processing.
    Version,
    /// A version the API does not accept (Direct3D 8: at most vs_1_1 / ps_1_4).
    Api,
    /// Instruction token bits: co-issue, predication.
    InstructionToken,
    /// An instruction that does not exist in this version.
    Instruction,
    /// The operands do not match the instruction's shape.
    Operands,
    /// A register file that cannot be read or written here.
    RegisterType,
    /// A register number past the version's count (constants included).
    RegisterIndex,
    /// Relative addressing where the version does not allow it.
    RelativeAddressing,
    /// A source modifier the version or instruction does not allow.
    SourceModifier,
    /// A result modifier (`_sat`, `_pp`, `_centroid`) or ps_1_x shift not allowed here.
    ResultModifier,
    /// A source swizzle not allowed here.
    Swizzle,
    /// A destination write mask not allowed here.
    WriteMask,
    /// `dcl` rules: where it may appear, which registers, usages, texture types, duplicates.
    Declaration,
    /// A register used without the declaration the version requires.
    Undeclared,
    /// `def`/`defi`/`defb` rules.
    Definition,
    /// Flow-control structure: unmatched `else`/`endif`/`endloop`/`endrep`, `break` outside a
    /// loop, `aL` outside `loop`.
    FlowControl,
    /// Static flow-control nesting depth.
    StaticNesting,
    /// Dynamic flow-control nesting depth.
    DynamicNesting,
    /// `loop`/`rep` nesting depth.
    LoopNesting,
    /// Subroutine call nesting depth (and recursion).
    CallNesting,
    /// The static flow-control instruction count.
    StaticFlowCount,
    /// Code format: subroutines follow the main `ret`, labels defined once, called labels exist.
    CodeFormat,
    /// Colour-output (`oC#`, `oDepth`) rules.
    ColorOutput,
    /// A gradient instruction inside dynamic flow control.
    Gradient,
    /// Instruction slot limits.
    InstructionSlots,
    /// ps_1_x texture-instruction order, pairing and registers.
    TextureOps,
    /// ps_1_4 phases.
    Phase,
    /// A register read before anything wrote it.
    UninitializedRead,
}

impl Rule {
    /// A short kebab-case name, as printed by the command line and used in tests.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Version => "version",
            Rule::Api => "api",
            Rule::InstructionToken => "instruction-token",
            Rule::Instruction => "instruction",
            Rule::Operands => "operands",
            Rule::RegisterType => "register-type",
            Rule::RegisterIndex => "register-index",
            Rule::RelativeAddressing => "relative-addressing",
            Rule::SourceModifier => "source-modifier",
            Rule::ResultModifier => "result-modifier",
            Rule::Swizzle => "swizzle",
            Rule::WriteMask => "write-mask",
            Rule::Declaration => "declaration",
            Rule::Undeclared => "undeclared",
            Rule::Definition => "definition",
            Rule::FlowControl => "flow-control",
            Rule::StaticNesting => "static-nesting",
            Rule::DynamicNesting => "dynamic-nesting",
            Rule::LoopNesting => "loop-nesting",
            Rule::CallNesting => "call-nesting",
            Rule::StaticFlowCount => "static-flow-count",
            Rule::CodeFormat => "code-format",
            Rule::ColorOutput => "color-output",
            Rule::Gradient => "gradient",
            Rule::InstructionSlots => "instruction-slots",
            Rule::TextureOps => "texture-ops",
            Rule::Phase => "phase",
            Rule::UninitializedRead => "uninitialized-read",
        }
    }
}

impl Rule {
    /// Whether lenient mode refuses the program too: the rules without which a program has no
    /// meaning a translator could give it (an instruction the version does not have, operands
    /// that do not match the instruction, broken block structure, a version the API refuses).
    /// Lenient mode reports every other rule of the runtime as a warning, so that assembler
    /// snippets and shaders that drivers accept still translate.
    pub fn structural(self) -> bool {
        matches!(self, Rule::Api | Rule::Instruction | Rule::Operands | Rule::FlowControl | Rule::Version)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One problem found in a program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// The rule broken.
    pub rule: Rule,
    /// The message, prefixed with the version (`ps_2_0: oC1 written but oC0 never is`).
    pub message: String,
    /// Index into [`Program::instructions`], when one instruction is at fault.
    pub instruction: Option<usize>,
    /// Token index of that instruction (byte offset = 4 × token), when the program was decoded.
    pub token: Option<u32>,
}

impl Diagnostic {
    /// Byte offset of the instruction token, when known.
    pub fn byte_offset(&self) -> Option<u32> {
        self.token.map(|t| t * 4)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.rule)?;
        if let Some(i) = self.instruction {
            write!(f, " instruction {i}")?;
        }
        if let Some(t) = self.token {
            write!(f, " (token {t}, byte {})", t * 4)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// The result of validating a program.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Validation {
    /// Rules broken: the runtime (strict) or the translator (lenient) refuses the program.
    pub errors: Vec<Diagnostic>,
    /// Departures from the runtime's rules that lenient mode accepts.
    pub warnings: Vec<Diagnostic>,
}

impl Validation {
    /// Whether the program is accepted (no errors; warnings allowed).
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Whether some error is about `rule`.
    pub fn has_error(&self, rule: Rule) -> bool {
        self.errors.iter().any(|d| d.rule == rule)
    }
}
