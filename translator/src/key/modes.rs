//! The render-state modes of the key and their spellings: one table per enum that the CLI's
//! `--key`, its clap arguments (behind the `cli` feature), serde (the harness's case format),
//! the harness and xtask all read, so that a mode has one name wherever it is written.
//!
//! Names are matched without regard to ASCII case: the CLI writes `lessequal`, a case file
//! `LESSEQUAL`.

/// A name that is not one of an enum's spellings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad {what} `{name}` (one of {})", expected.join(", "))]
pub struct UnknownName {
    /// What was being named (`float rules`, `compare function`, …).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names the enum has.
    pub expected: &'static [&'static str],
}

/// Gives an enum its spelling table (`ALL`, `NAMES`, `name`, `from_name`) and the traits built
/// on it: `Display`, `FromStr`, serde, and clap's `ValueEnum` under the `cli` feature.
macro_rules! spellings {
    ($t:ident, $what:literal, [$($v:ident => $name:literal),+ $(,)?]) => {
        impl $t {
            /// Every value, in the order of [`Self::NAMES`].
            pub const ALL: &'static [$t] = &[$($t::$v),+];
            /// The spelling of each value of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The value's name (lower case).
            pub fn name(self) -> &'static str {
                match self {
                    $($t::$v => $name,)+
                }
            }

            /// The value of a name, in any ASCII case.
            pub fn from_name(name: &str) -> Option<$t> {
                Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)).map(|i| Self::ALL[i])
            }
        }

        $crate::key::modes::spelling_traits!($t, $what);
    };
}

/// The traits built on a spelling table (`ALL`, `NAMES`, `name`, `from_name`): `Display`,
/// `FromStr`, serde, and clap's `ValueEnum` under the `cli` feature.
macro_rules! spelling_traits {
    ($t:ty, $what:literal) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $t {
            type Err = $crate::key::modes::UnknownName;
            fn from_str(s: &str) -> Result<$t, $crate::key::modes::UnknownName> {
                <$t>::from_name(s.trim()).ok_or_else(|| $crate::key::modes::UnknownName {
                    what: $what,
                    name: s.to_string(),
                    expected: <$t>::NAMES,
                })
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let name = <String as serde::Deserialize>::deserialize(d)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }

        #[cfg(feature = "cli")]
        impl clap::ValueEnum for $t {
            fn value_variants<'a>() -> &'a [$t] {
                <$t>::ALL
            }
            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.name()))
            }
        }
    };
}

pub(crate) use spelling_traits;
/// For the enums of the key's other files (vertex_formats.rs).
pub(crate) use spellings;

// The table is `bytecode`'s, which imports nothing of the library (see the type).
spelling_traits!(crate::bytecode::TextureDimension, "texture type");

/// How D3D9's float arithmetic is reproduced (docs/d3d9-rules.md#float-rules).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum FloatRules {
    /// D3D9 hardware behaviour: 0 · anything = 0 in every multiply (mul, mad, dp*, m#x#, lrp,
    /// nrm, pow, lit, dst, crs), rcp(0) = +inf, log(0) = −FLT_MAX. What games rely on.
    #[default]
    Strict,
    /// Cheaper: plain IEEE multiplies, but rcp/rsq/log results clamped to ±FLT_MAX so that an
    /// infinity never reaches a multiply.
    Fast,
    /// Plain IEEE-754 arithmetic (rcp(0) = inf, 0 · inf = NaN).
    Ieee,
}

/// D3DCMPFUNC: the alpha test's function in the key (D3DRS_ALPHAFUNC; [`CompareFunc::Always`]
/// means the test is off), the fixed-function generator's, and the depth test's of the harness's
/// cases.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[allow(missing_docs)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    /// The test passes always: no code is generated.
    #[default]
    Always,
}

