//! Reflection: version, inputs and outputs, samplers, constants, the constant table, features
//! and warnings, as plain C structs whose strings the shader handle keeps.

use std::ffi::{c_char, CString};

use d3d9_shader::analysis::IoRegister;
use d3d9_shader::bytecode::ShaderKind;
use d3d9_shader::{ConstantReflection, Shader};

use crate::error::{guard, write, write_with, D3d9sStatus, Failure};
use crate::parse::{opt_ptr, owned, shader_ref, D3d9sShader};

/// The C strings of a shader's reflection, kept by its handle.
pub(crate) struct Strings {
    version: CString,
    inputs: Vec<(CString, Option<CString>)>,
    outputs: Vec<(CString, Option<CString>)>,
    samplers: Vec<Option<CString>>,
    ctab: Vec<(CString, CString)>,
    warnings: Vec<(CString, CString)>,
}

impl Strings {
    pub(crate) fn new(shader: &Shader) -> Strings {
        let r = shader.reflection();
        let io =
            |regs: &[IoRegister]| regs.iter().map(|x| (owned(&x.register), x.usage.map(|u| owned(u.name())))).collect();
        Strings {
            version: owned(&r.version),
            inputs: io(&r.inputs),
            outputs: io(&r.outputs),
            samplers: r.samplers.iter().map(|s| s.declared.map(|t| owned(t.name()))).collect(),
            ctab: r.ctab.iter().map(|c| (owned(&c.name), owned(c.set))).collect(),
            warnings: shader.warnings().iter().map(|w| (owned(&w.message), owned(w.rule.name()))).collect(),
        }
    }
}

/// A vertex shader ([`D3d9sShaderInfo::stage`]).
pub const D3D9S_STAGE_VERTEX: u32 = 0;
/// A pixel shader.
pub const D3D9S_STAGE_PIXEL: u32 = 1;

/// [`D3d9sShaderInfo::features`]: some instruction is predicated.
pub const D3D9S_FEATURE_PREDICATION: u32 = 1 << 0;
/// Some register is relatively addressed.
pub const D3D9S_FEATURE_RELATIVE_ADDRESSING: u32 = 1 << 1;
/// `texkill`.
pub const D3D9S_FEATURE_TEXKILL: u32 = 1 << 2;
/// `dsx`/`dsy`/`texldd`.
pub const D3D9S_FEATURE_DERIVATIVES: u32 = 1 << 3;
/// `loop`.
pub const D3D9S_FEATURE_LOOPS: u32 = 1 << 4;
/// `rep`.
pub const D3D9S_FEATURE_REPS: u32 = 1 << 5;
/// `if`/`ifc`.
pub const D3D9S_FEATURE_BRANCHES: u32 = 1 << 6;
/// `call`/`callnz`.
pub const D3D9S_FEATURE_CALLS: u32 = 1 << 7;
/// `ret` before the end of the main program.
pub const D3D9S_FEATURE_EARLY_RETURN: u32 = 1 << 8;
/// Writes oDepth.
pub const D3D9S_FEATURE_DEPTH_OUTPUT: u32 = 1 << 9;
/// Reads vPos.
pub const D3D9S_FEATURE_VPOS: u32 = 1 << 10;
/// Reads vFace.
pub const D3D9S_FEATURE_VFACE: u32 = 1 << 11;
/// Samples textures in a vertex shader.
pub const D3D9S_FEATURE_VERTEX_TEXTURE_FETCH: u32 = 1 << 12;
/// ps_1_x bump-environment mapping (texbem, texbeml, bem).
pub const D3D9S_FEATURE_BUMP_ENV: u32 = 1 << 13;

