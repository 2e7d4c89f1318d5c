//! How the generated code learns each fixed-function state: baked from the key (keyed mode), or
//! read from the state block at draw time (uniform-driven mode, [`super::state`]).
//!
//! Every decision the generator makes goes through [`Gen::pick`] (or [`Gen::when`] for a flag):
//! keyed, it emits the statements of the key's value; uniform-driven, a `switch` whose cases are
//! the statements of every value, on the state block's field. The statements of a value are the
//! same text in both modes, so both compute the same arithmetic for the same state.

use super::key_pixel::{ArgSource, FogFormula, PixelFog, TextureOp};
use super::key_vertex::{ColorSource, LightType, TexGen, VertexFog};
use crate::key::CompareFunc;

/// Keyed or uniform-driven generation (docs/layers.md#fixed-function).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FfpMode {
    /// Code specialised per key: one module per state, the least GPU work.
    #[default]
    Keyed,
    /// One module per interface whose behaviour comes from the state block: no new module when
    /// a state changes, at a GPU cost.
    Uniform,
}

/// A state with a finite set of values, each written to the state block as its code.
pub trait StateValue: Copy + 'static {
    /// Every value, in code order.
    const ALL: &'static [Self];
    /// The value's code in the state block.
    fn code(self) -> u32;
}

macro_rules! state_enum {
    ($t:ty, [$($v:expr),* $(,)?]) => {
        impl StateValue for $t {
            const ALL: &'static [Self] = &[$($v),*];
            fn code(self) -> u32 {
                Self::ALL.iter().position(|v| *v == self).expect("every value is listed") as u32
            }
        }
    };
}

state_enum!(LightType, [LightType::Point, LightType::Spot, LightType::Directional]);
state_enum!(ColorSource, [ColorSource::Material, ColorSource::Diffuse, ColorSource::Specular]);
state_enum!(
    TexGen,
    [
        TexGen::PassThru,
        TexGen::CameraSpaceNormal,
        TexGen::CameraSpacePosition,
        TexGen::CameraSpaceReflectionVector,
        TexGen::SphereMap,
    ]
);
state_enum!(
    Option<TexGen>,
    [
        None,
        Some(TexGen::PassThru),
        Some(TexGen::CameraSpaceNormal),
        Some(TexGen::CameraSpacePosition),
        Some(TexGen::CameraSpaceReflectionVector),
        Some(TexGen::SphereMap),
    ]
);
state_enum!(FogFormula, [FogFormula::Linear, FogFormula::Exp, FogFormula::Exp2]);
state_enum!(
    VertexFog,
    [
        VertexFog::None,
        VertexFog::SpecularAlpha,
        VertexFog::Formula(FogFormula::Linear, false),
        VertexFog::Formula(FogFormula::Exp, false),
        VertexFog::Formula(FogFormula::Exp2, false),
        VertexFog::Formula(FogFormula::Linear, true),
        VertexFog::Formula(FogFormula::Exp, true),
        VertexFog::Formula(FogFormula::Exp2, true),
    ]
);
state_enum!(
    PixelFog,
    [
        PixelFog::Off,
        PixelFog::Varying,
        PixelFog::Table(FogFormula::Linear),
        PixelFog::Table(FogFormula::Exp),
        PixelFog::Table(FogFormula::Exp2),
    ]
);
state_enum!(
    Option<CompareFunc>,
    [
        None,
        Some(CompareFunc::Never),
        Some(CompareFunc::Less),
        Some(CompareFunc::Equal),
        Some(CompareFunc::LessEqual),
        Some(CompareFunc::Greater),
        Some(CompareFunc::NotEqual),
        Some(CompareFunc::GreaterEqual),
    ]
);
state_enum!(
    ArgSource,
    [
        ArgSource::Diffuse,
        ArgSource::Current,
        ArgSource::Texture,
        ArgSource::TFactor,
        ArgSource::Specular,
        ArgSource::Temp,
        ArgSource::Constant,
    ]
);
state_enum!(
    TextureOp,
    [
        TextureOp::Disable,
        TextureOp::SelectArg1,
        TextureOp::SelectArg2,
        TextureOp::Modulate,
        TextureOp::Modulate2x,
        TextureOp::Modulate4x,
        TextureOp::Add,
        TextureOp::AddSigned,
        TextureOp::AddSigned2x,
        TextureOp::Subtract,
        TextureOp::AddSmooth,
        TextureOp::BlendDiffuseAlpha,
        TextureOp::BlendTextureAlpha,
        TextureOp::BlendFactorAlpha,
        TextureOp::BlendTextureAlphaPm,
        TextureOp::BlendCurrentAlpha,
        TextureOp::Premodulate,
        TextureOp::ModulateAlphaAddColor,
        TextureOp::ModulateColorAddAlpha,
        TextureOp::ModulateInvAlphaAddColor,
        TextureOp::ModulateInvColorAddAlpha,
        TextureOp::BumpEnvMap,
        TextureOp::BumpEnvMapLuminance,
        TextureOp::DotProduct3,
        TextureOp::MultiplyAdd,
        TextureOp::Lerp,
    ]
);

/// A small count (blend weights, a divide-by component) is its own code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub u8);

impl StateValue for Count {
    const ALL: &'static [Self] = &[Count(0), Count(1), Count(2), Count(3), Count(4), Count(5), Count(6), Count(7)];
    fn code(self) -> u32 {
        self.0 as u32
    }
}

/// The generator's view of the mode.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gen {
    /// Uniform-driven: decisions read the state block.
    pub uniform: bool,
}

impl Gen {
    /// The statements of `value` (keyed) or a switch on `field` over `values` (uniform-driven).
    pub fn pick_of<T: StateValue>(&self, field: &str, value: T, values: &[T], body: impl Fn(T) -> String) -> String {
        if !self.uniform {
            return body(value);
        }
        let mut s = format!("    switch {field} {{\n");
        for v in values {
            s += &format!("    case {}u: {{\n{}    }}\n", v.code(), body(*v));
        }
        s + "    default: {}\n    }\n"
    }

    /// [`Gen::pick_of`] over every value.
    pub fn pick<T: StateValue>(&self, field: &str, value: T, body: impl Fn(T) -> String) -> String {
        self.pick_of(field, value, T::ALL, body)
    }

    /// The statements of a flag's value: keyed, those of `value`; uniform-driven, an `if` on
    /// `field` (a `u32`, non-zero for true).
    pub fn when(&self, field: &str, value: bool, body: impl Fn(bool) -> String) -> String {
        if !self.uniform {
            return body(value);
        }
        format!("    if {field} != 0u {{\n{}    }} else {{\n{}    }}\n", body(true), body(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_positions_and_distinct() {
        assert_eq!(TextureOp::Lerp.code(), 25);
        assert_eq!(VertexFog::Formula(FogFormula::Exp2, true).code(), 7);
        assert_eq!(Option::<CompareFunc>::None.code(), 0);
        assert_eq!(Count(3).code(), 3);
    }

    #[test]
    fn keyed_emits_one_value_and_uniform_every_value() {
        let body = |v: FogFormula| format!("    x = {};\n", v.code());
        let keyed = Gen { uniform: false }.pick("st.f", FogFormula::Exp, body);
        assert_eq!(keyed, "    x = 1;\n");
        let uniform = Gen { uniform: true }.pick("st.f", FogFormula::Exp, body);
        assert!(uniform.starts_with("    switch st.f {"));
        assert_eq!(uniform.matches("case").count(), 3);
        assert!(uniform.contains("case 2u: {\n    x = 2;\n"));
    }
}
