//! Why a run-time call failed: each variant is a D3DERR_INVALIDCALL or E_FAIL of Windows.

use thiserror::Error;

/// Why a run-time call failed (D3DERR_INVALIDCALL or E_FAIL on Windows).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuntimeError {
    /// No parameter of that name.
    #[error("no parameter named {0:?}")]
    NoSuchParameter(String),
    /// The value does not fit the parameter.
    #[error("{name}: {given} words given, the parameter holds {holds}")]
    Size {
        /// The parameter.
        name: String,
        /// Words given.
        given: usize,
        /// Words it holds.
        holds: usize,
    },
    /// No technique or pass of that index.
    #[error("no {what} {index}")]
    NoSuch {
        /// `technique` or `pass`.
        what: &'static str,
        /// The index.
        index: usize,
    },
    /// A handle or index the caller passed names nothing in this effect: a parameter handle
    /// past the effect's parameters, elements, members and annotations (made up, or another
    /// effect's), or a technique or pass index past the count (D3DERR_INVALIDCALL on Windows).
    #[error("{what} {index} is out of range (valid: below {count})")]
    BadHandle {
        /// `parameter handle`, `technique` or `pass`.
        what: &'static str,
        /// The handle or index given.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// A pass was begun outside Begin/End, or a call came out of order.
    #[error("{0} called out of order")]
    Order(&'static str),
    /// A pass selects a shader the device does not create (`vs_3_sw` on a hardware device).
    #[error("technique {technique} pass {pass} selects a shader the hardware device does not create")]
    Unsupported {
        /// The technique.
        technique: String,
        /// The pass.
        pass: usize,
    },
    /// GetString/SetString on a parameter that is not a string.
    #[error("{0} is not a string")]
    NotAString(String),
    /// An array selector chose an element past the array (Windows: E_FAIL).
    #[error("state {state}: array selector chose element {index} of {name}, which has {elements}")]
    SelectorOutOfRange {
        /// The state.
        state: &'static str,
        /// The array.
        name: String,
        /// The chosen index.
        index: u32,
        /// Its element count.
        elements: u32,
    },
    /// A value call D3DX refuses for the parameter's class, type or shape (D3DERR_INVALIDCALL):
    /// GetInt of a float2, GetMatrixTranspose of an array, a matrix array call on a vector.
    #[error("{call} does not apply to {name}: {why}")]
    NotApplicable {
        /// The ID3DXBaseEffect method.
        call: &'static str,
        /// The parameter.
        name: String,
        /// What it would need.
        why: &'static str,
    },
    /// A matrix array call for more matrices than the parameter has elements
    /// (D3DERR_INVALIDCALL; a parameter that is no array has 0).
    #[error("{call}: {count} matrices asked for, {name} has {elements} elements")]
    Count {
        /// The ID3DXBaseEffect method.
        call: &'static str,
        /// The parameter.
        name: String,
        /// Matrices given or asked for.
        count: usize,
        /// Its elements.
        elements: u32,
    },
    /// D3DXCreateEffectEx refused the skip list.
    #[error(transparent)]
    SkipConstants(#[from] crate::effect::skip::SkipConstantsError),
}
