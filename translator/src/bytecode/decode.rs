//! Tokens → [`Program`].
//!
//! SM1 streams carry no length field, so the opcode table's shape for the version says how many
//! operand tokens follow; SM2+ streams state the length, which must agree with the table. Every
//! read is bounds-checked and every reserved bit checked, so hostile input ends in a
//! [`DecodeError`] naming the token, never a panic or an out-of-bounds read.

use super::error::{DecodeError, DecodeErrorKind as E};
use super::instruction::{Comment, Decl, Instruction, Payload, Program};
use super::opcodes::{Control, Extra, Opcode, COMMENT_OPCODE, END_TOKEN};
use super::params::{DstParam, RelAddr, ResultModifiers, SrcModifier, SrcParam, Swizzle, WriteMask};
use super::registers::{Register, RegisterType};
use super::version::{Version, VersionId};

/// Decodes a little-endian byte blob.
pub fn decode_bytes(bytes: &[u8]) -> Result<Program, DecodeError> {
    if bytes.len() % 4 != 0 {
        return Err(DecodeError { token: bytes.len() / 4, kind: E::UnalignedLength(bytes.len()) });
    }
    // Each chunk converted as a whole word (`try_into` of a slice the chunking makes four bytes
    // long): a `memcpy` on a little-endian machine, where indexing its four bytes was a loop
    // of byte loads (1.3 % of a translation).
    let tokens: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default())).collect();
    decode(&tokens)
}

/// Decodes a token stream up to its end token. Tokens after the end token are ignored; see
/// [`stream_length`] to find where the shader ends.
pub fn decode(tokens: &[u32]) -> Result<Program, DecodeError> {
    Decoder::new(tokens)?.run()
}

/// The number of tokens of the shader that starts `tokens`, end token included.
pub fn stream_length(tokens: &[u32]) -> Result<usize, DecodeError> {
    let mut d = Decoder::new(tokens)?;
    d.run_to_end()?;
    Ok(d.r.pos)
}

struct Decoder<'a> {
    r: Reader<'a>,
    program: Program,
}

/// The token cursor: what decoding an instruction reads, apart from the program it fills.
struct Reader<'a> {
    tokens: &'a [u32],
    pos: usize,
    version: Version,
    /// The version's model, found once: every instruction looks its form up by it.
    id: Option<VersionId>,
    /// [`RegisterType::from_raw`] under the version, for each value of the 5-bit type field:
    /// found once, so that each operand's file is one load rather than a match on the field and
    /// the version (callgrind, the bench's common list).
    files: [Option<(RegisterType, u16)>; 32],
}

fn err<T>(token: usize, kind: E) -> Result<T, DecodeError> {
    Err(DecodeError { token, kind })
}

/// The first four bytes of a DXBC container, `DXBC`, read as a little-endian token.
const DXBC_MAGIC: u32 = u32::from_le_bytes(*b"DXBC");

/// Why `token` is no version token: a Shader Model 4+ container is named as such, since a
/// caller handing one over has the wrong compiler output, not a damaged blob.
fn bad_version(token: u32) -> E {
    if token == DXBC_MAGIC {
        E::DxbcContainer
    } else {
        E::BadVersion(token)
    }
}

/// What each instruction's slot starts as before its tokens fill it: a constant, copied in
/// whole, where building `Instruction::new`'s value field by field and then moving it into
/// the list cost twice the stores (callgrind, the bench's common list).
const BLANK: Instruction = Instruction::new(Opcode::Nop);

/// Bits of a parameter token that no register file, modifier or mask uses.
const PARAM_RESERVED: u32 = 0x0000_C000;

impl<'a> Decoder<'a> {
    fn new(tokens: &'a [u32]) -> Result<Self, DecodeError> {
        let Some(&first) = tokens.first() else { return err(0, E::Empty) };
        let Some(version) = Version::from_token(first) else { return err(0, bad_version(first)) };
        let mut program = Program::new(version);
        // About one instruction per three tokens (an opcode, a destination, a source): room
        // for a typical stream up front instead of eight doublings; capped, since the tokens
        // may run on past the end token.
        program.instructions.reserve((tokens.len() / 3).min(4096));
        let files = std::array::from_fn(|raw| RegisterType::from_raw(raw as u32, version));
        Ok(Decoder { r: Reader { tokens, pos: 1, version, id: version.id(), files }, program })
    }

    fn run(mut self) -> Result<Program, DecodeError> {
        self.run_to_end()?;
        Ok(self.program)
    }

