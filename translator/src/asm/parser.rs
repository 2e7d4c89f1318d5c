//! Assembly text → [`Program`].
//!
//! The grammar is line based: a version line (`vs_1_1`, `ps.2.x`), then one instruction per line,
//! `//` and `;` comments anywhere, `#line` directives skipped. An instruction is
//! `[+] [(predicate)] name[_suffixes] operands`; names are looked up through the opcode table's
//! decoding form for the version, the same way the disassembler finds them. The assembler is
//! structural, like the decoder: it encodes what the text says and leaves the version rules
//! (which registers, how many, which opcodes) to the validator.

use super::error::{AsmError, AsmErrorKind as K};
use super::lexer::{Lexer, Tok};
use super::syntax::{component, negate, parse_def_component, parse_register, suffix_modifier, SHIFTS};
use crate::bytecode::registers::CONST_BANK_SIZE;
use crate::bytecode::{
    decode, encode, Comment, Comparison, Control, Decl, DstParam, Extra, Form, Instruction, Opcode, Payload, Program,
    Register, RegisterType, RelAddr, ResultModifiers, ShaderKind, SrcModifier, SrcParam, Swizzle, TextureType, Usage,
    Version, WriteMask, OPCODES,
};

/// The largest text the assembler reads (the largest shader is a few hundred kilobytes of text).
pub const MAX_TEXT_BYTES: usize = 16 << 20;
/// The longest line (a `.dw` line of the keep-comments mode takes about 100 characters).
pub const MAX_LINE_BYTES: usize = 4096;

/// Assembles a listing into a program (as the decoder would return it for the encoded tokens).
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(AsmError { line: 1, column: 1, kind: K::TooLarge { size: text.len(), max: MAX_TEXT_BYTES } });
    }
    let mut program: Option<Program> = None;
    let mut open_comment: Option<(Comment, usize, usize)> = None; // block, declared length, line
    for (index, raw_line) in text.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        if line.len() > MAX_LINE_BYTES {
            return Err(AsmError {
                line: line_no,
                column: 1,
                kind: K::LineTooLong { length: line.len(), max: MAX_LINE_BYTES },
            });
        }
        let code = strip_comment(line);
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lx = Lexer::new(code, line_no);
        if let Some(directive) = trimmed.strip_prefix('#') {
            let name = directive.split_whitespace().next().unwrap_or("");
            if name == "line" {
                continue;
            }
            return Err(lx.error_at(code.len() - trimmed.len(), K::Preprocessor(name.to_string())));
        }
        let Some(program) = program.as_mut() else {
            let version = parse_version(trimmed).ok_or_else(|| {
                let kind = K::BadVersion(trimmed.chars().take(40).collect());
                lx.error_at(code.len() - code.trim_start().len(), kind)
            })?;
            program = Some(Program::new(version));
            continue;
        };
        if trimmed.starts_with('.') {
            directive(lx, program, &mut open_comment)?;
            continue;
        }
        close_comment(program, &mut open_comment)?;
        let inst = Parser { lx, version: program.version }.instruction()?;
        program.instructions.push(inst);
    }
    let Some(mut program) = program else {
        return Err(AsmError { line: 1, column: 1, kind: K::MissingVersion });
    };
    close_comment(&mut program, &mut open_comment)?;
    // Decoding the encoded tokens resolves the register files the way every consumer sees them
    // (type 3 is a0 or t#, type 6 oT# or o#) and fills in token offsets.
    decode(&encode(&program)).map_err(|e| AsmError { line: 1, column: 1, kind: K::Internal(e) })
}

/// Assembles a listing into tokens.
pub fn assemble_tokens(text: &str) -> Result<Vec<u32>, AsmError> {
    assemble(text).map(|p| encode(&p))
}

/// The code part of a line: everything before `//` or `;`.
fn strip_comment(line: &str) -> &str {
    let end = [line.find("//"), line.find(';')].into_iter().flatten().min().unwrap_or(line.len());
    &line[..end]
}

