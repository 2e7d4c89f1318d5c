//! An fx_2_0 blob read into an [`Effect`]: the header, the top-level parameters, the techniques
//! with their passes and the objects, each read checked against the blob (docs/effects.md).

use serde::Serialize;

use super::error::EffectError;
use super::objects::{EffectShader, Object, ObjectKind};
use super::parameters::{read_annotations, read_described, Budget, Parameter, State, StateSource};
use super::preshader::Preshader;
use super::reader::{self, Reader};
use super::techniques::{self, Technique};
use super::types::{ParameterClass, ParameterType};

/// The fx_2_0 magic.
pub const FX_2_0: u32 = 0xFEFF_0901;
/// The XNA wrapper's magic: a dword N follows, and the fx_2_0 effect starts N bytes from the
/// start of the wrapper.
pub const XNA_WRAPPER: u32 = 0xBCF0_0BCF;

/// The header words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Header {
    /// Offset of the fx_2_0 magic (0, or where the XNA wrapper puts it).
    pub start: usize,
    /// The structure offset (the second word), relative to the base.
    pub structure_offset: u32,
    /// The word after the technique count (its meaning is not known; kept as read).
    pub unknown: u32,
    /// Object slots.
    pub object_count: u32,
    /// Objects whose data follows the techniques.
    pub inline_objects: usize,
    /// Resources (state code, preshaders, references).
    pub resources: usize,
}

/// A parsed effect.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    /// The header.
    pub header: Header,
    /// Top-level parameters, in blob order.
    pub parameters: Vec<Parameter>,
    /// Techniques.
    pub techniques: Vec<Technique>,
    /// Objects by id.
    pub objects: Vec<Object>,
}

impl Effect {
    /// Parses an effect blob (fx_2_0, optionally inside the XNA wrapper).
    pub fn parse(bytes: &[u8]) -> Result<Effect, EffectError> {
        let r = Reader { bytes, base: 0, pos: 0 };
        let mut start = 0;
        let mut magic = r.u32_at(0, "magic")?;
        if magic == XNA_WRAPPER {
            start = r.u32_at(4, "XNA wrapper offset")? as usize;
            magic = r.u32_at(start, "magic")?;
        }
        if magic != FX_2_0 {
            return Err(EffectError::BadMagic { offset: start, magic });
        }
        let structure_offset = r.u32_at(start + 4, "structure offset")?;
        let base = start + 8;
        let mut r = Reader { bytes, base, pos: 0 };
        r.pos = r.absolute(structure_offset, "structure")?;
        let budget = Budget::new(bytes.len());
        let parameter_count = r.count("parameter", 16)?;
        let technique_count = r.count("technique", 12)?;
        let unknown = r.u32("header word")?;
        let object_at = r.pos;
        let object_count = r.u32("object count")?;
        // Object slots cost nothing in the blob; one per 4 bytes of input is far beyond any use.
        if object_count as usize > bytes.len() / 4 + 16 {
            return Err(EffectError::CountTooLarge {
                offset: object_at,
                what: "object",
                count: object_count,
                available: bytes.len(),
            });
        }
        let mut parameters = Vec::with_capacity(parameter_count);
        for _ in 0..parameter_count {
            parameters.push(read_parameter(&mut r, &budget)?);
        }
        let mut techniques = Vec::with_capacity(technique_count);
        for _ in 0..technique_count {
            techniques.push(techniques::read_technique(&mut r, &budget)?);
        }
        let mut effect = Effect {
            header: Header { start, structure_offset, unknown, object_count, inline_objects: 0, resources: 0 },
            parameters,
            techniques,
            objects: vec![Object::default(); object_count as usize],
        };
        effect.read_tail(&mut r)?;
        effect.classify_objects()?;
        Ok(effect)
    }

    fn read_tail(&mut self, r: &mut Reader) -> Result<(), EffectError> {
        let inline = r.count("inline object", 8)?;
        let resources = r.count("resource", 24)?;
        self.header.inline_objects = inline;
        self.header.resources = resources;
        for _ in 0..inline {
            let at = r.pos;
            let id = r.u32("object id")?;
            let (offset, data) = r.sized_data("object data")?;
            let slot = self.object_mut(id, at)?;
            slot.offset = Some(offset);
            slot.data = data.to_vec();
        }
        for _ in 0..resources {
            self.read_resource(r)?;
        }
        Ok(())
    }

    fn object_mut(&mut self, id: u32, at: usize) -> Result<&mut Object, EffectError> {
        let count = self.objects.len();
        self.objects.get_mut(id as usize).ok_or(EffectError::BadIndex {
            offset: at,
            what: "object id",
            index: id,
            count,
        })
    }

