//! The D3DX constant table (`CTAB` comment): names, register sets and types of the uniforms.
//!
//! All offsets in the table are byte offsets from the start of D3DXSHADER_CONSTANTTABLE (the
//! byte after the FourCC). Every read is bounds-checked; type descriptions nest at most
//! [`MAX_TYPE_DEPTH`] levels so a cyclic table cannot recurse forever.

use thiserror::Error;

use super::instruction::Program;

/// How deep struct members may nest before the table is rejected as malformed.
pub const MAX_TYPE_DEPTH: usize = 16;

/// D3DXREGISTER_SET.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RegisterSet {
    /// `b#`.
    Bool,
    /// `i#`.
    Int4,
    /// `c#`.
    Float4,
    /// `s#`.
    Sampler,
    /// Any other value.
    Other(u16),
}

impl RegisterSet {
    fn from_raw(raw: u16) -> RegisterSet {
        match raw {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            n => RegisterSet::Other(n),
        }
    }

    /// The register prefix (`b`, `i`, `c`, `s`).
    pub fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
            RegisterSet::Other(_) => "?",
        }
    }
}

/// D3DXSHADER_TYPEINFO, with struct members resolved.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TypeInfo {
    /// D3DXPARAMETER_CLASS (0 scalar, 1 vector, 2 matrix rows, 3 matrix columns, 4 object, 5 struct).
    pub class: u16,
    /// D3DXPARAMETER_TYPE (0 void, 1 bool, 2 int, 3 float, 10–14 samplers, …).
    pub ty: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 if not an array).
    pub elements: u16,
    /// Struct members: name and type.
    pub members: Vec<(String, TypeInfo)>,
}

/// One D3DXSHADER_CONSTANTINFO.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ConstantInfo {
    /// The uniform's name.
    pub name: String,
    /// Which register file.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// The entry's reserved word. fxc writes 0 for a constant whose register it chose and a
    /// nonzero word for one the source bound with `register(cN)`; D3DXCreateEffectEx's skip list
    /// takes only the latter (docs/effects.md#skip-constants).
    pub reserved: u16,
    /// Its type.
    pub type_info: TypeInfo,
    /// Default value DWORDs, if the table has them (rows × columns × elements, capped by the table).
    pub default_value: Option<Vec<u32>>,
}

/// A decoded constant table.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ConstantTable {
    /// The compiler that wrote the table.
    pub creator: String,
    /// The version field (equal to the version token in well-formed tables).
    pub version: u32,
    /// D3DXSHADER compile flags.
    pub flags: u32,
    /// The target profile string, e.g. `ps_3_0`.
    pub target: String,
    /// The constants.
    pub constants: Vec<ConstantInfo>,
}

/// A malformed constant table.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum CtabError {
    /// A structure or string lies outside the table.
    #[error("CTAB: {what} at byte offset {offset} lies outside the {size}-byte table")]
    OutOfBounds {
        /// Which structure.
        what: &'static str,
        /// Its offset.
        offset: usize,
        /// Table size in bytes.
        size: usize,
    },
    /// The header's size field is not 28.
    #[error("CTAB: header size is {0}, expected 28")]
    BadHeaderSize(u32),
    /// A string without a terminating NUL.
    #[error("CTAB: unterminated string at byte offset {0}")]
    UnterminatedString(usize),
    /// Struct members nest too deeply (or cyclically).
    #[error("CTAB: type descriptions nest deeper than {MAX_TYPE_DEPTH} or number more than {MAX_TYPE_NODES}")]
    TooDeep,
}

/// How many type descriptions one table may hold in all, so that a table whose struct members
/// point back at themselves cannot make the parser do exponential work.
pub const MAX_TYPE_NODES: usize = 4096;

struct Reader<'a> {
    bytes: &'a [u8],
    nodes: std::cell::Cell<usize>,
}

