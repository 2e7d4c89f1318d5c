//! The transpose family of matrix calls (SetMatrixTransposeArray and its pointer form,
//! GetMatrixTranspose and its array forms) and SetArrayRange. The rules are the Windows results
//! Wine's d3dx9 test_effect_parameter_value records for every parameter of its blobs
//! (docs/effects.md#methods): a matrix parameter stores its rows × columns cells row by row, a
//! D3DXMATRIX is 16 floats `_11, _12, … _44`, and the transpose puts cell (r, c) at `_{c+1}{r+1}`.

use std::borrow::Borrow;

use super::{EffectRuntime, RuntimeError};
use crate::effect::store::Handle;
use crate::effect::types::{ParameterClass, ParameterType};
use crate::effect::values::convert_word;

fn is_matrix(class: ParameterClass) -> bool {
    matches!(class, ParameterClass::MatrixRows | ParameterClass::MatrixColumns)
}

impl EffectRuntime<'_> {
    /// SetMatrixTransposeArray: element `n` of a matrix array takes the transpose of
    /// `matrices[n]` (its top-left rows × columns cells, as
    /// [`set_matrix_transpose`](Self::set_matrix_transpose) for one). SetMatrixTransposePointerArray
    /// is the same call with a slice of references. No matrices is a no-op; more matrices than
    /// the parameter has elements (0 for a matrix that is no array) is [`RuntimeError::Count`],
    /// a parameter that is no matrix [`RuntimeError::NotApplicable`], whatever the count.
    pub fn set_matrix_transpose_array<M: Borrow<[f32; 16]>>(
        &mut self,
        h: Handle,
        matrices: &[M],
    ) -> Result<(), RuntimeError> {
        self.check(h)?;
        let (rows, columns) = self.matrix_array_shape(h, "SetMatrixTransposeArray", matrices.len())?;
        if matrices.is_empty() {
            return Ok(());
        }
        let values: Vec<f32> = matrices
            .iter()
            .flat_map(|m| {
                let m: &[f32; 16] = m.borrow();
                (0..rows).flat_map(move |r| (0..columns).map(move |c| m[c * 4 + r]))
            })
            .collect();
        self.set_floats(h, &values)
    }

    /// GetMatrixTranspose: a matrix that is no array as the transpose of its D3DXMATRIX (cell
    /// (r, c) at `_{c+1}{r+1}`, the other cells 0). Windows also answers for a scalar or a vector
    /// that is no array, but does not transpose it: its values fill the first row. Anything
    /// else (an array, a struct, an object) is [`RuntimeError::NotApplicable`]. Values convert
    /// to float as GetFloat converts them; like GetValue, the read sees what other effects of the
    /// pool set.
    pub fn get_matrix_transpose(&mut self, h: Handle) -> Result<[f32; 16], RuntimeError> {
        self.check(h)?;
        self.pull_shared();
        let n = self.store.node(h);
        if n.elements > 0 || !n.class.is_numeric() {
            return Err(self.not_applicable(h, "GetMatrixTranspose", "a scalar, vector or matrix that is no array"));
        }
        Ok(self.matrix_cells(h, 0, is_matrix(n.class)))
    }

    /// GetMatrixTransposeArray (and GetMatrixTransposePointerArray, whose caller scatters the
    /// result): the first `count` elements of a matrix array, each transposed as
    /// [`get_matrix_transpose`](Self::get_matrix_transpose) gives a matrix. A count of 0 gives
    /// nothing on any parameter; otherwise the parameter must be a matrix array of at least
    /// `count` elements ([`RuntimeError::NotApplicable`], [`RuntimeError::Count`]).
    pub fn get_matrix_transpose_array(&mut self, h: Handle, count: usize) -> Result<Vec<[f32; 16]>, RuntimeError> {
        self.check(h)?;
        self.pull_shared();
        if count == 0 {
            return Ok(Vec::new());
        }
        self.matrix_array_shape(h, "GetMatrixTransposeArray", count)?;
        Ok((0..count).map(|e| self.matrix_cells(h, e, true)).collect())
    }

    /// SetArrayRange: accepted and kept nowhere. D3DX documents it as the range of an array to
    /// pass to the device; no Windows result observes an effect of it (Wine's d3dx9 tests never
    /// call it), and every pass here sends the whole array.
    pub fn set_array_range(&mut self, h: Handle, _start: u32, _end: u32) -> Result<(), RuntimeError> {
        self.check(h)
    }

    /// The rows and columns of a matrix parameter with at least `count` elements.
    fn matrix_array_shape(&self, h: Handle, call: &'static str, count: usize) -> Result<(usize, usize), RuntimeError> {
        let n = self.store.node(h);
        if !is_matrix(n.class) {
            return Err(self.not_applicable(h, call, "a matrix array"));
        }
        if count > n.elements as usize {
            return Err(RuntimeError::Count { call, name: n.full_name.clone(), count, elements: n.elements });
        }
        Ok(((n.rows as usize).min(4), (n.columns as usize).min(4)))
    }

    /// Element `element` of a numeric parameter as a D3DXMATRIX: its rows × columns values as
    /// floats in the top-left cells, transposed or not, the other cells 0.
    fn matrix_cells(&self, h: Handle, element: usize, transpose: bool) -> [f32; 16] {
        let n = self.store.node(h);
        let (rows, columns) = ((n.rows as usize).min(4), (n.columns as usize).min(4));
        let words = self.store.value(h);
        let base = element * n.rows as usize * n.columns as usize;
        let mut m = [0.0f32; 16];
        for r in 0..rows {
            for c in 0..columns {
                let w = words.get(base + r * n.columns as usize + c).copied().unwrap_or(0);
                let f = f32::from_bits(convert_word(w, n.ty, ParameterType::Float));
                m[if transpose { c * 4 + r } else { r * 4 + c }] = f;
            }
        }
        m
    }

    pub(super) fn not_applicable(&self, h: Handle, call: &'static str, why: &'static str) -> RuntimeError {
        RuntimeError::NotApplicable { call, name: self.store.node(h).full_name.clone(), why }
    }
}