/// Reads `vs_1_1`, `VS.1.1`, `ps_2_x`, `vs_3_sw`, `ps_2_2`.
pub fn parse_version(text: &str) -> Option<Version> {
    let mut parts = text.split(['_', '.']).map(str::trim);
    let kind = match parts.next()? {
        k if k.eq_ignore_ascii_case("vs") => ShaderKind::Vertex,
        k if k.eq_ignore_ascii_case("ps") => ShaderKind::Pixel,
        _ => return None,
    };
    let major: u8 = parts.next()?.parse().ok()?;
    let minor = match parts.next()? {
        m if m.eq_ignore_ascii_case("x") => 1,
        m if m.eq_ignore_ascii_case("sw") => 255,
        m if m.len() <= 3 => m.parse().ok()?,
        _ => return None,
    };
    if parts.next().is_some() || major > 3 {
        return None;
    }
    let version = Version { kind, major, minor };
    Version::from_token(version.token())
}

fn directive(
    mut lx: Lexer<'_>,
    program: &mut Program,
    open: &mut Option<(Comment, usize, usize)>,
) -> Result<(), AsmError> {
    lx.token()?; // the dot
    let (name, at) = lx.token()?;
    let Tok::Ident(name) = name else {
        return Err(lx.error_at(at, K::Expected { expected: "`.comment` or `.dw`", found: name.describe() }));
    };
    if name.eq_ignore_ascii_case("comment") {
        close_comment(program, open)?;
        let (tok, at) = lx.token()?;
        let len = match tok {
            Tok::Number(n) => parse_u32(n).filter(|&n| n <= 0x7FFF),
            _ => None,
        };
        let Some(len) = len else {
            return Err(
                lx.error_at(at, K::CommentBlock(format!("{} is not a DWORD count up to 32767", tok.describe())))
            );
        };
        let comment =
            Comment { position: program.instructions.len(), offset: 0, data: Vec::with_capacity(len as usize) };
        *open = Some((comment, len as usize, lx.line_no()));
        expect_end(&mut lx)
    } else if name.eq_ignore_ascii_case("dw") {
        let Some((comment, len, _)) = open.as_mut() else {
            return Err(lx.error_at(at, K::CommentBlock("`.dw` outside a `.comment` block".into())));
        };
        loop {
            let (tok, at) = lx.token()?;
            match tok {
                Tok::Number(n) if parse_u32(n).is_some() => {
                    if comment.data.len() == *len {
                        return Err(lx.error_at(at, K::CommentBlock(format!("more than the {len} DWORDs declared"))));
                    }
                    comment.data.push(parse_u32(n).unwrap_or(0));
                }
                Tok::End => return Ok(()),
                other => {
                    return Err(lx.error_at(at, K::Expected { expected: "a 32-bit DWORD", found: other.describe() }))
                }
            }
            lx.eat(',')?;
        }
    } else {
        Err(lx.error_at(at, K::Expected { expected: "`.comment` or `.dw`", found: format!("`.{name}`") }))
    }
}

fn close_comment(program: &mut Program, open: &mut Option<(Comment, usize, usize)>) -> Result<(), AsmError> {
    if let Some((comment, len, line)) = open.take() {
        if comment.data.len() != len {
            let kind = K::CommentBlock(format!("declared {len} DWORDs but {} follow", comment.data.len()));
            return Err(AsmError { line, column: 1, kind });
        }
        program.comments.push(comment);
    }
    Ok(())
}

fn expect_end(lx: &mut Lexer<'_>) -> Result<(), AsmError> {
    match lx.token()? {
        (Tok::End, _) => Ok(()),
        (t, at) => Err(lx.error_at(at, K::Expected { expected: "the end of the line", found: t.describe() })),
    }
}

/// An unsigned decimal or `0x` hexadecimal number.
fn parse_u32(text: &str) -> Option<u32> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// A `_modifier` suffix glued to a register name, and its byte offset.
type Glued<'a> = Option<(&'a str, usize)>;

struct Parser<'a> {
    lx: Lexer<'a>,
    version: Version,
}

/// An instruction's operands counted as they are read, for the operand-count errors.
struct Operands {
    instruction: &'static str,
    expected: usize,
    /// A `def`, whose first value may follow `=` instead of `,`.
    def_values: bool,
    found: usize,
}

/// The result-modifier suffixes of an instruction name.
#[derive(Default)]
struct Suffixes {
    comparison: Option<Comparison>,
    shift: i8,
    modifiers: u8,
    decl: Option<Decl>,
}

