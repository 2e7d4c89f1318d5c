//! Types and constants, each declared once (SPIR-V 2.8: two declarations of one non-aggregate
//! type are invalid, so vectors, pointers and images are interned by what they are, whether the
//! module names them as a naga type or they arise as an expression's value type).

use arrayvec::ArrayVec;
use naga::{
    proc::TypeResolution, Handle, ImageClass, ImageDimension, Literal, Scalar, ScalarKind, Type, TypeInner, VectorSize,
};
use spirv::{Capability, Decoration, Op, StorageClass};

use super::super::facts::FunctionFacts;
use super::state::{ConstKey, LocalType};
use super::{Result, Unsupported, Writer};

impl Writer<'_> {
    fn local_type(&mut self, key: LocalType) -> Result<u32> {
        if let Some(&id) = self.buf.local_types.get(&key) {
            return Ok(id);
        }
        let id = match &key {
            LocalType::Void => self.declare(Op::TypeVoid, &[]),
            LocalType::Scalar(s) => self.declare_scalar(*s)?,
            LocalType::Vector(size, s) => {
                let component = self.scalar_type(*s)?;
                self.declare(Op::TypeVector, &[component, *size as u32])
            }
            LocalType::Matrix { columns, rows, scalar } => {
                let column = self.vector_type(*rows, *scalar)?;
                self.declare(Op::TypeMatrix, &[column, *columns as u32])
            }
            LocalType::Pointer { base, class } => self.declare(Op::TypePointer, &[*class, *base]),
            LocalType::Image { dim, depth } => {
                let float = self.scalar_type(Scalar::F32)?;
                // Sampled type, dim, depth, arrayed, multisampled, sampled (1: with a sampler),
                // format (Unknown).
                self.declare(Op::TypeImage, &[float, *dim, u32::from(*depth), 0, 0, 1, 0])
            }
            LocalType::Sampler => self.declare(Op::TypeSampler, &[]),
            LocalType::SampledImage(image) => self.declare(Op::TypeSampledImage, &[*image]),
        };
        self.buf.local_types.insert(key, id);
        Ok(id)
    }

    /// Declares an instruction whose result id is its first operand.
    fn declare(&mut self, op: Op, operands: &[u32]) -> u32 {
        let id = self.id();
        self.buf.declarations.op_list(op, &[id], operands);
        id
    }

    fn declare_scalar(&mut self, s: Scalar) -> Result<u32> {
        match (s.kind, s.width) {
            (ScalarKind::Float, 4) => Ok(self.declare(Op::TypeFloat, &[32])),
            (ScalarKind::Sint, 4) => Ok(self.declare(Op::TypeInt, &[32, 1])),
            (ScalarKind::Uint, 4) => Ok(self.declare(Op::TypeInt, &[32, 0])),
            (ScalarKind::Bool, _) => Ok(self.declare(Op::TypeBool, &[])),
            _ => Err(Unsupported("scalar other than 32-bit or bool")),
        }
    }

    pub(super) fn void_type(&mut self) -> Result<u32> {
        self.local_type(LocalType::Void)
    }

    pub(super) fn scalar_type(&mut self, s: Scalar) -> Result<u32> {
        self.numeric(None, s)
    }

    pub(super) fn vector_type(&mut self, size: VectorSize, s: Scalar) -> Result<u32> {
        self.numeric(Some(size), s)
    }

    /// Scalar and vector types are asked for at nearly every expression: a table by kind and
    /// size answers without hashing.
    fn numeric(&mut self, size: Option<VectorSize>, s: Scalar) -> Result<u32> {
        let kind = match s.kind {
            ScalarKind::Float => 0,
            ScalarKind::Sint => 1,
            ScalarKind::Uint => 2,
            ScalarKind::Bool => 3,
            _ => return Err(Unsupported("abstract type")),
        };
        let slot = size.map_or(0, |n| n as usize - 1);
        let cached = self.numeric_ids[kind][slot];
        if cached != 0 && (s.width == 4 || kind == 3) {
            return Ok(cached);
        }
        let id = match size {
            Some(size) => self.local_type(LocalType::Vector(size, s))?,
            None => self.local_type(LocalType::Scalar(s))?,
        };
        if s.width == 4 || kind == 3 {
            self.numeric_ids[kind][slot] = id;
        }
        Ok(id)
    }

    /// A scalar or vector type.
    pub(super) fn numeric_type(&mut self, size: Option<VectorSize>, s: Scalar) -> Result<u32> {
        match size {
            Some(size) => self.vector_type(size, s),
            None => self.scalar_type(s),
        }
    }

    pub(super) fn pointer_type(&mut self, base: u32, class: StorageClass) -> Result<u32> {
        self.local_type(LocalType::Pointer { base, class: class as u32 })
    }

    pub(super) fn sampled_image_type(&mut self, image: u32) -> Result<u32> {
        self.local_type(LocalType::SampledImage(image))
    }

    pub(super) fn function_type(&mut self, result: u32, params: &[u32]) -> Result<u32> {
        // A module declares few function types: a search of the records, no key to allocate.
        let records = &self.buf.fn_types;
        let mut at = 0;
        while let [id, r, count, rest @ ..] = &records[at..] {
            let declared = rest.get(..*count as usize).unwrap_or_default();
            if *r == result && declared == params {
                return Ok(*id);
            }
            at += 3 + declared.len();
        }
        let id = self.id();
        self.buf.declarations.op_list(Op::TypeFunction, &[id, result], params);
        self.buf.fn_types.extend_from_slice(&[id, result, params.len() as u32]);
        self.buf.fn_types.extend_from_slice(params);
        Ok(id)
    }

    /// The id of naga type `handle`.
    pub(super) fn type_id(&mut self, handle: Handle<Type>) -> Result<u32> {
        let cached = self.buf.type_ids[handle.index()];
        if cached != 0 {
            return Ok(cached);
        }
        let module = self.module;
        let id = match module.types[handle].inner {
            TypeInner::Array { base, size, stride } => {
                let naga::ArraySize::Constant(len) = size else {
                    return Err(Unsupported("array without a constant size"));
                };
                let element = self.type_id(base)?;
                let len = self.u32_constant(len.get())?;
                let id = self.declare(Op::TypeArray, &[element, len]);
                // naga's writer gives every array its stride; the uniform layouts need it.
                self.decorate(id, Decoration::ArrayStride, &[stride]);
                id
            }
            TypeInner::Struct { ref members, .. } => {
                let mut parts = Vec::with_capacity(members.len());
                for m in members {
                    parts.push(self.type_id(m.ty)?);
                }
                let id = self.declare(Op::TypeStruct, &parts);
                for (i, m) in members.iter().enumerate() {
                    self.buf.annotations.op(Op::MemberDecorate, &[id, i as u32, Decoration::Offset as u32, m.offset]);
                    self.matrix_layout(id, i as u32, m.ty);
                }
                id
            }
            ref inner => self.inner_type(inner)?,
        };
        self.buf.type_ids[handle.index()] = id;
        Ok(id)
    }

    /// A matrix member (or a member that is an array of matrices) is column-major with its
    /// columns 8 or 16 bytes apart (WGSL's layout; naga's writer decorates it so).
    fn matrix_layout(&mut self, id: u32, member: u32, mut ty: Handle<Type>) {
        while let TypeInner::Array { base, .. } = self.module.types[ty].inner {
            ty = base;
        }
        if let TypeInner::Matrix { rows, scalar, .. } = self.module.types[ty].inner {
            let stride = if rows == VectorSize::Bi { 2 } else { 4 } * u32::from(scalar.width);
            self.buf.annotations.op(Op::MemberDecorate, &[id, member, Decoration::ColMajor as u32]);
            self.buf.annotations.op(Op::MemberDecorate, &[id, member, Decoration::MatrixStride as u32, stride]);
        }
    }

    /// The id of a type given by value (an expression's type that names no naga type).
    pub(super) fn inner_type(&mut self, inner: &TypeInner) -> Result<u32> {
        match *inner {
            TypeInner::Scalar(s) => self.scalar_type(s),
            TypeInner::Vector { size, scalar } => self.vector_type(size, scalar),
            TypeInner::Matrix { columns, rows, scalar } if scalar == Scalar::F32 => {
                self.local_type(LocalType::Matrix { columns, rows, scalar })
            }
            TypeInner::Pointer { base, space } => {
                let base = self.type_id(base)?;
                self.pointer_type(base, storage_class(space)?)
            }
            TypeInner::ValuePointer { size, scalar, space } => {
                let base = self.numeric_type(size, scalar)?;
                self.pointer_type(base, storage_class(space)?)
            }
            TypeInner::Image { dim, arrayed: false, class } => {
                let depth = match class {
                    ImageClass::Sampled { kind: ScalarKind::Float, multi: false } => false,
                    ImageClass::Depth { multi: false } => true,
                    _ => return Err(Unsupported("image class")),
                };
                let dim = match dim {
                    ImageDimension::D1 => {
                        self.require(Capability::Sampled1D);
                        spirv::Dim::Dim1D
                    }
                    ImageDimension::D2 => spirv::Dim::Dim2D,
                    ImageDimension::D3 => spirv::Dim::Dim3D,
                    ImageDimension::Cube => spirv::Dim::DimCube,
                };
                self.local_type(LocalType::Image { dim: dim as u32, depth })
            }
            TypeInner::Sampler { .. } => self.local_type(LocalType::Sampler),
            _ => Err(Unsupported("type")),
        }
    }

    pub(super) fn resolution_type(&mut self, ty: &TypeResolution) -> Result<u32> {
        match *ty {
            TypeResolution::Handle(h) => self.type_id(h),
            TypeResolution::Value(ref inner) => self.inner_type(inner),
        }
    }

    fn constant(&mut self, key: ConstKey, op: Op, operands: &[u32]) -> u32 {
        if let Some(&id) = self.buf.constants.get(&key) {
            return id;
        }
        let id = self.id();
        let ty = match key {
            ConstKey::Scalar { ty, .. } | ConstKey::Composite { ty, .. } | ConstKey::Null(ty) => ty,
        };
        self.buf.declarations.op_list(op, &[ty, id], operands);
        self.buf.constants.insert(key, id);
        id
    }

    pub(super) fn literal(&mut self, literal: Literal) -> Result<u32> {
        let (bits, op) = match literal {
            Literal::F32(v) => (v.to_bits(), Op::Constant),
            Literal::U32(v) => (v, Op::Constant),
            Literal::I32(v) => (v as u32, Op::Constant),
            Literal::Bool(true) => (1, Op::ConstantTrue),
            Literal::Bool(false) => (0, Op::ConstantFalse),
            _ => return Err(Unsupported("literal other than f32, i32, u32 or bool")),
        };
        let ty = self.scalar_type(literal.scalar())?;
        let operands: &[u32] = if op == Op::Constant { &[bits] } else { &[] };
        Ok(self.constant(ConstKey::Scalar { ty, bits }, op, operands))
    }

    pub(super) fn u32_constant(&mut self, v: u32) -> Result<u32> {
        self.literal(Literal::U32(v))
    }

    pub(super) fn composite_constant(&mut self, ty: u32, parts: &[u32]) -> u32 {
        match ArrayVec::try_from(parts) {
            Ok(small) => self.constant(ConstKey::Composite { ty, parts: small }, Op::ConstantComposite, parts),
            Err(_) => {
                // Long arrays (the `def` banks) are each their own constant.
                let id = self.id();
                self.buf.declarations.op_list(Op::ConstantComposite, &[ty, id], parts);
                id
            }
        }
    }

    pub(super) fn null_constant(&mut self, ty: u32) -> u32 {
        self.constant(ConstKey::Null(ty), Op::ConstantNull, &[])
    }

    /// `value` repeated over a vector of `size`, as a constant.
    pub(super) fn splat_constant(&mut self, size: Option<VectorSize>, scalar: Scalar, value: u32) -> Result<u32> {
        let Some(size) = size else { return Ok(value) };
        let ty = self.vector_type(size, scalar)?;
        let parts = [value; 4];
        Ok(self.composite_constant(ty, &parts[..size as usize]))
    }

    /// A constant expression of `arena` (the module's global expressions, or a function's
    /// expressions that need no emitting): literals, named constants, zero values and
    /// composites of them.
    pub(super) fn constant_expression(
        &mut self,
        arena: &naga::Arena<naga::Expression>,
        handle: Handle<naga::Expression>,
        fi: Option<&FunctionFacts>,
    ) -> Result<u32> {
        use naga::Expression as E;
        match arena[handle] {
            E::Literal(literal) => self.literal(literal),
            E::Constant(c) => {
                let init = self.module.constants[c].init;
                self.global_expression(init)
            }
            E::ZeroValue(t) => {
                let t = self.type_id(t)?;
                Ok(self.null_constant(t))
            }
            E::Compose { ty: t, ref components } => {
                let t = self.type_id(t)?;
                // Vectors (nearly every composite) on the stack; the long `def` banks in a Vec.
                if components.len() <= 4 {
                    let mut parts = ArrayVec::<u32, 4>::new();
                    for &c in components {
                        parts.push(self.constant_expression(arena, c, fi)?);
                    }
                    return Ok(self.composite_constant(t, &parts));
                }
                let mut parts = Vec::with_capacity(components.len());
                for &c in components {
                    parts.push(self.constant_expression(arena, c, fi)?);
                }
                Ok(self.composite_constant(t, &parts))
            }
            E::Splat { size, value } => {
                let part = self.constant_expression(arena, value, fi)?;
                let info = self.info;
                let t = match fi {
                    Some(fi) => self.resolution_type(fi.ty(handle))?,
                    None => self.resolution_type(&info[handle])?,
                };
                let parts = [part; 4];
                Ok(self.composite_constant(t, &parts[..size as usize]))
            }
            _ => Err(Unsupported("constant expression")),
        }
    }
}

/// The storage class of a naga address space.
pub(super) fn storage_class(space: naga::AddressSpace) -> Result<StorageClass> {
    use naga::AddressSpace as A;
    Ok(match space {
        A::Function => StorageClass::Function,
        A::Private => StorageClass::Private,
        A::Uniform => StorageClass::Uniform,
        A::Handle => StorageClass::UniformConstant,
        _ => return Err(Unsupported("address space")),
    })
}