/// A shader's summary ([`d3d9s_shader_info`]); the counts bound the index arguments of the
/// other reflection functions.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sShaderInfo {
    /// [`D3D9S_STAGE_VERTEX`] or [`D3D9S_STAGE_PIXEL`].
    pub stage: u32,
    /// Major version (1, 2 or 3).
    pub major: u32,
    /// Minor version (0–4 for Shader Model 1; 0, 1 for `2_x`, 255 for `_sw`).
    pub minor: u32,
    /// `"vs_3_0"`, `"ps_2_x"`, … (the handle's).
    pub version: *const c_char,
    /// Inputs ([`d3d9s_shader_input`]).
    pub input_count: usize,
    /// Outputs ([`d3d9s_shader_output`]).
    pub output_count: usize,
    /// Samplers ([`d3d9s_shader_sampler`]).
    pub sampler_count: usize,
    /// Constant-table entries ([`d3d9s_shader_ctab_entry`]).
    pub ctab_count: usize,
    /// Warnings lenient validation let through ([`d3d9s_shader_warning`]).
    pub warning_count: usize,
    /// Temporary registers used (highest `r#` + 1).
    pub temps: u32,
    /// `D3D9S_FEATURE_*` bits.
    pub features: u32,
    /// 1 when every varying has a place in the stable interface (`d3d9s_linkage_stable`): a
    /// pair of such shaders needs no `d3d9s_link`.
    pub fits_stable_interface: u32,
}

fn features(f: &d3d9_shader::analysis::Features) -> u32 {
    let bits = [
        f.predication,
        f.relative_addressing,
        f.texkill,
        f.derivatives,
        f.loops,
        f.reps,
        f.branches,
        f.calls,
        f.early_return,
        f.depth_output,
        f.vpos,
        f.vface,
        f.vertex_texture_fetch,
        f.bump_env,
    ];
    bits.iter().enumerate().filter(|(_, &b)| b).map(|(n, _)| 1u32 << n).sum()
}

/// The shader's summary into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_info(shader: *const D3d9sShader, out: *mut D3d9sShaderInfo) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let (s, strings) = (&h.shader, h.strings());
        let r = s.reflection();
        let v = s.version();
        let value = D3d9sShaderInfo {
            stage: if v.kind == ShaderKind::Vertex { D3D9S_STAGE_VERTEX } else { D3D9S_STAGE_PIXEL },
            major: u32::from(v.major),
            minor: u32::from(v.minor),
            version: strings.version.as_ptr(),
            input_count: r.inputs.len(),
            output_count: r.outputs.len(),
            sampler_count: r.samplers.len(),
            ctab_count: r.ctab.len(),
            warning_count: strings.warnings.len(),
            temps: u32::from(r.temps),
            features: features(&r.features),
            fits_stable_interface: u32::from(s.fits_stable_interface()),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// An input or output register ([`d3d9s_shader_input`], [`d3d9s_shader_output`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sIoRegister {
    /// The register as assembly writes it (`"v3"`, `"oT0"`, `"vPos"`; the handle's).
    pub name: *const c_char,
    /// The register file, a D3DSHADER_PARAM_REGISTER_TYPE (D3DSPR_INPUT = 1, …).
    pub file: u32,
    /// The register number.
    pub index: u32,
    /// The `dcl` usage name (`"texcoord"`, `"color"`, …), NULL when undeclared.
    pub usage_name: *const c_char,
    /// The D3DDECLUSAGE code (0 position … 13 sample), -1 when undeclared.
    pub usage: i32,
    /// The usage index.
    pub usage_index: u32,
    /// The write mask of the `dcl` (or of the components used when undeclared), bit 0 = x.
    pub mask: u32,
    /// Components read (inputs) or written (outputs).
    pub used_mask: u32,
    /// 1 when declared `_centroid`.
    pub centroid: u32,
}