    fn run_to_end(&mut self) -> Result<(), DecodeError> {
        loop {
            let Some(&token) = self.r.tokens.get(self.r.pos) else { return err(self.r.pos, E::MissingEnd) };
            if token == END_TOKEN {
                self.r.pos += 1;
                return Ok(());
            }
            if token & 0xFFFF == COMMENT_OPCODE as u32 {
                self.comment(token)?;
            } else {
                // Filled where it lies: an instruction is about a hundred bytes, and moving it
                // out of a `Result` and into the list cost more than decoding its tokens.
                let list = &mut self.program.instructions;
                list.push(BLANK);
                let last = list.last_mut().expect("just pushed");
                if let Err(e) = self.r.instruction(token, last) {
                    list.pop();
                    return Err(e);
                }
            }
        }
    }

    fn comment(&mut self, token: u32) -> Result<(), DecodeError> {
        let pos = self.r.pos;
        if token & 0x8000_0000 != 0 {
            return err(pos, E::ReservedBits { what: "comment", token, bits: 0x8000_0000 });
        }
        let length = ((token >> 16) & 0x7FFF) as usize;
        let available = self.r.tokens.len() - pos - 1;
        if length > available {
            return err(pos, E::CommentTooLong { length, available });
        }
        let start = pos + 1;
        self.program.comments.push(Comment {
            position: self.program.instructions.len(),
            offset: pos as u32,
            data: self.r.tokens[start..start + length].to_vec(),
        });
        self.r.pos = start + length;
        Ok(())
    }
}

