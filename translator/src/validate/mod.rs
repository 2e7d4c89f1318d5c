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
mod context;
mod declarations;
mod dependent_reads;
mod diagnostics;
mod flow_control;
mod initialization;
mod ps1x_texture;
mod slots;
pub mod version_rules;

use crate::bytecode::Program;

pub use caps::Caps;
pub(crate) use context::Cx;
pub use diagnostics::{Api, Diagnostic, Mode, Rule, Validation, ValidationOptions};

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
    version_rules::check_instructions(&mut cx);
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

#[cfg(test)]
mod tests;