fn io_register(
    regs: &[IoRegister],
    names: &[(CString, Option<CString>)],
    index: usize,
) -> Result<D3d9sIoRegister, Failure> {
    let (r, (name, usage)) =
        regs.get(index).zip(names.get(index)).ok_or_else(|| Failure::invalid("register index out of range"))?;
    Ok(D3d9sIoRegister {
        name: name.as_ptr(),
        file: r.file.to_raw(r.index).0,
        index: u32::from(r.index),
        usage_name: opt_ptr(usage),
        usage: r.usage_code.map_or(-1, i32::from),
        usage_index: u32::from(r.usage_index),
        mask: u32::from(r.mask),
        used_mask: u32::from(r.used_mask),
        centroid: u32::from(r.centroid),
    })
}

/// Input `index` (below [`D3d9sShaderInfo::input_count`]) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_input(
    shader: *const D3d9sShader,
    index: usize,
    out: *mut D3d9sIoRegister,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let value = io_register(&h.shader.reflection().inputs, &h.strings().inputs, index)?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Output `index` (below [`D3d9sShaderInfo::output_count`]) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_output(
    shader: *const D3d9sShader,
    index: usize,
    out: *mut D3d9sIoRegister,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let value = io_register(&h.shader.reflection().outputs, &h.strings().outputs, index)?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// A sampler the shader uses ([`d3d9s_shader_sampler`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sSamplerInfo {
    /// The `s#` number.
    pub index: u32,
    /// The declared type as D3DSAMPLER_TEXTURE_TYPE >> 27: 2 = 2D, 3 = cube, 4 = volume;
    /// 0 when undeclared (Shader Model 1: the bound texture decides).
    pub texture_type: u32,
    /// The declared type's name (`"2d"`, `"cube"`, `"volume"`), NULL when undeclared.
    pub declared: *const c_char,
}

/// Sampler `index` (below [`D3d9sShaderInfo::sampler_count`]) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_sampler(
    shader: *const D3d9sShader,
    index: usize,
    out: *mut D3d9sSamplerInfo,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let (samplers, names) = (&h.shader.reflection().samplers, &h.strings().samplers);
        let (s, name) =
            samplers.get(index).zip(names.get(index)).ok_or_else(|| Failure::invalid("sampler index out of range"))?;
        let value = D3d9sSamplerInfo {
            index: u32::from(s.index),
            texture_type: s.texture_type.map_or(0, |t| t as u32),
            declared: opt_ptr(name),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Float constants `c#` ([`d3d9s_shader_constants`]).
pub const D3D9S_CONSTANTS_FLOAT: u32 = 0;
/// Integer constants `i#`.
pub const D3D9S_CONSTANTS_INT: u32 = 1;
/// Boolean constants `b#`.
pub const D3D9S_CONSTANTS_BOOL: u32 = 2;

/// How the shader uses one constant file ([`d3d9s_shader_constants`]).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sConstantInfo {
    /// Ranges of registers read directly ([`d3d9s_shader_constant_range`]).
    pub range_count: usize,
    /// 1 when some read is relatively addressed (`c[a0.x + n]`): upload the whole file.
    pub relative: u32,
    /// Registers set by `def`/`defi`/`defb` ([`d3d9s_shader_constant_defined`]); their values
    /// win over uploaded ones.
    pub defined_count: usize,
}

fn constants(shader: &Shader, file: u32) -> Result<&ConstantReflection, Failure> {
    let r = shader.reflection();
    Ok(match file {
        D3D9S_CONSTANTS_FLOAT => &r.float_constants,
        D3D9S_CONSTANTS_INT => &r.int_constants,
        D3D9S_CONSTANTS_BOOL => &r.bool_constants,
        n => return Err(Failure::invalid(format!("constant file {n}: 0 float, 1 int, 2 bool"))),
    })
}

