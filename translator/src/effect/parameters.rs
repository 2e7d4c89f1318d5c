//! Parameters: a type description (D3DXPARAMETER_DESC's fields) and the value that follows it in
//! the blob, read into a tree whose nodes are the handles D3DX gives out: a parameter, each
//! element of an array, each member of a struct, and annotations.
//!
//! Layout (offsets relative to the base, see [`super::reader`]): a type description is `type,
//! class, name offset, semantic offset, element count`, then for scalars and vectors `columns,
//! rows`, for matrices `rows, columns`, for structs a member count and the members' type
//! descriptions inline. A value is read recursively: an array's elements one after the other, a
//! struct's members in order, rows × columns words for numbers, one object id for strings,
//! textures and shaders, and for samplers a state count followed by that many states.
//!
//! A state record ([`State`], a pass's or a sampler's state assignment) lives here too: its value
//! is itself a parameter while a sampler parameter holds states, so the two types hold each
//! other and share a file; the state table they index stays in [`super::states`].

use std::cell::Cell;

use serde::Serialize;

use super::error::EffectError;
use super::preshader::Preshader;
use super::reader::{Reader, MAX_DEPTH};
use super::states::{StateInfo, STATE_TABLE};
use super::types::{ParameterClass, ParameterType};

/// A parameter, an array element, a struct member or an annotation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Parameter {
    /// Its name (an element has its array's name).
    pub name: String,
    /// Its semantic (empty when it has none).
    pub semantic: String,
    /// D3DXPARAMETER_CLASS.
    pub class: ParameterClass,
    /// D3DXPARAMETER_TYPE.
    #[serde(rename = "type")]
    pub ty: ParameterType,
    /// Rows (1 for scalars and vectors, 0 for objects and structs).
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// Array elements (0 when not an array).
    pub elements: u32,
    /// D3DX_PARAMETER_* flags (top-level parameters only).
    pub flags: u32,
    /// Annotations (top-level parameters only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Parameter>,
    /// The elements of an array.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub element_list: Vec<Parameter>,
    /// The members of a (non-array) struct.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Parameter>,
    /// The value as words, in blob order: number bits, or object ids for strings, textures and
    /// shaders (empty for samplers and structs of nothing).
    pub value: Vec<u32>,
    /// The sampler states of a single sampler.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sampler_states: Vec<State>,
    /// Absolute byte offset of the value in the blob.
    pub value_offset: usize,
}

/// A type description before its value is read.
#[derive(Clone, Debug)]
pub(crate) struct TypeDesc {
    pub name: String,
    pub semantic: String,
    pub class: ParameterClass,
    pub ty: ParameterType,
    pub rows: u32,
    pub columns: u32,
    pub elements: u32,
    pub members: Vec<TypeDesc>,
}

/// Shared state of one parse: a node budget, so that empty structs with huge element counts
/// cannot make the reader build an unbounded tree.
pub(crate) struct Budget(Cell<usize>);

impl Budget {
    pub fn new(bytes: usize) -> Budget {
        Budget(Cell::new(bytes / 4 + 64))
    }

    fn take(&self, offset: usize) -> Result<(), EffectError> {
        match self.0.get().checked_sub(1) {
            Some(left) => {
                self.0.set(left);
                Ok(())
            }
            None => Err(EffectError::CountTooLarge { offset, what: "parameter nodes", count: u32::MAX, available: 0 }),
        }
    }
}

/// Reads the type description at the cursor (advancing past inline members).
pub(crate) fn read_type(r: &mut Reader, budget: &Budget, depth: usize) -> Result<TypeDesc, EffectError> {
    let start = r.pos;
    if depth > MAX_DEPTH {
        return Err(EffectError::TooDeep { offset: start });
    }
    budget.take(start)?;
    let raw_ty = r.u32("parameter type")?;
    let ty = ParameterType::from_raw(raw_ty).ok_or(EffectError::BadValue {
        offset: start,
        what: "parameter type",
        value: raw_ty,
    })?;
    let raw_class = r.u32("parameter class")?;
    let class = ParameterClass::from_raw(raw_class).ok_or(EffectError::BadValue {
        offset: start + 4,
        what: "parameter class",
        value: raw_class,
    })?;
    let name_offset = r.u32("name offset")?;
    let semantic_offset = r.u32("semantic offset")?;
    let name = r.string_at(name_offset, "parameter name")?;
    let semantic = if semantic_offset == 0 { String::new() } else { r.string_at(semantic_offset, "semantic")? };
    let elements = r.u32("element count")?;
    let mut desc = TypeDesc { name, semantic, class, ty, rows: 0, columns: 0, elements, members: Vec::new() };
    match class {
        ParameterClass::Scalar | ParameterClass::Vector => {
            desc.columns = r.u32("columns")?;
            desc.rows = r.u32("rows")?;
        }
        ParameterClass::MatrixRows | ParameterClass::MatrixColumns => {
            desc.rows = r.u32("rows")?;
            desc.columns = r.u32("columns")?;
        }
        ParameterClass::Struct => {
            let count = r.count("struct member", 20)?;
            for _ in 0..count {
                desc.members.push(read_type(r, budget, depth + 1)?);
            }
        }
        ParameterClass::Object => {}
    }
    Ok(desc)
}

