//! Derivatives in divergent control flow: what D3D9 allows and WGSL refuses by default.
//!
//! ps_2_x and ps_3_0 code may sample with implicit derivatives (`texld`, `texldb`) or take
//! `dsx`/`dsy` inside `if`, `loop`, `rep` and subroutines; fxc emits such code, and D3D9 leaves
//! the result undefined only where the pixels of a quad actually diverge (docs/wgsl.md). WGSL's
//! uniformity analysis refuses these calls unless it can prove the flow uniform, and it cannot
//! here even when the flow is uniform: `def` values live in a private variable (so that WGSL
//! does not evaluate arithmetic on them at creation), and a private variable counts as
//! non-uniform.
//!
//! Hoisting the sample above the branch would keep the program valid without a directive, but it
//! samples on paths that D3D9 code skips on purpose (a branch around an expensive fetch), so the
//! module carries WGSL's `diagnostic(off, derivative_uniformity)` instead: the program keeps
//! D3D9's meaning, defined where the flow is uniform and undefined where it diverges. It is set
//! only when a derivative is reached inside control flow (directly or through a call), so simple
//! shaders keep the default rule.

use naga::diagnostic_filter::{
    DiagnosticFilter, DiagnosticFilterNode, FilterableTriggeringRule, Severity, StandardFilterableTriggeringRule,
};
use naga::{Block, Expression, Function, Handle, Module, SampleLevel, ShaderStage, Span, Statement};

/// Where a function takes derivatives, by the most divergent place.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    None,
    /// In the function's top-level block only: uniform wherever the function is called
    /// uniformly.
    TopLevel,
    /// Inside a branch or loop.
    Nested,
}

/// Adds the module-level `derivative_uniformity: off` filter when a fragment entry point takes
/// derivatives inside control flow.
pub(super) fn allow_divergent_derivatives(module: &mut Module) {
    let mut memo = vec![None; module.functions.len()];
    let needed = module.entry_points.iter().any(|ep| {
        ep.stage == ShaderStage::Fragment && function_reach(module, &ep.function, &mut memo) == Reach::Nested
    });
    if !needed {
        return;
    }
    let filter = DiagnosticFilter {
        new_severity: Severity::Off,
        triggering_rule: FilterableTriggeringRule::Standard(StandardFilterableTriggeringRule::DerivativeUniformity),
    };
    let parent = module.diagnostic_filter_leaf;
    module.diagnostic_filter_leaf =
        Some(module.diagnostic_filters.append(DiagnosticFilterNode { inner: filter, parent }, Span::UNDEFINED));
}

fn takes_derivatives(e: &Expression) -> bool {
    match e {
        Expression::Derivative { .. } => true,
        Expression::ImageSample { level, .. } => matches!(level, SampleLevel::Auto | SampleLevel::Bias(_)),
        _ => false,
    }
}

fn function_reach(module: &Module, f: &Function, memo: &mut Vec<Option<Reach>>) -> Reach {
    block_reach(module, f, &f.body, false, memo)
}

fn callee_reach(module: &Module, h: Handle<Function>, memo: &mut Vec<Option<Reach>>) -> Reach {
    if let Some(r) = memo[h.index()] {
        return r;
    }
    // D3D9 forbids recursion (the validator refuses it); a cycle would count as no reach here.
    memo[h.index()] = Some(Reach::None);
    let r = function_reach(module, &module.functions[h], memo);
    memo[h.index()] = Some(r);
    r
}

fn block_reach(module: &Module, f: &Function, block: &Block, nested: bool, memo: &mut Vec<Option<Reach>>) -> Reach {
    let mut here = if nested { Reach::Nested } else { Reach::TopLevel };
    let mut reach = Reach::None;
    for stmt in block.iter() {
        // After a branch or loop that may return early (D3D9's `ret` inside flow control), the
        // rest of the function runs only for some invocations.
        let returns_inside = match stmt {
            Statement::If { accept, reject, .. } => returns(accept) || returns(reject),
            Statement::Loop { body, continuing, .. } => returns(body) || returns(continuing),
            Statement::Switch { cases, .. } => cases.iter().any(|c| returns(&c.body)),
            _ => false,
        };
        let r = match stmt {
            Statement::Emit(range) => {
                if range.clone().any(|h| takes_derivatives(&f.expressions[h])) {
                    here
                } else {
                    Reach::None
                }
            }
            Statement::Call { function, .. } => match callee_reach(module, *function, memo) {
                Reach::None => Reach::None,
                Reach::TopLevel => here,
                Reach::Nested => Reach::Nested,
            },
            Statement::Block(b) => block_reach(module, f, b, nested, memo),
            Statement::If { accept, reject, .. } => {
                block_reach(module, f, accept, true, memo).max(block_reach(module, f, reject, true, memo))
            }
            Statement::Loop { body, continuing, .. } => {
                block_reach(module, f, body, true, memo).max(block_reach(module, f, continuing, true, memo))
            }
            Statement::Switch { cases, .. } => {
                cases.iter().map(|c| block_reach(module, f, &c.body, true, memo)).max().unwrap_or(Reach::None)
            }
            _ => Reach::None,
        };
        reach = reach.max(r);
        if reach == Reach::Nested {
            break;
        }
        if returns_inside {
            here = Reach::Nested;
        }
    }
    reach
}

/// Whether a block contains a `return` (at any depth).
fn returns(block: &Block) -> bool {
    block.iter().any(|stmt| match stmt {
        Statement::Return { .. } => true,
        Statement::Block(b) => returns(b),
        Statement::If { accept, reject, .. } => returns(accept) || returns(reject),
        Statement::Loop { body, continuing, .. } => returns(body) || returns(continuing),
        Statement::Switch { cases, .. } => cases.iter().any(|c| returns(&c.body)),
        _ => false,
    })
}
