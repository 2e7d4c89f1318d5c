//! D3DXPARAMETER_CLASS and D3DXPARAMETER_TYPE, as an effect's type descriptions store them.

use serde::Serialize;

/// D3DXPARAMETER_CLASS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ParameterClass {
    /// `D3DXPC_SCALAR`.
    Scalar,
    /// `D3DXPC_VECTOR`.
    Vector,
    /// `D3DXPC_MATRIX_ROWS`.
    MatrixRows,
    /// `D3DXPC_MATRIX_COLUMNS`.
    MatrixColumns,
    /// `D3DXPC_OBJECT`.
    Object,
    /// `D3DXPC_STRUCT`.
    Struct,
}

impl ParameterClass {
    /// The class of a raw value, `None` past `D3DXPC_STRUCT`.
    pub fn from_raw(raw: u32) -> Option<ParameterClass> {
        use ParameterClass::*;
        Some(match raw {
            0 => Scalar,
            1 => Vector,
            2 => MatrixRows,
            3 => MatrixColumns,
            4 => Object,
            5 => Struct,
            _ => return None,
        })
    }

    /// The name D3DX uses without its `D3DXPC_` prefix.
    pub fn name(self) -> &'static str {
        use ParameterClass::*;
        match self {
            Scalar => "SCALAR",
            Vector => "VECTOR",
            MatrixRows => "MATRIX_ROWS",
            MatrixColumns => "MATRIX_COLUMNS",
            Object => "OBJECT",
            Struct => "STRUCT",
        }
    }

    /// Scalars, vectors and matrices: values made of rows × columns words.
    pub fn is_numeric(self) -> bool {
        !matches!(self, ParameterClass::Object | ParameterClass::Struct)
    }
}

/// D3DXPARAMETER_TYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(missing_docs)]
pub enum ParameterType {
    Void,
    Bool,
    Int,
    Float,
    String,
    Texture,
    Texture1D,
    Texture2D,
    Texture3D,
    TextureCube,
    Sampler,
    Sampler1D,
    Sampler2D,
    Sampler3D,
    SamplerCube,
    PixelShader,
    VertexShader,
    PixelFragment,
    VertexFragment,
    Unsupported,
}

const TYPES: [(ParameterType, &str); 20] = [
    (ParameterType::Void, "VOID"),
    (ParameterType::Bool, "BOOL"),
    (ParameterType::Int, "INT"),
    (ParameterType::Float, "FLOAT"),
    (ParameterType::String, "STRING"),
    (ParameterType::Texture, "TEXTURE"),
    (ParameterType::Texture1D, "TEXTURE1D"),
    (ParameterType::Texture2D, "TEXTURE2D"),
    (ParameterType::Texture3D, "TEXTURE3D"),
    (ParameterType::TextureCube, "TEXTURECUBE"),
    (ParameterType::Sampler, "SAMPLER"),
    (ParameterType::Sampler1D, "SAMPLER1D"),
    (ParameterType::Sampler2D, "SAMPLER2D"),
    (ParameterType::Sampler3D, "SAMPLER3D"),
    (ParameterType::SamplerCube, "SAMPLERCUBE"),
    (ParameterType::PixelShader, "PIXELSHADER"),
    (ParameterType::VertexShader, "VERTEXSHADER"),
    (ParameterType::PixelFragment, "PIXELFRAGMENT"),
    (ParameterType::VertexFragment, "VERTEXFRAGMENT"),
    (ParameterType::Unsupported, "UNSUPPORTED"),
];

impl ParameterType {
    /// The type of a raw value, `None` past `D3DXPT_UNSUPPORTED`.
    pub fn from_raw(raw: u32) -> Option<ParameterType> {
        TYPES.get(raw as usize).map(|t| t.0)
    }

    /// The name D3DX uses without its `D3DXPT_` prefix.
    pub fn name(self) -> &'static str {
        TYPES[self as usize].1
    }

    /// Textures of any dimension.
    pub fn is_texture(self) -> bool {
        matches!(self, Self::Texture | Self::Texture1D | Self::Texture2D | Self::Texture3D | Self::TextureCube)
    }

    /// Samplers of any dimension.
    pub fn is_sampler(self) -> bool {
        matches!(self, Self::Sampler | Self::Sampler1D | Self::Sampler2D | Self::Sampler3D | Self::SamplerCube)
    }

    /// Vertex or pixel shaders.
    pub fn is_shader(self) -> bool {
        matches!(self, Self::PixelShader | Self::VertexShader)
    }

    /// Types whose value is an object id (strings, textures, shaders).
    pub fn is_object_reference(self) -> bool {
        self == Self::String || self.is_texture() || self.is_shader()
    }
}

/// `D3DX_PARAMETER_SHARED`: the parameter is shared through an effect pool.
pub const FLAG_SHARED: u32 = 1;
/// `D3DX_PARAMETER_LITERAL`.
pub const FLAG_LITERAL: u32 = 2;
/// `D3DX_PARAMETER_ANNOTATION`.
pub const FLAG_ANNOTATION: u32 = 4;
