//! The linkage of a vertex/pixel shader pair: which semantics pass between the stages, and at
//! which locations.
//!
//! A translation places its varyings by semantic. Without a [`Linkage`] in the key, the lowering
//! uses a fixed default map (documented in [`crate::lower::io_map`]); [`link`] replaces it for a
//! pair: it packs the semantics the pixel shader reads and the vertex shader writes into
//! locations 0, 1, …, marks those the vertex shader does not write as [`LinkSlot::Missing`] (the
//! pixel shader uses the default value), and drops vertex outputs the pixel shader does not
//! read. Put the same [`Linkage`] in both keys ([`crate::ShaderKey::linkage`]).
//!
//! The linkage is part of the key, and computed from the two stages' signatures; it knows
//! nothing of the lowering.

use serde::Serialize;

use crate::analysis::{IoRegister, Signature};
use crate::bytecode::registers::rastout;
use crate::bytecode::{RegisterType, ShaderKind, Usage, Version};

/// Where a semantic goes in a linked pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LinkSlot {
    /// Passed at this location.
    Location(u32),
    /// Read by the pixel shader, not written by the vertex shader: the default value is used.
    Missing,
}

/// The locations of a VS/PS pair by semantic (from [`link`]); semantics not listed are not
/// passed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Linkage {
    /// (usage code, usage index, slot), sorted.
    pub slots: Vec<(u8, u8, LinkSlot)>,
}

impl Linkage {
    /// The slot of semantic (`usage`, `index`), if the pair passes it or the pixel shader reads it.
    pub(crate) fn find(&self, usage: u8, index: u8) -> Option<LinkSlot> {
        self.slots.iter().find(|s| s.0 == usage && s.1 == index).map(|s| s.2)
    }
}

/// The semantic (usage code, index) of an I/O register of a program of `version`.
pub fn semantic(version: Version, r: &IoRegister) -> Option<(u8, u8)> {
    use RegisterType as R;
    let u = |usage: Usage, i: u16| Some((usage as u8, i as u8));
    match (version.kind, r.file) {
        // Vertex inputs, and pixel inputs from ps_3_0 on, carry their dcl semantic.
        (_, R::Input) if !version.profile().fixed_io || version.kind == ShaderKind::Vertex => {
            r.usage_code.map(|c| (c, r.usage_index))
        }
        (_, R::Output) => r.usage_code.map(|c| (c, r.usage_index)),
        (ShaderKind::Pixel, R::Input) => u(Usage::Color, r.index),
        (ShaderKind::Pixel, R::Texture) => u(Usage::TexCoord, r.index),
        (_, R::RastOut) => match r.index {
            rastout::POSITION => u(Usage::Position, 0),
            rastout::FOG => u(Usage::Fog, 0),
            _ => u(Usage::PSize, 0),
        },
        (_, R::AttrOut) => u(Usage::Color, r.index),
        (_, R::TexCrdOut) => u(Usage::TexCoord, r.index),
        _ => None,
    }
}

/// Vertex outputs that are built-ins (position, point size); a pixel shader's POSITION input is
/// an ordinary varying.
fn is_builtin(version: Version, usage: u8, index: u8) -> bool {
    version.kind == ShaderKind::Vertex
        && matches!((Usage::from_raw(usage), index), (Some(Usage::Position), 0) | (Some(Usage::PSize), 0))
}

/// The semantics a stage passes between stages (VS outputs or PS inputs), sorted.
pub(crate) fn varyings(version: Version, regs: &[IoRegister]) -> Vec<(u8, u8)> {
    let mut v: Vec<(u8, u8)> =
        regs.iter().filter_map(|r| semantic(version, r)).filter(|&(u, i)| !is_builtin(version, u, i)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Locations for a VS/PS pair (see the module documentation).
pub fn link(vs_version: Version, vs: &Signature, ps_version: Version, ps: &Signature) -> Linkage {
    let mut written: Vec<(u8, u8)> = vs.outputs.iter().filter_map(|r| semantic(vs_version, r)).collect();
    // oPos also feeds a pixel shader's POSITION0 input.
    written.push((Usage::Position as u8, 0));
    let mut read = varyings(ps_version, &ps.inputs);
    // Fixed-function fog (after ps_1_x and ps_2_x; ps_3_0 does its own) reads the FOG varying
    // even when the pixel shader does not name it.
    let fog = (Usage::Fog as u8, 0);
    if ps_version.profile().fixed_function_fog && !read.contains(&fog) {
        read.push(fog);
    }
    read.sort_unstable();
    let mut slots = Vec::new();
    let mut next = 0;
    for (u, i) in read {
        if written.contains(&(u, i)) {
            slots.push((u, i, LinkSlot::Location(next)));
            next += 1;
        } else {
            slots.push((u, i, LinkSlot::Missing));
        }
    }
    Linkage { slots }
}

#[cfg(test)]
mod tests {
    /// The key holds a linkage and the lowering reads both: imports go one way, from `lower` to
    /// `key` and `linkage`, never back (doc comments may name the lowering's documentation).
    #[test]
    fn the_key_and_the_linkage_import_nothing_from_the_lowering() {
        // Spelled in pieces so that this test's own lines do not match.
        let needles = [["crate", "::lower"].concat(), ["super", "::lower"].concat()];
        for (file, text) in [("key.rs", include_str!("key.rs")), ("linkage.rs", include_str!("linkage.rs"))] {
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")) {
                assert!(!needles.iter().any(|x| line.contains(x.as_str())), "{file}:{}: {line}", n + 1);
            }
        }
    }
}
