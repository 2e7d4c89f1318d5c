//! Assembly text in Microsoft's syntax: the disassembler (program → text) and the assembler
//! (text → program), both driven by the opcode table and the spelling tables in [`syntax`].
//!
//! `assemble(&disassemble(p, &opts))` encodes to the tokens of `p`, comment blocks aside; with
//! [`DisasmOptions::keep_comments`] the comment blocks survive too, so a listing can reproduce a
//! blob exactly.
//!
//! # What the disassembler writes
//!
//! The form fxc's listings use: `ps_2_0`; one instruction per line, flow control indented;
//! `dcl_texcoord v0` and `dcl_texcoord1 v1` (usage index 0 is not written), `dcl_2d s0`,
//! `dcl t0.xy` / `dcl vPos.xy` for registers without a semantic; `def c0, 1, 0.5, -0, 1e-45`
//! (the shortest decimal that reads back to the same bits; infinities and NaNs as their bit
//! pattern, `0x7fc00000`); `defb b0, true`; `texld`/`texldp`/`texldb`; comparison suffixes
//! (`if_gt`, `break_le`, `setp_ne`); result modifiers after the name (`mad_x2_sat_pp`); masks and
//! swizzles in `xyzw` letters (a replicated swizzle as one letter, the identity not at all);
//! source modifiers as `-r0`, `1-r0`, `!b0`, `r0_bx2`, `-r0_bias`, `r0_abs`, `r0_dz`; relative
//! addressing as `c[a0.x + 3]`, `v[aL]`, `o[aL + 1]`; predicates as `(!p0.x) add …`; co-issue
//! as `+mov r0.w, t0`. Comment blocks become `//` notes (the constant table decoded).
//!
//! # What the assembler reads besides
//!
//! Dotted versions (`vs.1.1`), `rgba` letters in masks and swizzles, `c0[a0.x]`, `c1[a0.x + 2]`,
//! `c[2 + a0.x]`, `c[2 + 10]`, the modifier after the swizzle (`r0.x_abs`), `_db`/`_da` for
//! `_dz`/`_dw`, `def c0 = …`, `1.0f`, `.5`, `- 1`, upper case, `;` and `//` comments, `#line`.
//! There is no C preprocessor. The [`syntax`] module lists the project's own additions (`.none`,
//! `dcl_raw_0x…`, `.comment`/`.dw`).

pub mod disasm;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod syntax;

pub use disasm::{disassemble, write_dst, write_instruction, write_program, write_src, DisasmOptions};
pub use error::{AsmError, AsmErrorKind};
pub use parser::{assemble, assemble_tokens, parse_version, MAX_LINE_BYTES, MAX_TEXT_BYTES};
