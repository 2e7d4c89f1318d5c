//! Direct3D 9 shader bytecode (Shader Model 1.0 to 3.0) to naga IR, WGSL and SPIR-V.
//!
//! Data flows one way: bytes → [`bytecode::decode`] → validate → analyse → lower(key) → naga
//! validation → emit. The CPU reference interpreter ([`interp`]) executes the decoded program
//! directly and shares nothing with the lowering but the decoder.
//!
//! ```
//! use d3d9_shader::{bytecode::decode, translate, ShaderKey};
//!
//! // ps_2_0: def c0, 1, 0.5, 0.25, 1 / mov oC0, c0
//! let tokens = [
//!     0xFFFF_0200, 0x0500_0051, 0xA00F_0000, 0x3F80_0000, 0x3F00_0000, 0x3E80_0000, 0x3F80_0000,
//!     0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF,
//! ];
//! let program = decode(&tokens)?;
//! let translation = translate(&program, &ShaderKey::default())?;
//! let wgsl = translation.to_wgsl()?;
//! assert!(wgsl.contains("fn ps_main"));
//! let spirv: Vec<u32> = translation.to_spirv()?;
//! assert_eq!(spirv[0], 0x0723_0203);
//! // What to bind: group 1 (pixel), no constant buffer (c0 is a def).
//! assert_eq!(translation.layout.group, 1);
//! assert!(translation.layout.float_constants.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The binding layout, the register model and the render-state block are documented in
//! [`lower`]; the state a translation depends on is [`ShaderKey`]; inputs and outputs by
//! semantic and the linkage of a pair in [`lower::io_map`].

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
