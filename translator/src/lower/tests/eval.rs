//! A small evaluator of the naga IR the lowering emits, for the unit tests: it runs an entry
//! point on given inputs and constant buffers, so each lowering rule can be checked against
//! values derived by hand from the D3D9 rules. It is a test tool, not an oracle of D3D9 (the
//! interpreter is): it only executes naga's semantics.
//!
//! Textures are not read: an `ImageSample` returns `(u, v, w or 0, level)`, where level is the
//! bias, the explicit level, −1 for automatic, −2 for level zero, −3 for gradients — enough to
//! check which coordinates and level mode the lowering chose.

use std::collections::HashMap;

use naga::{
    BinaryOperator as B, Binding, Expression as E, Handle, Literal, MathFunction as M, Module, Statement as S,
    TypeInner, UnaryOperator as U,
};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    F(f32),
    I(i32),
    U(u32),
    B(bool),
    Agg(Vec<Value>),
    Ptr(Root, Vec<usize>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Root {
    Local(Handle<naga::LocalVariable>),
    Global(Handle<naga::GlobalVariable>),
}

impl Value {
    pub fn f(&self) -> f32 {
        match self {
            Value::F(x) => *x,
            v => panic!("not a float: {v:?}"),
        }
    }
    pub fn vec4(&self) -> [f32; 4] {
        match self {
            Value::Agg(c) if c.len() == 4 => [c[0].f(), c[1].f(), c[2].f(), c[3].f()],
            v => panic!("not a vec4: {v:?}"),
        }
    }
    fn b(&self) -> bool {
        match self {
            Value::B(b) => *b,
            v => panic!("not a bool: {v:?}"),
        }
    }
    fn i(&self) -> i64 {
        match self {
            Value::I(i) => i64::from(*i),
            Value::U(u) => i64::from(*u),
            v => panic!("not an integer: {v:?}"),
        }
    }
}

pub fn vec4(v: [f32; 4]) -> Value {
    Value::Agg(v.iter().map(|&x| Value::F(x)).collect())
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<Value>),
    Kill,
}

/// The outcome of running an entry point.
#[derive(Debug)]
pub enum Outcome {
    /// The returned struct's members by name.
    Output(HashMap<String, Value>),
    /// The pixel was killed.
    Killed,
}

pub struct Evaluator<'m> {
    module: &'m Module,
    /// Where GLSL.std.450 leaves a result undefined (log2 of x ≤ 0), give NaN: a Vulkan driver
    /// may return anything there (lavapipe fuses `exp2(log2(a) · b)` into a `pow` that returns
    /// 0 for a = 0), so a rule the lowering promises must not rest on such a value.
    pub undefined_as_nan: bool,
    globals: HashMap<Handle<naga::GlobalVariable>, Value>,
    steps: usize,
}

fn zero(module: &Module, ty: Handle<naga::Type>) -> Value {
    match &module.types[ty].inner {
        TypeInner::Scalar(s) => scalar_zero(s.kind),
        TypeInner::Vector { size, scalar } => Value::Agg(vec![scalar_zero(scalar.kind); *size as usize]),
        TypeInner::Array { base, size: naga::ArraySize::Constant(n), .. } => {
            Value::Agg(vec![zero(module, *base); n.get() as usize])
        }
        TypeInner::Struct { members, .. } => Value::Agg(members.iter().map(|m| zero(module, m.ty)).collect()),
        other => panic!("no zero of {other:?}"),
    }
}

fn scalar_zero(k: naga::ScalarKind) -> Value {
    match k {
        naga::ScalarKind::Float => Value::F(0.0),
        naga::ScalarKind::Sint => Value::I(0),
        naga::ScalarKind::Uint => Value::U(0),
        naga::ScalarKind::Bool => Value::B(false),
        k => panic!("{k:?}"),
    }
}

fn map2(a: &Value, b: &Value, f: &dyn Fn(&Value, &Value) -> Value) -> Value {
    match (a, b) {
        (Value::Agg(x), Value::Agg(y)) => Value::Agg(x.iter().zip(y).map(|(p, q)| map2(p, q, f)).collect()),
        (Value::Agg(x), s) => Value::Agg(x.iter().map(|p| map2(p, s, f)).collect()),
        (s, Value::Agg(y)) => Value::Agg(y.iter().map(|q| map2(s, q, f)).collect()),
        _ => f(a, b),
    }
}

