//! The context every rule module checks a program in ([`Cx`]): the program, its version and
//! profile, the options, and the diagnostics found so far.

use std::fmt::{self, Write as _};

use super::diagnostics::{Diagnostic, Mode, Rule, Validation, ValidationOptions};
use crate::bytecode::{Instruction, Profile, Program, ShaderKind, Version, VersionId};

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
    pub(super) fn new(program: &'a Program, options: &'a ValidationOptions, warnings: bool) -> Cx<'a> {
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
