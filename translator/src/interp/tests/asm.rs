//! Test programs from assembly text, through the project's assembler.

use crate::bytecode::Program;

/// Assembles `text` (first line: the version). Panics with the assembler's message on a typo.
pub fn asm(text: &str) -> Program {
    crate::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}
