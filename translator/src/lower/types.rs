//! The naga types the lowering uses, inserted once per module.

use naga::{Handle, Module, Scalar, Span, Type, TypeInner, VectorSize};

/// Handles of the common types.
#[derive(Clone, Copy)]
pub(crate) struct Types {
    pub f32: Handle<Type>,
    pub i32: Handle<Type>,
    pub bool: Handle<Type>,
    pub vec2f: Handle<Type>,
    pub vec4f: Handle<Type>,
    pub vec4i: Handle<Type>,
    pub vec4u: Handle<Type>,
    pub vec4b: Handle<Type>,
}

fn insert(module: &mut Module, inner: TypeInner) -> Handle<Type> {
    module.types.insert(Type { name: None, inner }, Span::UNDEFINED)
}

fn vec(module: &mut Module, size: VectorSize, scalar: Scalar) -> Handle<Type> {
    insert(module, TypeInner::Vector { size, scalar })
}

thread_local! {
    /// The common types as [`Types::new`] inserts them into an empty module: a new module's
    /// type arena is a copy of this one (three allocations of the final size, no hashing),
    /// not eight insertions that grow the set, its index and its spans step by step.
    static COMMON: (naga::UniqueArena<Type>, Types) = {
        let mut m = Module::default();
        let t = Types::insert_all(&mut m);
        (m.types, t)
    };
}

impl Types {
    /// The common types of a new module (`m` has no type yet).
    pub fn new(m: &mut Module) -> Types {
        debug_assert!(m.types.is_empty(), "the common types come first");
        COMMON.with(|(types, t)| {
            m.types = types.clone();
            *t
        })
    }

    fn insert_all(m: &mut Module) -> Types {
        Types {
            f32: insert(m, TypeInner::Scalar(Scalar::F32)),
            i32: insert(m, TypeInner::Scalar(Scalar::I32)),
            bool: insert(m, TypeInner::Scalar(Scalar::BOOL)),
            vec2f: vec(m, VectorSize::Bi, Scalar::F32),
            vec4f: vec(m, VectorSize::Quad, Scalar::F32),
            vec4i: vec(m, VectorSize::Quad, Scalar::I32),
            vec4u: vec(m, VectorSize::Quad, Scalar::U32),
            vec4b: vec(m, VectorSize::Quad, Scalar::BOOL),
        }
    }

    /// `array<base, len>` with the given stride.
    pub fn array(m: &mut Module, base: Handle<Type>, len: u32, stride: u32) -> Handle<Type> {
        let size = naga::ArraySize::Constant(std::num::NonZeroU32::new(len.max(1)).expect("non-zero"));
        insert(m, TypeInner::Array { base, size, stride })
    }

    /// A named struct type.
    pub fn structure(m: &mut Module, name: &str, members: Vec<naga::StructMember>, span: u32) -> Handle<Type> {
        m.types
            .insert(Type { name: Some(name.to_string()), inner: TypeInner::Struct { members, span } }, Span::UNDEFINED)
    }
}