impl<'a> Parser<'a> {
    fn err(&self, at: usize, kind: K) -> AsmError {
        self.lx.error_at(at, kind)
    }

    fn expected(&self, at: usize, expected: &'static str, found: Tok<'_>) -> AsmError {
        self.err(at, K::Expected { expected, found: found.describe() })
    }

    fn instruction(mut self) -> Result<Instruction, AsmError> {
        let coissue = self.lx.eat('+')?;
        let predicate = self.predicate()?;
        let (tok, name_at) = self.lx.token()?;
        let Tok::Ident(mnemonic) = tok else { return Err(self.expected(name_at, "an instruction", tok)) };
        let (opcode, form, control, suffixes) = self.mnemonic(mnemonic, name_at)?;
        if (predicate.is_some()) && self.version.is_sm1() {
            return Err(self.err(0, K::NotEncodable("shader model 1 instructions cannot be predicated")));
        }

        let mut inst = Instruction::new(opcode);
        inst.control = control;
        inst.coissue = coissue;
        inst.predicate = predicate;
        let shape = form.shape;
        let extra = match shape.extra {
            Extra::None | Extra::Dcl => 0,
            Extra::DefB => 1,
            Extra::Def | Extra::DefI => 4,
        };
        let expected = shape.dst as usize + extra + shape.srcs as usize;
        let mut ops = Operands { instruction: form.name, expected, def_values: extra == 4, found: 0 };
        if shape.dst {
            self.next_operand(&mut ops)?;
            let mut d = self.dst()?;
            d.shift = suffixes.shift;
            d.modifiers = ResultModifiers(suffixes.modifiers);
            inst.dst = Some(d);
        } else if suffixes.shift != 0 || suffixes.modifiers != 0 {
            return Err(self.err(
                name_at,
                K::BadInstructionModifier { instruction: form.name, modifier: "sat/pp/centroid/shift".into() },
            ));
        }
        inst.payload = self.payload(shape.extra, suffixes.decl, &mut ops)?;
        for _ in 0..shape.srcs {
            self.next_operand(&mut ops)?;
            let s = self.src()?;
            inst.src.push(s);
        }
        self.end_of_operands(&ops)?;
        Ok(inst)
    }

    /// A `(p0.x)` or `(!p0.x)` predicate before the instruction name.
    fn predicate(&mut self) -> Result<Option<SrcParam>, AsmError> {
        if !self.lx.eat('(')? {
            return Ok(None);
        }
        let p = self.src()?;
        let (t, at) = self.lx.token()?;
        if t != Tok::Punct(')') {
            return Err(self.expected(at, "`)` after the predicate", t));
        }
        Ok(Some(p))
    }

    /// The opcode, decoding form, control bits and suffixes an instruction name (`mnemonic`,
    /// at `name_at`) spells.
    fn mnemonic(&self, mnemonic: &str, name_at: usize) -> Result<(Opcode, &'static Form, u8, Suffixes), AsmError> {
        let mut parts = mnemonic.split('_');
        let base = parts.next().unwrap_or("");
        let rest: Vec<&str> = parts.collect();
        let has_comparison = rest.iter().any(|s| comparison(s).is_some());
        let (opcode, form, mut control) = self
            .lookup(base, has_comparison)
            .ok_or_else(|| self.err(name_at, K::UnknownInstruction(mnemonic.to_string())))?;
        let suffixes = self.suffixes(form, &rest, name_at)?;
        if form.control == Control::Comparison {
            control = suffixes.comparison.ok_or_else(|| self.err(name_at, K::MissingComparison(form.name)))? as u8;
        }
        Ok((opcode, form, control, suffixes))
    }

    /// The separator before the next operand, and that there is one.
    fn next_operand(&mut self, ops: &mut Operands) -> Result<(), AsmError> {
        let at = self.lx.offset();
        let missing =
            |ops: &Operands| K::OperandCount { instruction: ops.instruction, expected: ops.expected, found: ops.found };
        if self.lx.peek()? == Tok::End {
            return Err(self.err(at, missing(ops)));
        }
        if ops.found > 0 {
            // `def c0 = 1, 2, 3, 4` (an older listing style) is read like `def c0, 1, 2, 3, 4`.
            let (t, at) = self.lx.token()?;
            let ok = t == Tok::Punct(',') || (t == Tok::Punct('=') && ops.found == 1 && ops.def_values);
            if !ok {
                return Err(self.expected(at, "`,` between operands", t));
            }
        }
        if self.lx.peek()? == Tok::End {
            return Err(self.err(at, missing(ops)));
        }
        ops.found += 1;
        Ok(())
    }

