//! The GPU harness: draws translated Direct3D 9 shaders with wgpu and checks every draw against
//! the CPU reference (the interpreter behind a CPU rasterizer with D3D9's rules) and against the
//! expected values of the conformance cases.
//!
//! - [`case`]: the TOML case model (docs/case-format.md).
//! - [`textures`], [`vertex`], [`targets`]: the resources a case describes, decoded once and used by
//!   both the GPU and the CPU path.
//! - [`raster`], [`cpu`] and [`ffp_reference`]: the CPU pipeline (rasterizer with D3D9's rules,
//!   output merger with fog and alpha test, the fixed-function reference over [`ffp_state`]);
//!   [`fixed_function`] holds the GPU side's fixed-function stages.
//! - [`device`], [`targets`] and [`gpu`]: the wgpu pipeline.
//! - [`shaders`], [`interpreted`], [`translated`]: loading shaders, and the two shader back ends
//!   (the interpreter on the CPU, the translator on the GPU) behind the traits of [`stages`].
//! - [`runner`], [`compare`], [`report`], [`sweep`]: running cases and corpora, judging and showing
//!   the results.

#![warn(missing_docs)]

pub mod case;
pub mod compare;
pub mod cpu;
pub mod device;
pub mod ffp_gpu;
pub mod ffp_modes;
pub mod ffp_reference;
pub mod ffp_state;
pub mod fixed_function;
pub mod gpu;
pub mod interpreted;
pub mod linked;
pub mod point_raster;
pub mod raster;
pub mod report;
pub mod runner;
pub mod shaders;
pub mod stages;
pub mod sweep;
pub mod targets;
pub mod textures;
pub mod translated;
pub mod vertex;
