//! Direct3D 9 shader bytecode (Shader Model 1.0 to 3.0) to naga IR, WGSL and SPIR-V.
//!
//! # For compatibility layers
//!
//! The front door is [`Shader`]: parse a blob once ([`Shader::parse`]; [`Shader::load`] takes
//! any form a shader travels in, a raw blob, hex text, an fxc `/Fh` header or a listing, through
//! [`input::load`], which also reads a header's several arrays; [`Shader::from_asm`] for
//! assembly text), read its [`Reflection`] (inputs and outputs by semantic, constants used,
//! samplers, constant-table names, features), and translate it once per [`ShaderKey`] — the
//! slice of device state that changes the generated code ([`ShaderKey::from_state`] builds it
//! from raw `D3DRS_*` values). A [`Translation`] holds the validated `naga::Module`, the
//! [`BindingLayout`](lower::BindingLayout) the caller binds (documented in [`lower`]: constants
//! in group 0 for vertex shaders and group 1 for pixel shaders, samplers at 16 + 2n / 17 + 2n),
//! and the [`InterfaceMap`](lower::InterfaceMap) of its inputs and outputs; it emits WGSL and
//! SPIR-V, and MSL, GLSL and HLSL behind the cargo features `msl`, `glsl` and `hlsl`.
//! [`link`] matches a vertex shader's outputs to a pixel shader's inputs by semantic.
//!
//! ```
//! use d3d9_shader::{link, ParseOptions, Shader, ShaderKey};
//!
//! let options = ParseOptions::default();
//! let vs = Shader::from_asm(
//!     "vs_3_0
//!      dcl_position v0
//!      dcl_texcoord v1
//!      dcl_position o0
//!      dcl_texcoord o1
//!      m4x4 o0, v0, c0
//!      mov o1, v1",
//!     &options,
//! )?;
//! let ps = Shader::from_asm(
//!     "ps_3_0
//!      dcl_texcoord v0.xy
//!      dcl_color1 v1
//!      dcl_2d s0
//!      texld r0, v0, s0
//!      mul oC0, r0, v1",
//!     &options,
//! )?;
//!
//! // Reflection: the vertex shader reads c0–c3 (the matrix) and nothing relatively.
//! assert_eq!(vs.reflection().float_constants.ranges, [0..=3]);
//! assert_eq!(ps.reflection().samplers[0].declared, Some(d3d9_shader::bytecode::TextureType::Tex2D));
//!
//! // Link the pair: TEXCOORD0 is passed; COLOR1 is not written by the vertex shader, so the
//! // pixel shader reads D3D9's default for it.
//! let linkage = link(&vs, &ps)?;
//! let key = ShaderKey { linkage: Some(linkage), ..ShaderKey::default() };
//! let vs_out = vs.translate(&key)?;
//! let ps_out = ps.translate(&key)?;
//!
//! use d3d9_shader::bytecode::Usage;
//! let location = |slots: &[d3d9_shader::lower::InterfaceSlot], usage| {
//!     slots.iter().find(|s| s.usage == Some(usage)).and_then(|s| s.location)
//! };
//! assert_eq!(location(&vs_out.interface.outputs, Usage::TexCoord), location(&ps_out.interface.inputs, Usage::TexCoord));
//! let color1 = ps_out.interface.inputs.iter().find(|s| s.usage == Some(Usage::Color)).unwrap();
//! assert_eq!((color1.location, color1.default), (None, Some([0.0, 0.0, 0.0, 1.0])));
//!
//! // What to bind: the vertex shader's float constants at group 0, binding 0; the pixel
//! // shader's sampler s0 as a texture at group 1, binding 16 and a sampler at binding 17.
//! assert_eq!(vs_out.layout.group, 0);
//! assert_eq!(vs_out.layout.float_constants.map(|c| c.binding), Some(0));
//! assert_eq!(ps_out.layout.group, 1);
//! assert_eq!((ps_out.layout.textures[0].texture_binding, ps_out.layout.textures[0].sampler_binding), (16, 17));
//!
//! let wgsl = ps_out.to_wgsl()?;
//! assert!(wgsl.contains("@fragment"));
//! let spirv: Vec<u32> = vs_out.to_spirv()?;
//! assert_eq!(spirv[0], 0x0723_0203); // the SPIR-V magic number
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/draw_pair.rs` goes on to draw a frame with wgpu from such a pair.
//!
//! Render-state modes delivered as overrides or uniforms ([`key::delivery`]) take their values
//! from the device state: [`Shader::modes`] gives them (never the key translated under, whose
//! overridden fields [`ShaderKey::minimal`] resets); [`Artifact`] is the cacheable form of a
//! translation, which gives SPIR-V for any state ([`Artifact::to_spirv`]). docs/layers.md has a
//! quick start from bytes to a wgpu pipeline, and [`prelude`] the types a layer uses. The
//! pipeline constants of override delivery come in one call with the boolean and integer
//! constants ([`Artifact::pipeline_constants`], a typed [`PipelineConstants`]); [`pipeline`]
//! takes a pair and a draw's state to its keys, artifacts, constants, vertex attributes and the
//! check of its inter-stage locations against a device limit, and with the `wgpu` feature
//! `WgpuPipeline` gives all of it as wgpu's types in one call (`examples/layer.rs`).
//!
//! The disassembler, [`asm::disassemble`], prints a decoded program as fxc's listing.
//!
//! Parsing and translation keep no global state: a [`Shader`] is `Send + Sync`, and any number
//! of threads may parse and translate at once.
//!
//! # Inside
//!
//! Data flows one way: bytes → [`bytecode::decode()`] → [`validate`] → [`analysis`] →
//! [`lower`](lower::lower)(key) → naga validation → [`emit`]. The CPU reference interpreter
//! ([`interp`]) executes the decoded program directly and shares nothing with the lowering but
//! the decoder. The stages are public for tools; [`translate()`] runs the last ones on a decoded
//! program without validation:
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
//! [`lower`]; the state a translation depends on is [`ShaderKey`], and the [`key`] module holds
//! everything on the caller's side of it: the device state ([`DeviceState`]), the render-state
//! block ([`RenderState`]), the delivery of its modes ([`Deliveries`]), vertex formats and the
//! linkage of a pair ([`key::linkage`]). Inputs and outputs by semantic are in [`lower::io_map`].

#![deny(missing_docs)]

pub mod analysis;
pub mod artifact;
pub mod asm;
pub mod bytecode;
pub mod effect;
pub mod emit;
pub mod error;
pub mod ffp;
/// Not for layers: the test suite's mutation engine.
#[doc(hidden)]
pub mod fuzz;
pub mod input;
/// Not for layers: the project's CPU reference (the tests' oracle), slow by design.
pub mod interp;
pub mod key;
pub mod lower;
pub mod pipeline;
pub mod shader;
pub mod translate;
pub mod validate;

pub use artifact::{Artifact, ArtifactCache, CacheHash};
pub use bytecode::{ShaderKind, Usage};
pub use error::{Error, Location};
pub use key::linkage::InterStageLimitError;
pub use key::linkage::Linkage;
pub use key::vertex_formats::{vertex_format, DeclType};
pub use key::{
    BoundTexture, Deliveries, Delivery, DeviceState, KeySetError, Modes, PipelineConstants, RenderState, ShaderKey,
};
pub use lower::{BindingLayout, InterfaceMap, InterfaceSlot};
pub use lower::{PIXEL_GROUP, VERTEX_GROUP};
#[cfg(feature = "wgpu")]
pub use pipeline::for_wgpu::{WgpuPipeline, WgpuStage, WgpuVertexBuffer};
pub use pipeline::{Pair, PreparedPair, PreparedStage, StageConstants, VertexElement};
pub use shader::{link, ConstantReflection, ParseOptions, Reflection, Shader};
pub use translate::{translate, translate_with, TranslateError, Translation};

/// What a compatibility layer uses, in one import: `use d3d9_shader::prelude::*;`.
pub mod prelude {
    pub use crate::artifact::{Artifact, ArtifactCache, CacheHash};
    pub use crate::bytecode::{ShaderKind, Usage};
    pub use crate::error::{Error, Result};
    pub use crate::input::{load, LoadedShader};
    pub use crate::key::linkage::{InterStageLimitError, Linkage};
    pub use crate::key::vertex_formats::{vertex_format, DeclType};
    pub use crate::key::{
        BoundTexture, Deliveries, Delivery, DeviceState, Modes, PipelineConstants, RenderState, ShaderKey,
    };
    pub use crate::lower::{BindingLayout, InterfaceMap, InterfaceSlot, PIXEL_GROUP, VERTEX_GROUP};
    #[cfg(feature = "wgpu")]
    pub use crate::pipeline::for_wgpu::{WgpuPipeline, WgpuStage, WgpuVertexBuffer};
    pub use crate::pipeline::{Pair, PreparedPair, StageConstants, VertexElement};
    pub use crate::shader::{link, ParseOptions, Reflection, Shader};
    pub use crate::translate::Translation;
}