impl Reader<'_> {
    fn next(&mut self, what: &'static str, needed: usize) -> Result<u32, DecodeError> {
        match self.tokens.get(self.pos) {
            Some(&t) => {
                self.pos += 1;
                Ok(t)
            }
            None => err(self.pos, E::Truncated { what, needed }),
        }
    }

    /// Decodes the instruction whose first token is `token` into `inst` (a bare `nop`).
    fn instruction(&mut self, token: u32, inst: &mut Instruction) -> Result<(), DecodeError> {
        let start = self.pos;
        let raw_opcode = token & 0xFFFF;
        let Some(opcode) = Opcode::from_raw(raw_opcode as u16) else { return err(start, E::UnknownOpcode(raw_opcode)) };
        // The version's own form (`Opcode::decoding_form`'s first choice) without finding the
        // version's id again.
        let form = match self.id.and_then(|id| opcode.form_in(id)) {
            Some(f) => f,
            None => opcode.decoding_form(self.version),
        };
        let sm1 = self.version.is_sm1();
        let control = ((token >> 16) & 0xFF) as u8;
        let length = (token >> 24) & 0xF;
        let predicated = token & (1 << 28) != 0;
        let reserved = token & (1 << 29 | 1 << 31) | if sm1 { token & (0xF << 24 | 1 << 28) } else { 0 };
        if reserved != 0 {
            return err(start, E::ReservedBits { what: "instruction", token, bits: reserved });
        }
        let control_ok = match form.control {
            Control::None => control == 0,
            Control::Comparison => (1..=6).contains(&control),
            Control::TexldVariant => control <= 2,
        };
        if !control_ok {
            return err(start, E::BadControl { opcode: form.name, control });
        }
        if !sm1 && start + 1 + length as usize > self.tokens.len() {
            let needed = start + 1 + length as usize - self.tokens.len();
            return err(start, E::Truncated { what: form.name, needed });
        }
        self.pos += 1;

        inst.opcode = opcode;
        inst.control = control;
        inst.coissue = token & (1 << 30) != 0;
        inst.offset = start as u32;
        let shape = form.shape;
        let mut decl = None;
        if shape.extra == Extra::Dcl {
            let t = self.next(form.name, 1 + shape.dst as usize)?;
            decl = Some(self.usage_token(t)?);
        }
        if shape.dst {
            inst.dst = Some(self.dst()?);
        }
        if predicated {
            inst.predicate = Some(self.src()?);
        }
        inst.payload = match shape.extra {
            Extra::None => Payload::None,
            Extra::Dcl => Payload::Dcl(decl.expect("read above")),
            Extra::Def => Payload::Def(self.raw4(form.name)?),
            Extra::DefI => Payload::DefI(self.raw4(form.name)?.map(|v| v as i32)),
            Extra::DefB => Payload::DefB(self.next(form.name, 1)?),
        };
        for _ in 0..shape.srcs {
            inst.src.push(self.src()?);
        }

        if !sm1 {
            let used = (self.pos - start - 1) as u32;
            if used != length {
                return err(start, E::LengthMismatch { opcode: form.name, stated: length, expected: used });
            }
        }
        Ok(())
    }

    fn raw4(&mut self, what: &'static str) -> Result<[u32; 4], DecodeError> {
        let mut v = [0; 4];
        for (i, slot) in v.iter_mut().enumerate() {
            *slot = self.next(what, 4 - i)?;
        }
        Ok(v)
    }

    fn usage_token(&mut self, t: u32) -> Result<Decl, DecodeError> {
        let at = self.pos - 1;
        if t & 0x8000_0000 == 0 {
            return err(at, E::NotAParameter(t));
        }
        let reserved = t & 0x07F0_FFE0;
        if reserved != 0 {
            return err(at, E::ReservedBits { what: "dcl usage", token: t, bits: reserved });
        }
        Ok(Decl {
            usage: (t & 0x1F) as u8,
            usage_index: ((t >> 16) & 0xF) as u8,
            texture_type: ((t >> 27) & 0xF) as u8,
        })
    }

    #[inline(always)]
    fn param(&mut self, what: &'static str) -> Result<(u32, Register, bool), DecodeError> {
        let at = self.pos;
        let t = self.next(what, 1)?;
        if t & 0x8000_0000 == 0 {
            return err(at, E::NotAParameter(t));
        }
        if t & PARAM_RESERVED != 0 {
            return err(at, E::ReservedBits { what, token: t, bits: t & PARAM_RESERVED });
        }
        let raw_type = ((t >> 28) & 7) | ((t >> 8) & 0x18);
        let Some((ty, bank)) = self.files[raw_type as usize] else {
            return err(at, E::BadRegisterType(raw_type));
        };
        let reg = Register::new(ty, (t & 0x7FF) as u16 + bank);
        Ok((t, reg, t & (1 << 13) != 0))
    }

    /// The relative address of an operand whose token has the relative bit. Kept out of line
    /// and called only for such operands: returning its `Result` through memory on every
    /// operand stalled the caller's reads of the bytes it had just written (store forwarding).
    #[cold]
    #[inline(never)]
    fn relative(&mut self) -> Result<Option<RelAddr>, DecodeError> {
        if self.version.is_sm1() {
            // vs_1_1: no token follows; the address is a0.x.
            return Ok(Some(RelAddr {
                reg: Register::new(RegisterType::Addr, 0),
                swizzle: Swizzle::replicate(0),
                implicit: true,
            }));
        }
        let at = self.pos;
        let (t, reg, rel) = self.param("relative address")?;
        let plain = !rel && (t >> 24) & 0xF == 0;
        if !plain || !matches!(reg.ty, RegisterType::Addr | RegisterType::Loop) {
            return err(at, E::BadRelativeToken(t));
        }
        Ok(Some(RelAddr { reg, swizzle: Swizzle(((t >> 16) & 0xFF) as u8), implicit: false }))
    }

    #[inline(always)]
    fn dst(&mut self) -> Result<DstParam, DecodeError> {
        let at = self.pos;
        let (t, reg, rel) = self.param("destination")?;
        let modifiers = ((t >> 20) & 0xF) as u8;
        if modifiers & 8 != 0 {
            return err(at, E::ReservedBits { what: "destination", token: t, bits: 1 << 23 });
        }
        let raw_shift = (t >> 24) & 0xF;
        let shift = match raw_shift {
            0..=3 => raw_shift as i8,
            13..=15 => raw_shift as i8 - 16,
            _ => return err(at, E::BadShift(raw_shift)),
        };
        let relative = if rel { self.relative()? } else { None };
        Ok(DstParam {
            reg,
            mask: WriteMask(((t >> 16) & 0xF) as u8),
            modifiers: ResultModifiers(modifiers),
            shift,
            relative,
        })
    }

    #[inline(always)]
    fn src(&mut self) -> Result<SrcParam, DecodeError> {
        let at = self.pos;
        let (t, reg, rel) = self.param("source")?;
        let raw_mod = (t >> 24) & 0xF;
        let Some(modifier) = SrcModifier::from_raw(raw_mod) else { return err(at, E::BadSourceModifier(raw_mod)) };
        let relative = if rel { self.relative()? } else { None };
        Ok(SrcParam { reg, swizzle: Swizzle(((t >> 16) & 0xFF) as u8), modifier, relative })
    }
}