    /// The operands between the destination and the sources: a declaration's usage (from the
    /// name's suffixes) or a definition's values.
    fn payload(&mut self, extra: Extra, decl: Option<Decl>, ops: &mut Operands) -> Result<Payload, AsmError> {
        Ok(match extra {
            Extra::None => Payload::None,
            Extra::Dcl => Payload::Dcl(decl.unwrap_or(Decl { usage: 0, usage_index: 0, texture_type: 0 })),
            Extra::Def => {
                let mut v = [0; 4];
                for slot in &mut v {
                    self.next_operand(ops)?;
                    *slot = self.def_component()?;
                }
                Payload::Def(v)
            }
            Extra::DefI => {
                let mut v = [0; 4];
                for slot in &mut v {
                    self.next_operand(ops)?;
                    *slot = self.integer()?;
                }
                Payload::DefI(v)
            }
            Extra::DefB => {
                self.next_operand(ops)?;
                Payload::DefB(self.boolean()?)
            }
        })
    }

    /// The end of the line after the last operand; extra operands are counted for the error.
    fn end_of_operands(&mut self, ops: &Operands) -> Result<(), AsmError> {
        let (t, at) = self.lx.token()?;
        match t {
            Tok::End => Ok(()),
            Tok::Punct(',') => {
                let mut more = ops.found;
                let mut lx = self.lx;
                while let Ok((t, _)) = lx.token() {
                    match t {
                        Tok::End => break,
                        Tok::Punct(',') => more += 1,
                        _ => {}
                    }
                }
                let kind = K::OperandCount { instruction: ops.instruction, expected: ops.expected, found: more + 1 };
                Err(self.err(at, kind))
            }
            t => Err(self.expected(at, "`,` or the end of the line", t)),
        }
    }

    /// The opcode whose decoding form in this version is called `base`. `texldp`/`texldb`
    /// name the texld variants; `if`/`break` with a comparison suffix are `ifc`/`breakc`.
    fn lookup(&self, base: &str, has_comparison: bool) -> Option<(Opcode, &'static Form, u8)> {
        for (name, control) in [("texldp", 1), ("texldb", 2)] {
            if base.eq_ignore_ascii_case(name) {
                let form = Opcode::Tex.decoding_form(self.version);
                return (form.control == Control::TexldVariant).then_some((Opcode::Tex, form, control));
            }
        }
        let find = |strict: bool| {
            OPCODES.iter().find_map(|row| {
                // The decoding form is one of the row's forms: skip rows without the name cheaply.
                if !row.forms.iter().any(|f| f.name.eq_ignore_ascii_case(base)) {
                    return None;
                }
                let form = row.opcode.decoding_form(self.version);
                let cmp_ok = !strict || (form.control == Control::Comparison) == has_comparison;
                (form.name.eq_ignore_ascii_case(base) && cmp_ok).then_some((row.opcode, form, 0))
            })
        };
        // Without the exact pairing (`setp` with no comparison, `mov_gt`), the name alone finds
        // the opcode, so that the error can say what is missing or too much.
        find(true).or_else(|| find(false))
    }

