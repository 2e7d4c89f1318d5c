//! Register values per component ([`Parts`]): the leaf the builder, the register values and the
//! lowering's value reads share (docs/architecture.md#values-per-component).

use naga::{Expression, Handle};

/// One component of a value: component `index` of the vector `base`, or the scalar `base`
/// itself ([`SCALAR`]). Register values are kept as four of these, so that a swizzle, a partial
/// write or a `mov` costs no expression until the value is read as a vector
/// (`Lowerer::materialize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Comp {
    pub base: Handle<Expression>,
    pub index: u8,
}

/// [`Comp::index`] of a scalar base.
pub(crate) const SCALAR: u8 = 4;

/// A value per component.
pub(crate) type Parts = [Comp; 4];

/// The components of a whole `vec4` expression.
pub(crate) fn whole(base: Handle<Expression>) -> Parts {
    [0u8, 1, 2, 3].map(|index| Comp { base, index })
}

/// The components of a scalar replicated.
pub(crate) fn replicated(base: Handle<Expression>) -> Parts {
    [Comp { base, index: SCALAR }; 4]
}

/// The vector a value is, when it is one expression's components in order.
pub(crate) fn as_whole(parts: &Parts) -> Option<Handle<Expression>> {
    (parts == &whole(parts[0].base)).then_some(parts[0].base)
}

/// Whether an expression is a scalar or a `vec4` (literals are built to match).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Width {
    Scalar,
    Vec4,
}
