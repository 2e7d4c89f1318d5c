//! The project's WGSL writer: text for the validated naga modules the lowering and the
//! fixed-function generator build, several times faster than naga's writer (one `String`
//! reserved up front, names as spans of one buffer, no `fmt` for handles and integers).
//!
//! It writes what naga's writer writes for the same module, names aside: the same layout, the
//! same expression forms, the same literal text (docs/wgsl.md §1), and values computed at the
//! same points. An expression covered by `Statement::Emit` is evaluated where its range is:
//! loads, samples, image queries, derivatives and every value used more than once become a
//! `let` there; a pure value used once is written inside its one user, which computes the same
//! value wherever it stands, since its operands are `let`s or pure themselves.
//!
//! Anything outside that subset is `Unsupported`, and `emit::wgsl` then asks naga's writer:
//! a safety net the tests prove unused (every corpus shader and every fixed-function case goes
//! through this writer).

mod expressions;
mod names;
mod statements;
mod text;
mod types;
mod unsupported;

#[cfg(test)]
mod tests;

use naga::common::wgsl::{address_space_str, ToWgsl as _, TryToWgsl as _};
use naga::{Binding, Handle, Module, ShaderStage, TypeInner};

use names::{FunctionNames, Name, Names};
pub use unsupported::Unsupported;

use super::facts::{FunctionFacts, WriterFacts};

/// The module as WGSL, after `directives` (the diagnostic directives, which must come first).
pub(crate) fn write(module: &Module, info: &WriterFacts, directives: &str) -> Result<String, Unsupported> {
    let mut scratch = SCRATCH.with_borrow_mut(std::mem::take);
    let written = write_with(module, info, directives, &mut scratch);
    SCRATCH.with_borrow_mut(|s| *s = scratch);
    written
}

thread_local! {
    /// The names and per-function tables of the last module a thread wrote, kept for the next
    /// one: they were most of the writer's allocations (about 20 a shader on the common list).
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// What the writer fills and forgets per module.
#[derive(Default)]
struct Scratch {
    names: Names,
    entries: Vec<FunctionNames>,
    functions: Vec<FunctionNames>,
    baked: Vec<bool>,
    named: Vec<bool>,
}

fn write_with(
    module: &Module,
    info: &WriterFacts,
    directives: &str,
    scratch: &mut Scratch,
) -> Result<String, Unsupported> {
    let Scratch { names, entries: entry_names, functions: function_names, baked, named } = scratch;
    names.for_module(module, entry_names, function_names)?;
    let mut w = Writer {
        module,
        out: String::with_capacity(capacity(module) + directives.len()),
        names: std::mem::take(names),
        baked: std::mem::take(baked),
        named: std::mem::take(named),
    };
    let written = w.write_module(info, directives, entry_names, function_names);
    *names = w.names;
    *baked = w.baked;
    *named = w.named;
    written.map(|()| w.out)
}

impl Writer<'_> {
    fn write_module(
        &mut self,
        info: &WriterFacts,
        directives: &str,
        entry_names: &[FunctionNames],
        function_names: &[FunctionNames],
    ) -> Result<(), Unsupported> {
        let module = self.module;
        self.out.push_str(directives);
        self.write_enables()?;
        self.write_structs()?;
        self.write_constants()?;
        self.write_overrides()?;
        self.write_globals()?;
        for ((h, f), names) in module.functions.iter().zip(function_names) {
            let cx = Cx { f, fi: &info[h], names };
            self.write_function(&cx, self.names.functions[h.index()])?;
            self.out.push('\n');
        }
        for (i, (ep, names)) in module.entry_points.iter().zip(entry_names).enumerate() {
            self.write_stage(ep)?;
            let cx = Cx { f: &ep.function, fi: info.get_entry_point(i), names };
            self.write_function(&cx, self.names.entry_points[i])?;
            if i + 1 < module.entry_points.len() {
                self.out.push('\n');
            }
        }
        Ok(())
    }
}

/// A guess at the text's size from the module's size, so the `String` rarely grows (the
/// common list averages about 30 bytes of text per expression).
fn capacity(module: &Module) -> usize {
    let expressions: usize = module.functions.iter().map(|(_, f)| f.expressions.len()).sum::<usize>()
        + module.entry_points.iter().map(|e| e.function.expressions.len()).sum::<usize>();
    512 + 64 * module.global_variables.len() + 32 * expressions
}

/// The writer's state: the module, the text so far, and the names.
pub(super) struct Writer<'m> {
    module: &'m Module,
    out: String,
    names: Names,
    /// Per expression of the function being written: whether it is a `let` (`_eN`) by now.
    baked: Vec<bool>,
    /// Per expression of the function being written: whether the IR names it (looked up once
    /// per function rather than in the name map per expression).
    named: Vec<bool>,
}

/// The function being written: its IR, its writer facts (types and use counts) and the
/// names of its arguments and locals.
pub(super) struct Cx<'a> {
    f: &'a naga::Function,
    fi: &'a FunctionFacts,
    names: &'a FunctionNames,
}