/// Reads the value of `desc` at the cursor into a parameter tree.
pub(crate) fn read_value(
    r: &mut Reader,
    desc: &TypeDesc,
    budget: &Budget,
    depth: usize,
) -> Result<Parameter, EffectError> {
    if depth > MAX_DEPTH {
        return Err(EffectError::TooDeep { offset: r.pos });
    }
    budget.take(r.pos)?;
    let mut p = Parameter {
        name: desc.name.clone(),
        semantic: desc.semantic.clone(),
        class: desc.class,
        ty: desc.ty,
        rows: desc.rows,
        columns: desc.columns,
        elements: desc.elements,
        flags: 0,
        annotations: Vec::new(),
        element_list: Vec::new(),
        members: Vec::new(),
        value: Vec::new(),
        sampler_states: Vec::new(),
        value_offset: r.pos,
    };
    if desc.elements > 0 {
        let single = TypeDesc { elements: 0, ..desc.clone() };
        for _ in 0..desc.elements {
            let e = read_value(r, &single, budget, depth + 1)?;
            p.value.extend_from_slice(&e.value);
            p.element_list.push(e);
        }
        return Ok(p);
    }
    match desc.class {
        ParameterClass::Struct => {
            for m in &desc.members {
                let member = read_value(r, m, budget, depth + 1)?;
                p.value.extend_from_slice(&member.value);
                p.members.push(member);
            }
        }
        ParameterClass::Object if desc.ty.is_sampler() => {
            let count = r.count("sampler state", 16)?;
            for _ in 0..count {
                p.sampler_states.push(read_state(r, budget, depth + 1)?);
            }
        }
        ParameterClass::Object => p.value.push(r.u32("object id")?),
        _ => {
            let n = (desc.rows as usize).saturating_mul(desc.columns as usize);
            let bytes = r.slice_at(r.pos, n.saturating_mul(4), "parameter value")?;
            p.value = super::reader::words(bytes);
            r.pos += bytes.len();
        }
    }
    Ok(p)
}

/// A parameter given as (type description offset, value offset), both base-relative: top-level
/// parameters, annotations and state values.
pub(crate) fn read_described(
    r: &Reader,
    type_offset: u32,
    value_offset: u32,
    budget: &Budget,
    depth: usize,
) -> Result<Parameter, EffectError> {
    let mut t = r.clone();
    t.pos = r.absolute(type_offset, "type description")?;
    let desc = read_type(&mut t, budget, depth)?;
    let mut v = r.clone();
    v.pos = r.absolute(value_offset, "value")?;
    read_value(&mut v, &desc, budget, depth)
}

/// One state at the cursor: operation, index, type description offset, value offset.
pub(crate) fn read_state(r: &mut Reader, budget: &Budget, depth: usize) -> Result<State, EffectError> {
    let offset = r.pos;
    let operation = r.u32("state operation")?;
    let index = r.u32("state index")?;
    let type_offset = r.u32("state type offset")?;
    let value_offset = r.u32("state value offset")?;
    let value = read_described(r, type_offset, value_offset, budget, depth + 1)?;
    Ok(State::new(operation, index, value, offset))
}

/// Annotations at the cursor: a count was read by the caller; each is two offsets.
pub(crate) fn read_annotations(r: &mut Reader, count: usize, budget: &Budget) -> Result<Vec<Parameter>, EffectError> {
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let type_offset = r.u32("annotation type offset")?;
        let value_offset = r.u32("annotation value offset")?;
        out.push(read_described(r, type_offset, value_offset, budget, 0)?);
    }
    Ok(out)
}

impl Parameter {
    /// Bytes of the value as D3DXPARAMETER_DESC counts them, with pointers of `pointer` bytes
    /// for objects.
    pub fn bytes(&self, pointer: u32) -> u32 {
        let one = match self.class {
            ParameterClass::Object => pointer,
            ParameterClass::Struct => {
                return self.element_list.first().map_or_else(
                    || self.members.iter().map(|m| m.bytes(pointer)).sum(),
                    |e| e.bytes(pointer) * self.elements,
                );
            }
            _ => 4 * self.rows * self.columns,
        };
        one * self.elements.max(1)
    }

    /// The number of struct members (of each element, for arrays of structs).
    pub fn struct_members(&self) -> usize {
        self.element_list.first().map_or(self.members.len(), |e| e.members.len())
    }
}

/// Where a state's value comes from at run time.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StateSource {
    /// The value written in the blob.
    Constant,
    /// A parameter, by full name (`VertexShader = vs_arr[1]`, `ViewTransform = camera`).
    Parameter {
        /// The parameter's full name.
        name: String,
    },
    /// A preshader expression computes the value.
    Expression {
        /// The expression.
        #[serde(skip)]
        preshader: Box<Preshader>,
    },
    /// An element of an array parameter, chosen by a preshader.
    ArraySelector {
        /// The array's full name.
        name: String,
        /// The expression computing the element index.
        #[serde(skip)]
        preshader: Box<Preshader>,
    },
}

/// One state assignment of a pass or a sampler.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The operation number (index into [`STATE_TABLE`]).
    pub operation: u32,
    /// The state's index (light, stage, sampler, register, world matrix).
    pub index: u32,
    /// The value written in the blob (its type description is the value's storage, not the
    /// state's HLSL type: only the type and the word count matter).
    pub value: Parameter,
    /// Where the value comes from at run time.
    pub source: StateSource,
    /// Absolute byte offset of the state record.
    pub offset: usize,
}

impl State {
    pub(crate) fn new(operation: u32, index: u32, value: Parameter, offset: usize) -> State {
        State { operation, index, value, source: StateSource::Constant, offset }
    }

    /// The table entry of its operation (`None` for a number past the table).
    pub fn info(&self) -> Option<&'static StateInfo> {
        STATE_TABLE.get(self.operation as usize)
    }

    /// The state's name (`"?"` for an unknown operation).
    pub fn name(&self) -> &'static str {
        self.info().map_or("?", |i| i.name)
    }
}
