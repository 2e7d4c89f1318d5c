//! Types as WGSL writes them: `vec4<f32>`, `array<vec4<u32>, 1>`, `texture_2d<f32>`, a
//! struct's name. The spelling is naga's (the text is compared by eye with what it wrote).

use naga::{ImageClass, ImageDimension, Scalar, ScalarKind, TypeInner, VectorSize};

use super::{Unsupported, Writer};

impl Writer<'_> {
    /// The type `ty`: structs by name, the rest spelled out.
    pub(super) fn write_type(&mut self, ty: naga::Handle<naga::Type>) -> Result<(), Unsupported> {
        match &self.module.types[ty].inner {
            TypeInner::Struct { .. } => {
                let name = self.names.types[ty.index()];
                self.out.push_str(self.names.get(name));
                Ok(())
            }
            inner => self.write_type_inner(inner),
        }
    }

    /// A type known by its contents (an expression's resolved type, or a named one's inner).
    pub(super) fn write_type_inner(&mut self, inner: &TypeInner) -> Result<(), Unsupported> {
        match *inner {
            TypeInner::Scalar(s) => self.out.push_str(scalar_str(s)?),
            TypeInner::Vector { size, scalar } => self.out.push_str(vector_str(size, scalar)?),
            TypeInner::Matrix { columns, rows, scalar } => {
                self.out.push_str("mat");
                self.out.push_str(size_str(columns));
                self.out.push('x');
                self.out.push_str(size_str(rows));
                self.out.push('<');
                self.out.push_str(scalar_str(scalar)?);
                self.out.push('>');
            }
            TypeInner::Array { base, size, .. } => {
                self.out.push_str("array<");
                self.write_type(base)?;
                match size {
                    naga::ArraySize::Constant(n) => {
                        self.out.push_str(", ");
                        super::text::push_u32(&mut self.out, n.get());
                    }
                    naga::ArraySize::Dynamic => {}
                    naga::ArraySize::Pending(_) => return Err(Unsupported("an array sized by an override")),
                }
                self.out.push('>');
            }
            TypeInner::Sampler { comparison } => {
                self.out.push_str(if comparison { "sampler_comparison" } else { "sampler" })
            }
            TypeInner::Image { dim, arrayed, class } => self.write_image_type(dim, arrayed, class)?,
            _ => return Err(Unsupported("a type outside the translator's set")),
        }
        Ok(())
    }

    /// `texture_2d<f32>`, `texture_depth_cube`, ... (sampled and depth textures only: the
    /// translator binds no storage textures).
    fn write_image_type(&mut self, dim: ImageDimension, arrayed: bool, class: ImageClass) -> Result<(), Unsupported> {
        let dim = match dim {
            ImageDimension::D1 => "1d",
            ImageDimension::D2 => "2d",
            ImageDimension::D3 => "3d",
            ImageDimension::Cube => "cube",
        };
        let arrayed = if arrayed { "_array" } else { "" };
        match class {
            ImageClass::Sampled { kind, multi } => {
                self.out.push_str(if multi { "texture_multisampled_" } else { "texture_" });
                self.out.push_str(dim);
                self.out.push_str(arrayed);
                self.out.push('<');
                self.out.push_str(scalar_str(Scalar { kind, width: 4 })?);
                self.out.push('>');
            }
            ImageClass::Depth { multi } => {
                self.out.push_str(if multi { "texture_depth_multisampled_" } else { "texture_depth_" });
                self.out.push_str(dim);
                self.out.push_str(arrayed);
            }
            _ => return Err(Unsupported("a storage or external texture")),
        }
        Ok(())
    }
}

/// The WGSL name of a 32-bit scalar (or `bool`); other widths need `enable`s we never write.
pub(super) fn scalar_str(s: Scalar) -> Result<&'static str, Unsupported> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Float, 4) => "f32",
        (ScalarKind::Sint, 4) => "i32",
        (ScalarKind::Uint, 4) => "u32",
        (ScalarKind::Bool, _) => "bool",
        _ => return Err(Unsupported("a scalar other than f32, i32, u32 and bool")),
    })
}

/// `vec4<f32>` and the like, whole: vectors are most of the types a module spells out.
pub(super) fn vector_str(size: VectorSize, scalar: Scalar) -> Result<&'static str, Unsupported> {
    const NAMES: [[&str; 4]; 3] = [
        ["vec2<f32>", "vec2<i32>", "vec2<u32>", "vec2<bool>"],
        ["vec3<f32>", "vec3<i32>", "vec3<u32>", "vec3<bool>"],
        ["vec4<f32>", "vec4<i32>", "vec4<u32>", "vec4<bool>"],
    ];
    let column = match scalar_str(scalar)? {
        "f32" => 0,
        "i32" => 1,
        "u32" => 2,
        _ => 3,
    };
    Ok(NAMES[size as usize - 2][column])
}

/// `2`, `3`, `4`.
pub(super) fn size_str(size: VectorSize) -> &'static str {
    match size {
        VectorSize::Bi => "2",
        VectorSize::Tri => "3",
        VectorSize::Quad => "4",
    }
}

/// `vec2`, `vec3`, `vec4`.
pub(super) fn vec_str(size: VectorSize) -> &'static str {
    match size {
        VectorSize::Bi => "vec2",
        VectorSize::Tri => "vec3",
        VectorSize::Quad => "vec4",
    }
}
