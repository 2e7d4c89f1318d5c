//! The linkage of a vertex/pixel shader pair: which semantics pass between the stages, and at
//! which locations.
//!
//! A translation places its varyings by semantic. Without a [`Linkage`] in the key, the lowering
//! uses a fixed default map (documented in [`crate::lower::io_map`]); [`link`] replaces it for a
//! pair: it packs the semantics the pixel shader reads and the vertex shader writes into
//! locations 0, 1, …, marks those the vertex shader does not write as [`LinkSlot::Missing`] (the
//! pixel shader uses the default value), and drops vertex outputs the pixel shader does not
//! read. Put the same [`Linkage`] in both keys ([`crate::ShaderKey::linkage`]).
//!
//! The linkage is part of the key, and computed from the two stages' signatures; it knows
//! nothing of the lowering.
//!
//! # The stable interface
//!
//! A layer that links every pair translates each vertex shader once per pixel shader it meets.
//! [`Linkage::stable`] avoids that: a fixed map from semantic to location ([`STABLE_SEMANTICS`],
//! 16 locations: WebGPU's default `maxInterStageShaderVariables`) that both stages use without
//! knowing each other. Under it a vertex shader outputs **every** location of the map, the
//! semantics it does not write holding the D3D9 default value (COLOR0 = 1, COLOR1 = (0,0,0,1),
//! others 0; FOG 0, the fog factor of an unwritten oFog in the fixed-function fog blend), so any
//! pixel shader reading any of them links with it; outputs outside the map are dropped. A ps_3_0
//! FOG input does not fit the map (it reads an unwritten FOG as 1): such pairs need [`link`]. A pixel shader under it reads each semantic at its stable location.
//!
//! | location | semantic |
//! |---:|---|
//! | 0–7 | TEXCOORD0–7 (`oT#`, `t#`) |
//! | 8, 9 | COLOR0, COLOR1 (`oD#`, `v#` of ps < 3.0) |
//! | 10 | FOG |
//! | 11, 12 | TEXCOORD8, TEXCOORD9 |
//! | 13 | POSITION0 (a ps_3_0 input; the vertex shader's oPos) |
//! | 14 | NORMAL0 |
//! | 15 | COLOR2 |
//!
//! WebGPU counts clip distances against the same limit, four to a location: a vertex shader
//! with user clip planes outputs only locations 0–14 (one to four planes) or 0–13 (five to eight,
//! or a run-time plane mask), so a pixel shader reading NORMAL0 or COLOR2 then needs [`link`].
//!
//! Every Shader Model 1 and 2 pair fits it. Use [`link`] when [`fits_stable`] says a stage does
//! not: an SM3 stage passing a semantic outside the map (NORMAL1, TANGENT0, TEXCOORD10, …) — a
//! pixel shader reading one is refused under the stable linkage — or a target with fewer than 16
//! inter-stage locations (WebGPU's downlevel limit is 15). The price of the map is interpolation:
//! a vertex shader always outputs 16 vec4 varyings, where a linked pair passes only those the
//! pixel shader reads.

use serde::Serialize;

use crate::analysis::{IoRegister, Signature};
use crate::bytecode::registers::rastout;
use crate::bytecode::{RegisterType, ShaderKind, Usage, Version};

/// Where a semantic goes in a linked pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LinkSlot {
    /// Passed at this location.
    Location(u32),
    /// Read by the pixel shader, not written by the vertex shader: the default value is used.
    Missing,
}

/// The locations of a VS/PS pair by semantic (from [`link`]); semantics not listed are not
/// passed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Linkage {
    /// (usage code, usage index, slot), sorted.
    pub slots: Vec<(u8, u8, LinkSlot)>,
    /// The stable interface ([`Linkage::stable`]): the vertex shader outputs every location in
    /// `slots` (defaults where it writes nothing), and a pixel input not listed is an error
    /// rather than a default.
    pub stable: bool,
}

