//! A translation's interface: where each input and output went ([`InterfaceMap`]), the built-ins, and
//! the serialised form of a usage (its `dcl_` name), so that an interface map round-trips
//! through JSON.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytecode::{Register, Usage};

/// The built-in an input or output is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Builtin {
    /// `@builtin(position)`: the vertex shader's oPos; a pixel shader's vPos and table-fog depth.
    Position,
    /// `@builtin(front_facing)`: vFace.
    FrontFacing,
    /// The point coordinate (point sprites; SPIR-V, MSL and GLSL only).
    PointCoord,
    /// `@builtin(frag_depth)`: oDepth.
    FragDepth,
}

impl Builtin {
    /// WGSL's name of the built-in.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Position => "position",
            Builtin::FrontFacing => "front_facing",
            Builtin::PointCoord => "point_coord",
            Builtin::FragDepth => "frag_depth",
        }
    }
}

impl Serialize for Usage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Usage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Usage, D::Error> {
        let name = String::deserialize(d)?;
        Usage::ALL
            .into_iter()
            .find(|u| u.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown usage `{name}`")))
    }
}

/// One input or output of a translation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterfaceSlot {
    /// The D3D9 register (`v0`, `oT1`, `o3`, `vPos`; serialised by that name). `None` for the
    /// slots no register holds: the fog factor the fixed-function fog blend of ps_1_x/ps_2_x reads
    /// (usage FOG), the stable interface's outputs a vertex shader does not write, and the sprite
    /// coordinates of point expansion (their usage and index say which).
    pub register: Option<Register>,
    /// Its semantic, when it has one (serialised as the `dcl_` name: `texcoord`, `color`).
    pub usage: Option<Usage>,
    /// Usage index.
    pub usage_index: u8,
    /// `@location`, for user inputs/outputs.
    pub location: Option<u32>,
    /// The built-in, for positions, depth, facing, point size.
    pub builtin: Option<Builtin>,
    /// The constant a pixel input reads when the vertex shader does not provide it.
    pub default: Option<[f32; 4]>,
}

/// Where each input and output of a translation went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InterfaceMap {
    /// Entry-point inputs.
    pub inputs: Vec<InterfaceSlot>,
    /// Entry-point outputs.
    pub outputs: Vec<InterfaceSlot>,
}