fn map1(a: &Value, f: &dyn Fn(&Value) -> Value) -> Value {
    match a {
        Value::Agg(x) => Value::Agg(x.iter().map(|p| map1(p, f)).collect()),
        _ => f(a),
    }
}

fn binary(op: B, a: &Value, b: &Value) -> Value {
    map2(a, b, &|x, y| match (x, y) {
        (Value::F(x), Value::F(y)) => match op {
            B::Add => Value::F(x + y),
            B::Subtract => Value::F(x - y),
            B::Multiply => Value::F(x * y),
            B::Divide => Value::F(x / y),
            B::Equal => Value::B(x == y),
            B::NotEqual => Value::B(x != y),
            B::Less => Value::B(x < y),
            B::LessEqual => Value::B(x <= y),
            B::Greater => Value::B(x > y),
            B::GreaterEqual => Value::B(x >= y),
            op => panic!("{op:?} on floats"),
        },
        (Value::B(x), Value::B(y)) => match op {
            B::LogicalAnd | B::And => Value::B(*x && *y),
            B::LogicalOr | B::InclusiveOr => Value::B(*x || *y),
            B::Equal => Value::B(x == y),
            B::NotEqual => Value::B(x != y),
            op => panic!("{op:?} on bools"),
        },
        (Value::I(x), Value::I(y)) => match op {
            B::Add => Value::I(x.wrapping_add(*y)),
            B::Subtract => Value::I(x.wrapping_sub(*y)),
            B::Equal => Value::B(x == y),
            B::NotEqual => Value::B(x != y),
            B::Less => Value::B(x < y),
            B::LessEqual => Value::B(x <= y),
            B::Greater => Value::B(x > y),
            B::GreaterEqual => Value::B(x >= y),
            op => panic!("{op:?} on ints"),
        },
        (Value::U(x), Value::U(y)) => match op {
            B::Equal => Value::B(x == y),
            B::NotEqual => Value::B(x != y),
            B::Less => Value::B(x < y),
            B::And => Value::U(x & y),
            B::InclusiveOr => Value::U(x | y),
            B::ShiftRight => Value::U(x >> (y & 31)),
            op => panic!("{op:?} on uints"),
        },
        (x, y) => panic!("{op:?} on {x:?}, {y:?}"),
    })
}

fn math(fun: M, args: &[Value]) -> Value {
    let f1 = |f: fn(f32) -> f32| map1(&args[0], &|v| Value::F(f(v.f())));
    match fun {
        M::Abs => map1(&args[0], &|v| match v {
            Value::F(x) => Value::F(x.abs()),
            Value::I(x) => Value::I(x.abs()),
            v => panic!("{v:?}"),
        }),
        M::Floor => f1(f32::floor),
        M::Fract => f1(|x| x - x.floor()),
        M::Sqrt => f1(f32::sqrt),
        M::Exp => f1(f32::exp),
        M::Exp2 => f1(f32::exp2),
        M::Log2 => f1(f32::log2),
        M::Cos => f1(f32::cos),
        M::Sin => f1(f32::sin),
        M::Saturate => f1(|x| x.clamp(0.0, 1.0)),
        // WGSL round: to nearest, ties to even.
        M::Round => f1(f32::round_ties_even),
        M::Sign => f1(|x| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }),
        M::Min | M::Max => map2(&args[0], &args[1], &|a, b| match (a, b) {
            (Value::F(a), Value::F(b)) => Value::F(if fun == M::Min { a.min(*b) } else { a.max(*b) }),
            (Value::I(a), Value::I(b)) => Value::I(if fun == M::Min { *a.min(b) } else { *a.max(b) }),
            (Value::U(a), Value::U(b)) => Value::U(if fun == M::Min { *a.min(b) } else { *a.max(b) }),
            _ => panic!(),
        }),
        M::Clamp => {
            let lo = map2(&args[0], &args[1], &|a, b| match (a, b) {
                (Value::F(a), Value::F(b)) => Value::F(a.max(*b)),
                (Value::I(a), Value::I(b)) => Value::I(*a.max(b)),
                _ => panic!(),
            });
            map2(&lo, &args[2], &|a, b| match (a, b) {
                (Value::F(a), Value::F(b)) => Value::F(a.min(*b)),
                (Value::I(a), Value::I(b)) => Value::I(*a.min(b)),
                _ => panic!(),
            })
        }
        M::Dot => {
            let (Value::Agg(a), Value::Agg(b)) = (&args[0], &args[1]) else { panic!("dot of scalars") };
            Value::F(a.iter().zip(b).fold(0.0, |acc, (x, y)| acc + x.f() * y.f()))
        }
        M::Mix => {
            let d = binary(B::Subtract, &args[1], &args[0]);
            let p = binary(B::Multiply, &d, &args[2]);
            binary(B::Add, &args[0], &p)
        }
        f => panic!("math {f:?} not supported by the test evaluator"),
    }
}

