//! SPIR-V's physical layout: every instruction is one word holding its word count and opcode,
//! then its operands (SPIR-V specification 2.3, "Physical Layout of a SPIR-V Module and
//! Instruction"). A section is a plain word vector; instructions are written straight into it,
//! with no operand list of their own.

use spirv::Op;

/// Words of one logical-layout section (SPIR-V specification 2.4).
#[derive(Default)]
pub(super) struct Section(pub(super) Vec<u32>);

impl Section {
    /// An instruction with its operands.
    // Inlined, as `op_list`: the callers' operands are a few words of a length known there,
    // which then copy as plain stores instead of a call of `memmove` per slice (2 % of the
    // time of a translation, `perf`).
    #[inline]
    pub(super) fn op(&mut self, op: Op, operands: &[u32]) {
        self.op_list(op, operands, &[]);
    }

    /// An instruction whose operands are a few fixed words (a result type, a result id, a
    /// target) followed by a list (members, parameters, components).
    #[inline]
    pub(super) fn op_list(&mut self, op: Op, head: &[u32], list: &[u32]) {
        self.0.reserve(1 + head.len() + list.len());
        self.0.push((((head.len() + list.len()) as u32 + 1) << 16) | op as u32);
        self.0.extend_from_slice(head);
        self.0.extend_from_slice(list);
    }

    /// Starts an instruction whose operands are pushed one by one; [`Section::end`] writes
    /// its word count.
    pub(super) fn begin(&mut self, op: Op) -> usize {
        self.0.push(op as u32);
        self.0.len() - 1
    }

    /// Pushes one operand of an instruction begun with [`Section::begin`].
    pub(super) fn push(&mut self, word: u32) {
        self.0.push(word);
    }

    /// Ends the instruction begun at `start`.
    pub(super) fn end(&mut self, start: usize) {
        let count = (self.0.len() - start) as u32;
        self.0[start] |= count << 16;
    }

    /// A literal string operand: UTF-8 bytes, nul-terminated, padded to whole words (2.2.1).
    pub(super) fn string(&mut self, s: &str) {
        let bytes = s.as_bytes();
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0.push(u32::from_le_bytes(word));
        }
        if bytes.len() % 4 == 0 {
            self.0.push(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_count_and_opcode_share_the_first_word() {
        let mut s = Section::default();
        s.op(Op::TypeVector, &[7, 3, 4]);
        assert_eq!(s.0, vec![(4 << 16) | 23, 7, 3, 4]);
        let start = s.begin(Op::Return);
        s.end(start);
        assert_eq!(s.0[4], (1 << 16) | 253);
    }

    #[test]
    fn strings_are_nul_terminated_and_padded() {
        let mut s = Section::default();
        s.string("main");
        assert_eq!(s.0, vec![u32::from_le_bytes(*b"main"), 0]);
        let mut s = Section::default();
        s.string("vs_main");
        assert_eq!(s.0, vec![u32::from_le_bytes(*b"vs_m"), u32::from_le_bytes(*b"ain\0")]);
    }
}
