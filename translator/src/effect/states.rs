//! Pass and sampler states: the operation table (the operation number an fx_2_0 state stores,
//! mapped to the D3D9 state it sets) and the state record.
//!
//! The table's order is D3DX's: render states (D3DRS_* in the order of d3d9types.h, with WRAP0
//! to WRAP15 together and POINTSIZE_MAX after POINTSIZE_MIN), texture-stage states, NPatchMode,
//! FVF, transforms, material, light, LightEnable, shaders, shader constants, Texture, sampler
//! states and Sampler. The operation numbers that `docs/effects.md` lists as pinned by a Windows
//! result (ZENABLE 0x00, FOGENABLE 0x0e, POINTSCALE_A 0x41, BLENDOP 0x4b, ALPHAOP 0x6b, VIEW
//! 0x7c, LightType 0x84, LightEnable 0x91, VertexShader 0x92, Texture 0xa4, MipFilter 0xab,
//! Sampler 0xb2) all fall where this order puts them.

use serde::Serialize;

/// What part of the device a state sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum StateClass {
    /// `SetRenderState(code, value)`.
    RenderState,
    /// `SetTextureStageState(index, code, value)`.
    TextureStage,
    /// `SetNPatchMode`.
    NPatchMode,
    /// `SetFVF`.
    Fvf,
    /// `SetTransform(code + index, matrix)` (D3DTRANSFORMSTATETYPE).
    Transform,
    /// A member of `SetMaterial`'s D3DMATERIAL9 (code = which).
    Material,
    /// A member of light `index`'s D3DLIGHT9 (code = which).
    Light,
    /// `LightEnable(index, value)`.
    LightEnable,
    /// `SetVertexShader`.
    VertexShader,
    /// `SetPixelShader`.
    PixelShader,
    /// `Set{Vertex,Pixel}ShaderConstant{F,B,I}(index, …)` (code = [`ShaderConstantFile`] as u32).
    ShaderConstant,
    /// `SetTexture(index, …)`.
    Texture,
    /// `SetSamplerState(index, code, value)`.
    SamplerState,
    /// Applies a sampler parameter's states to sampler `index`.
    Sampler,
}

/// The register file a shader-constant state writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ShaderConstantFile {
    /// Vertex shader float constants.
    VsFloat,
    /// Vertex shader bool constants.
    VsBool,
    /// Vertex shader int constants.
    VsInt,
    /// Pixel shader float constants.
    PsFloat,
    /// Pixel shader bool constants.
    PsBool,
    /// Pixel shader int constants.
    PsInt,
}

/// One operation of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StateInfo {
    /// What it sets.
    pub class: StateClass,
    /// The D3D9 enumerant (D3DRS_*, D3DTSS_*, D3DTS_*, D3DSAMP_*, or the member).
    pub code: u32,
    /// The effect-file name of the state.
    pub name: &'static str,
}

use StateClass::*;

macro_rules! table {
    ($($class:ident $code:literal $name:literal),* $(,)?) => {
        /// The D3DX state operation table, indexed by operation number.
        pub const STATE_TABLE: &[StateInfo] = &[$(StateInfo { class: $class, code: $code, name: $name }),*];
    };
}