impl<'m> Evaluator<'m> {
    /// An evaluator with every global zeroed; set buffers with [`Evaluator::set_global`].
    pub fn new(module: &'m Module) -> Self {
        let mut ev = Evaluator { module, undefined_as_nan: false, globals: HashMap::new(), steps: 0 };
        for (h, g) in module.global_variables.iter() {
            if g.space != naga::AddressSpace::Handle {
                let v = match g.init {
                    Some(init) => ev.global_expr(init),
                    None => zero(module, g.ty),
                };
                ev.globals.insert(h, v);
            }
        }
        ev
    }

    /// Sets the global named `name` (e.g. `c`, the float constants) element `index`.
    pub fn set_element(&mut self, name: &str, index: usize, v: Value) {
        let (h, _) =
            self.module.global_variables.iter().find(|(_, g)| g.name.as_deref() == Some(name)).expect("global exists");
        match self.globals.get_mut(&h) {
            Some(Value::Agg(items)) => items[index] = v,
            other => panic!("{name} is not an array: {other:?}"),
        }
    }

    /// Runs the entry point with `inputs` by location (and `front_facing`, `frag_coord`).
    pub fn run(&mut self, inputs: &HashMap<u32, Value>, frag_coord: [f32; 4], front_facing: bool) -> Outcome {
        let ep = &self.module.entry_points[0];
        let args: Vec<Value> = ep
            .function
            .arguments
            .iter()
            .map(|a| match a.binding.as_ref().expect("entry arguments are bound") {
                Binding::Location { location, .. } => inputs.get(location).cloned().unwrap_or_else(|| vec4([0.0; 4])),
                Binding::BuiltIn(naga::BuiltIn::Position { .. }) => vec4(frag_coord),
                Binding::BuiltIn(naga::BuiltIn::FrontFacing) => Value::B(front_facing),
                Binding::BuiltIn(b) => panic!("input built-in {b:?}"),
            })
            .collect();
        let mut frame = FrameState::new(&ep.function, self.module, args);
        match self.block(&ep.function.body, &mut frame) {
            Flow::Return(Some(Value::Agg(members))) => {
                let ty = ep.function.result.as_ref().expect("result").ty;
                let TypeInner::Struct { members: decl, .. } = &self.module.types[ty].inner else {
                    panic!("struct result")
                };
                Outcome::Output(
                    decl.iter().zip(members).map(|(d, v)| (d.name.clone().unwrap_or_default(), v)).collect(),
                )
            }
            Flow::Kill => Outcome::Killed,
            _ => panic!("entry point did not return a struct"),
        }
    }

    fn block(&mut self, block: &naga::Block, fr: &mut FrameState<'m>) -> Flow {
        for s in block.iter() {
            self.steps += 1;
            assert!(self.steps < 1_000_000, "evaluation does not terminate");
            let flow = match s {
                S::Emit(range) => {
                    for h in range.clone() {
                        let v = self.expr(h, fr);
                        fr.values.insert(h, v);
                    }
                    Flow::Normal
                }
                S::Block(b) => self.block(b, fr),
                S::If { condition, accept, reject } => {
                    if self.value(*condition, fr).b() {
                        self.block(accept, fr)
                    } else {
                        self.block(reject, fr)
                    }
                }
                S::Loop { body, continuing, break_if } => loop {
                    match self.block(body, fr) {
                        Flow::Break => break Flow::Normal,
                        Flow::Normal | Flow::Continue => {}
                        other => break other,
                    }
                    match self.block(continuing, fr) {
                        Flow::Normal => {}
                        other => break other,
                    }
                    if let Some(b) = break_if {
                        if self.value(*b, fr).b() {
                            break Flow::Normal;
                        }
                    }
                },
                S::Break => Flow::Break,
                S::Continue => Flow::Continue,
                S::Return { value } => Flow::Return(value.map(|v| self.value(v, fr))),
                S::Kill => Flow::Kill,
                S::Store { pointer, value } => {
                    let v = self.value(*value, fr);
                    let Value::Ptr(root, path) = self.value(*pointer, fr) else {
                        panic!("store through a non-pointer")
                    };
                    *self.place(root, &path, fr) = v;
                    Flow::Normal
                }
                S::Call { function, arguments, result } => {
                    let args = arguments.iter().map(|&a| self.value(a, fr)).collect();
                    let f = &self.module.functions[*function];
                    let mut callee = FrameState::new(f, self.module, args);
                    match self.block(&f.body, &mut callee) {
                        Flow::Kill => Flow::Kill,
                        Flow::Return(value) => {
                            if let (Some(r), Some(v)) = (result, value) {
                                fr.values.insert(*r, v);
                            }
                            Flow::Normal
                        }
                        _ => Flow::Normal,
                    }
                }
                other => panic!("statement {other:?} not supported by the test evaluator"),
            };
            if !matches!(flow, Flow::Normal) {
                return flow;
            }
        }
        Flow::Normal
    }

