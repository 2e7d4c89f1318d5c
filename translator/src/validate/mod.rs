//! The Direct3D 9 runtime's shader validation rules, per shader version.
//!
//! [`validate`] checks a decoded [`Program`] and returns every problem it finds (not only the
//! first), each as a [`Diagnostic`] naming the [`Rule`], the instruction index and the token
//! index, with a message a shader author understands ("ps_2_0: oC1 written but oC0 never is").
//!
//! Two modes:
//! - [`Mode::Strict`]: what `CreateVertexShader`/`CreatePixelShader` accept on Windows. A
//!   compatibility layer uses it to refuse what Windows refuses.
//! - [`Mode::Lenient`] (the translator's default): accepts what real drivers accept when the
//!   meaning is clear (a swizzled `texld` source in ps_2_x, partial `texkill` or `vFace` masks,
//!   fxc's ps 2.x minor versions such as `ps_2_b` = 2.2, gradients inside dynamic flow control,
//!   constants past the strict count when [`ValidationOptions::relaxed_constant_limit`] is set);
//!   those become warnings. Lenient mode refuses only what has no meaning a translator could
//!   give it ([`Rule::structural`]: instructions the version lacks, operands that do not match,
//!   broken block structure, versions the API refuses) and constants past the count; every
//!   other rule of the runtime becomes a warning.
//!
//! Rules that the token format itself enforces (reserved bits, the SM2+ length field, the
//! predicate bit before 2.0, the end token) are checked by the decoder, which names the token;
//! the validator re-checks the ones the typed model can still express (co-issue, predication) so
//! that programs built in memory are held to the same rules.
//!
//! Where the documentation and the shaders Windows accepted disagree, the accepted shaders win
//! (each case is also noted at its rule):
//! - Direct3D 8 takes a vs_1_1 stream that carries `dcl` (wine's d3d8 `vs_1_255`);
//! - ps_3_0 takes a swizzled sampler operand (`texld r0, v0, s0.yzwx`, wine's fetch4 test);
//! - ps_3_0 refuses `dcl_position0` on an input but takes `dcl_position1` (`test_position_index`);
//! - ps_1_1 `texkill tN` tests texture coordinate N without an earlier write (`texkill_test`);
//! - vs_2_0 `sgn`'s two scratch registers are not reads (`sgn_test`).
//!
//! The checks are split by concept: [`version_rules`] (which instructions, register files,
//! modifiers, swizzles, masks and register numbers each version allows), `declarations`,
//! `flow_control` (nesting limits and the static flow-control count, exactly as the D3D9 flow
//! control nesting tables give them), `color_outputs`, `ps1x_texture` (ps_1_x texture-op order,
//! pairing and phases), `dependent_reads` (ps_2_0's four levels), `initialization`
//! (temporaries written before they are read) and `slots` (instruction slot limits).
//! Device-dependent limits come from [`Caps`].

mod caps;
mod color_outputs;
mod declarations;
mod dependent_reads;
mod flow_control;
mod initialization;
mod ps1x_texture;
mod slots;
pub mod version_rules;

use std::fmt::{self, Write as _};

use crate::bytecode::{Instruction, Profile, Program, ShaderKind, Version, VersionId};

pub use caps::Caps;

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

/// Validates `program` under `options`, collecting every error and warning.
pub fn validate(program: &Program, options: &ValidationOptions) -> Validation {
    run(program, options, true)
}

/// The errors of [`validate`], without its warnings: in lenient mode the checks whose every
/// rule is a warning there (colour outputs, ps_1_x texture ops, slot counts, reads before
/// writes, dependent reads, undeclared registers) are left out. [`crate::Shader`] refuses a
/// program on these and finds its warnings only when asked, as the translator needs none.
pub fn errors(program: &Program, options: &ValidationOptions) -> Vec<Diagnostic> {
    let errors = run(program, options, false).errors;
    // Debug builds (every test run): the same errors as the whole validation's.
    #[cfg(debug_assertions)]
    assert_eq!(errors, validate(program, options).errors, "the errors alone differ from the validation's");
    errors
}

/// The checks, keeping the warnings or not: without them, in lenient mode, the checks whose every
/// rule only warns there are left out.
fn run(program: &Program, options: &ValidationOptions, keep_warnings: bool) -> Validation {
    let mut cx = Cx::new(program, options, keep_warnings);
    let every_check = keep_warnings || options.mode == Mode::Strict;
    let Some(id) = cx.id else {
        cx.error(
            Rule::Version,
            None,
            format_args!("unknown shader version {}.{}", program.version.major, program.version.minor),
        );
        return cx.out;
    };
    version_rules::check_version(&mut cx, id);
    version_rules::instructions::check(&mut cx);
    version_rules::registers::check(&mut cx);
    declarations::check(&mut cx, every_check);
    let flow = flow_control::check(&mut cx);
    if every_check {
        color_outputs::check(&mut cx, &flow);
        ps1x_texture::check(&mut cx);
        slots::check(&mut cx);
        initialization::check(&mut cx);
        dependent_reads::check(&mut cx);
    }
    cx.out
}

