//! Bounds-checked little-endian reads over an effect blob. Offsets inside fx_2_0 are relative
//! to the byte after the magic and the structure offset (the "base"); errors report absolute
//! offsets so that a reader of the blob can find the bytes.

use super::error::EffectError;
pub use super::error::MAX_DEPTH;

/// A cursor over the blob.
#[derive(Clone)]
pub struct Reader<'a> {
    /// The whole blob.
    pub bytes: &'a [u8],
    /// Absolute offset of the base (the byte after the fx_2_0 magic and structure offset).
    pub base: usize,
    /// Absolute position of the cursor.
    pub pos: usize,
}

impl<'a> Reader<'a> {
    /// The u32 at absolute offset `at`.
    pub fn u32_at(&self, at: usize, what: &'static str) -> Result<u32, EffectError> {
        let b = self.slice_at(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// `len` bytes at absolute offset `at`.
    pub fn slice_at(&self, at: usize, len: usize, what: &'static str) -> Result<&'a [u8], EffectError> {
        let available = self.bytes.len().saturating_sub(at);
        at.checked_add(len).and_then(|end| self.bytes.get(at..end)).ok_or(EffectError::Truncated {
            offset: at,
            what,
            needed: len,
            available,
        })
    }

    /// Reads the next u32 and advances.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, EffectError> {
        let v = self.u32_at(self.pos, what)?;
        self.pos += 4;
        Ok(v)
    }

    /// Reads a count and checks that `count × min_bytes` fits in what is left of the blob, so a
    /// lying count cannot make the reader allocate or loop beyond the input.
    pub fn count(&mut self, what: &'static str, min_bytes: usize) -> Result<usize, EffectError> {
        let offset = self.pos;
        let count = self.u32(what)?;
        let available = self.bytes.len().saturating_sub(self.pos);
        if (count as usize).saturating_mul(min_bytes.max(1)) > available {
            return Err(EffectError::CountTooLarge { offset, what, count, available });
        }
        Ok(count as usize)
    }

    /// The absolute offset of a base-relative offset.
    pub fn absolute(&self, relative: u32, what: &'static str) -> Result<usize, EffectError> {
        let at = self.base.saturating_add(relative as usize);
        if at > self.bytes.len() {
            return Err(EffectError::Truncated { offset: at, what, needed: 0, available: 0 });
        }
        Ok(at)
    }

    /// A length-prefixed string at a base-relative offset: a u32 byte count (the NUL included),
    /// then the bytes. Text after the first NUL is dropped.
    pub fn string_at(&self, relative: u32, what: &'static str) -> Result<String, EffectError> {
        let at = self.absolute(relative, what)?;
        let len = self.u32_at(at, what)? as usize;
        let bytes = self.slice_at(at + 4, len, what)?;
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        Ok(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }

    /// A length-prefixed blob at the cursor (u32 byte count, bytes, padding to 4); advances.
    pub fn sized_data(&mut self, what: &'static str) -> Result<(usize, &'a [u8]), EffectError> {
        let len = self.u32(what)? as usize;
        let at = self.pos;
        let data = self.slice_at(at, len, what)?;
        self.pos = at + len.div_ceil(4) * 4;
        self.pos = self.pos.min(self.bytes.len());
        Ok((at, data))
    }
}

/// The words of a byte slice (a trailing partial word is dropped).
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}