/// The semantics of the stable interface, by location (see the module documentation).
pub const STABLE_SEMANTICS: [(Usage, u8); 16] = [
    (Usage::TexCoord, 0),
    (Usage::TexCoord, 1),
    (Usage::TexCoord, 2),
    (Usage::TexCoord, 3),
    (Usage::TexCoord, 4),
    (Usage::TexCoord, 5),
    (Usage::TexCoord, 6),
    (Usage::TexCoord, 7),
    (Usage::Color, 0),
    (Usage::Color, 1),
    (Usage::Fog, 0),
    (Usage::TexCoord, 8),
    (Usage::TexCoord, 9),
    (Usage::Position, 0),
    (Usage::Normal, 0),
    (Usage::Color, 2),
];

/// The stable location of semantic (`usage` code, `index`), if the map has one.
pub fn stable_location(usage: u8, index: u8) -> Option<u32> {
    STABLE_SEMANTICS.iter().position(|&(u, i)| u as u8 == usage && i == index).map(|l| l as u32)
}

impl Linkage {
    /// The stable interface: one linkage for every pair (module documentation). Put it in both
    /// keys; check each stage with [`fits_stable`].
    pub fn stable() -> Linkage {
        let mut slots: Vec<(u8, u8, LinkSlot)> = STABLE_SEMANTICS
            .iter()
            .enumerate()
            .map(|(l, &(u, i))| (u as u8, i, LinkSlot::Location(l as u32)))
            .collect();
        slots.sort_unstable_by_key(|s| (s.0, s.1));
        Linkage { slots, stable: true }
    }
}

/// Whether a stage's varyings all have a stable location (a vertex shader always fits: outputs
/// outside the map are dropped, but then no pixel shader under the map can read them — so this
/// says `false` for it too, as the pair needs [`link`] to pass them).
pub fn fits_stable(version: Version, sig: &Signature) -> bool {
    let regs = match version.kind {
        ShaderKind::Vertex => &sig.outputs,
        ShaderKind::Pixel => &sig.inputs,
    };
    // A ps_3_0 reads a FOG its vertex shader does not write as 1; the map's unwritten FOG is the
    // fixed-function blend's 0 (docs/d3d9-rules.md#fog), so only pixel shaders before ps_3_0 read
    // FOG under it.
    let fog_input = version.kind == ShaderKind::Pixel && !version.profile().fixed_function_fog;
    varyings(version, regs)
        .iter()
        .all(|&(u, i)| stable_location(u, i).is_some() && !(fog_input && u == Usage::Fog as u8))
}

impl Linkage {
    /// The slot of semantic (`usage`, `index`), if the pair passes it or the pixel shader reads it.
    pub(crate) fn find(&self, usage: u8, index: u8) -> Option<LinkSlot> {
        self.slots.iter().find(|s| s.0 == usage && s.1 == index).map(|s| s.2)
    }
}

/// The semantic (usage code, index) of an I/O register of a program of `version`.
pub fn semantic(version: Version, r: &IoRegister) -> Option<(u8, u8)> {
    use RegisterType as R;
    let u = |usage: Usage, i: u16| Some((usage as u8, i as u8));
    match (version.kind, r.file) {
        // Vertex inputs, and pixel inputs from ps_3_0 on, carry their dcl semantic.
        (_, R::Input) if !version.profile().fixed_io || version.kind == ShaderKind::Vertex => {
            r.usage_code.map(|c| (c, r.usage_index))
        }
        (_, R::Output) => r.usage_code.map(|c| (c, r.usage_index)),
        (ShaderKind::Pixel, R::Input) => u(Usage::Color, r.index),
        (ShaderKind::Pixel, R::Texture) => u(Usage::TexCoord, r.index),
        (_, R::RastOut) => match r.index {
            rastout::POSITION => u(Usage::Position, 0),
            rastout::FOG => u(Usage::Fog, 0),
            _ => u(Usage::PSize, 0),
        },
        (_, R::AttrOut) => u(Usage::Color, r.index),
        (_, R::TexCrdOut) => u(Usage::TexCoord, r.index),
        _ => None,
    }
}

