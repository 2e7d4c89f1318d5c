//! Assembly text in Microsoft's syntax: the disassembler (program → text) and the assembler
//! (text → program), both driven by the opcode table and the spelling tables in [`syntax`].
//!
//! `assemble(&disassemble(p, &opts))` encodes to the tokens of `p`, comment blocks aside; with
//! [`DisasmOptions::keep_comments`] the comment blocks survive too.

pub mod disasm;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod syntax;

pub use disasm::{disassemble, write_dst, write_instruction, write_program, write_src, DisasmOptions};
pub use error::{AsmError, AsmErrorKind};
pub use parser::{assemble, assemble_tokens, parse_version, MAX_LINE_BYTES, MAX_TEXT_BYTES};
