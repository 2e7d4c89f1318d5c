//! The token format: version and its profile, opcode table, typed program model, decoder, encoder and the
//! constant table carried in comments.

pub mod ctab;
pub mod decode;
pub mod encode;
pub mod error;
pub mod instruction;
pub mod opcodes;
pub mod params;
pub mod profile;
pub mod registers;
pub mod version;

pub use ctab::{ConstantInfo, ConstantTable, CtabError, RegisterSet, TypeInfo};
pub use decode::{decode, decode_bytes, stream_length};
pub use encode::{encode, encode_bytes, encode_with};
pub use error::{DecodeError, DecodeErrorKind};
pub use instruction::{Comment, Decl, Instruction, Payload, Program, Sources, TextureDimension, TextureType, Usage};
pub use opcodes::{
    Comparison, Control, Extra, Form, Gradients, Matrix, Nesting, Opcode, OpcodeInfo, Operand, Shape, TexldVariant,
    OPCODES,
};
pub use params::{DstParam, RelAddr, ResultModifiers, SrcModifier, SrcParam, Swizzle, WriteMask};
pub use profile::{CndCondition, Profile, RegisterCounts};
pub use registers::{Register, RegisterType};
pub use version::{ShaderKind, Version, VersionId, VersionSet};
