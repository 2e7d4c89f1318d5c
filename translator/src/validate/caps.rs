//! Device capabilities that some version rules depend on (D3DCAPS9 fields).

/// The D3DCAPS9 fields the validator reads.
///
/// The default is a typical Shader Model 3 GPU on Windows: every 2_x capability present with
/// its largest value (dynamic flow control depth 24, static flow control depth 4, 32
/// temporaries, predication, arbitrary swizzles, gradients, 512 ps_2_x slots), 256 vertex
/// shader constants and 4 simultaneous render targets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Caps {
    /// `VS20Caps.DynamicFlowControlDepth`: 0 or 24 (vs_2_x).
    pub vs_dynamic_flow_control_depth: u8,
    /// `VS20Caps.StaticFlowControlDepth`: 1 to 4; the vs_2_x loop/rep and call nesting limits.
    pub vs_static_flow_control_depth: u8,
    /// `VS20Caps.NumTemps`: 12 to 32 (vs_2_x).
    pub vs_num_temps: u8,
    /// `D3DVS20CAPS_PREDICATION` (vs_2_x).
    pub vs_predication: bool,
    /// `PS20Caps.DynamicFlowControlDepth`: 0 or 24 (ps_2_x).
    pub ps_dynamic_flow_control_depth: u8,
    /// `PS20Caps.StaticFlowControlDepth`: 0 to 4 (ps_2_x loop/rep and call nesting).
    pub ps_static_flow_control_depth: u8,
    /// `PS20Caps.NumTemps`: 12 to 32 (ps_2_x).
    pub ps_num_temps: u8,
    /// `PS20Caps.NumInstructionSlots`: 96 to 512 (ps_2_x).
    pub ps_num_instruction_slots: u16,
    /// `D3DPS20CAPS_PREDICATION` (ps_2_x).
    pub ps_predication: bool,
    /// `D3DPS20CAPS_ARBITRARYSWIZZLE` (ps_2_x).
    pub ps_arbitrary_swizzle: bool,
    /// `D3DPS20CAPS_GRADIENTINSTRUCTIONS`: `dsx`, `dsy`, `texldd` in ps_2_x.
    pub ps_gradient_instructions: bool,
    /// `D3DPS20CAPS_NODEPENDENTREADLIMIT` (ps_2_x): no limit on dependent texture reads.
    pub ps_no_dependent_read_limit: bool,
    /// `D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT` (ps_2_x): texture instructions count only against
    /// the total slots.
    pub ps_no_tex_instruction_limit: bool,
    /// `MaxVertexShaderConst`: float constants of hardware vertex processing (at least 256
    /// for vs_2_0 and later).
    pub max_vertex_shader_const: u16,
    /// `MaxVertexShader30InstructionSlots`: 512 to 32768.
    pub max_vertex_shader30_instruction_slots: u16,
    /// `MaxPixelShader30InstructionSlots`: 512 to 32768.
    pub max_pixel_shader30_instruction_slots: u16,
    /// `NumSimultaneousRTs`: how many `oC#` registers exist (1 to 4).
    pub num_simultaneous_rts: u8,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            vs_dynamic_flow_control_depth: 24,
            vs_static_flow_control_depth: 4,
            vs_num_temps: 32,
            vs_predication: true,
            ps_dynamic_flow_control_depth: 24,
            ps_static_flow_control_depth: 4,
            ps_num_temps: 32,
            ps_num_instruction_slots: 512,
            ps_predication: true,
            ps_arbitrary_swizzle: true,
            ps_gradient_instructions: true,
            ps_no_dependent_read_limit: true,
            ps_no_tex_instruction_limit: true,
            max_vertex_shader_const: 256,
            max_vertex_shader30_instruction_slots: 32768,
            max_pixel_shader30_instruction_slots: 32768,
            num_simultaneous_rts: 4,
        }
    }
}