    fn suffixes(&self, form: &'static Form, rest: &[&str], at: usize) -> Result<Suffixes, AsmError> {
        let mut s = Suffixes::default();
        let mut parts = rest.iter().copied().peekable();
        if form.shape.extra == Extra::Dcl {
            if let Some(first) = parts.peek().copied() {
                if first.eq_ignore_ascii_case("raw") {
                    parts.next();
                    let hex = parts.next().unwrap_or("");
                    let token = parse_u32(hex)
                        .filter(|t| t & 0x8000_0000 != 0 && t & 0x07F0_FFE0 == 0 && hex.starts_with("0x"))
                        .ok_or_else(|| {
                            self.err(at, K::BadNumber { text: hex.into(), what: "a dcl usage token (0x8…)" })
                        })?;
                    s.decl = Some(Decl {
                        usage: (token & 0x1F) as u8,
                        usage_index: ((token >> 16) & 0xF) as u8,
                        texture_type: ((token >> 27) & 0xF) as u8,
                    });
                } else if let Some(decl) = decl_suffix(first) {
                    parts.next();
                    s.decl = Some(decl);
                }
            }
        }
        for part in parts {
            let lower = part.to_ascii_lowercase();
            if let Some(c) = comparison(&lower) {
                s.comparison = Some(c);
            } else if let Some((_, shift)) = SHIFTS.iter().find(|(n, _)| *n == lower) {
                s.shift = *shift;
            } else {
                s.modifiers |= match lower.as_str() {
                    "sat" => ResultModifiers::SATURATE,
                    "pp" => ResultModifiers::PARTIAL_PRECISION,
                    "centroid" => ResultModifiers::CENTROID,
                    _ => {
                        return Err(
                            self.err(at, K::BadInstructionModifier { instruction: form.name, modifier: part.into() })
                        )
                    }
                };
            }
        }
        if s.comparison.is_some() && form.control != Control::Comparison {
            return Err(
                self.err(at, K::BadInstructionModifier { instruction: form.name, modifier: "comparison".into() })
            );
        }
        Ok(s)
    }

    /// A register with its optional relative address: `r0`, `c[a0.x + 3]`, `c1[a0.x + 2]`, `oPos`.
    /// Returns the register, the relative address and any `_mod` suffix glued to the name.
    fn register(&mut self) -> Result<(Register, Option<RelAddr>, Glued<'a>), AsmError> {
        let (tok, at) = self.lx.token()?;
        let Tok::Ident(text) = tok else { return Err(self.expected(at, "a register", tok)) };
        let (name, suffix) = match text.find('_') {
            Some(i) => (&text[..i], Some((&text[i + 1..], at + i))),
            None => (text, None),
        };
        let (ty, base, written) = parse_register(name).ok_or_else(|| self.err(at, K::UnknownRegister(name.into())))?;
        let mut number = base as i64;
        let mut relative = None;
        if suffix.is_none() && self.lx.eat('[')? {
            let (offset, rel) = self.relative_terms()?;
            number += offset;
            relative = rel;
        } else if !written {
            return Err(self.err(at, K::UnknownRegister(format!("{name} (a register number is missing)"))));
        }
        let max = if ty == RegisterType::Const { 4 * CONST_BANK_SIZE as u32 - 1 } else { 0x7FF };
        if !(0..=max as i64).contains(&number) {
            return Err(self.err(at, K::RegisterOutOfRange { name: name.into(), number, max }));
        }
        Ok((Register::new(ty, number as u16), relative, suffix))
    }

    /// The inside of `[...]` after the bracket: integers and at most one address register,
    /// joined by `+` (or `-` before an integer), then `]`.
    fn relative_terms(&mut self) -> Result<(i64, Option<RelAddr>), AsmError> {
        let mut offset = 0i64;
        let mut rel: Option<RelAddr> = None;
        let mut sign = 1;
        loop {
            let (tok, at) = self.lx.token()?;
            match tok {
                Tok::Number(n) => {
                    let v = parse_u32(n)
                        .ok_or_else(|| self.err(at, K::BadNumber { text: n.into(), what: "a register offset" }))?;
                    offset = offset.saturating_add(sign * v as i64);
                }
                Tok::Ident(name) => {
                    if sign < 0 {
                        return Err(self.err(at, K::BadRelative("an address register cannot be subtracted")));
                    }
                    if rel.is_some() {
                        return Err(self.err(at, K::BadRelative("only one address register may be added")));
                    }
                    rel = Some(self.address(name, at)?);
                }
                other => return Err(self.expected(at, "an address register or an offset", other)),
            }
            let (tok, at) = self.lx.token()?;
            sign = match tok {
                Tok::Punct(']') => return Ok((offset, rel)),
                Tok::Punct('+') => 1,
                Tok::Punct('-') => -1,
                other => return Err(self.expected(at, "`+` or `]`", other)),
            };
        }
    }

