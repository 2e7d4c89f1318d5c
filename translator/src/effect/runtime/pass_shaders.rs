//! The result of [`EffectRuntime::pass_desc`](super::EffectRuntime::pass_desc). A leaf of the
//! runtime folder, so that `runtime.rs` re-exports it without importing the file that computes it.

/// GetPassDesc's shaders: object ids of the shader functions (`None` = NULL).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassDesc {
    /// The vertex shader the pass sets.
    pub vertex_shader: Option<usize>,
    /// The pixel shader the pass sets.
    pub pixel_shader: Option<usize>,
}