impl Writer<'_> {
    #[inline]
    fn push_name(&mut self, name: Name) {
        self.out.push_str(self.names.get(name));
    }

    /// `enable clip_distances;` where a builtin needs it; features the translator never uses
    /// (f16, dual-source blending, ...) are left to naga's writer.
    fn write_enables(&mut self) -> Result<(), Unsupported> {
        let mut clip = false;
        let mut check = |b: &Binding| match *b {
            Binding::BuiltIn(naga::BuiltIn::ClipDistances) => {
                clip = true;
                Ok(())
            }
            Binding::BuiltIn(b) => b.try_to_wgsl().map(|_| ()).ok_or(Unsupported("a builtin WGSL lacks")),
            Binding::Location { blend_src: None, per_primitive: false, interpolation, .. } => match interpolation {
                Some(naga::Interpolation::PerVertex) => Err(Unsupported("per-vertex interpolation")),
                _ => Ok(()),
            },
            Binding::Location { .. } => Err(Unsupported("a location needing an enable")),
        };
        for (_, ty) in self.module.types.iter() {
            if let TypeInner::Struct { members, .. } = &ty.inner {
                members.iter().filter_map(|m| m.binding.as_ref()).try_for_each(&mut check)?;
            }
        }
        for ep in &self.module.entry_points {
            let f = &ep.function;
            f.arguments.iter().filter_map(|a| a.binding.as_ref()).try_for_each(&mut check)?;
            f.result.iter().filter_map(|r| r.binding.as_ref()).try_for_each(&mut check)?;
        }
        if clip {
            self.out.push_str("enable clip_distances;\n\n");
        }
        Ok(())
    }

    /// Each struct, then an empty line.
    fn write_structs(&mut self) -> Result<(), Unsupported> {
        let module = self.module;
        if !module.special_types.predeclared_types.is_empty() {
            return Err(Unsupported("predeclared types"));
        }
        for (h, ty) in module.types.iter() {
            let TypeInner::Struct { members, .. } = &ty.inner else { continue };
            self.out.push_str("struct ");
            self.push_name(self.names.types[h.index()]);
            self.out.push_str(" {\n");
            let first = self.names.member_start[h.index()] as usize;
            for (i, m) in members.iter().enumerate() {
                self.out.push_str("    ");
                if let Some(b) = &m.binding {
                    self.write_binding(b)?;
                }
                self.push_name(self.names.members[first + i]);
                self.out.push_str(": ");
                self.write_type(m.ty)?;
                self.out.push_str(",\n");
            }
            self.out.push_str("}\n\n");
        }
        Ok(())
    }

    /// Named constants (`const c: T = v;`); unnamed ones are written where used.
    fn write_constants(&mut self) -> Result<(), Unsupported> {
        let module = self.module;
        let mut any = false;
        for (h, c) in module.constants.iter().filter(|(_, c)| c.name.is_some()) {
            any = true;
            self.out.push_str("const ");
            self.push_name(self.names.constants[h.index()]);
            self.out.push_str(": ");
            self.write_type(c.ty)?;
            self.out.push_str(" = ");
            self.write_const(&module.global_expressions, c.init)?;
            self.out.push_str(";\n");
        }
        if any {
            self.out.push('\n');
        }
        Ok(())
    }

    /// `@id(N) override name: T = v;`: names as given, since pipelines set them by name.
    fn write_overrides(&mut self) -> Result<(), Unsupported> {
        let module = self.module;
        for (h, o) in module.overrides.iter() {
            if let Some(id) = o.id {
                self.out.push_str("@id(");
                text::push_u32(&mut self.out, u32::from(id));
                self.out.push_str(") ");
            }
            self.out.push_str("override ");
            self.push_name(self.names.overrides[h.index()]);
            self.out.push_str(": ");
            self.write_type(o.ty)?;
            if let Some(init) = o.init {
                self.out.push_str(" = ");
                self.write_const(&module.global_expressions, init)?;
            }
            self.out.push_str(";\n");
        }
        if !module.overrides.is_empty() {
            self.out.push('\n');
        }
        Ok(())
    }

    /// `@group(G) @binding(B) ` on a line of its own, then `var<space> name: T = init;`.
    fn write_globals(&mut self) -> Result<(), Unsupported> {
        let module = self.module;
        for (h, g) in module.global_variables.iter() {
            if let Some(rb) = &g.binding {
                self.out.push_str("@group(");
                text::push_u32(&mut self.out, rb.group);
                self.out.push_str(") @binding(");
                text::push_u32(&mut self.out, rb.binding);
                self.out.push_str(") \n");
            }
            if !g.memory_decorations.is_empty() {
                return Err(Unsupported("memory decorations"));
            }
            self.out.push_str("var");
            if let (Some(space), access) = address_space_str(g.space) {
                self.out.push('<');
                self.out.push_str(space);
                if let Some(access) = access {
                    self.out.push_str(", ");
                    self.out.push_str(access);
                }
                self.out.push('>');
            }
            self.out.push(' ');
            self.push_name(self.names.globals[h.index()]);
            self.out.push_str(": ");
            self.write_type(g.ty)?;
            if let Some(init) = g.init {
                self.out.push_str(" = ");
                self.write_const(&module.global_expressions, init)?;
            }
            self.out.push_str(";\n");
        }
        if !module.global_variables.is_empty() {
            self.out.push('\n');
        }
        Ok(())
    }

    /// `@vertex ` / `@fragment ` on the line before the entry point.
    fn write_stage(&mut self, ep: &naga::EntryPoint) -> Result<(), Unsupported> {
        match ep.stage {
            ShaderStage::Vertex => self.out.push_str("@vertex \n"),
            ShaderStage::Fragment => self.out.push_str("@fragment \n"),
            ShaderStage::Compute => {
                self.out.push_str("@compute @workgroup_size(");
                for (i, n) in ep.workgroup_size.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    text::push_u32(&mut self.out, *n);
                }
                self.out.push_str(") \n");
            }
            _ => return Err(Unsupported("a mesh, task or ray-tracing stage")),
        }
        Ok(())
    }

    /// `fn name(args) -> result {`, the locals, an empty line after them, the body, `}`.
    fn write_function(&mut self, cx: &Cx, name: Name) -> Result<(), Unsupported> {
        self.baked.clear();
        self.baked.resize(cx.f.expressions.len(), false);
        self.named.clear();
        self.named.resize(cx.f.expressions.len(), false);
        for &h in cx.f.named_expressions.keys() {
            self.named[h.index()] = true;
        }
        self.out.push_str("fn ");
        self.push_name(name);
        self.out.push('(');
        for (i, a) in cx.f.arguments.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(b) = &a.binding {
                self.write_binding(b)?;
            }
            self.push_name(cx.names.arguments[i]);
            self.out.push_str(": ");
            self.write_type(a.ty)?;
        }
        self.out.push(')');
        if let Some(r) = &cx.f.result {
            self.out.push_str(" -> ");
            if let Some(b) = &r.binding {
                self.write_binding(b)?;
            }
            self.write_type(r.ty)?;
        }
        self.out.push_str(" {\n");
        for (i, (_, local)) in cx.f.local_variables.iter().enumerate() {
            self.out.push_str("    var ");
            self.push_name(cx.names.locals[i]);
            self.out.push_str(": ");
            self.write_type(local.ty)?;
            if let Some(init) = local.init {
                self.out.push_str(" = ");
                self.write_expr(cx, init)?;
            }
            self.out.push_str(";\n");
        }
        if !cx.f.local_variables.is_empty() {
            self.out.push('\n');
        }
        self.write_block(cx, &cx.f.body, 1)?;
        self.out.push_str("}\n");
        Ok(())
    }

    /// A binding's attributes, each followed by a space, as naga writes them.
    fn write_binding(&mut self, b: &Binding) -> Result<(), Unsupported> {
        match *b {
            Binding::BuiltIn(builtin) => {
                self.out.push_str("@builtin(");
                self.out.push_str(builtin.try_to_wgsl().ok_or(Unsupported("a builtin WGSL lacks"))?);
                self.out.push_str(") ");
                if let naga::BuiltIn::Position { invariant: true } = builtin {
                    self.out.push_str("@invariant ");
                }
            }
            Binding::Location { location, interpolation, sampling, blend_src: None, per_primitive: false } => {
                self.out.push_str("@location(");
                text::push_u32(&mut self.out, location);
                self.out.push_str(") ");
                self.write_interpolate(interpolation, sampling);
            }
            Binding::Location { .. } => return Err(Unsupported("a location needing an enable")),
        }
        Ok(())
    }

    /// `@interpolate(...)` only where it differs from WGSL's default (perspective, center).
    fn write_interpolate(&mut self, interpolation: Option<naga::Interpolation>, sampling: Option<naga::Sampling>) {
        let interp = interpolation.unwrap_or(naga::Interpolation::Perspective);
        if sampling.is_some_and(|s| s != naga::Sampling::Center) {
            self.out.push_str("@interpolate(");
            self.out.push_str(interp.to_wgsl());
            self.out.push_str(", ");
            self.out.push_str(sampling.unwrap_or(naga::Sampling::Center).to_wgsl());
            self.out.push_str(") ");
        } else if interp != naga::Interpolation::Perspective && interpolation.is_some() {
            self.out.push_str("@interpolate(");
            self.out.push_str(interp.to_wgsl());
            self.out.push_str(") ");
        }
    }
}

/// The resolved type of expression `h` of the function `cx`.
pub(super) fn type_of<'a>(module: &'a Module, cx: &'a Cx, h: Handle<naga::Expression>) -> &'a TypeInner {
    cx.fi.ty(h).inner_with(&module.types)
}
