//! Bad input gets a typed error naming where it went wrong: token streams (token index) and
//! assembly text (line and column). The token values are written by hand from the token format:
//! `0xFFFF0200` is ps_2_0, `0x02000001` a `mov` stating two operand tokens, `0x800F0800` the
//! destination oC0.xyzw (type 8: bits 11-12 = 1), `0xA0E40000` the source c0.xyzw, `0x0000FFFF`
//! the end token.

use d3d9_shader::asm::{assemble, AsmErrorKind, MAX_LINE_BYTES, MAX_TEXT_BYTES};
use d3d9_shader::bytecode::{decode, DecodeErrorKind as D};

const PS20: u32 = 0xFFFF_0200;
const MOV: u32 = 0x0200_0001;
const OC0: u32 = 0x800F_0800;
const C0: u32 = 0xA0E4_0000;
const END: u32 = 0x0000_FFFF;

fn decode_err(tokens: &[u32]) -> (usize, D) {
    let e = decode(tokens).expect_err("must be rejected");
    (e.token, e.kind)
}

#[test]
fn the_well_formed_stream_decodes() {
    // The base case the others damage: if this failed, the others would prove nothing.
    assert_eq!(decode(&[PS20, MOV, OC0, C0, END]).unwrap().instructions.len(), 1);
}

#[test]
fn truncated_streams() {
    assert_eq!(decode_err(&[]), (0, D::Empty));
    assert_eq!(decode_err(&[PS20]), (1, D::MissingEnd));
    assert_eq!(decode_err(&[PS20, MOV, OC0, C0]), (4, D::MissingEnd));
    assert!(matches!(decode_err(&[PS20, MOV, OC0]), (1, D::Truncated { needed: 1, .. })));
    // Shader model 1 has no length field: the operand read itself runs out.
    assert!(matches!(decode_err(&[0xFFFF_0101, 0x0000_0001, OC0]), (3, D::Truncated { .. })));
    assert!(
        matches!(d3d9_shader::bytecode::decode_bytes(&[0, 2, 0xFF, 0xFF, 1]), Err(e) if e.kind == D::UnalignedLength(5))
    );
}

#[test]
fn wrong_version_tokens() {
    assert_eq!(decode_err(&[0xFFFD_0200, END]), (0, D::BadVersion(0xFFFD_0200)));
    // vs_1_2 and ps_1_5 never existed; major 4 is Direct3D 10.
    assert_eq!(decode_err(&[0xFFFE_0102, END]), (0, D::BadVersion(0xFFFE_0102)));
    assert_eq!(decode_err(&[0xFFFF_0105, END]), (0, D::BadVersion(0xFFFF_0105)));
    assert_eq!(decode_err(&[0xFFFF_0400, END]), (0, D::BadVersion(0xFFFF_0400)));
}

#[test]
fn a_dxbc_container_is_named() {
    // The bytes `DXBC` open every Shader Model 4+ blob (fxc /T ps_4_0 and later).
    let blob = [b'D', b'X', b'B', b'C', 0x12, 0x34, 0x56, 0x78];
    let e = d3d9_shader::bytecode::decode_bytes(&blob).unwrap_err();
    assert_eq!((e.token, e.kind.clone()), (0, D::DxbcContainer));
    assert!(e.to_string().contains("DXBC container (Shader Model 4 or later"), "{e}");
    // Any other unknown version token is still reported by its value.
    assert_eq!(decode_err(&[0x4342_5845, END]), (0, D::BadVersion(0x4342_5845)));
}

#[test]
fn unknown_opcodes() {
    // 49–63 are unused, as is everything between breakp (96) and phase (0xFFFD).
    assert_eq!(decode_err(&[PS20, 0x0000_0031, END]), (1, D::UnknownOpcode(0x31)));
    assert_eq!(decode_err(&[PS20, 0x0000_0061, END]), (1, D::UnknownOpcode(0x61)));
}

#[test]
fn length_fields_that_disagree() {
    let e = decode_err(&[PS20, 0x0300_0001, OC0, C0, C0, END]);
    assert_eq!(e, (1, D::LengthMismatch { opcode: "mov", stated: 3, expected: 2 }));
    let e = decode_err(&[PS20, 0x0100_0001, OC0, C0, END]);
    assert!(matches!(e, (1, D::LengthMismatch { stated: 1, expected: 2, .. })), "{e:?}");
}

#[test]
fn reserved_bits() {
    // Bit 29 of an instruction token, bit 14 of a parameter, bit 31 of a comment token,
    // the length field of a shader model 1 instruction.
    assert!(matches!(decode_err(&[PS20, MOV | 1 << 29, OC0, C0, END]), (1, D::ReservedBits { bits: 0x2000_0000, .. })));
    assert!(matches!(decode_err(&[PS20, MOV, OC0 | 1 << 14, C0, END]), (2, D::ReservedBits { bits: 0x4000, .. })));
    assert!(matches!(decode_err(&[PS20, 0x8000_FFFE, END]), (1, D::ReservedBits { what: "comment", .. })));
    assert!(matches!(
        decode_err(&[0xFFFF_0101, 0x0200_0001, 0x800F_0000, 0x80E4_0001, END]),
        (1, D::ReservedBits { .. })
    ));
    // Control bits on mov, a parameter without bit 31, source modifier 14.
    assert_eq!(decode_err(&[PS20, MOV | 1 << 16, OC0, C0, END]), (1, D::BadControl { opcode: "mov", control: 1 }));
    assert_eq!(decode_err(&[PS20, MOV, OC0 & !0x8000_0000, C0, END]), (2, D::NotAParameter(0x000F_0800)));
    assert_eq!(decode_err(&[PS20, MOV, OC0, 0xAEE4_0000, END]), (3, D::BadSourceModifier(14)));
}

