//! The data the [`Lowerer`](super::Lowerer) holds besides naga's module: where registers live,
//! the module's resource globals, and the open control-flow constructs. A leaf: the files that
//! extend the Lowerer import it, and the folder's own file names only it, so no file of the folder
//! names back the file that names it (docs/architecture.md#no-circles).

use naga::{Block, Expression, GlobalVariable, Handle, LocalVariable};

use super::builder::FastMap;
use crate::bytecode::{RegisterType, TextureType};

/// A naga expression: a register's value, an address, a condition.
pub(crate) type Expr = Handle<Expression>;

/// A variable holding registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Var {
    Local(Handle<LocalVariable>),
    Global(Handle<GlobalVariable>),
}

/// Where each register lives.
#[derive(Default)]
pub(crate) struct Registers {
    /// The variable of each register that is not in an array.
    pub vars: FastMap<(RegisterType, u16), Var>,
    /// Relatively addressed files: the array variable and its length.
    pub arrays: FileArrays,
}

/// The array variable and length of each relatively addressed register file, indexed by the
/// file: asked on every register store and on loads, and a table needs no hashing.
#[derive(Default)]
pub(crate) struct FileArrays([Option<(Var, u32)>; RegisterType::ALL.len()]);

impl FileArrays {
    /// The array of `file`, if it is relatively addressed.
    pub fn get(&self, file: RegisterType) -> Option<(Var, u32)> {
        self.0[file as usize]
    }

    /// Whether `file` is relatively addressed.
    pub fn contains(&self, file: RegisterType) -> bool {
        self.0[file as usize].is_some()
    }

    /// Records the array of a relatively addressed `file`.
    pub fn insert(&mut self, file: RegisterType, array: (Var, u32)) {
        self.0[file as usize] = Some(array);
    }
}

/// The buffer globals (created only when the program reads them).
#[derive(Default)]
pub(crate) struct ConstantGlobals {
    pub float: Option<FloatConstantGlobals>,
    pub int: Option<Handle<GlobalVariable>>,
    pub bool: Option<Handle<GlobalVariable>>,
    pub render_state: Option<Handle<GlobalVariable>>,
    /// `def` values as bit patterns (private, initialised).
    pub defs: Option<Handle<GlobalVariable>>,
}

/// The float constant arrays: registers `0..FLOAT_CONSTANTS_PAGE` in `low`, the rest of `count`
/// in `high`.
#[derive(Clone, Copy)]
pub(crate) struct FloatConstantGlobals {
    pub low: Handle<GlobalVariable>,
    pub high: Option<Handle<GlobalVariable>>,
    pub count: u32,
}

/// The globals of one sampler.
#[derive(Clone, Copy)]
pub(crate) enum SamplerGlobals {
    Bound {
        texture: Handle<GlobalVariable>,
        sampler: Handle<GlobalVariable>,
        ty: TextureType,
        shadow: bool,
        /// Reads gather the 2×2 block in D3D9's Fetch4 order (pixel shaders, 2D, not shadow).
        fetch4: bool,
    },
    Unbound,
}

/// An open construct.
pub(crate) enum Frame {
    If { condition: Expr, accept: Option<Block> },
    Loop { counter: Var, step: Option<Expr>, saved_al: Option<Var> },
}
