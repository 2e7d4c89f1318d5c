//! Instructions and programs.

use std::ops::{Deref, DerefMut};

use super::opcodes::{Comparison, Form, Opcode, TexldVariant};
use super::params::{DstParam, SrcModifier, SrcParam, Swizzle};
use super::registers::Register;
use super::registers::RegisterType;
use super::version::Version;

/// D3DDECLUSAGE values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Usage {
    Position = 0,
    BlendWeight = 1,
    BlendIndices = 2,
    Normal = 3,
    PSize = 4,
    TexCoord = 5,
    Tangent = 6,
    Binormal = 7,
    TessFactor = 8,
    PositionT = 9,
    Color = 10,
    Fog = 11,
    Depth = 12,
    Sample = 13,
}

impl Usage {
    /// Every usage, in numeric order.
    pub const ALL: [Usage; 14] = [
        Usage::Position,
        Usage::BlendWeight,
        Usage::BlendIndices,
        Usage::Normal,
        Usage::PSize,
        Usage::TexCoord,
        Usage::Tangent,
        Usage::Binormal,
        Usage::TessFactor,
        Usage::PositionT,
        Usage::Color,
        Usage::Fog,
        Usage::Depth,
        Usage::Sample,
    ];

    /// Decodes a usage code.
    pub fn from_raw(raw: u8) -> Option<Usage> {
        Usage::ALL.get(raw as usize).copied()
    }

    /// The lower-case name used in `dcl_<usage>`.
    pub fn name(self) -> &'static str {
        match self {
            Usage::Position => "position",
            Usage::BlendWeight => "blendweight",
            Usage::BlendIndices => "blendindices",
            Usage::Normal => "normal",
            Usage::PSize => "psize",
            Usage::TexCoord => "texcoord",
            Usage::Tangent => "tangent",
            Usage::Binormal => "binormal",
            Usage::TessFactor => "tessfactor",
            Usage::PositionT => "positiont",
            Usage::Color => "color",
            Usage::Fog => "fog",
            Usage::Depth => "depth",
            Usage::Sample => "sample",
        }
    }
}

/// Sampler texture types (D3DSAMPLER_TEXTURE_TYPE, usage-token bits 27–30).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum TextureType {
    /// 0: not declared.
    Unknown,
    /// 1: one-dimensional (not in the public header; accepted leniently).
    Tex1D,
    /// 2: `dcl_2d`.
    Tex2D,
    /// 3: `dcl_cube`.
    Cube,
    /// 4: `dcl_volume`.
    Volume,
}

impl TextureType {
    /// Decodes the 4-bit field.
    pub fn from_raw(raw: u8) -> Option<TextureType> {
        Some(match raw {
            0 => TextureType::Unknown,
            1 => TextureType::Tex1D,
            2 => TextureType::Tex2D,
            3 => TextureType::Cube,
            4 => TextureType::Volume,
            _ => return None,
        })
    }

    /// The field value.
    pub fn raw(self) -> u8 {
        match self {
            TextureType::Unknown => 0,
            TextureType::Tex1D => 1,
            TextureType::Tex2D => 2,
            TextureType::Cube => 3,
            TextureType::Volume => 4,
        }
    }

    /// The `dcl_` suffix: the dimension's name ([`TextureDimension::NAMES`]), `1d` or `unknown`.
    pub fn name(self) -> &'static str {
        match (self, self.dimension()) {
            (_, Some(d)) => d.name(),
            (TextureType::Tex1D, None) => "1d",
            _ => "unknown",
        }
    }
    /// The type whose `dcl_` suffix is `name` (`2d`, `cube`, `volume`, …).
    pub fn from_name(name: &str) -> Option<TextureType> {
        (0..=4).filter_map(TextureType::from_raw).find(|t| t.name() == name)
    }

    /// The texture a sampler of this type reads: `None` for an undeclared or 1D sampler.
    pub fn dimension(self) -> Option<TextureDimension> {
        match self {
            TextureType::Tex2D => Some(TextureDimension::Tex2D),
            TextureType::Cube => Some(TextureDimension::Cube),
            TextureType::Volume => Some(TextureDimension::Volume),
            TextureType::Unknown | TextureType::Tex1D => None,
        }
    }
}

impl From<TextureDimension> for TextureType {
    fn from(d: TextureDimension) -> TextureType {
        match d {
            TextureDimension::Tex2D => TextureType::Tex2D,
            TextureDimension::Cube => TextureType::Cube,
            TextureDimension::Volume => TextureType::Volume,
        }
    }
}