impl Reader<'_> {
    fn u16(&self, offset: usize, what: &'static str) -> Result<u16, CtabError> {
        self.bytes.get(offset..offset + 2).map(|b| u16::from_le_bytes([b[0], b[1]])).ok_or(CtabError::OutOfBounds {
            what,
            offset,
            size: self.bytes.len(),
        })
    }

    fn u32(&self, offset: usize, what: &'static str) -> Result<u32, CtabError> {
        self.bytes
            .get(offset..offset + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(CtabError::OutOfBounds { what, offset, size: self.bytes.len() })
    }

    fn string(&self, offset: usize, what: &'static str) -> Result<String, CtabError> {
        let tail = self.bytes.get(offset..).ok_or(CtabError::OutOfBounds { what, offset, size: self.bytes.len() })?;
        let end = tail.iter().position(|&b| b == 0).ok_or(CtabError::UnterminatedString(offset))?;
        Ok(String::from_utf8_lossy(&tail[..end]).into_owned())
    }

    fn type_info(&self, offset: usize, depth: usize) -> Result<TypeInfo, CtabError> {
        self.nodes.set(self.nodes.get() + 1);
        if depth > MAX_TYPE_DEPTH || self.nodes.get() > MAX_TYPE_NODES {
            return Err(CtabError::TooDeep);
        }
        let what = "type info";
        let members_count = self.u16(offset + 10, what)? as usize;
        let members_offset = self.u32(offset + 12, what)? as usize;
        let mut members = Vec::new();
        for m in 0..members_count {
            let at = members_offset + 8 * m;
            let name = self.string(self.u32(at, "struct member")? as usize, "member name")?;
            let ty = self.type_info(self.u32(at + 4, "struct member")? as usize, depth + 1)?;
            members.push((name, ty));
        }
        Ok(TypeInfo {
            class: self.u16(offset, what)?,
            ty: self.u16(offset + 2, what)?,
            rows: self.u16(offset + 4, what)?,
            columns: self.u16(offset + 6, what)?,
            elements: self.u16(offset + 8, what)?,
            members,
        })
    }
}

/// Parses a CTAB payload (the DWORDs after the FourCC).
pub fn parse_ctab(data: &[u32]) -> Result<ConstantTable, CtabError> {
    let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
    let r = Reader { bytes: &bytes, nodes: std::cell::Cell::new(0) };
    let what = "header";
    let size = r.u32(0, what)?;
    if size != 28 {
        return Err(CtabError::BadHeaderSize(size));
    }
    let creator = r.string(r.u32(4, what)? as usize, "creator string")?;
    let version = r.u32(8, what)?;
    let count = r.u32(12, what)? as usize;
    let info = r.u32(16, what)? as usize;
    let flags = r.u32(20, what)?;
    let target = r.string(r.u32(24, what)? as usize, "target string")?;
    // Each entry takes 20 bytes: a count beyond the table is malformed, not a reason to allocate.
    if count.saturating_mul(20) > bytes.len() {
        return Err(CtabError::OutOfBounds { what: "constant info array", offset: info, size: bytes.len() });
    }
    let mut constants = Vec::with_capacity(count);
    for i in 0..count {
        let at = info + 20 * i;
        let what = "constant info";
        let type_info = r.type_info(r.u32(at + 12, what)? as usize, 0)?;
        let default_offset = r.u32(at + 16, what)? as usize;
        let default_value = if default_offset == 0 {
            None
        } else {
            let wanted = type_info.rows as usize * type_info.columns as usize * type_info.elements.max(1) as usize;
            let available = bytes.len().saturating_sub(default_offset) / 4;
            Some(
                (0..wanted.min(available))
                    .map(|k| r.u32(default_offset + 4 * k, "default value"))
                    .collect::<Result<_, _>>()?,
            )
        };
        constants.push(ConstantInfo {
            name: r.string(r.u32(at, what)? as usize, "constant name")?,
            register_set: RegisterSet::from_raw(r.u16(at + 4, what)?),
            register_index: r.u16(at + 6, what)?,
            register_count: r.u16(at + 8, what)?,
            reserved: r.u16(at + 10, what)?,
            type_info,
            default_value,
        });
    }
    Ok(ConstantTable { creator, version, flags, target, constants })
}

impl Program {
    /// The program's constant table, if it carries a `CTAB` comment.
    pub fn constant_table(&self) -> Option<Result<ConstantTable, CtabError>> {
        self.ctab_data().map(parse_ctab)
    }
}
