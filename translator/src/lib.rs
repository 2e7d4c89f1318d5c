//! Direct3D 9 shader bytecode (Shader Model 1.0 to 3.0) to naga IR, WGSL and SPIR-V.
//!
//! Data flows one way: bytes → [`bytecode::decode`] → validate → analyse → lower(key) → naga
//! validation → emit. The CPU reference interpreter ([`interp`]) executes the decoded program
//! directly and shares nothing with the lowering but the decoder.

#![warn(missing_docs)]

pub mod asm;
pub mod bytecode;
pub mod fuzz;
pub mod input;
pub mod validate;
pub mod analysis;
pub mod lower;
pub mod interp;
pub mod key;
pub mod emit;
pub mod translate;

pub use key::ShaderKey;
pub use translate::{translate, translate_with, TranslateError, Translation};