/// The three textures D3D9 binds to a sampler (D3DRTYPE_TEXTURE, D3DRTYPE_CUBETEXTURE,
/// D3DRTYPE_VOLUMETEXTURE): what the interpreter's samplers, the fixed-function stages and the
/// harness's cases read. Kept apart from [`TextureType`], the `dcl`'s 4-bit field, which also
/// says "not declared" and 1D (accepted leniently) — values no bound texture has — and must
/// re-encode exactly; the names of the three it shares are this table's.
///
/// The spelling table lives here because `bytecode` imports nothing else of the library; the key
/// gives the type the traits of its other spelling tables (`Display`, `FromStr`, serde, clap) in
/// `key/modes.rs`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub enum TextureDimension {
    /// A 2D texture (`dcl_2d`, and undeclared samplers).
    #[default]
    Tex2D,
    /// A cube texture (`dcl_cube`).
    Cube,
    /// A volume texture (`dcl_volume`).
    Volume,
}

impl TextureDimension {
    /// Every value, in the order of [`Self::NAMES`].
    pub const ALL: &'static [TextureDimension] =
        &[TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume];
    /// The spelling of each value of [`Self::ALL`]: the `dcl_` suffixes.
    pub const NAMES: &'static [&'static str] = &["2d", "cube", "volume"];

    /// The value's name (lower case).
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The value of a name, in any ASCII case.
    pub fn from_name(name: &str) -> Option<TextureDimension> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)).map(|i| Self::ALL[i])
    }
}

/// The usage token of a `dcl`, kept as its fields so that it re-encodes exactly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Decl {
    /// Bits 0–4: D3DDECLUSAGE (meaningful for inputs/outputs).
    pub usage: u8,
    /// Bits 16–19: usage index.
    pub usage_index: u8,
    /// Bits 27–30: texture type (meaningful for samplers).
    pub texture_type: u8,
}

impl Decl {
    /// The usage, if it is a known D3DDECLUSAGE.
    pub fn usage(self) -> Option<Usage> {
        Usage::from_raw(self.usage)
    }

    /// The texture type, if it is a known one.
    pub fn texture_type(self) -> Option<TextureType> {
        TextureType::from_raw(self.texture_type)
    }

    /// The usage token.
    pub fn token(self) -> u32 {
        0x8000_0000 | self.usage as u32 | (self.usage_index as u32) << 16 | (self.texture_type as u32) << 27
    }
}

/// Payload of declarations and constant definitions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Payload {
    /// Ordinary instruction.
    None,
    /// `dcl`.
    Dcl(Decl),
    /// `def`: raw IEEE bit patterns (NaN and infinities are kept).
    Def([u32; 4]),
    /// `defi`.
    DefI([i32; 4]),
    /// `defb`: the raw DWORD (0 = false).
    DefB(u32),
}

/// Up to four source parameters, stored inline.
///
/// The slots past `len` hold [`Sources::UNUSED`], never a source: with plain slots rather than
/// `Option`s, appending and reading a source tests no discriminant (every pass over the program
/// reads the sources of every instruction). Equality and hashing stay those of the used slots,
/// since the unused ones are always the same value.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sources {
    items: [SrcParam; 4],
    len: u8,
}

/// The used slots only: the filler of the others is no source.
impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Default for Sources {
    fn default() -> Sources {
        Sources::new()
    }
}

impl Sources {
    /// The most sources any instruction has (`texldd`).
    pub const MAX: usize = 4;

    /// What an unused slot holds: `r0.xxxx` (all-zero fields, which a new instruction writes
    /// cheaply).
    const UNUSED: SrcParam = SrcParam {
        reg: Register { ty: RegisterType::Temp, num: 0 },
        swizzle: Swizzle(0),
        modifier: SrcModifier::None,
        relative: None,
    };

    /// No sources.
    pub const fn new() -> Sources {
        Sources { items: [Self::UNUSED; 4], len: 0 }
    }

    /// Appends a source; returns false when all four slots are taken.
    #[inline]
    pub fn push(&mut self, src: SrcParam) -> bool {
        match self.items.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = src;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Number of sources.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sources as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[SrcParam] {
        &self.items[..usize::from(self.len).min(Self::MAX)]
    }

    /// The sources as a slice-like iterator.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, SrcParam> {
        self.as_slice().iter()
    }

