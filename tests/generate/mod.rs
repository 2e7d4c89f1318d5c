//! Random **valid** Direct3D 9 programs for differential testing.
//!
//! [`generate`] builds a program of a given version from a seed: declarations, constant
//! definitions, an initialisation block that writes every temporary it will read (D3D9 leaves
//! unwritten temporaries undefined, so reading one would make GPU and CPU disagree for no
//! reason), a body of random instructions with nested flow control within the version's limits,
//! and the outputs. Alongside it come the API-side values the program reads: float, int and bool
//! constants and the input attributes, drawn from a pool that favours the edge values where
//! translators go wrong (±0, huge and tiny magnitudes, values next to 0.5 for `cnd`, …).
//!
//! Every program must pass the strict validator; a test checks that, which also tests the validator.

mod body;
pub mod ffp;
pub mod ffp_mix;
mod profile;
mod rng;

pub use profile::Profile;
pub use rng::Rng;

use d3d9_shader::bytecode::{Program, Register, TextureType, Usage, Version};

/// A generated program and the values it reads.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The program.
    pub program: Program,
    /// API float constants (register, value); `def` constants are in the program.
    pub float_consts: Vec<(u16, [f32; 4])>,
    /// API integer constants.
    pub int_consts: Vec<(u16, [i32; 4])>,
    /// API bool constants.
    pub bool_consts: Vec<(u16, bool)>,
    /// Declared inputs: register, semantic and the value every vertex/pixel receives.
    pub inputs: Vec<Input>,
    /// Declared samplers and their texture types (ps_1_x: the type the key must give).
    pub samplers: Vec<(u16, TextureType)>,
    /// ps_1_x stages read by `texbem`/`texbeml`/`bem`: (stage, D3DTSS_BUMPENVMAT00..11 as
    /// `[[m00, m01], [m10, m11]]`, D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET).
    pub bump_env: Vec<(u16, [[f32; 2]; 2], f32, f32)>,
}

/// One declared input.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// `v#` (or `t#` in ps_1_x/ps_2_x).
    pub reg: Register,
    /// Semantic.
    pub usage: Usage,
    /// Semantic index.
    pub usage_index: u8,
    /// Value (constant across the primitive).
    pub value: [f32; 4],
}

/// The versions the generator covers.
pub fn versions() -> Vec<Version> {
    d3d9_shader::bytecode::VersionId::ALL.iter().map(|id| id.version()).filter(|v| Profile::of(*v).is_some()).collect()
}

/// Generates one program of `version` from `seed`; `None` for versions without a profile.
pub fn generate(version: Version, seed: u64) -> Option<Generated> {
    let profile = Profile::of(version)?;
    Some(body::Builder::new(profile, seed).build())
}