table![
    RenderState 7 "ZENABLE", RenderState 8 "FILLMODE", RenderState 9 "SHADEMODE", RenderState 14 "ZWRITEENABLE",
    RenderState 15 "ALPHATESTENABLE", RenderState 16 "LASTPIXEL", RenderState 19 "SRCBLEND", RenderState 20 "DESTBLEND",
    RenderState 22 "CULLMODE", RenderState 23 "ZFUNC", RenderState 24 "ALPHAREF", RenderState 25 "ALPHAFUNC",
    RenderState 26 "DITHERENABLE", RenderState 27 "ALPHABLENDENABLE", RenderState 28 "FOGENABLE",
    RenderState 29 "SPECULARENABLE", RenderState 34 "FOGCOLOR", RenderState 35 "FOGTABLEMODE",
    RenderState 36 "FOGSTART", RenderState 37 "FOGEND", RenderState 38 "FOGDENSITY", RenderState 48 "RANGEFOGENABLE",
    RenderState 52 "STENCILENABLE", RenderState 53 "STENCILFAIL", RenderState 54 "STENCILZFAIL",
    RenderState 55 "STENCILPASS", RenderState 56 "STENCILFUNC", RenderState 57 "STENCILREF",
    RenderState 58 "STENCILMASK", RenderState 59 "STENCILWRITEMASK", RenderState 60 "TEXTUREFACTOR",
    RenderState 128 "WRAP0", RenderState 129 "WRAP1", RenderState 130 "WRAP2", RenderState 131 "WRAP3",
    RenderState 132 "WRAP4", RenderState 133 "WRAP5", RenderState 134 "WRAP6", RenderState 135 "WRAP7",
    RenderState 198 "WRAP8", RenderState 199 "WRAP9", RenderState 200 "WRAP10", RenderState 201 "WRAP11",
    RenderState 202 "WRAP12", RenderState 203 "WRAP13", RenderState 204 "WRAP14", RenderState 205 "WRAP15",
    RenderState 136 "CLIPPING", RenderState 137 "LIGHTING", RenderState 139 "AMBIENT", RenderState 140 "FOGVERTEXMODE",
    RenderState 141 "COLORVERTEX", RenderState 142 "LOCALVIEWER", RenderState 143 "NORMALIZENORMALS",
    RenderState 145 "DIFFUSEMATERIALSOURCE", RenderState 146 "SPECULARMATERIALSOURCE",
    RenderState 147 "AMBIENTMATERIALSOURCE", RenderState 148 "EMISSIVEMATERIALSOURCE", RenderState 151 "VERTEXBLEND",
    RenderState 152 "CLIPPLANEENABLE", RenderState 154 "POINTSIZE", RenderState 155 "POINTSIZE_MIN",
    RenderState 166 "POINTSIZE_MAX", RenderState 156 "POINTSPRITEENABLE", RenderState 157 "POINTSCALEENABLE",
    RenderState 158 "POINTSCALE_A", RenderState 159 "POINTSCALE_B", RenderState 160 "POINTSCALE_C",
    RenderState 161 "MULTISAMPLEANTIALIAS", RenderState 162 "MULTISAMPLEMASK", RenderState 163 "PATCHEDGESTYLE",
    RenderState 165 "DEBUGMONITORTOKEN", RenderState 167 "INDEXEDVERTEXBLENDENABLE",
    RenderState 168 "COLORWRITEENABLE", RenderState 170 "TWEENFACTOR", RenderState 171 "BLENDOP",
    RenderState 172 "POSITIONDEGREE", RenderState 173 "NORMALDEGREE", RenderState 174 "SCISSORTESTENABLE",
    RenderState 175 "SLOPESCALEDEPTHBIAS", RenderState 176 "ANTIALIASEDLINEENABLE",
    RenderState 178 "MINTESSELLATIONLEVEL", RenderState 179 "MAXTESSELLATIONLEVEL", RenderState 180 "ADAPTIVETESS_X",
    RenderState 181 "ADAPTIVETESS_Y", RenderState 182 "ADAPTIVETESS_Z", RenderState 183 "ADAPTIVETESS_W",
    RenderState 184 "ENABLEADAPTIVETESSELLATION", RenderState 185 "TWOSIDEDSTENCILMODE",
    RenderState 186 "CCW_STENCILFAIL", RenderState 187 "CCW_STENCILZFAIL", RenderState 188 "CCW_STENCILPASS",
    RenderState 189 "CCW_STENCILFUNC", RenderState 190 "COLORWRITEENABLE1", RenderState 191 "COLORWRITEENABLE2",
    RenderState 192 "COLORWRITEENABLE3", RenderState 193 "BLENDFACTOR", RenderState 194 "SRGBWRITEENABLE",
    RenderState 195 "DEPTHBIAS", RenderState 206 "SEPARATEALPHABLENDENABLE", RenderState 207 "SRCBLENDALPHA",
    RenderState 208 "DESTBLENDALPHA", RenderState 209 "BLENDOPALPHA",
    TextureStage 1 "COLOROP", TextureStage 26 "COLORARG0", TextureStage 2 "COLORARG1", TextureStage 3 "COLORARG2",
    TextureStage 4 "ALPHAOP", TextureStage 27 "ALPHAARG0", TextureStage 5 "ALPHAARG1", TextureStage 6 "ALPHAARG2",
    TextureStage 28 "RESULTARG", TextureStage 7 "BUMPENVMAT00", TextureStage 8 "BUMPENVMAT01",
    TextureStage 9 "BUMPENVMAT10", TextureStage 10 "BUMPENVMAT11", TextureStage 11 "TEXCOORDINDEX",
    TextureStage 22 "BUMPENVLSCALE", TextureStage 23 "BUMPENVLOFFSET", TextureStage 24 "TEXTURETRANSFORMFLAGS",
    TextureStage 32 "CONSTANT",
    NPatchMode 0 "NPatchMode", Fvf 0 "FVF",
    Transform 3 "ProjectionTransform", Transform 2 "ViewTransform", Transform 256 "WorldTransform",
    Transform 16 "TextureTransform",
    Material 0 "MaterialDiffuse", Material 1 "MaterialAmbient", Material 2 "MaterialSpecular",
    Material 3 "MaterialEmissive", Material 4 "MaterialPower",
    Light 0 "LightType", Light 1 "LightDiffuse", Light 2 "LightSpecular", Light 3 "LightAmbient",
    Light 4 "LightPosition", Light 5 "LightDirection", Light 6 "LightRange", Light 7 "LightFalloff",
    Light 8 "LightAttenuation0", Light 9 "LightAttenuation1", Light 10 "LightAttenuation2", Light 11 "LightTheta",
    Light 12 "LightPhi",
    LightEnable 0 "LightEnable", VertexShader 0 "VertexShader", PixelShader 0 "PixelShader",
    ShaderConstant 0 "VertexShaderConstantF", ShaderConstant 1 "VertexShaderConstantB",
    ShaderConstant 2 "VertexShaderConstantI", ShaderConstant 0 "VertexShaderConstant",
    ShaderConstant 0 "VertexShaderConstant1", ShaderConstant 0 "VertexShaderConstant2",
    ShaderConstant 0 "VertexShaderConstant3", ShaderConstant 0 "VertexShaderConstant4",
    ShaderConstant 3 "PixelShaderConstantF", ShaderConstant 4 "PixelShaderConstantB",
    ShaderConstant 5 "PixelShaderConstantI", ShaderConstant 3 "PixelShaderConstant",
    ShaderConstant 3 "PixelShaderConstant1", ShaderConstant 3 "PixelShaderConstant2",
    ShaderConstant 3 "PixelShaderConstant3", ShaderConstant 3 "PixelShaderConstant4",
    Texture 0 "Texture",
    SamplerState 1 "AddressU", SamplerState 2 "AddressV", SamplerState 3 "AddressW", SamplerState 4 "BorderColor",
    SamplerState 5 "MagFilter", SamplerState 6 "MinFilter", SamplerState 7 "MipFilter",
    SamplerState 8 "MipMapLodBias", SamplerState 9 "MaxMipLevel", SamplerState 10 "MaxAnisotropy",
    SamplerState 11 "SRGBTexture", SamplerState 12 "ElementIndex", SamplerState 13 "DMAPOffset",
    Sampler 0 "Sampler",
];

