//! The values of a translation's overrides ([`crate::key::delivery`]'s override delivery) as one
//! typed value: the render-state modes and the boolean and integer constants together, so that
//! no caller can give the modes and forget the constants (they would stay at their initial 0:
//! an `if b0` the application turned on would run as off).
//!
//! [`PipelineConstants::as_slice`] is what wgpu's `PipelineCompilationOptions::constants` takes
//! (`&[(&str, f64)]`; with the `wgpu` feature, `PipelineConstants::compilation_options`), and
//! [`PipelineConstants::to_naga`] what naga's pipeline-constant pass takes. Every override name
//! is one of a fixed set (the delivery table), so the names are `&'static str`.

#[cfg(test)]
use super::state_block::PROJECTION_NAMES;
use super::state_block::{Modes, BOOL_CONSTANTS_OVERRIDE};

/// `int_constant{n}_{count,start,step,w}` for n in 0..16, as static strings.
macro_rules! int_names {
    ($($n:literal)*) => {
        [$([
            concat!("int_constant", $n, "_count"),
            concat!("int_constant", $n, "_start"),
            concat!("int_constant", $n, "_step"),
            concat!("int_constant", $n, "_w"),
        ]),*]
    };
}

/// The integer constants' override names, `INT_CONSTANT_NAMES[n][c]`
/// ([`int_constant_override`](super::state_block::int_constant_override)'s spelling).
pub const INT_CONSTANT_NAMES: [[&str; 4]; 16] = int_names!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

/// The pipeline constants of one translation (or artifact) under a draw's modes and constants:
/// a value for each override the translation declares, and nothing else (wgpu refuses a
/// constant the module does not declare).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PipelineConstants {
    values: Vec<(&'static str, f64)>,
}

impl PipelineConstants {
    /// The constants of the overrides named in `declared` (a translation's or an artifact's
    /// `overrides`) under `modes` (take them from the device state, [`crate::Shader::modes`])
    /// and the application's constants: `bools` bit n is `b n`, `ints[n]` is `i n` (as
    /// [`crate::ShaderKey::set_constants`] takes them).
    pub fn new<S: AsRef<str>>(declared: &[S], modes: &Modes, bools: u16, ints: &[[i32; 4]; 16]) -> PipelineConstants {
        let mut all: Vec<(&'static str, f64)> =
            modes.named_static().into_iter().map(|(n, v)| (n, f64::from(v))).collect();
        all.push((BOOL_CONSTANTS_OVERRIDE, f64::from(bools)));
        for (names, v) in INT_CONSTANT_NAMES.iter().zip(ints) {
            all.extend(names.iter().zip(v).map(|(&n, &x)| (n, f64::from(x))));
        }
        all.retain(|(name, _)| declared.iter().any(|d| d.as_ref() == *name));
        PipelineConstants { values: all }
    }

    /// The value of override `name`, if the translation declares it.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// (name, value) pairs: wgpu's `PipelineCompilationOptions::constants` (WebGPU's
    /// `GPUProgrammableStage.constants`).
    pub fn as_slice(&self) -> &[(&'static str, f64)] {
        &self.values
    }

    /// The pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().copied()
    }

    /// How many overrides have a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// No overrides (a translation without override delivery).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The map naga's `process_overrides` takes (what wgpu does at pipeline creation).
    pub fn to_naga(&self) -> naga::back::PipelineConstants {
        self.values.iter().map(|&(n, v)| (n.to_string(), v)).collect()
    }

    /// wgpu's compilation options with these constants (the other options at their defaults).
    #[cfg(feature = "wgpu")]
    pub fn compilation_options(&self) -> wgpu::PipelineCompilationOptions<'_> {
        wgpu::PipelineCompilationOptions { constants: &self.values, ..Default::default() }
    }
}

impl<'a> IntoIterator for &'a PipelineConstants {
    type Item = &'a (&'static str, f64);
    type IntoIter = std::slice::Iter<'a, (&'static str, f64)>;

    fn into_iter(self) -> Self::IntoIter {
        self.values.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::state_block::int_constant_override;

    #[test]
    fn the_static_names_are_the_delivery_tables() {
        for (n, names) in INT_CONSTANT_NAMES.iter().enumerate() {
            for (c, name) in names.iter().enumerate() {
                assert_eq!(*name, int_constant_override(n, c));
            }
        }
        let modes = Modes::default().named();
        for (n, name) in PROJECTION_NAMES.iter().enumerate() {
            assert!(modes.iter().any(|(m, _)| m == name), "{name} (stage {n})");
        }
    }

    #[test]
    fn only_declared_overrides_get_values() {
        // D3DCMP_LESS = 2; b1 set; i3 = (4, 0, 1, 0).
        let modes = Modes { alpha_func: 2, ..Modes::default() };
        let mut ints = [[0; 4]; 16];
        ints[3] = [4, 0, 1, 0];
        let c = PipelineConstants::new(&["alpha_func", "bool_constants", "int_constant3_count"], &modes, 2, &ints);
        assert_eq!(c.as_slice(), [("alpha_func", 2.0), ("bool_constants", 2.0), ("int_constant3_count", 4.0)]);
        assert_eq!(c.get("fog_mode"), None);
        assert_eq!(c.to_naga().len(), 3);
        assert!(PipelineConstants::new::<&str>(&[], &modes, 2, &ints).is_empty());
    }
}