/// Validation state shared by the rule modules.
pub(crate) struct Cx<'a> {
    pub program: &'a Program,
    pub version: Version,
    /// `None` when the version names no known model.
    pub id: Option<VersionId>,
    /// The model's profile (of the nearest model when `id` is `None`).
    pub profile: &'static Profile,
    pub options: &'a ValidationOptions,
    pub out: Validation,
    /// Whether warnings are kept: when only the errors are asked for, a warning's message is
    /// never written (the vs_2_0 skinning shaders of the bench corpus have hundreds each).
    warnings: bool,
}

impl<'a> Cx<'a> {
    fn new(program: &'a Program, options: &'a ValidationOptions, warnings: bool) -> Cx<'a> {
        let version = program.version;
        Cx {
            program,
            version,
            id: version.id(),
            profile: version.profile(),
            options,
            out: Validation::default(),
            warnings,
        }
    }

    pub fn inst(&self, i: usize) -> &'a Instruction {
        &self.program.instructions[i]
    }

    fn diagnostic(&self, rule: Rule, at: Option<usize>, message: fmt::Arguments<'_>) -> Diagnostic {
        self.diagnostic_with(rule, at, |text| {
            let _ = text.write_fmt(message);
        })
    }

    /// A diagnostic whose message `fill` appends after the version's prefix.
    fn diagnostic_with(&self, rule: Rule, at: Option<usize>, fill: impl FnOnce(&mut String)) -> Diagnostic {
        let token = at.and_then(|i| self.program.instructions.get(i)).map(|inst| inst.offset).filter(|&t| t != 0);
        // Room for a typical message up front: `format!` would grow the text several times.
        let mut text = String::with_capacity(96);
        // The version's constant name when it has one: formatting it cost as much as the
        // message on the common list, whose shaders have a few dozen warnings each.
        match self.version.static_name() {
            Some(name) => text.push_str(name),
            None => {
                let _ = write!(text, "{}", self.version);
            }
        }
        text.push_str(": ");
        fill(&mut text);
        Diagnostic { rule, message: text, instruction: at, token }
    }

    /// A rule of the runtime. Strict mode refuses the program; lenient mode refuses it only
    /// when the rule is structural (see [`Rule::structural`]) and warns otherwise.
    pub fn error(&mut self, rule: Rule, at: Option<usize>, message: impl fmt::Display) {
        self.error_with(rule, at, |text| {
            let _ = write!(text, "{message}");
        });
    }

    /// [`Cx::error`] with a message `fill` appends to the text: for the diagnostics a program
    /// may have thousands of, built without the formatting machinery.
    pub fn error_with(&mut self, rule: Rule, at: Option<usize>, fill: impl FnOnce(&mut String)) {
        if self.options.mode == Mode::Strict || rule.structural() {
            let d = self.diagnostic_with(rule, at, fill);
            self.out.errors.push(d);
        } else if self.warnings {
            let d = self.diagnostic_with(rule, at, fill);
            self.out.warnings.push(d);
        }
    }

    /// A rule both modes enforce whatever its kind (e.g. a constant past the count the caller
    /// sized its constant buffer for).
    pub fn hard_error(&mut self, rule: Rule, at: Option<usize>, message: impl fmt::Display) {
        self.hard_error_with(rule, at, |text| {
            let _ = write!(text, "{message}");
        });
    }

    /// [`Cx::hard_error`] with a message `fill` appends to the text (see [`Cx::error_with`]).
    pub fn hard_error_with(&mut self, rule: Rule, at: Option<usize>, fill: impl FnOnce(&mut String)) {
        let d = self.diagnostic_with(rule, at, fill);
        self.out.errors.push(d);
    }

    /// A rule of the runtime that drivers relax when the meaning is clear: an error in strict
    /// mode, a warning in lenient mode.
    pub fn relaxable(&mut self, rule: Rule, at: Option<usize>, message: impl fmt::Display) {
        match self.options.mode {
            Mode::Strict => {
                let d = self.diagnostic(rule, at, format_args!("{message}"));
                self.out.errors.push(d);
            }
            Mode::Lenient if self.warnings => {
                let d = self.diagnostic(rule, at, format_args!("{message}"));
                self.out.warnings.push(d);
            }
            Mode::Lenient => {}
        }
    }

    /// Something worth knowing that no mode refuses.
    #[allow(dead_code)]
    pub fn warning(&mut self, rule: Rule, at: Option<usize>, message: impl fmt::Display) {
        if self.warnings {
            let d = self.diagnostic(rule, at, format_args!("{message}"));
            self.out.warnings.push(d);
        }
    }

    pub fn is_vs(&self) -> bool {
        self.version.kind == ShaderKind::Vertex
    }

    pub fn is_ps(&self) -> bool {
        self.version.kind == ShaderKind::Pixel
    }

    /// 2_x, 2_sw, 3_0 and 3_sw: the versions with predication, dynamic flow control and `setp`.
    pub fn sm2x_up(&self) -> bool {
        self.version.major == 3 || (self.version.major == 2 && self.version.minor > 0)
    }
}

#[cfg(test)]
mod tests;
