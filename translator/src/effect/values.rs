//! How a state's stored value becomes what the device is given (`docs/effects.md`, "State
//! values"): the numeric conversions between storage types, the conversion of a one-DWORD
//! state to the D3D9 value type of the state it sets, and the register layout of a constant
//! shader-constant state.

use super::evaluate::{f32_to_i32, plan, upload, Registers, Target};
use super::parameters::Parameter;
use super::preshader::{Preshader, Table};
use super::states::StateClass;
use super::store::Store;
use super::types::{ParameterClass, ParameterType};

/// A parameter word converted between numeric types (D3DX's rules: float to int truncates, any
/// nonzero bit pattern is a true bool).
pub fn convert_word(w: u32, from: ParameterType, to: ParameterType) -> u32 {
    match (from, to) {
        (a, b) if a == b => w,
        (_, ParameterType::Bool) => (w != 0) as u32,
        (ParameterType::Float, ParameterType::Int) => f32_to_i32(f32::from_bits(w)) as u32,
        (ParameterType::Int, ParameterType::Float) => (w as i32 as f32).to_bits(),
        (ParameterType::Bool, ParameterType::Float) => ((w != 0) as u32 as f32).to_bits(),
        (ParameterType::Bool, ParameterType::Int) => (w != 0) as u32,
        _ => w,
    }
}

/// A D3DCOLOR (0xAARRGGBB) from floats r, g, b and, when given, a (else alpha is 0): each channel
/// is the float clamped to [0, 1] times 255, truncated (0.5 gives 127), NaN giving 0. The
/// Windows results Wine's test_effect_parameter_value_GetInt compares with compute exactly
/// this, and the alpha byte only for a value of more than 3 components; the clamping is what
/// wine_parameter_value_special's `get_int` records show (`f3` = (-3.1, 153.2, 283.3) gives
/// 0x0000ffff).
pub fn d3dcolor(rgba: &[f32]) -> u32 {
    let byte = |i: usize| -> u32 {
        let f = rgba.get(i).copied().unwrap_or(0.0);
        let c = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        (c * 255.0) as u32
    };
    let a = if rgba.len() > 3 { byte(3) } else { 0 };
    a << 24 | byte(0) << 16 | byte(1) << 8 | byte(2)
}

/// The D3D9 states whose DWORD is a float's bits (d3d9types.h documents each as a float):
/// render states FOGSTART, FOGEND, FOGDENSITY, POINTSIZE, POINTSIZE_MIN, POINTSCALE_A–C,
/// POINTSIZE_MAX, TWEENFACTOR, SLOPESCALEDEPTHBIAS, MIN/MAXTESSELLATIONLEVEL,
/// ADAPTIVETESS_X–W, DEPTHBIAS; texture-stage BUMPENVMAT00–11, BUMPENVLSCALE,
/// BUMPENVLOFFSET; sampler MIPMAPLODBIAS.
pub fn float_valued(class: StateClass, code: u32) -> bool {
    match class {
        StateClass::RenderState => {
            matches!(code, 36..=38 | 154 | 155 | 158..=160 | 166 | 170 | 175 | 178..=183 | 195)
        }
        StateClass::TextureStage => matches!(code, 7..=10 | 22 | 23),
        StateClass::SamplerState => code == 8,
        _ => false,
    }
}

/// A one-DWORD state's word as the device takes it: D3DX converts the stored value to the
/// state's own type, so a float-typed `MagFilter = expr` gives the integer (truncated) and an
/// int-typed value of a float state gives the float (wine_preshader `scenario[0]`, MAGFILTER of
/// samplers 0 and 259 = 3 from a FLOAT expression).
pub fn device_word(w: u32, stored: ParameterType, class: StateClass, code: u32) -> u32 {
    let wanted = if float_valued(class, code) { ParameterType::Float } else { ParameterType::Int };
    match stored {
        ParameterType::Float | ParameterType::Int | ParameterType::Bool => convert_word(w, stored, wanted),
        _ => w,
    }
}

/// Whether a state class takes one DWORD.
pub fn is_dword_state(class: StateClass) -> bool {
    matches!(class, StateClass::RenderState | StateClass::TextureStage | StateClass::SamplerState)
}

/// The registers a constant shader-constant state writes (four words each), from the value
/// written in the blob. fxc stores these values as MATRIX_COLUMNS `rows × 1`; D3DX writes
/// ⌈words ÷ 4⌉ registers, zeroed, and lays the matrix out one column per register (register k,
/// component i = row i of column k, rows past 4 dropped). So `VertexShaderConstant4[4] =
/// {4,4,4,4, 5,5,5,5, 6}` (9 × 1) writes c4 = 4,4,4,4 and c5 = c6 = 0 (wine_states
/// `scenario[0]`, effect.c:3121–3131). Other classes fill registers in storage order.
pub fn constant_registers(value: &Parameter) -> Vec<[u32; 4]> {
    let words = &value.value;
    let count = words.len().div_ceil(4);
    let mut out = vec![[0u32; 4]; count];
    if value.class == ParameterClass::MatrixColumns {
        let (rows, columns) = (value.rows as usize, value.columns as usize);
        for (k, reg) in out.iter_mut().enumerate().take(columns) {
            for (i, slot) in reg.iter_mut().enumerate().take(rows) {
                *slot = words.get(i * columns + k).copied().unwrap_or(0);
            }
        }
    } else {
        for (i, &w) in words.iter().enumerate() {
            out[i / 4][i % 4] = w;
        }
    }
    out
}

/// Runs a preshader once on the current parameter values (sampler states: D3DX evaluates them
/// whenever the sampler is applied).
pub fn evaluate_once(store: &Store, p: &Preshader) -> Registers {
    let mut regs = Registers::new(p);
    upload(&mut regs, store, &plan(store, &p.inputs, Target::PreshaderInputs));
    regs.run(p);
    regs
}

/// The float outputs of a state's preshader converted to the state's storage type (at most the
/// words the state stores).
pub fn expression_words(regs: &Registers, value: &Parameter) -> Vec<u32> {
    let n = (regs.sizes[Table::Output as usize] as usize * 4).min(value.value.len());
    let out = &regs.tables[Table::Output as usize];
    out.iter().take(n).map(|&w| convert_word(w, ParameterType::Float, value.ty)).collect()
}
