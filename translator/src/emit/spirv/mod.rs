//! The project's own SPIR-V writer: the validated naga module of a translation, written straight
//! into words.
//!
//! naga's SPIR-V backend is general (every shader stage, every IR construct, debug info, bounds
//! checks) and builds an operand vector per instruction; it was the largest stage of a
//! translation (docs/architecture.md#spirv-writer). The lowering and the fixed-function generator use a
//! small part of naga's IR, and this writer covers exactly that part, one pass over the module,
//! each instruction written once into its section. A module with anything outside that part is
//! [`Unsupported`], and [`crate::emit::spirv`] hands it to naga's writer instead; the tests prove
//! that every translation of the corpora takes this path.
//!
//! Meaning is naga's: each IR construct becomes the instructions naga's backend gives it (the
//! same operations, conversions with the same clamping, the same decorations), so that the
//! SPIR-V and the WGSL of a module compute the same values. What differs is only what naga adds
//! for IR this project never makes: bounds checks (the lowering clamps its own indices) and loop
//! counters (every loop the lowering makes has its own bound, docs/architecture.md#spirv-writer).

mod expressions;
mod functions;
mod interface;
mod state;
mod statements;
mod textures;
mod types;
mod words;

use naga::{Handle, Module};
use rustc_hash::FxHashMap;
use spirv::{Capability, Op};

use super::facts::WriterFacts;

use self::state::{ConstKey, FnState, Global, LocalType};
use self::words::Section;

/// A construct the writer does not cover; the reason names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

/// The writer's result.
pub(super) type Result<T> = std::result::Result<T, Unsupported>;

/// Writes `module` as SPIR-V `version` (major, minor), or says why it cannot.
pub fn write(module: &Module, info: &WriterFacts, version: (u8, u8)) -> Result<Vec<u32>> {
    if !module.overrides.is_empty() {
        // Overrides are pipeline constants a caller specialises first (`Translation::specialise`).
        return Err(Unsupported("override"));
    }
    let buffers = BUFFERS.with_borrow_mut(std::mem::take);
    let mut w = Writer::new(module, info, version, buffers);
    let written = w.write_module().map(|()| w.finish());
    if w.buf.kept_bytes() <= KEEP_BYTES {
        BUFFERS.with_borrow_mut(|b| *b = w.buf);
    }
    written
}

thread_local! {
    /// The buffers of the last module a thread wrote: each keeps its capacity for the next one,
    /// so a translation allocates its output and little else (the sections, maps and tables
    /// were 65 of the ~320 allocations per shader of the bench's common list).
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// Buffers past this size are dropped rather than kept for the next module.
const KEEP_BYTES: usize = 1 << 20;

/// A writer's sections and tables, apart from the module they describe.
#[derive(Default)]
struct Buffers {
    entry_points: Section,
    execution_modes: Section,
    annotations: Section,
    /// Types, constants and global variables, in dependency order.
    declarations: Section,
    functions: Section,
    /// Per naga type: its id, 0 until declared.
    type_ids: Vec<u32>,
    local_types: FxHashMap<LocalType, u32>,
    /// The function types declared, as records: id, result type, parameter count, parameter
    /// types.
    fn_types: Vec<u32>,
    constants: FxHashMap<ConstKey, u32>,
    /// Per global expression: its constant's id, 0 until declared.
    global_expr_ids: Vec<u32>,
    /// Per global variable: its variable.
    globals: Vec<Global>,
    /// Per function: its id.
    function_ids: Vec<u32>,
    /// The state of the function being written.
    fx: FnState,
}

impl Buffers {
    /// Empties every buffer for `module` (the per-handle tables sized to it), keeping their
    /// capacity.
    fn reset(&mut self, module: &Module) {
        let sections = [
            &mut self.entry_points,
            &mut self.execution_modes,
            &mut self.annotations,
            &mut self.declarations,
            &mut self.functions,
        ];
        for section in sections {
            section.0.clear();
        }
        self.type_ids.clear();
        self.type_ids.resize(module.types.len(), 0);
        self.local_types.clear();
        self.fn_types.clear();
        self.constants.clear();
        self.global_expr_ids.clear();
        self.global_expr_ids.resize(module.global_expressions.len(), 0);
        self.globals.clear();
        self.function_ids.clear();
    }

    /// The bytes the word buffers hold (the maps stay small: types and constants).
    fn kept_bytes(&self) -> usize {
        let sections =
            [&self.entry_points, &self.execution_modes, &self.annotations, &self.declarations, &self.functions];
        let words: usize = sections.iter().map(|s| s.0.capacity()).sum::<usize>()
            + self.fx.vars.0.capacity()
            + self.fx.prologue.0.capacity()
            + self.fx.body.0.capacity()
            + self.fx.ids.capacity();
        4 * words
    }
}

/// One module's writing state.
struct Writer<'m> {
    module: &'m Module,
    info: &'m WriterFacts,
    version: (u8, u8),
    /// The next free result id.
    next_id: u32,
    /// Capabilities beyond `Shader`, as bits of [`CAPABILITIES`].
    capabilities: u32,
    /// The `GLSL.std.450` import.
    glsl: u32,
    /// Scalar (slot 0) and vector (slots 1–3) type ids by kind: float, sint, uint, bool.
    numeric_ids: [[u32; 4]; 4],
    /// The sections, tables and function state, kept per thread between modules.
    buf: Buffers,
}