    fn place<'a>(&'a mut self, root: Root, path: &[usize], fr: &'a mut FrameState<'m>) -> &'a mut Value {
        let mut v = match root {
            Root::Local(l) => fr.locals.get_mut(&l).expect("local exists"),
            Root::Global(g) => self.globals.get_mut(&g).expect("global exists"),
        };
        for &i in path {
            v = match v {
                Value::Agg(items) => &mut items[i],
                other => panic!("index into {other:?}"),
            };
        }
        v
    }

    fn value(&mut self, h: Handle<E>, fr: &mut FrameState<'m>) -> Value {
        if let Some(v) = fr.values.get(&h) {
            return v.clone();
        }
        let e = &fr.f.expressions[h];
        assert!(e.needs_pre_emit(), "expression {h:?} ({e:?}) used before it was emitted");
        self.expr(h, fr)
    }

    fn global_expr(&self, h: Handle<E>) -> Value {
        match &self.module.global_expressions[h] {
            E::Literal(l) => literal(*l),
            E::Compose { components, .. } => Value::Agg(components.iter().map(|&c| self.global_expr(c)).collect()),
            E::ZeroValue(ty) => zero(self.module, *ty),
            e => panic!("global expression {e:?}"),
        }
    }

    fn expr(&mut self, h: Handle<E>, fr: &mut FrameState<'m>) -> Value {
        let e = fr.f.expressions[h].clone();
        match e {
            E::Literal(l) => literal(l),
            E::Constant(c) => self.global_expr(self.module.constants[c].init),
            E::ZeroValue(ty) => zero(self.module, ty),
            E::FunctionArgument(i) => fr.args[i as usize].clone(),
            E::GlobalVariable(g) => Value::Ptr(Root::Global(g), Vec::new()),
            E::LocalVariable(l) => Value::Ptr(Root::Local(l), Vec::new()),
            E::Load { pointer } => {
                let Value::Ptr(root, path) = self.value(pointer, fr) else { panic!("load of a non-pointer") };
                self.place(root, &path, fr).clone()
            }
            E::Compose { components, .. } => Value::Agg(components.iter().map(|&c| self.value(c, fr)).collect()),
            E::Splat { size, value } => Value::Agg(vec![self.value(value, fr); size as usize]),
            E::Swizzle { size, vector, pattern } => {
                let Value::Agg(v) = self.value(vector, fr) else { panic!("swizzle of a scalar") };
                Value::Agg(pattern[..size as usize].iter().map(|&c| v[c as usize].clone()).collect())
            }
            E::AccessIndex { base, index } => index_value(self.value(base, fr), index as usize),
            E::Access { base, index } => {
                let i = self.value(index, fr).i();
                assert!(i >= 0, "negative index reached an access: the lowering must bound-check first");
                index_value(self.value(base, fr), i as usize)
            }
            E::Binary { op, left, right } => {
                let (a, b) = (self.value(left, fr), self.value(right, fr));
                binary(op, &a, &b)
            }
            E::Unary { op, expr } => {
                let v = self.value(expr, fr);
                map1(&v, &|x| match (op, x) {
                    (U::Negate, Value::F(f)) => Value::F(-f),
                    (U::Negate, Value::I(i)) => Value::I(-i),
                    (U::LogicalNot, Value::B(b)) => Value::B(!b),
                    (op, x) => panic!("{op:?} on {x:?}"),
                })
            }
            E::Select { condition, accept, reject } => {
                let (c, a, r) = (self.value(condition, fr), self.value(accept, fr), self.value(reject, fr));
                match (c, a, r) {
                    (Value::B(c), a, r) => {
                        if c {
                            a
                        } else {
                            r
                        }
                    }
                    (Value::Agg(c), Value::Agg(a), Value::Agg(r)) => {
                        Value::Agg(c.iter().zip(a).zip(r).map(|((c, a), r)| if c.b() { a } else { r }).collect())
                    }
                    other => panic!("select {other:?}"),
                }
            }
            E::Math { fun, arg, arg1, arg2, .. } => {
                let mut args = vec![self.value(arg, fr)];
                for a in [arg1, arg2].into_iter().flatten() {
                    args.push(self.value(a, fr));
                }
                if self.undefined_as_nan && fun == M::Log2 {
                    // GLSL.std.450 Log2 is undefined for x ≤ 0.
                    map1(&args[0], &|v| Value::F(if v.f() > 0.0 { v.f().log2() } else { f32::NAN }))
                } else {
                    math(fun, &args)
                }
            }
            E::As { expr, kind, convert } => {
                let v = self.value(expr, fr);
                map1(&v, &|x| match (x, kind, convert) {
                    (Value::F(f), naga::ScalarKind::Sint, Some(_)) => Value::I(*f as i32),
                    (Value::I(i), naga::ScalarKind::Float, Some(_)) => Value::F(*i as f32),
                    (Value::U(u), naga::ScalarKind::Float, Some(_)) => Value::F(*u as f32),
                    (Value::U(u), naga::ScalarKind::Float, None) => Value::F(f32::from_bits(*u)),
                    (Value::F(f), naga::ScalarKind::Uint, None) => Value::U(f.to_bits()),
                    (Value::I(i), naga::ScalarKind::Uint, None) => Value::U(*i as u32),
                    (x, k, c) => panic!("as {x:?} {k:?} {c:?}"),
                })
            }
            E::Derivative { .. } => map1(&self.value(h_arg_of_derivative(&e), fr), &|_| Value::F(0.0)),
            E::ImageSample { coordinate, level, depth_ref, .. } => {
                let Value::Agg(c) = self.value(coordinate, fr) else { panic!() };
                let lvl = match level {
                    naga::SampleLevel::Auto => -1.0,
                    naga::SampleLevel::Zero => -2.0,
                    naga::SampleLevel::Exact(l) | naga::SampleLevel::Bias(l) => self.value(l, fr).f(),
                    naga::SampleLevel::Gradient { .. } => -3.0,
                };
                if let Some(d) = depth_ref {
                    return Value::F(self.value(d, fr).f());
                }
                let z = c.get(2).map(Value::f).unwrap_or(0.0);
                vec4([c[0].f(), c[1].f(), z, lvl])
            }
            e => panic!("expression {e:?} not supported by the test evaluator"),
        }
    }
}