    /// `a0`, `a0.x`, `aL`: the register that indexes a relatively addressed one.
    fn address(&mut self, name: &str, at: usize) -> Result<RelAddr, AsmError> {
        let (ty, num, _) = parse_register(name).ok_or_else(|| self.err(at, K::UnknownRegister(name.into())))?;
        let ok_type = match ty {
            // Shader model 1 streams say only "relative" (an implicit a0.x), in any shader kind.
            RegisterType::Addr => self.version.is_vertex() || self.version.is_sm1(),
            RegisterType::Loop => true,
            _ => false,
        };
        if !ok_type || num > 0x7FF {
            return Err(self.err(at, K::BadRelative("the index must be a0 (vertex shaders) or aL")));
        }
        let swizzle = if self.lx.eat('.')? { self.swizzle()? } else { Swizzle::IDENTITY };
        let reg = Register::new(ty, num as u16);
        if self.version.is_sm1() {
            // vs_1_1 has no address token: the index is always a0.x.
            let x = swizzle == Swizzle::IDENTITY || swizzle == Swizzle::replicate(0);
            if ty != RegisterType::Addr || num != 0 || !x {
                return Err(self.err(at, K::BadRelative("shader model 1 indexes only through a0.x")));
            }
            return Ok(RelAddr { reg, swizzle: Swizzle::replicate(0), implicit: true });
        }
        Ok(RelAddr { reg, swizzle, implicit: false })
    }

    fn swizzle(&mut self) -> Result<Swizzle, AsmError> {
        let (tok, at) = self.lx.token()?;
        let Tok::Ident(text) = tok else { return Err(self.expected(at, "a swizzle", tok)) };
        self.swizzle_text(text, at)
    }

    fn swizzle_text(&self, text: &str, at: usize) -> Result<Swizzle, AsmError> {
        let comps: Option<Vec<u8>> = text.chars().map(component).collect();
        match comps {
            Some(c) if (1..=4).contains(&c.len()) => {
                let last = c[c.len() - 1];
                let get = |i: usize| c.get(i).copied().unwrap_or(last);
                Ok(Swizzle::new(get(0), get(1), get(2), get(3)))
            }
            _ => Err(self.err(at, K::BadSwizzle(text.into()))),
        }
    }

    fn dst(&mut self) -> Result<DstParam, AsmError> {
        let (reg, relative, suffix) = self.register()?;
        if let Some((s, s_at)) = suffix {
            return Err(self.err(s_at, K::BadMask(format!("_{s}"))));
        }
        let mut mask = WriteMask::ALL;
        if self.lx.eat('.')? {
            let (tok, m_at) = self.lx.token()?;
            let Tok::Ident(text) = tok else { return Err(self.expected(m_at, "a write mask", tok)) };
            mask = self.mask(text, m_at)?;
        }
        Ok(DstParam { reg, mask, modifiers: ResultModifiers::default(), shift: 0, relative })
    }

    fn mask(&self, text: &str, at: usize) -> Result<WriteMask, AsmError> {
        if text.eq_ignore_ascii_case("none") {
            return Ok(WriteMask(0));
        }
        let mut bits = 0u8;
        let mut last: i8 = -1;
        for c in text.chars() {
            let Some(k) = component(c) else { return Err(self.err(at, K::BadMask(text.into()))) };
            if k as i8 <= last {
                return Err(self.err(at, K::BadMask(text.into())));
            }
            last = k as i8;
            bits |= 1 << k;
        }
        if bits == 0 {
            return Err(self.err(at, K::BadMask(text.into())));
        }
        Ok(WriteMask(bits))
    }

