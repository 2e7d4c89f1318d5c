//! Direct3D 9 effects (`fx_2_0` binaries, as `fxc /T fx_2_0` writes them and XNA/FNA ship them):
//! parameters with their types, semantics, annotations and default values; techniques, passes
//! and their state assignments; the strings and shaders stored as objects; the preshaders that
//! compute states and shader constants; and a small run-time ([`runtime`]) that sets
//! parameters, begins passes and gives the states, shaders and constants a pass sets.
//!
//! The layout is documented in `docs/effects.md`. [`Effect::parse`] checks every read against
//! the blob, caps every count by the bytes left, and names the byte offset of any problem.

mod blob;
pub mod error;
pub mod evaluate;
pub mod objects;
pub mod parameters;
pub mod pool;
pub mod preshader;
pub mod reader;
pub mod runtime;
pub mod skip;
pub mod states;
pub mod store;
pub mod techniques;
pub mod types;
pub mod usage;
pub mod values;

pub use blob::{Effect, Header, FX_2_0, XNA_WRAPPER};
pub use error::EffectError;
pub use objects::{EffectShader, Object, ObjectKind};
pub use parameters::{Parameter, State, StateSource};
pub use pool::EffectPool;
pub use preshader::Preshader;
pub use runtime::EffectRuntime;
pub use skip::SkipConstantsError;
pub use states::StateClass;
pub use store::{Handle, Store};
pub use techniques::{Pass, Technique};
pub use types::{ParameterClass, ParameterType};

#[cfg(test)]
mod tests;