    /// Source `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&SrcParam> {
        self.as_slice().get(i)
    }
}

impl FromIterator<SrcParam> for Sources {
    fn from_iter<I: IntoIterator<Item = SrcParam>>(iter: I) -> Self {
        let mut s = Sources::new();
        for src in iter {
            assert!(s.push(src), "at most four sources");
        }
        s
    }
}

impl std::ops::Index<usize> for Sources {
    type Output = SrcParam;
    fn index(&self, i: usize) -> &SrcParam {
        self.get(i).expect("source index in range")
    }
}

impl std::ops::IndexMut<usize> for Sources {
    fn index_mut(&mut self, i: usize) -> &mut SrcParam {
        assert!(i < self.len as usize, "source index in range");
        &mut self.items[i]
    }
}

/// One decoded instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Instruction {
    /// The operation.
    pub opcode: Opcode,
    /// Opcode-specific control bits 16–23 (comparison or texld variant).
    pub control: u8,
    /// Bit 30: co-issued with the previous instruction (ps_1_x `+` prefix).
    pub coissue: bool,
    /// The predicate (`(p0.x)` or `(!p0.x)`), for predicated instructions.
    pub predicate: Option<SrcParam>,
    /// The destination.
    pub dst: Option<DstParam>,
    /// The sources, in order.
    pub src: Sources,
    /// Raw payload of `dcl`/`def`/`defi`/`defb`.
    pub payload: Payload,
    /// Index of the instruction token in the stream (0 = version token); 0 for built programs.
    pub offset: u32,
}

impl Instruction {
    /// A bare instruction of `opcode` with no operands.
    pub const fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            control: 0,
            coissue: false,
            predicate: None,
            dst: None,
            src: Sources::new(),
            payload: Payload::None,
            offset: 0,
        }
    }

    /// The comparison of `ifc`/`breakc`/`setp`.
    pub fn comparison(&self) -> Option<Comparison> {
        Comparison::from_raw(self.control)
    }

    /// The ps 2.0+ `texld` variant.
    pub fn texld_variant(&self) -> Option<TexldVariant> {
        TexldVariant::from_raw(self.control)
    }

    /// Byte offset of the instruction token.
    pub fn byte_offset(&self) -> u32 {
        self.offset * 4
    }

    /// The table form of this instruction in `version`.
    pub fn form(&self, version: Version) -> Option<&'static Form> {
        self.opcode.form(version)
    }

    /// The `dcl` usage token, if this is a declaration.
    pub fn decl(&self) -> Option<Decl> {
        match self.payload {
            Payload::Dcl(d) => Some(d),
            _ => None,
        }
    }

    /// Whether the destination register file is `ty`.
    pub fn writes(&self, ty: RegisterType) -> bool {
        self.dst.is_some_and(|d| d.reg.ty == ty)
    }
}

/// A comment block, kept with its position so that encoding reproduces the stream.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Comment {
    /// Index into [`Program::instructions`] of the instruction that follows the comment
    /// (equal to the number of instructions for a comment before the end token).
    pub position: usize,
    /// Token index of the comment token.
    pub offset: u32,
    /// Payload DWORDs.
    pub data: Vec<u32>,
}

impl Comment {
    /// The payload's FourCC (first DWORD), if any.
    pub fn fourcc(&self) -> Option<u32> {
        self.data.first().copied()
    }
}

/// A decoded shader program.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Program {
    /// The version token.
    pub version: Version,
    /// Instructions in stream order, subroutines (after the main `ret`) included.
    pub instructions: Vec<Instruction>,
    /// Comment blocks.
    pub comments: Vec<Comment>,
}

/// The FourCC of a constant-table comment.
pub const CTAB_FOURCC: u32 = u32::from_le_bytes(*b"CTAB");

impl Program {
    /// An empty program of `version`.
    pub fn new(version: Version) -> Program {
        Program { version, instructions: Vec::new(), comments: Vec::new() }
    }

    /// The CTAB comment's payload (after the FourCC), if there is one.
    pub fn ctab_data(&self) -> Option<&[u32]> {
        self.comments.iter().find(|c| c.fourcc() == Some(CTAB_FOURCC)).map(|c| &c.data[1..])
    }
}

impl Deref for Program {
    type Target = [Instruction];
    fn deref(&self) -> &[Instruction] {
        &self.instructions
    }
}

impl DerefMut for Program {
    fn deref_mut(&mut self) -> &mut [Instruction] {
        &mut self.instructions
    }
}
