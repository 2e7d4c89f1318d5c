//! Parameter sets (SetValue, SetFloat, SetFloatArray, SetInt…): each converts to the
//! parameter's storage type and marks the parameter changed for the next commit.

use super::{EffectRuntime, RuntimeError};
use crate::effect::evaluate::f32_to_i32;
use crate::effect::store::Handle;
use crate::effect::types::ParameterType;

impl EffectRuntime<'_> {
    /// Sets raw words (GetValue/SetValue: the parameter's own storage type). Fewer words than
    /// the parameter holds set a prefix.
    pub fn set_value(&mut self, h: Handle, words: &[u32]) -> Result<(), RuntimeError> {
        self.check(h)?;
        let holds = self.store.node(h).len;
        if words.len() > holds {
            let name = self.store.node(h).full_name.clone();
            return Err(RuntimeError::Size { name, given: words.len(), holds });
        }
        let node = self.store.node(h);
        let ty = node.ty;
        // While a parameter block is recorded the set goes into the block only.
        let stored: Vec<u32> =
            words.iter().map(|&w| if ty == ParameterType::Bool { (w != 0) as u32 } else { w }).collect();
        if self.record(h, &stored) {
            return Ok(());
        }
        let dst = self.store.value_mut(h);
        for (d, &w) in dst.iter_mut().zip(words) {
            // D3DX stores bools as 0 or 1 whatever was written.
            *d = if ty == ParameterType::Bool { (w != 0) as u32 } else { w };
        }
        self.touch(h);
        self.push_shared(self.store.node(h).top);
        Ok(())
    }

    /// SetRawValue: copies `bytes` into the parameter's value from byte `offset`, with no
    /// conversion (the D3DX documentation: a memory copy into the constants' storage). The range
    /// must lie inside the parameter, else [`RuntimeError::Size`] (counted in bytes).
    pub fn set_raw_value(&mut self, h: Handle, offset: usize, bytes: &[u8]) -> Result<(), RuntimeError> {
        self.check(h)?;
        let mut raw: Vec<u8> = self.store.value(h).iter().flat_map(|w| w.to_le_bytes()).collect();
        let end = offset.checked_add(bytes.len()).filter(|&end| end <= raw.len());
        let Some(end) = end else {
            let name = self.store.node(h).full_name.clone();
            return Err(RuntimeError::Size { name, given: offset.saturating_add(bytes.len()), holds: raw.len() });
        };
        raw[offset..end].copy_from_slice(bytes);
        let words: Vec<u32> = raw.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        self.set_value(h, &words)
    }

    /// SetMatrix: a D3DXMATRIX (16 floats, `_11, _12, … _44`) into a matrix parameter of
    /// `rows × columns` (its first element for an array): the top-left `rows × columns` cells,
    /// row by row as the parameter stores them.
    pub fn set_matrix(&mut self, h: Handle, m: &[f32; 16]) -> Result<(), RuntimeError> {
        self.set_matrix_cells(h, |r, c| m[r * 4 + c])
    }

    /// SetMatrixTranspose: as [`set_matrix`](Self::set_matrix) with the transpose of `m`.
    pub fn set_matrix_transpose(&mut self, h: Handle, m: &[f32; 16]) -> Result<(), RuntimeError> {
        self.set_matrix_cells(h, |r, c| m[c * 4 + r])
    }

    fn set_matrix_cells(&mut self, h: Handle, cell: impl Fn(usize, usize) -> f32) -> Result<(), RuntimeError> {
        self.check(h)?;
        let node = self.store.node(h);
        let (rows, columns) = ((node.rows as usize).min(4), (node.columns as usize).min(4));
        let values: Vec<f32> =
            (0..rows).flat_map(|r| (0..columns).map(move |c| (r, c))).map(|(r, c)| cell(r, c)).collect();
        self.set_floats(h, &values)
    }

    /// Sets floats, converted to the parameter's type (SetFloat, SetFloatArray, SetVector).
    pub fn set_floats(&mut self, h: Handle, values: &[f32]) -> Result<(), RuntimeError> {
        self.check(h)?;
        let (ty, holds) = (self.store.node(h).ty, self.store.node(h).len);
        let words: Vec<u32> = values.iter().take(holds).map(|&f| float_word(f, ty)).collect();
        self.set_value(h, &words)
    }

    /// Sets ints, converted to the parameter's type (SetInt, SetIntArray).
    pub fn set_ints(&mut self, h: Handle, values: &[i32]) -> Result<(), RuntimeError> {
        self.check(h)?;
        let (ty, holds) = (self.store.node(h).ty, self.store.node(h).len);
        let words: Vec<u32> = values.iter().take(holds).map(|&i| int_word(i, ty)).collect();
        self.set_value(h, &words)
    }

    /// SetFloat: as [`set_floats`](Self::set_floats) with one value, except that on a scalar
    /// (1×1, not an array) a value whose stored word is unchanged is no change, so a later
    /// CommitChanges does not re-send what reads it (wine_preshader `scenario[3]`, effect.c:5499
    /// and 5535).
    pub fn set_float(&mut self, h: Handle, value: f32) -> Result<(), RuntimeError> {
        self.check(h)?;
        if self.unchanged_scalar(h, float_word(value, self.store.node(h).ty)) {
            return Ok(());
        }
        self.set_floats(h, &[value])
    }

    /// SetInt: as [`set_ints`](Self::set_ints) with one value, with SetFloat's scalar rule.
    pub fn set_int(&mut self, h: Handle, value: i32) -> Result<(), RuntimeError> {
        self.check(h)?;
        if self.unchanged_scalar(h, int_word(value, self.store.node(h).ty)) {
            return Ok(());
        }
        self.set_ints(h, &[value])
    }

    fn unchanged_scalar(&self, h: Handle, word: u32) -> bool {
        let n = self.store.node(h);
        n.rows == 1 && n.columns == 1 && n.elements == 0 && self.store.value(h) == [word]
    }

    pub(super) fn touch(&mut self, h: Handle) {
        self.clock += 1;
        let top = self.store.node(h).top;
        self.versions[top.0 as usize] = self.clock;
    }
}

/// A float as a parameter of type `ty` stores it.
fn float_word(f: f32, ty: ParameterType) -> u32 {
    match ty {
        ParameterType::Int => f32_to_i32(f) as u32,
        ParameterType::Bool => (f != 0.0) as u32,
        _ => f.to_bits(),
    }
}

/// An int as a parameter of type `ty` stores it.
fn int_word(i: i32, ty: ParameterType) -> u32 {
    match ty {
        ParameterType::Float => (i as f32).to_bits(),
        ParameterType::Bool => (i != 0) as u32,
        _ => i as u32,
    }
}
