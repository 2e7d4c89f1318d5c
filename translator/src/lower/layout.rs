//! The binding layout of a translation: bind groups, binding numbers and register counts of
//! the resources the caller binds (the table is in the [`lower`](super) module documentation).

use crate::bytecode::profile::{self, Profile};
use crate::bytecode::{TextureType, VersionId};

/// Bind group of vertex shader resources.
pub const VERTEX_GROUP: u32 = 0;
/// Bind group of pixel shader resources.
pub const PIXEL_GROUP: u32 = 1;
/// Binding of the float constants.
pub const FLOAT_CONSTANTS_BINDING: u32 = 0;
/// Binding of the integer constants.
pub const INT_CONSTANTS_BINDING: u32 = 1;
/// Binding of the boolean constants.
pub const BOOL_CONSTANTS_BINDING: u32 = 2;
/// Binding of the render-state block.
pub const RENDER_STATE_BINDING: u32 = 3;
/// Size in bytes of the render-state block.
pub const RENDER_STATE_SIZE: u32 = crate::key::state_block::SIZE;

/// Binding of sampler `n`'s texture.
pub const fn texture_binding(n: u32) -> u32 {
    16 + 2 * n
}

/// Binding of sampler `n`'s sampler.
pub const fn sampler_binding(n: u32) -> u32 {
    17 + 2 * n
}

/// Float constant registers of a vertex shader's uniform buffer: the hardware vertex models'
/// count (the version profile's).
pub const VERTEX_FLOAT_CONSTANTS: u32 = Profile::of(VersionId::Vs30).registers.consts as u32;
/// Float constant registers of a pixel shader's uniform buffer: ps_3_0's, the most of any
/// hardware pixel model.
pub const PIXEL_FLOAT_CONSTANTS: u32 = Profile::of(VersionId::Ps30).registers.consts as u32;
/// Float constant registers of the `_sw` versions and software vertex processing.
pub const SW_FLOAT_CONSTANTS: u32 = profile::SW_FLOAT_CONSTANTS as u32;
/// Integer (`i#`) and boolean (`b#`) constant registers of each kind: the API's 16.
pub const INT_BOOL_CONSTANTS: u32 = profile::INT_BOOL_CONSTANTS as u32;
/// Integer and boolean constant registers of each kind in the `_sw` versions.
pub const SW_INT_BOOL_CONSTANTS: u32 = profile::SW_INT_BOOL_CONSTANTS as u32;
/// Float constant registers in one uniform binding: 64 KiB, the binding size every WebGPU and
/// Vulkan implementation must allow.
pub const FLOAT_CONSTANTS_PAGE: u32 = 4096;
/// Binding of the float constants from [`FLOAT_CONSTANTS_PAGE`] on (the `_sw` versions).
pub const FLOAT_CONSTANTS_HIGH_BINDING: u32 = 4;

/// The float-constant binding of a translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FloatConstantsBinding {
    /// Binding number (always [`FLOAT_CONSTANTS_BINDING`]).
    pub binding: u32,
    /// Registers in all: the array at `binding` holds the first `count.min(FLOAT_CONSTANTS_PAGE)`.
    pub count: u32,
    /// The binding of the registers from [`FLOAT_CONSTANTS_PAGE`] to `count` (a second uniform
    /// array), when `count` exceeds one page: the 8192 registers of the `_sw` versions and
    /// software vertex processing.
    pub high_binding: Option<u32>,
}

/// One sampler's texture and sampler bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TextureBinding {
    /// `s#` number.
    pub sampler: u16,
    /// Binding of the texture.
    pub texture_binding: u32,
    /// Binding of the sampler.
    pub sampler_binding: u32,
    /// Texture dimension.
    #[serde(serialize_with = "serialize_texture_type", deserialize_with = "deserialize_texture_type")]
    pub texture_type: TextureType,
    /// A depth texture with a comparison sampler.
    pub shadow: bool,
}

fn serialize_texture_type<S: serde::Serializer>(t: &TextureType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.name())
}

fn deserialize_texture_type<'de, D: serde::Deserializer<'de>>(d: D) -> Result<TextureType, D::Error> {
    let name = <String as serde::Deserialize>::deserialize(d)?;
    [TextureType::Unknown, TextureType::Tex1D, TextureType::Tex2D, TextureType::Cube, TextureType::Volume]
        .into_iter()
        .find(|t| t.name() == name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown texture type `{name}`")))
}

/// What the caller must bind for a translation (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BindingLayout {
    /// The bind group ([`VERTEX_GROUP`] or [`PIXEL_GROUP`]).
    pub group: u32,
    /// Float constants, if read from a buffer.
    pub float_constants: Option<FloatConstantsBinding>,
    /// Integer constants binding, if read from the buffer.
    pub int_constants: Option<u32>,
    /// Boolean constants binding, if read from the buffer.
    pub bool_constants: Option<u32>,
    /// Render-state block binding, if the key needs it.
    pub render_state: Option<u32>,
    /// Textures and samplers, by sampler number.
    pub textures: Vec<TextureBinding>,
}
