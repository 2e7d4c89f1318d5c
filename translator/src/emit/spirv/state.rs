//! What the [`Writer`](super::Writer) holds besides the module: the keys that intern types and
//! constants, the globals as functions reach them, and the state of the function being written.
//! Plain data, apart from the files that fill it (`types.rs`, `interface.rs`, `functions.rs`),
//! which extend the writer: the writer's definition names these types and those files name the
//! writer, so the types live here to keep the folder's imports one-way.

use arrayvec::ArrayVec;
use naga::{AddressSpace, Scalar, VectorSize};

use super::words::Section;

/// A type declared by what it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum LocalType {
    Void,
    Scalar(Scalar),
    Vector(VectorSize, Scalar),
    Matrix { columns: VectorSize, rows: VectorSize, scalar: Scalar },
    Pointer { base: u32, class: u32 },
    Image { dim: u32, depth: bool },
    Sampler,
    SampledImage(u32),
}

/// A constant declared by its type and value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum ConstKey {
    Scalar { ty: u32, bits: u32 },
    Composite { ty: u32, parts: ArrayVec<u32, 4> },
    Null(u32),
}

/// A global variable as functions reach it.
pub(super) struct Global {
    pub(super) var: u32,
    pub(super) space: AddressSpace,
}

/// A loop or switch that `Break` (and, for loops, `Continue`) leaves.
#[derive(Clone, Copy)]
pub(super) struct Target {
    pub(super) merge: u32,
    /// The continue target; `None` for a switch.
    pub(super) next: Option<u32>,
}

/// The mutable state of the function being written; its buffers are reused for the next one.
#[derive(Default)]
pub(super) struct FnState {
    /// Per expression: its id, 0 until written.
    pub(super) ids: Vec<u32>,
    pub(super) arg_ids: Vec<u32>,
    pub(super) local_ids: Vec<u32>,
    /// `OpFunction` and its parameters.
    pub(super) head: Section,
    /// The entry point's interface variables.
    pub(super) interface: Vec<u32>,
    /// The parameter types of the function being written.
    pub(super) params: Vec<u32>,
    /// `OpVariable`s, which must open the first block.
    pub(super) vars: Section,
    /// Loads and access chains every block may use: written after the variables.
    pub(super) prologue: Section,
    pub(super) body: Section,
    /// The current block has no terminator yet.
    pub(super) open: bool,
    pub(super) targets: Vec<Target>,
    /// The entry point's output variables, one per result member (or one for the result).
    pub(super) outputs: Vec<u32>,
    pub(super) result_is_struct: bool,
    /// The entry point writes `FragDepth` (execution mode `DepthReplacing`).
    pub(super) writes_depth: bool,
}