#[test]
fn runaway_comment_lengths() {
    assert_eq!(decode_err(&[PS20, 0x7FFF_FFFE, END]), (1, D::CommentTooLong { length: 0x7FFF, available: 1 }));
    assert_eq!(decode_err(&[PS20, 0x0003_FFFE, 0, END]), (1, D::CommentTooLong { length: 3, available: 2 }));
    // A length that swallows the end token leaves the stream without one.
    assert_eq!(decode_err(&[PS20, 0x0002_FFFE, 0, END]), (4, D::MissingEnd));
}

fn asm_err(text: &str) -> (usize, usize, AsmErrorKind) {
    let e = assemble(text).expect_err("must be rejected");
    (e.line, e.column, e.kind)
}

#[test]
fn the_well_formed_text_assembles() {
    assert_eq!(d3d9_shader::asm::assemble_tokens("ps_2_0\nmov oC0, c0\n").unwrap(), [PS20, MOV, OC0, C0, END]);
}

#[test]
fn over_long_lines_and_huge_texts() {
    let long = format!("ps_2_0\n// {}\n", "x".repeat(MAX_LINE_BYTES));
    assert_eq!(asm_err(&long), (2, 1, AsmErrorKind::LineTooLong { length: MAX_LINE_BYTES + 3, max: MAX_LINE_BYTES }));
    let huge = "\n".repeat(MAX_TEXT_BYTES + 1);
    assert!(matches!(asm_err(&huge), (1, 1, AsmErrorKind::TooLarge { .. })));
}

#[test]
fn garbage_text() {
    assert!(matches!(asm_err("hello world\n"), (1, 1, AsmErrorKind::BadVersion(_))));
    assert!(matches!(asm_err("\u{0}\u{1}\u{2}"), (1, 1, AsmErrorKind::BadVersion(_))));
    assert_eq!(asm_err("// nothing\n; at all\n"), (1, 1, AsmErrorKind::MissingVersion));
    assert_eq!(asm_err("ps_2_0\nmov r0, $1"), (2, 9, AsmErrorKind::UnexpectedChar('$')));
    assert!(matches!(asm_err("vs_1_1\n#define X 1\n"), (2, 1, AsmErrorKind::Preprocessor(_))));
}

#[test]
fn instruction_errors_name_line_and_column() {
    use AsmErrorKind as K;
    assert_eq!(asm_err("ps_2_0\n\n  movv r0, r1"), (3, 3, K::UnknownInstruction("movv".into())));
    assert_eq!(asm_err("ps_2_0\nmov r0"), (2, 7, K::OperandCount { instruction: "mov", expected: 2, found: 1 }));
    assert_eq!(
        asm_err("ps_2_0\nmov r0, r1, r2"),
        (2, 11, K::OperandCount { instruction: "mov", expected: 2, found: 3 })
    );
    assert_eq!(asm_err("ps_2_0\nmov r0, q1"), (2, 9, K::UnknownRegister("q1".into())));
    assert_eq!(asm_err("ps_2_0\nmov r0.yx, r1"), (2, 8, K::BadMask("yx".into())));
    assert_eq!(asm_err("ps_2_0\nmov r0, r1.xyzwx"), (2, 12, K::BadSwizzle("xyzwx".into())));
    assert!(matches!(asm_err("ps_2_0\nmov r2048, r1"), (2, 5, K::RegisterOutOfRange { number: 2048, max: 2047, .. })));
    assert!(matches!(asm_err("vs_2_0\nmov r0, c8192"), (2, 9, K::RegisterOutOfRange { number: 8192, .. })));
    assert_eq!(asm_err("ps_2_x\nsetp p0, r0, r1"), (2, 1, K::MissingComparison("setp")));
    assert!(matches!(asm_err("ps_2_0\nmov_foo r0, r1"), (2, 1, K::BadInstructionModifier { .. })));
    assert!(matches!(asm_err("ps_2_0\ndef c0, 1, 2, x, 4"), (2, 15, K::BadNumber { .. })));
    assert!(matches!(asm_err("vs_2_0\ndefi i0, 1, 2, 3, 4294967296"), (2, 19, K::BadNumber { .. })));
    assert!(matches!(asm_err("ps_1_1\n(p0) mov r0, r1"), (2, 1, K::NotEncodable(_))));
    assert!(matches!(asm_err("vs_1_1\nmov r0, c[a0.y]"), (2, 11, K::BadRelative(_))));
    assert!(matches!(asm_err("ps_3_0\nmov r0, c[a0.x]"), (2, 11, K::BadRelative(_))));
    assert!(matches!(asm_err("ps_2_0\nmov r0, r1_foo"), (2, 11, K::BadSourceModifier(_))));
}

#[test]
fn comment_block_errors() {
    assert!(matches!(asm_err("ps_2_0\n.comment 2\n.dw 1\nmov r0, r1"), (2, 1, AsmErrorKind::CommentBlock(_))));
    assert!(matches!(asm_err("ps_2_0\n.dw 1\n"), (2, 2, AsmErrorKind::CommentBlock(_))));
    assert!(matches!(asm_err("ps_2_0\n.comment 1\n.dw 1, 2\n"), (3, 8, AsmErrorKind::CommentBlock(_))));
    assert!(matches!(asm_err("ps_2_0\n.comment 40000\n"), (2, 10, AsmErrorKind::CommentBlock(_))));
    // A complete block becomes a comment token with its DWORDs.
    let tokens = d3d9_shader::asm::assemble_tokens("ps_2_0\n.comment 2\n.dw 0x43544142, 7\n").unwrap();
    assert_eq!(tokens, [PS20, 0x0002_FFFE, 0x4354_4142, 7, END]);
}