    fn src(&mut self) -> Result<SrcParam, AsmError> {
        let (tok, at) = self.lx.token()?;
        let prefix = match tok {
            Tok::Punct('-') => SrcModifier::Neg,
            Tok::Punct('!') => SrcModifier::Not,
            Tok::Number("1") if self.lx.peek()? == Tok::Punct('-') => {
                self.lx.token()?;
                SrcModifier::Comp
            }
            _ => {
                // Not a prefix: read the token again as the register.
                self.lx = self.lx.at(at);
                SrcModifier::None
            }
        };
        let (reg, relative, mut glued) = self.register()?;
        let mut swizzle = Swizzle::IDENTITY;
        let mut suffix: Option<(&str, usize)> = None;
        if glued.is_none() {
            // `c[a0.x]_bx2.x`: the suffix is its own identifier after the bracket.
            if let Tok::Ident(text) = self.lx.peek()? {
                if let Some(s) = text.strip_prefix('_') {
                    let (_, s_at) = self.lx.token()?;
                    glued = Some((s, s_at + 1));
                }
            }
        }
        if let Some(g) = glued {
            suffix = Some(g);
        }
        if self.lx.eat('.')? {
            let (tok, s_at) = self.lx.token()?;
            let Tok::Ident(text) = tok else { return Err(self.expected(s_at, "a swizzle", tok)) };
            // `r0.x_abs` also reads: a suffix after the swizzle.
            let (swz, after) = match text.find('_') {
                Some(i) => (&text[..i], Some((&text[i + 1..], s_at + i + 1))),
                None => (text, None),
            };
            swizzle = self.swizzle_text(swz, s_at)?;
            if let Some(a) = after {
                if suffix.is_some() {
                    return Err(self.err(a.1, K::BadSourceModifier(format!("_{}", a.0))));
                }
                suffix = Some(a);
            }
        }
        let modifier = match suffix {
            None => prefix,
            Some((s, s_at)) => {
                let m = suffix_modifier(s).ok_or_else(|| self.err(s_at, K::BadSourceModifier(format!("_{s}"))))?;
                match prefix {
                    SrcModifier::None => m,
                    SrcModifier::Neg => {
                        negate(m).ok_or_else(|| self.err(at, K::BadSourceModifier(format!("-…_{s}"))))?
                    }
                    _ => return Err(self.err(at, K::BadSourceModifier(format!("…_{s} with a prefix")))),
                }
            }
        };
        Ok(SrcParam { reg, swizzle, modifier, relative })
    }

    fn sign(&mut self) -> Result<bool, AsmError> {
        if self.lx.eat('-')? {
            return Ok(true);
        }
        self.lx.eat('+')?;
        Ok(false)
    }

    fn def_component(&mut self) -> Result<u32, AsmError> {
        let negative = self.sign()?;
        let (tok, at) = self.lx.token()?;
        let text = match tok {
            Tok::Number(t) | Tok::Ident(t) => t,
            other => return Err(self.expected(at, "a number", other)),
        };
        parse_def_component(text, negative)
            .ok_or_else(|| self.err(at, K::BadNumber { text: text.into(), what: "a 32-bit float (or 0x bit pattern)" }))
    }

    fn integer(&mut self) -> Result<i32, AsmError> {
        let negative = self.sign()?;
        let (tok, at) = self.lx.token()?;
        let Tok::Number(text) = tok else { return Err(self.expected(at, "an integer", tok)) };
        let bad = || self.err(at, K::BadNumber { text: text.into(), what: "a 32-bit integer" });
        let v: i64 = if text.starts_with("0x") || text.starts_with("0X") {
            parse_u32(text).ok_or_else(bad)? as i32 as i64
        } else {
            text.parse::<i64>().map_err(|_| bad())?
        };
        let v = if negative { -v } else { v };
        i32::try_from(v).map_err(|_| bad())
    }

    fn boolean(&mut self) -> Result<u32, AsmError> {
        let (tok, at) = self.lx.token()?;
        match tok {
            Tok::Ident(t) if t.eq_ignore_ascii_case("true") => Ok(1),
            Tok::Ident(t) if t.eq_ignore_ascii_case("false") => Ok(0),
            Tok::Number(t) => {
                parse_u32(t).ok_or_else(|| self.err(at, K::BadNumber { text: t.into(), what: "a DWORD" }))
            }
            other => Err(self.expected(at, "`true` or `false`", other)),
        }
    }
}

fn comparison(s: &str) -> Option<Comparison> {
    Comparison::ALL.into_iter().find(|c| c.suffix().eq_ignore_ascii_case(s))
}