/// Vertex outputs that are built-ins (position, point size); a pixel shader's POSITION input is
/// an ordinary varying.
fn is_builtin(version: Version, usage: u8, index: u8) -> bool {
    version.kind == ShaderKind::Vertex
        && matches!((Usage::from_raw(usage), index), (Some(Usage::Position), 0) | (Some(Usage::PSize), 0))
}

/// The semantics a stage passes between stages (VS outputs or PS inputs), sorted.
pub(crate) fn varyings(version: Version, regs: &[IoRegister]) -> Vec<(u8, u8)> {
    let mut v: Vec<(u8, u8)> =
        regs.iter().filter_map(|r| semantic(version, r)).filter(|&(u, i)| !is_builtin(version, u, i)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Locations for a VS/PS pair (see the module documentation).
pub fn link(vs_version: Version, vs: &Signature, ps_version: Version, ps: &Signature) -> Linkage {
    let mut written: Vec<(u8, u8)> = vs.outputs.iter().filter_map(|r| semantic(vs_version, r)).collect();
    // oPos also feeds a pixel shader's POSITION0 input.
    written.push((Usage::Position as u8, 0));
    let mut read = varyings(ps_version, &ps.inputs);
    // Fixed-function fog (after ps_1_x and ps_2_x; ps_3_0 does its own) reads the FOG varying
    // even when the pixel shader does not name it.
    let fog = (Usage::Fog as u8, 0);
    if ps_version.profile().fixed_function_fog && !read.contains(&fog) {
        read.push(fog);
    }
    read.sort_unstable();
    let mut slots = Vec::new();
    let mut next = 0;
    for (u, i) in read {
        if written.contains(&(u, i)) {
            slots.push((u, i, LinkSlot::Location(next)));
            next += 1;
        } else {
            slots.push((u, i, LinkSlot::Missing));
        }
    }
    Linkage { slots, stable: false }
}

/// A pair needs more inter-stage locations than the device has (WebGPU's
/// `maxInterStageShaderVariables`, wgpu's `Limits::max_inter_stage_shader_variables`; clip
/// distances count four to a location).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the {} passes {needed} inter-stage locations, the device allows {limit} (maxInterStageShaderVariables){}",
    if *.stable { "stable interface" } else { "pair" },
    if *.stable { ": link each pair (d3d9_shader::link) instead" } else { "" }
)]
pub struct InterStageLimitError {
    /// The locations the pair uses (its highest location + 1, and one per four clip distances).
    pub needed: u32,
    /// The device's limit.
    pub limit: u32,
    /// Under the stable interface ([`Linkage::stable`]), which always uses all 16.
    pub stable: bool,
}

impl Linkage {
    /// The inter-stage locations a pair under this linkage uses before clip distances: all 16
    /// of the stable interface (whose vertex shaders give their top locations to clip distances,
    /// module documentation), else one per passed semantic. A linked pair's vertex shader adds
    /// one location per four clip distances: check its translation for the exact count
    /// ([`crate::pipeline::PreparedPair::check_inter_stage_limit`]).
    pub fn inter_stage_locations(&self) -> u32 {
        if self.stable {
            return STABLE_SEMANTICS.len() as u32;
        }
        self.slots
            .iter()
            .filter_map(|s| if let LinkSlot::Location(l) = s.2 { Some(l + 1) } else { None })
            .max()
            .unwrap_or(0)
    }

    /// Whether the pair fits a device with `limit` inter-stage locations (WebGPU's default is
    /// 16, its downlevel limit 15: the stable interface needs 16).
    pub fn check_inter_stage_limit(&self, limit: u32) -> Result<(), InterStageLimitError> {
        let needed = self.inter_stage_locations();
        if needed > limit {
            return Err(InterStageLimitError { needed, limit, stable: self.stable });
        }
        Ok(())
    }

    /// [`Linkage::check_inter_stage_limit`] against a wgpu device's limits.
    #[cfg(feature = "wgpu")]
    pub fn check_limits(&self, limits: &wgpu::Limits) -> Result<(), InterStageLimitError> {
        self.check_inter_stage_limit(limits.max_inter_stage_shader_variables)
    }
}
