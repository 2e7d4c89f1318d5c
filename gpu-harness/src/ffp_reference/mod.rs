//! The CPU reference of the fixed-function pipeline, written from the Direct3D 9 documentation's
//! rules as docs/d3d9-rules.md#ffp states them: vertex transform and blending, lighting with
//! attenuation and spot falloff, texture coordinate generation and transforms, vertex fog, the
//! texture stage cascade. It shares no code with the generator (the library's `ffp` module): it
//! reads the case's state ([`crate::ffp_state`]) and computes each value directly, in `f32`, the
//! way the documentation writes the formulas.

mod lighting;
mod maths;
mod pixel;
mod vertex;

pub use pixel::ReferencePixel;
pub use vertex::ReferenceVertex;

#[cfg(test)]
mod tests {
    /// The reference is an oracle of the library's generator: it must never use it.
    #[test]
    fn never_uses_the_generator() {
        let name = ["d3d9_shader", "::ffp"].concat();
        for (file, text) in [
            ("mod.rs", include_str!("mod.rs")),
            ("maths.rs", include_str!("maths.rs")),
            ("vertex.rs", include_str!("vertex.rs")),
            ("lighting.rs", include_str!("lighting.rs")),
            ("pixel.rs", include_str!("pixel.rs")),
            ("ffp_state.rs", include_str!("../ffp_state.rs")),
        ] {
            assert!(!text.contains(&name), "{file} names the generator");
        }
    }
}
