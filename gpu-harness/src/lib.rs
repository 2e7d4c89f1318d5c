//! The GPU harness: draws translated Direct3D 9 shaders with wgpu and checks every draw against
//! the CPU reference (the interpreter behind a CPU rasterizer with D3D9's rules) and against the
//! expected values of the conformance cases.
//!
//! - [`case`]: the TOML case model (`../shared/conformance/README.md`, extensions included).
//! - [`textures`], [`vertex`], [`targets`]: the resources a case describes, decoded once and used by
//!   both the GPU and the CPU path.
//! - [`raster`] and [`fixed_function`]: the CPU pipeline.
//! - [`device`] and [`gpu`]: the wgpu pipeline.
//! - [`runner`], [`compare`], [`report`], [`sweep`]: running cases and corpora, judging and showing
//!   the results.

#![warn(missing_docs)]

pub mod case;
pub mod textures;
pub mod vertex;
pub mod raster;
pub mod targets;
pub mod device;
pub mod cpu;
pub mod fixed_function;
pub mod gpu;
pub mod shaders;
pub mod compare;
pub mod runner;
pub mod report;