/// The precision at which the alpha test compares: that of render target 0
/// (docs/d3d9-rules.md#alpha-test).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum AlphaPrecision {
    /// An 8-bit (unorm) target: round(saturate(alpha) · 255) against `ALPHAREF & 0xff`.
    #[default]
    Unorm8,
    /// A 32-bit float target: the unclamped alpha against `(ALPHAREF & 0xff) / 255` in fp32
    /// (alpha 1.5 passes GREATER against ALPHAREF 255).
    Float,
}

/// Fog applied by the pixel shader epilogue (ps < 3.0 only; ps_3_0 does its own fog).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum FogMode {
    /// No fog.
    #[default]
    None,
    /// Vertex fog: the factor is the interpolated FOG input (oFog of the vertex shader).
    Vertex,
    /// Table fog, linear: f = (end − d) / (end − start).
    Linear,
    /// Table fog, exponential: f = 1 / e^(d · density).
    Exp,
    /// Table fog, squared exponential: f = 1 / e^((d · density)²).
    Exp2,
}

/// Which depth table fog uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum FogSource {
    /// The pixel's depth (FragCoord.z).
    #[default]
    Z,
    /// The pixel's eye-space w (1 / FragCoord.w).
    W,
}

/// Vertex shaders: how points are drawn on a target with no point-size output (WebGPU draws
/// 1-pixel points). Always baked: it changes the entry point's inputs and the draw call.
///
/// With [`PointExpansion::List`] or [`PointExpansion::Strip`] the shader draws each point of a
/// D3DPT_POINTLIST as a quad: the layer binds the vertex buffers with step mode *instance*, draws
/// `vertex_count = 6` (triangle list) or 4 (triangle strip) and `instance_count = points`, with
/// culling off, and fills `RenderState::viewport` with the viewport's size. Point size and sprite
/// coordinates follow D3D9 (docs/d3d9-rules.md#point-sprites); the layout of the corners is in
/// the `lower` module's point expansion.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum PointExpansion {
    /// Points are drawn as the pipeline's points (with the point-size built-in under
    /// `ShaderKey::point_size`).
    #[default]
    Off,
    /// Six vertices per point (two triangles of a triangle list).
    List,
    /// Four vertices per point (one triangle strip).
    Strip,
}

/// How one render-state mode is delivered ([`super::delivery`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Delivery {
    /// In the code: one translation per value.
    #[default]
    Baked,
    /// A pipeline-overridable constant (WGSL `override`).
    Override,
    /// Read from the render-state block at run time.
    Uniform,
}

spellings!(FloatRules, "float rules", [Strict => "strict", Fast => "fast", Ieee => "ieee"]);
spellings!(
    CompareFunc,
    "compare function",
    [
        Never => "never",
        Less => "less",
        Equal => "equal",
        LessEqual => "lessequal",
        Greater => "greater",
        NotEqual => "notequal",
        GreaterEqual => "greaterequal",
        Always => "always",
    ]
);
spellings!(AlphaPrecision, "alpha precision", [Unorm8 => "unorm8", Float => "float"]);
spellings!(FogMode, "fog mode", [None => "none", Vertex => "vertex", Linear => "linear", Exp => "exp", Exp2 => "exp2"]);
spellings!(FogSource, "fog source", [Z => "z", W => "w"]);
spellings!(PointExpansion, "point expansion", [Off => "off", List => "list", Strip => "strip"]);
spellings!(Delivery, "delivery", [Baked => "baked", Override => "override", Uniform => "uniform"]);

impl CompareFunc {
    /// The D3DCMPFUNC value (1 never … 8 always).
    pub fn d3d(self) -> u32 {
        Self::ALL.iter().position(|&f| f == self).expect("every value is listed") as u32 + 1
    }

    /// The function of a D3DCMPFUNC value; `None` for values the runtime refuses.
    pub fn from_d3d(value: u32) -> Option<CompareFunc> {
        Self::ALL.get((value as usize).checked_sub(1)?).copied()
    }
}