fn h_arg_of_derivative(e: &E) -> Handle<E> {
    match e {
        E::Derivative { expr, .. } => *expr,
        _ => unreachable!(),
    }
}

fn index_value(base: Value, i: usize) -> Value {
    match base {
        Value::Ptr(root, mut path) => {
            path.push(i);
            Value::Ptr(root, path)
        }
        Value::Agg(items) => items[i].clone(),
        v => panic!("index into {v:?}"),
    }
}

fn literal(l: Literal) -> Value {
    match l {
        Literal::F32(f) => Value::F(f),
        Literal::I32(i) => Value::I(i),
        Literal::U32(u) => Value::U(u),
        Literal::Bool(b) => Value::B(b),
        l => panic!("literal {l:?}"),
    }
}

struct FrameState<'m> {
    values: HashMap<Handle<E>, Value>,
    locals: HashMap<Handle<naga::LocalVariable>, Value>,
    args: Vec<Value>,
    f: &'m naga::Function,
}

impl<'m> FrameState<'m> {
    fn new(f: &'m naga::Function, module: &Module, args: Vec<Value>) -> Self {
        let locals = f.local_variables.iter().map(|(h, l)| (h, zero(module, l.ty))).collect();
        FrameState { values: HashMap::new(), locals, args, f }
    }
}