/// D3DLIGHT9 as DWORDs: Type, Diffuse, Specular, Ambient (4 each), Position, Direction (3
/// each), Range, Falloff, Attenuation0–2, Theta, Phi.
pub const LIGHT_WORDS: usize = 26;

/// D3DMATERIAL9 as DWORDs: Diffuse, Ambient, Specular, Emissive (4 each), Power.
pub const MATERIAL_WORDS: usize = 17;

/// Where a light member (a [`StateClass::Light`] code) lies in D3DLIGHT9: (first word, words).
pub fn light_member(code: u32) -> Option<(usize, usize)> {
    const AT: [(usize, usize); 13] = [
        (0, 1),
        (1, 4),
        (5, 4),
        (9, 4),
        (13, 3),
        (16, 3),
        (19, 1),
        (20, 1),
        (21, 1),
        (22, 1),
        (23, 1),
        (24, 1),
        (25, 1),
    ];
    AT.get(code as usize).copied()
}

/// Where a material member (a [`StateClass::Material`] code) lies in D3DMATERIAL9.
pub fn material_member(code: u32) -> Option<(usize, usize)> {
    const AT: [(usize, usize); 5] = [(0, 4), (4, 4), (8, 4), (12, 4), (16, 1)];
    AT.get(code as usize).copied()
}

/// The file a shader-constant state's code names.
pub fn constant_file(code: u32) -> ShaderConstantFile {
    use ShaderConstantFile::*;
    [VsFloat, VsBool, VsInt, PsFloat, PsBool, PsInt][code as usize % 6]
}
