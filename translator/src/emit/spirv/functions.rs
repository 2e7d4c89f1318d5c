//! Functions and the entry point's wrapper: parameters, local variables, the prologue that
//! loads the inputs and the resources, and the body.

use naga::{EntryPoint, Function, ShaderStage};
use spirv::{ExecutionMode, ExecutionModel, FunctionControl, Op, StorageClass};

use super::super::facts::FunctionFacts;
use super::{Result, Unsupported, Writer};

/// The function being written, as the expression and statement writers read it.
#[derive(Clone, Copy)]
pub(super) struct Cx<'m> {
    pub(super) fun: &'m Function,
    pub(super) fi: &'m FunctionFacts,
    /// An entry point: `Return` stores the outputs.
    pub(super) entry: bool,
}

impl<'m> Writer<'m> {
    fn begin_function(&mut self, fun: &Function) {
        let fx = &mut self.buf.fx;
        fx.ids.clear();
        fx.ids.resize(fun.expressions.len(), 0);
        fx.arg_ids.clear();
        fx.local_ids.clear();
        fx.head.0.clear();
        fx.vars.0.clear();
        fx.prologue.0.clear();
        fx.body.0.clear();
        fx.targets.clear();
        fx.outputs.clear();
        fx.result_is_struct = false;
        fx.writes_depth = false;
        fx.open = true;
    }

    fn declare_locals(&mut self, cx: Cx<'m>) -> Result<()> {
        for (_, local) in cx.fun.local_variables.iter() {
            let ty = self.type_id(local.ty)?;
            let pointer = self.pointer_type(ty, StorageClass::Function)?;
            // WGSL zero-initialises a `var` without an initialiser; naga's writer does the same.
            let init = match local.init {
                Some(init) => self.constant_expression(&cx.fun.expressions, init, Some(cx.fi))?,
                None => self.null_constant(ty),
            };
            let id = self.id();
            self.buf.fx.vars.op(Op::Variable, &[pointer, id, StorageClass::Function as u32, init]);
            self.buf.fx.local_ids.push(id);
        }
        Ok(())
    }

    /// Writes a function of the module (not an entry point).
    pub(super) fn write_function(&mut self, fun: &'m Function, fi: &'m FunctionFacts, id: u32) -> Result<()> {
        let cx = Cx { fun, fi, entry: false };
        self.begin_function(fun);
        let result = match fun.result {
            Some(ref r) => self.type_id(r.ty)?,
            None => self.void_type()?,
        };
        // The parameter types, in a list kept with the function state (taken out while the
        // types are declared).
        let mut params = std::mem::take(&mut self.buf.fx.params);
        params.clear();
        let declared = fun.arguments.iter().try_for_each(|arg| {
            params.push(self.type_id(arg.ty)?);
            Ok(())
        });
        let fn_type = declared.and_then(|()| self.function_type(result, &params));
        let fn_type = match fn_type {
            Ok(t) => t,
            Err(e) => {
                self.buf.fx.params = params;
                return Err(e);
            }
        };
        self.buf.fx.head.op(Op::Function, &[result, id, FunctionControl::NONE.bits(), fn_type]);
        for &ty in &params {
            let arg = self.id();
            self.buf.fx.head.op(Op::FunctionParameter, &[ty, arg]);
            self.buf.fx.arg_ids.push(arg);
        }
        self.buf.fx.params = params;
        self.write_body(cx, result)
    }

    /// Writes an entry point: a `void` function whose prologue loads the inputs and whose
    /// returns store the outputs.
    pub(super) fn write_entry_point(&mut self, ep: &'m EntryPoint, fi: &'m FunctionFacts) -> Result<()> {
        let fun = &ep.function;
        let cx = Cx { fun, fi, entry: true };
        self.begin_function(fun);
        let void = self.void_type()?;
        let fn_type = self.function_type(void, &[])?;
        let id = self.id();
        // The interface list, kept with the function state (taken out while the inputs and
        // outputs are declared into it).
        let mut interface = std::mem::take(&mut self.buf.fx.interface);
        interface.clear();
        let declared = self.declare_interface(ep, &mut interface);
        let written = declared.and_then(|()| self.write_execution(ep, id, &interface));
        self.buf.fx.interface = interface;
        written?;
        self.buf.fx.head.op(Op::Function, &[void, id, FunctionControl::NONE.bits(), fn_type]);
        self.write_body(cx, void)
    }

    /// The entry point's inputs (their values as its arguments) and outputs, with the
    /// variables of both in `interface`.
    fn declare_interface(&mut self, ep: &'m EntryPoint, interface: &mut Vec<u32>) -> Result<()> {
        let fun = &ep.function;
        for arg in &fun.arguments {
            let value = self.load_input(ep.stage, arg.ty, arg.binding.as_ref(), interface)?;
            self.buf.fx.arg_ids.push(value);
        }
        if let Some(ref result) = fun.result {
            self.declare_outputs(ep.stage, result, interface)?;
        }
        Ok(())
    }

    /// The locals, the body and the function's end, after its head.
    fn write_body(&mut self, cx: Cx<'m>, result: u32) -> Result<()> {
        self.declare_locals(cx)?;
        let label = self.id();
        self.write_block(cx, &cx.fun.body)?;
        if self.buf.fx.open {
            // A body that falls off its end: naga's validator lets it, and WGSL returns.
            if cx.fun.result.is_some() && !cx.entry {
                let null = self.null_constant(result);
                self.buf.fx.body.op(Op::ReturnValue, &[null]);
            } else {
                self.buf.fx.body.op(Op::Return, &[]);
            }
        }
        let out = &mut self.buf.functions.0;
        out.extend_from_slice(&self.buf.fx.head.0);
        out.extend_from_slice(&[(2 << 16) | Op::Label as u32, label]);
        out.extend_from_slice(&self.buf.fx.vars.0);
        out.extend_from_slice(&self.buf.fx.prologue.0);
        out.extend_from_slice(&self.buf.fx.body.0);
        out.push((1 << 16) | Op::FunctionEnd as u32);
        Ok(())
    }

    fn write_execution(&mut self, ep: &EntryPoint, id: u32, interface: &[u32]) -> Result<()> {
        let model = match ep.stage {
            ShaderStage::Vertex => ExecutionModel::Vertex,
            ShaderStage::Fragment => ExecutionModel::Fragment,
            _ => return Err(Unsupported("stage")),
        };
        let start = self.buf.entry_points.begin(Op::EntryPoint);
        self.buf.entry_points.push(model as u32);
        self.buf.entry_points.push(id);
        self.buf.entry_points.string(&ep.name);
        for &var in interface {
            self.buf.entry_points.push(var);
        }
        // From SPIR-V 1.4 the interface lists every global the entry point uses.
        if self.version >= (1, 4) {
            for g in &self.buf.globals {
                self.buf.entry_points.push(g.var);
            }
        }
        self.buf.entry_points.end(start);
        if ep.stage == ShaderStage::Fragment {
            self.buf.execution_modes.op(Op::ExecutionMode, &[id, ExecutionMode::OriginUpperLeft as u32]);
            if self.buf.fx.writes_depth {
                self.buf.execution_modes.op(Op::ExecutionMode, &[id, ExecutionMode::DepthReplacing as u32]);
            }
            match ep.early_depth_test {
                None => {}
                Some(naga::EarlyDepthTest::Force) => {
                    self.buf.execution_modes.op(Op::ExecutionMode, &[id, ExecutionMode::EarlyFragmentTests as u32]);
                }
                Some(_) => return Err(Unsupported("conservative depth")),
            }
        }
        Ok(())
    }
}
