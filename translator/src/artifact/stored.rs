//! A naga module as serde data, losslessly: what an [`Artifact`](super::Artifact) of an
//! override-delivered translation keeps so that it can be specialised and written as SPIR-V for
//! any state without translating again.
//!
//! naga's own serde form writes float literals as JSON numbers, and JSON has no infinity or NaN
//! (serde_json writes `null`, which does not read back). naga's validator refuses non-finite
//! literals (the lowering writes rsq(0) = +inf as a bitcast of `u32` bits), but a NaN's payload
//! or −0 must come back exact too, and the form must not depend on that, so every `f32` and `f64` literal is stored as its bits (a `u32`/`u64` literal) with
//! its place listed, and put back on reading: the module read back is the module written, and
//! its SPIR-V the same bytes. WGSL read back with naga's front end would not do: it gives another
//! arrangement of the same code, other SPIR-V bytes.

use serde::{Deserialize, Serialize};

use crate::emit::EmitError;

/// A module in naga's serde form with its float literals as bits ([module documentation](self)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredModule {
    /// naga's serde form of the module, its `f32`/`f64` literals written as `u32`/`u64` bits.
    pub module: serde_json::Value,
    /// The literals to put back, as (arena, expression index, 32 or 64): arena 0 is the global
    /// expressions, 1 + n function n's, 1 + (number of functions) + n entry point n's.
    pub floats: Vec<(u32, u32, u8)>,
}

/// The expression arenas of a module, in the order of [`StoredModule::floats`]'s arena numbers.
fn arenas(m: &mut naga::Module) -> Vec<&mut naga::Arena<naga::Expression>> {
    let mut out = vec![&mut m.global_expressions];
    out.extend(m.functions.iter_mut().map(|(_, f)| &mut f.expressions));
    out.extend(m.entry_points.iter_mut().map(|e| &mut e.function.expressions));
    out
}

fn backend(e: impl std::fmt::Display) -> EmitError {
    EmitError::Backend { backend: "artifact", message: e.to_string() }
}

impl StoredModule {
    /// The stored form of `module`.
    pub fn new(module: &naga::Module) -> Result<StoredModule, EmitError> {
        use naga::{Expression::Literal as L, Literal};
        let mut m = module.clone();
        let mut floats = Vec::new();
        for (a, arena) in arenas(&mut m).into_iter().enumerate() {
            for (h, e) in arena.iter_mut() {
                let width = match *e {
                    L(Literal::F32(x)) => {
                        *e = L(Literal::U32(x.to_bits()));
                        32
                    }
                    L(Literal::F64(x)) => {
                        *e = L(Literal::U64(x.to_bits()));
                        64
                    }
                    _ => continue,
                };
                floats.push((a as u32, h.index() as u32, width));
            }
        }
        Ok(StoredModule { module: serde_json::to_value(&m).map_err(backend)?, floats })
    }

    /// The module back, validated: it was read from outside (a file of artifacts), and the
    /// specialisation that follows needs naga's `ModuleInfo` anyway.
    pub fn module(&self) -> Result<(naga::Module, crate::emit::Analysis), EmitError> {
        let m = self.decode()?;
        let analysis = crate::emit::Analysis::validated(&m)?;
        Ok((m, analysis))
    }

    /// The module back, its float literals restored.
    fn decode(&self) -> Result<naga::Module, EmitError> {
        use naga::{Expression::Literal as L, Literal};
        let mut m: naga::Module = serde_json::from_value(self.module.clone()).map_err(backend)?;
        let mut left: std::collections::BTreeMap<(u32, u32), u8> =
            self.floats.iter().map(|&(a, index, width)| ((a, index), width)).collect();
        for (a, arena) in arenas(&mut m).into_iter().enumerate() {
            for (h, e) in arena.iter_mut() {
                let Some(width) = left.remove(&(a as u32, h.index() as u32)) else { continue };
                *e = match (&*e, width) {
                    (&L(Literal::U32(bits)), 32) => L(Literal::F32(f32::from_bits(bits))),
                    (&L(Literal::U64(bits)), 64) => L(Literal::F64(f64::from_bits(bits))),
                    _ => return Err(backend(format!("expression {h:?} of arena {a} is no stored float"))),
                };
            }
        }
        if let Some(((a, index), _)) = left.pop_first() {
            return Err(backend(format!("no expression {index} in arena {a}")));
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_literals_come_back_bit_for_bit() {
        let mut m = naga::Module::default();
        let values = [f32::INFINITY, f32::NEG_INFINITY, f32::from_bits(0x7fc0_1234), -0.0, 1.5];
        for x in values {
            m.global_expressions.append(naga::Expression::Literal(naga::Literal::F32(x)), naga::Span::UNDEFINED);
        }
        let json = serde_json::to_string(&StoredModule::new(&m).unwrap()).unwrap();
        let stored: StoredModule = serde_json::from_str(&json).unwrap();
        let back = stored.decode().unwrap();
        let bits: Vec<u32> = back
            .global_expressions
            .iter()
            .map(|(_, e)| match e {
                naga::Expression::Literal(naga::Literal::F32(x)) => x.to_bits(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(bits, values.map(f32::to_bits));
    }
}