/// How the shader uses constant file `file` (`D3D9S_CONSTANTS_*`) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_constants(
    shader: *const D3d9sShader,
    file: u32,
    out: *mut D3d9sConstantInfo,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let c = constants(&unsafe { shader_ref(shader) }?.shader, file)?;
        let value = D3d9sConstantInfo {
            range_count: c.ranges.len(),
            relative: u32::from(c.relative),
            defined_count: c.defined.len(),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Range `index` of the registers of file `file` read directly: `*first` to `*last`, inclusive.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `first` and `last` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_constant_range(
    shader: *const D3d9sShader,
    file: u32,
    index: usize,
    first: *mut u32,
    last: *mut u32,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let c = constants(&unsafe { shader_ref(shader) }?.shader, file)?;
        let r = c.ranges.get(index).ok_or_else(|| Failure::invalid("range index out of range"))?;
        // SAFETY: NULL or writable, both (this function's contract).
        unsafe {
            write_with(last, "last", || {
                write(first, "first", u32::from(*r.start()))?;
                Ok(u32::from(*r.end()))
            })
        }
    })
}

/// A register set by `def`/`defi`/`defb`.
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sDefinedConstant {
    /// The register number.
    pub register_index: u32,
    /// Its raw 32-bit values: a float's bits, an integer, or a boolean in `value[0]`.
    pub value: [u32; 4],
}

/// Defined register `index` (below [`D3d9sConstantInfo::defined_count`], in register order) of
/// file `file` into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_constant_defined(
    shader: *const D3d9sShader,
    file: u32,
    index: usize,
    out: *mut D3d9sDefinedConstant,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let c = constants(&unsafe { shader_ref(shader) }?.shader, file)?;
        let (&n, &value) = c.defined.iter().nth(index).ok_or_else(|| Failure::invalid("index out of range"))?;
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", D3d9sDefinedConstant { register_index: u32::from(n), value }) }
    })
}

/// An entry of the constant table (the CTAB comment fxc writes).
#[repr(C)]
#[derive(Debug)]
pub struct D3d9sCtabEntry {
    /// The uniform's name (the handle's).
    pub name: *const c_char,
    /// Its register set: `"b"`, `"i"`, `"c"` or `"s"`.
    pub set: *const c_char,
    /// First register.
    pub register_index: u32,
    /// Registers used.
    pub register_count: u32,
}

/// Constant-table entry `index` (below [`D3d9sShaderInfo::ctab_count`]) into `*out`.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_ctab_entry(
    shader: *const D3d9sShader,
    index: usize,
    out: *mut D3d9sCtabEntry,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let c = h.shader.reflection().ctab.get(index).ok_or_else(|| Failure::invalid("index out of range"))?;
        let (name, set) = &h.strings().ctab[index];
        let value = D3d9sCtabEntry {
            name: name.as_ptr(),
            set: set.as_ptr(),
            register_index: u32::from(c.register),
            register_count: u32::from(c.count),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}

/// Warning `index` (below [`D3d9sShaderInfo::warning_count`]) of lenient validation into
/// `*out`: message and rule (the handle's); token and instruction are those of the decoded blob.
///
/// Thread safety: any thread, concurrently with any call but the handle's free.
///
/// # Safety
///
/// `shader` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3d9s_shader_warning(
    shader: *const D3d9sShader,
    index: usize,
    out: *mut crate::error::D3d9sDiagnostic,
) -> D3d9sStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (this function's contract).
        let h = unsafe { shader_ref(shader) }?;
        let w = h.shader.warnings().get(index).ok_or_else(|| Failure::invalid("warning index out of range"))?;
        let (message, rule) = &h.strings().warnings[index];
        let signed = |v: Option<u64>| v.map_or(-1, |v| v as i64);
        let value = crate::error::D3d9sDiagnostic {
            message: message.as_ptr(),
            rule: rule.as_ptr(),
            token: signed(w.token.map(u64::from)),
            byte_offset: signed(w.token.map(|t| u64::from(t) * 4)),
            instruction: signed(w.instruction.map(|i| i as u64)),
        };
        // SAFETY: NULL or writable (this function's contract).
        unsafe { write(out, "out", value) }
    })
}