    /// The state a resource names: a pass state, or a sampler state of a parameter element.
    fn resource_state(
        &mut self,
        at: usize,
        t: u32,
        index: u32,
        element: u32,
        state: u32,
    ) -> Result<&mut State, EffectError> {
        let bad = |what, index, count| EffectError::BadIndex { offset: at, what, index, count };
        if t == u32::MAX {
            let count = self.parameters.len();
            let p = self.parameters.get_mut(index as usize).ok_or(bad("parameter", index, count))?;
            let p = if p.elements > 0 {
                let count = p.element_list.len();
                p.element_list.get_mut(element as usize).ok_or(bad("element", element, count))?
            } else {
                p
            };
            let count = p.sampler_states.len();
            return p.sampler_states.get_mut(state as usize).ok_or(bad("sampler state", state, count));
        }
        let count = self.techniques.len();
        let tech = self.techniques.get_mut(t as usize).ok_or(bad("technique", t, count))?;
        let count = tech.passes.len();
        let pass = tech.passes.get_mut(index as usize).ok_or(bad("pass", index, count))?;
        let count = pass.states.len();
        pass.states.get_mut(state as usize).ok_or(bad("state", state, count))
    }

    fn read_resource(&mut self, r: &mut Reader) -> Result<(), EffectError> {
        let at = r.pos;
        let technique = r.u32("resource technique")?;
        let index = r.u32("resource index")?;
        let element = r.u32("resource element")?;
        let state_index = r.u32("resource state")?;
        let usage_at = r.pos;
        let usage = r.u32("resource usage")?;
        let (data_at, data) = r.sized_data("resource data")?;
        let state = self.resource_state(at, technique, index, element, state_index)?;
        match usage {
            0 if state.value.ty.is_shader() => {
                let id = state.value.value.first().copied().unwrap_or(u32::MAX);
                let slot = self.object_mut(id, at)?;
                slot.offset = Some(data_at);
                slot.data = data.to_vec();
            }
            0 => {
                let preshader = Box::new(Preshader::parse(&reader::words(data), data_at)?);
                state.source = StateSource::Expression { preshader };
            }
            1 => state.source = StateSource::Parameter { name: c_string(data) },
            2 => {
                let len = data.get(0..4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])) as usize;
                let name_bytes = data.get(4..4 + len).ok_or(EffectError::Truncated {
                    offset: data_at,
                    what: "array selector name",
                    needed: 4 + len,
                    available: data.len(),
                })?;
                let code_at = 4 + len.div_ceil(4) * 4;
                let code = data.get(code_at..).unwrap_or(&[]);
                let preshader = Box::new(Preshader::parse(&reader::words(code), data_at + code_at)?);
                state.source = StateSource::ArraySelector { name: c_string(name_bytes), preshader };
            }
            _ => return Err(EffectError::BadValue { offset: usage_at, what: "resource usage", value: usage }),
        }
        Ok(())
    }

    /// Decides what each object holds from the types of the parameters and states that refer to
    /// it, and reads the shaders.
    fn classify_objects(&mut self) -> Result<(), EffectError> {
        let mut refs: Vec<(u32, ParameterType)> = Vec::new();
        fn walk(p: &Parameter, refs: &mut Vec<(u32, ParameterType)>) {
            if p.class == ParameterClass::Object && p.ty.is_object_reference() && p.element_list.is_empty() {
                refs.extend(p.value.iter().map(|&id| (id, p.ty)));
            }
            p.element_list.iter().chain(&p.members).chain(&p.annotations).for_each(|c| walk(c, refs));
            p.sampler_states.iter().for_each(|s| walk(&s.value, refs));
        }
        self.parameters.iter().for_each(|p| walk(p, &mut refs));
        for t in &self.techniques {
            t.annotations.iter().for_each(|a| walk(a, &mut refs));
            for p in &t.passes {
                p.annotations.iter().for_each(|a| walk(a, &mut refs));
                p.states.iter().for_each(|s| walk(&s.value, &mut refs));
            }
        }
        for (id, ty) in refs {
            let Some(object) = self.objects.get_mut(id as usize) else { continue };
            if object.data.is_empty() || !matches!(object.kind, ObjectKind::Empty) {
                continue;
            }
            let offset = object.offset.unwrap_or(0);
            object.kind = if ty == ParameterType::String {
                ObjectKind::String { text: c_string(&object.data) }
            } else if ty.is_shader() {
                ObjectKind::Shader(Box::new(EffectShader::new(&object.data, offset)?))
            } else {
                ObjectKind::Empty
            };
        }
        Ok(())
    }

    /// Every shader object, with its id.
    pub fn shaders(&self) -> impl Iterator<Item = (usize, &EffectShader)> {
        self.objects.iter().enumerate().filter_map(|(i, o)| match &o.kind {
            ObjectKind::Shader(s) => Some((i, s.as_ref())),
            _ => None,
        })
    }

    /// A technique by name.
    pub fn technique(&self, name: &str) -> Option<usize> {
        self.techniques.iter().position(|t| t.name == name)
    }
}

fn read_parameter(r: &mut Reader, budget: &Budget) -> Result<Parameter, EffectError> {
    let type_offset = r.u32("parameter type offset")?;
    let value_offset = r.u32("parameter value offset")?;
    let flags = r.u32("parameter flags")?;
    let annotation_count = r.count("annotation", 8)?;
    let annotations = read_annotations(r, annotation_count, budget)?;
    let mut p = read_described(r, type_offset, value_offset, budget, 0)?;
    p.flags = flags;
    p.annotations = annotations;
    Ok(p)
}

/// Text up to the first NUL.
fn c_string(data: &[u8]) -> String {
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    String::from_utf8_lossy(&data[..end]).into_owned()
}
