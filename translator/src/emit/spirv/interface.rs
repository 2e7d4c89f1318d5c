//! The module's interface: resources and private globals, and the entry point's input and
//! output variables with their decorations (naga's choices, so that the SPIR-V and WGSL of a
//! module bind alike).

use naga::{AddressSpace, Binding, BuiltIn, Handle, Interpolation, Sampling, ScalarKind, ShaderStage, Type, TypeInner};
use spirv::{Capability, Decoration, Op, StorageClass};

use super::state::Global;
use super::{Result, Unsupported, Writer};

impl<'m> Writer<'m> {
    /// Declares every global variable of the module.
    pub(super) fn declare_globals(&mut self) -> Result<()> {
        let module = self.module;
        for (_, var) in module.global_variables.iter() {
            let ty = self.type_id(var.ty)?;
            let id = match var.space {
                AddressSpace::Uniform => {
                    // A uniform block must be a `Block`-decorated struct; naga's writer wraps
                    // the variable's type in one, and so does this one (member 0, offset 0).
                    let wrapper = self.id();
                    self.buf.declarations.op(Op::TypeStruct, &[wrapper, ty]);
                    self.decorate(wrapper, Decoration::Block, &[]);
                    self.buf.annotations.op(Op::MemberDecorate, &[wrapper, 0, Decoration::Offset as u32, 0]);
                    let pointer = self.pointer_type(wrapper, StorageClass::Uniform)?;
                    self.variable(pointer, StorageClass::Uniform, None)
                }
                AddressSpace::Handle => {
                    let pointer = self.pointer_type(ty, StorageClass::UniformConstant)?;
                    self.variable(pointer, StorageClass::UniformConstant, None)
                }
                AddressSpace::Private => {
                    let init = match var.init {
                        Some(init) => self.global_expression(init)?,
                        None => self.null_constant(ty),
                    };
                    let pointer = self.pointer_type(ty, StorageClass::Private)?;
                    self.variable(pointer, StorageClass::Private, Some(init))
                }
                _ => return Err(Unsupported("global address space")),
            };
            if matches!(var.space, AddressSpace::Uniform | AddressSpace::Handle) {
                let Some(ref b) = var.binding else { return Err(Unsupported("resource without a binding")) };
                self.decorate(id, Decoration::DescriptorSet, &[b.group]);
                self.decorate(id, Decoration::Binding, &[b.binding]);
            }
            self.buf.globals.push(Global { var: id, space: var.space });
        }
        Ok(())
    }

    fn variable(&mut self, pointer: u32, class: StorageClass, init: Option<u32>) -> u32 {
        let id = self.id();
        match init {
            Some(init) => self.buf.declarations.op(Op::Variable, &[pointer, id, class as u32, init]),
            None => self.buf.declarations.op(Op::Variable, &[pointer, id, class as u32]),
        }
        id
    }

    /// What a function's `GlobalVariable` expression stands for: a pointer to a private
    /// variable, a pointer into a uniform block's wrapper, or a loaded texture or sampler. The
    /// last two are written in the prologue, which dominates every block.
    pub(super) fn global_value(&mut self, handle: Handle<naga::GlobalVariable>) -> Result<u32> {
        let var = self.buf.globals[handle.index()].var;
        let ty = self.type_id(self.module.global_variables[handle].ty)?;
        match self.buf.globals[handle.index()].space {
            AddressSpace::Private => Ok(var),
            AddressSpace::Uniform => {
                let pointer = self.pointer_type(ty, StorageClass::Uniform)?;
                let zero = self.u32_constant(0)?;
                let id = self.id();
                self.buf.fx.prologue.op(Op::AccessChain, &[pointer, id, var, zero]);
                Ok(id)
            }
            _ => {
                let id = self.id();
                self.buf.fx.prologue.op(Op::Load, &[ty, id, var]);
                Ok(id)
            }
        }
    }

    /// An argument of the entry point: its input variables, loaded in the prologue (a struct
    /// argument is composed of one variable per member).
    pub(super) fn load_input(
        &mut self,
        stage: ShaderStage,
        ty: Handle<Type>,
        binding: Option<&Binding>,
        interface: &mut Vec<u32>,
    ) -> Result<u32> {
        let module = self.module;
        let type_id = self.type_id(ty)?;
        if let Some(binding) = binding {
            let var = self.io_variable(stage, StorageClass::Input, ty, binding)?;
            interface.push(var);
            let id = self.id();
            self.buf.fx.prologue.op(Op::Load, &[type_id, id, var]);
            return Ok(id);
        }
        let TypeInner::Struct { ref members, .. } = module.types[ty].inner else {
            return Err(Unsupported("entry point argument without a binding"));
        };
        let mut parts = Vec::with_capacity(members.len());
        for m in members {
            let Some(ref b) = m.binding else { return Err(Unsupported("input member without a binding")) };
            let var = self.io_variable(stage, StorageClass::Input, m.ty, b)?;
            interface.push(var);
            let member_type = self.type_id(m.ty)?;
            let id = self.id();
            self.buf.fx.prologue.op(Op::Load, &[member_type, id, var]);
            parts.push(id);
        }
        let id = self.id();
        self.buf.fx.prologue.op_list(Op::CompositeConstruct, &[type_id, id], &parts);
        Ok(id)
    }

