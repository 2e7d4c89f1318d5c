//! The typed parts of a translation's interface ([`super::InterfaceSlot`]): the built-ins, and
//! the serialised form of a usage (its `dcl_` name), so that an interface map round-trips
//! through JSON.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytecode::Usage;

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