/// `texcoord1`, `position`, `2d`, `cube`, `volume`, `1d`: the usage token of `dcl_…`.
fn decl_suffix(s: &str) -> Option<Decl> {
    for tt in [TextureType::Tex1D, TextureType::Tex2D, TextureType::Cube, TextureType::Volume] {
        if tt.name().eq_ignore_ascii_case(s) {
            return Some(Decl { usage: 0, usage_index: 0, texture_type: tt.raw() });
        }
    }
    let digits = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
    let (name, index) = s.split_at(digits);
    let usage = Usage::ALL.into_iter().find(|u| u.name().eq_ignore_ascii_case(name))?;
    let usage_index = if index.is_empty() { 0 } else { index.parse::<u8>().ok().filter(|&i| i < 16)? };
    Some(Decl { usage: usage as u8, usage_index, texture_type: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const END: u32 = 0x0000_FFFF;

    /// Spellings other assemblers and listings use, with tokens derived by hand from the format.
    #[test]
    fn alternative_spellings() {
        let cases: &[(&str, &[u32])] = &[
            // Dotted version, `;` and `//` comments, the offset before the address register.
            ("vs.1.1\n; c\nmov r0, c[ 2 + a0.x ] // c\n", &[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0xA0E4_2002, END]),
            // A numbered base plus an offset: c1[a0.x + 2] is c3 relative.
            ("vs_1_1\nmov r0, c1[a0.x + 2]", &[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0xA0E4_2003, END]),
            // Constant-only brackets fold into the number, with no relative flag.
            ("vs_1_1\nmov r0, c[2 + 10 + 12]", &[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0xA0E4_0018, END]),
            // rgba letters mixed with xyzw: mask xyz = 7; swizzle x,y,y,z = 0b10_01_01_00 = 0x94.
            ("vs_3_0\nmov r2.xyb, r1.xygb", &[0xFFFE_0300, 0x0200_0001, 0x8007_0002, 0x8094_0001, END]),
            // Shift x2 (1 in bits 24-27) with saturate, and `1 - r1` with spaces.
            ("ps_1_3\nmov_x2_sat r0, 1 - r1", &[0xFFFF_0103, 0x0000_0001, 0x811F_0000, 0x86E4_0001, END]),
            // A sign written apart from its number.
            ("vs_2_0\ndefi i0, - 1, 1, 10, 0", &[0xFFFE_0200, 0x0500_0030, 0xF00F_0000, 0xFFFF_FFFF, 1, 10, 0, END]),
            // `def c = …`, `f` suffixes, `.5` and `0.`.
            (
                "ps_1_1\ndef c1 = 1.0, 0.0f, .5, 0.",
                &[0xFFFF_0101, 0x0000_0051, 0xA00F_0001, 0x3F80_0000, 0, 0x3F00_0000, 0, END],
            ),
            // Upper case, a `#line` directive, CRLF line ends.
            ("#line 1 \"x\"\r\nPS_2_0\r\nMOV oC0, C0\r\n", &[0xFFFF_0200, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, END]),
            // `v0[aL]`: the base number with the loop register (type 15 = 0xF…, bits 11-12 = 1).
            ("ps_3_0\nmov r0, v0[aL]", &[0xFFFF_0300, 0x0300_0001, 0x800F_0000, 0x90E4_2000, 0xF0E4_0800, END]),
            // The modifier after the swizzle (`r1.x_abs`) and before it (`r1_abs.x`) agree: abs = 11.
            (
                "vs_3_0\nadd r0, r1.x_abs, r1_abs.x",
                &[0xFFFE_0300, 0x0300_0002, 0x800F_0000, 0x8B00_0001, 0x8B00_0001, END],
            ),
            ("ps_2_x\ndefb b0, true", &[0xFFFF_0201, 0x0200_002F, 0xE00F_0800, 1, END]),
        ];
        for (text, tokens) in cases {
            assert_eq!(assemble_tokens(text).unwrap_or_else(|e| panic!("{text}: {e}")), *tokens, "{text}");
        }
    }

    #[test]
    fn versions() {
        let v = |s| parse_version(s).map(|v| v.token());
        assert_eq!(v("vs_1_1"), Some(0xFFFE_0101));
        assert_eq!(v("ps.1.4"), Some(0xFFFF_0104));
        assert_eq!(v("vs_2_x"), Some(0xFFFE_0201));
        assert_eq!(v("ps_3_sw"), Some(0xFFFF_03FF));
        assert_eq!(v("ps_2_2"), Some(0xFFFF_0202));
        assert_eq!(v("vs_1_2"), None);
        assert_eq!(v("vs_4_0"), None);
        assert_eq!(v("xs_1_1"), None);
        assert_eq!(v("vs_1_1_1"), None);
    }
}