    /// The entry point's output variables, one per member of a struct result.
    pub(super) fn declare_outputs(
        &mut self,
        stage: ShaderStage,
        result: &naga::FunctionResult,
        interface: &mut Vec<u32>,
    ) -> Result<()> {
        let module = self.module;
        if let Some(ref binding) = result.binding {
            let var = self.io_variable(stage, StorageClass::Output, result.ty, binding)?;
            interface.push(var);
            self.buf.fx.outputs.push(var);
            return Ok(());
        }
        let TypeInner::Struct { ref members, .. } = module.types[result.ty].inner else {
            return Err(Unsupported("entry point result without a binding"));
        };
        self.buf.fx.result_is_struct = true;
        for m in members {
            let Some(ref b) = m.binding else { return Err(Unsupported("output member without a binding")) };
            let var = self.io_variable(stage, StorageClass::Output, m.ty, b)?;
            interface.push(var);
            self.buf.fx.outputs.push(var);
        }
        Ok(())
    }

    fn io_variable(
        &mut self,
        stage: ShaderStage,
        class: StorageClass,
        ty: Handle<Type>,
        binding: &Binding,
    ) -> Result<u32> {
        let type_id = self.type_id(ty)?;
        let pointer = self.pointer_type(type_id, class)?;
        let id = self.variable(pointer, class, None);
        match *binding {
            Binding::Location { location, interpolation, sampling, blend_src, per_primitive } => {
                if per_primitive {
                    return Err(Unsupported("per-primitive input"));
                }
                self.decorate(id, Decoration::Location, &[location]);
                // Interpolation means nothing on vertex inputs and fragment outputs.
                let varying = !matches!(
                    (class, stage),
                    (StorageClass::Input, ShaderStage::Vertex) | (StorageClass::Output, ShaderStage::Fragment)
                );
                if varying {
                    self.interpolation(id, interpolation, sampling)?;
                }
                if let Some(index) = blend_src {
                    self.decorate(id, Decoration::Index, &[index]);
                }
            }
            Binding::BuiltIn(built_in) => self.built_in(id, stage, class, ty, built_in)?,
        }
        Ok(id)
    }

    fn interpolation(
        &mut self,
        id: u32,
        interpolation: Option<Interpolation>,
        sampling: Option<Sampling>,
    ) -> Result<()> {
        match interpolation {
            None | Some(Interpolation::Perspective) => {}
            Some(Interpolation::Flat) => self.decorate(id, Decoration::Flat, &[]),
            Some(Interpolation::Linear) => self.decorate(id, Decoration::NoPerspective, &[]),
            Some(_) => return Err(Unsupported("interpolation")),
        }
        match sampling {
            None | Some(Sampling::Center | Sampling::First | Sampling::Either) => {}
            Some(Sampling::Centroid) => self.decorate(id, Decoration::Centroid, &[]),
            Some(Sampling::Sample) => {
                self.require(Capability::SampleRateShading);
                self.decorate(id, Decoration::Sample, &[]);
            }
        }
        Ok(())
    }

    fn built_in(
        &mut self,
        id: u32,
        stage: ShaderStage,
        class: StorageClass,
        ty: Handle<Type>,
        built_in: BuiltIn,
    ) -> Result<()> {
        use spirv::BuiltIn as S;
        let spirv_built_in = match built_in {
            BuiltIn::Position { invariant } => {
                if invariant {
                    self.decorate(id, Decoration::Invariant, &[]);
                }
                if class == StorageClass::Output {
                    S::Position
                } else {
                    S::FragCoord
                }
            }
            BuiltIn::ClipDistances => {
                self.require(Capability::ClipDistance);
                S::ClipDistance
            }
            BuiltIn::PointSize => S::PointSize,
            BuiltIn::VertexIndex => S::VertexIndex,
            BuiltIn::InstanceIndex => S::InstanceIndex,
            BuiltIn::FragDepth => {
                self.buf.fx.writes_depth = true;
                S::FragDepth
            }
            BuiltIn::PointCoord => S::PointCoord,
            BuiltIn::FrontFacing => S::FrontFacing,
            BuiltIn::SampleIndex => {
                self.require(Capability::SampleRateShading);
                S::SampleId
            }
            BuiltIn::SampleMask => S::SampleMask,
            _ => return Err(Unsupported("built-in")),
        };
        self.decorate(id, Decoration::BuiltIn, &[spirv_built_in as u32]);
        // Vulkan (VUID-StandaloneSpirv-Flat-04744): integer and bool fragment inputs are flat;
        // naga's writer decorates built-ins so too.
        if class == StorageClass::Input && stage == ShaderStage::Fragment {
            let kind = match self.module.types[ty].inner {
                TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => Some(s.kind),
                _ => None,
            };
            if matches!(kind, Some(ScalarKind::Uint | ScalarKind::Sint | ScalarKind::Bool)) {
                self.decorate(id, Decoration::Flat, &[]);
            }
        }
        Ok(())
    }
}