/// Capabilities a module may need besides `Shader`, by bit.
const CAPABILITIES: [Capability; 5] = [
    Capability::ClipDistance,
    Capability::ImageQuery,
    Capability::DerivativeControl,
    Capability::Sampled1D,
    Capability::SampleRateShading,
];

impl<'m> Writer<'m> {
    fn new(module: &'m Module, info: &'m WriterFacts, version: (u8, u8), mut buf: Buffers) -> Self {
        buf.reset(module);
        let mut w =
            Writer { module, info, version, next_id: 1, capabilities: 0, glsl: 0, numeric_ids: [[0; 4]; 4], buf };
        w.glsl = w.id();
        w
    }

    /// A fresh result id.
    pub(super) fn id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub(super) fn require(&mut self, capability: Capability) {
        if let Some(bit) = CAPABILITIES.iter().position(|&c| c == capability) {
            self.capabilities |= 1 << bit;
        }
    }

    pub(super) fn decorate(&mut self, target: u32, decoration: spirv::Decoration, operands: &[u32]) {
        self.buf.annotations.op_list(Op::Decorate, &[target, decoration as u32], operands);
    }

    fn write_module(&mut self) -> Result<()> {
        self.declare_globals()?;
        for (handle, _) in self.module.functions.iter() {
            let id = self.id();
            debug_assert_eq!(self.buf.function_ids.len(), handle.index());
            self.buf.function_ids.push(id);
        }
        for (handle, fun) in self.module.functions.iter() {
            self.write_function(fun, &self.info[handle], self.buf.function_ids[handle.index()])?;
        }
        for (index, ep) in self.module.entry_points.iter().enumerate() {
            self.write_entry_point(ep, self.info.get_entry_point(index))?;
        }
        Ok(())
    }

    /// The module: header, then the sections in the order of the logical layout (2.4).
    fn finish(&mut self) -> Vec<u32> {
        let capabilities = self.capabilities.count_ones() as usize + 1;
        let len = 5
            + 2 * capabilities
            + 6
            + 3
            + self.buf.entry_points.0.len()
            + self.buf.execution_modes.0.len()
            + self.buf.annotations.0.len()
            + self.buf.declarations.0.len()
            + self.buf.functions.0.len();
        let mut out = Section(Vec::with_capacity(len));
        let version = (u32::from(self.version.0) << 16) | (u32::from(self.version.1) << 8);
        // Generator 0: a tool without a registered generator number.
        out.0.extend_from_slice(&[spirv::MAGIC_NUMBER, version, 0, self.next_id, 0]);
        out.op(Op::Capability, &[Capability::Shader as u32]);
        for (bit, &capability) in CAPABILITIES.iter().enumerate() {
            if self.capabilities & (1 << bit) != 0 {
                out.op(Op::Capability, &[capability as u32]);
            }
        }
        let start = out.begin(Op::ExtInstImport);
        out.push(self.glsl);
        out.string("GLSL.std.450");
        out.end(start);
        out.op(Op::MemoryModel, &[spirv::AddressingModel::Logical as u32, spirv::MemoryModel::GLSL450 as u32]);
        for section in [
            &self.buf.entry_points,
            &self.buf.execution_modes,
            &self.buf.annotations,
            &self.buf.declarations,
            &self.buf.functions,
        ] {
            out.0.extend_from_slice(&section.0);
        }
        out.0
    }
}

/// The global expression `handle`'s id: a constant.
impl Writer<'_> {
    pub(super) fn global_expression(&mut self, handle: Handle<naga::Expression>) -> Result<u32> {
        let cached = self.buf.global_expr_ids[handle.index()];
        if cached != 0 {
            return Ok(cached);
        }
        let module = self.module;
        let id = self.constant_expression(&module.global_expressions, handle, None)?;
        self.buf.global_expr_ids[handle.index()] = id;
        Ok(id)
    }
}

#[cfg(test)]
mod tests;
