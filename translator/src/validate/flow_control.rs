//! Flow control: the code format (main program, then subroutines after its `ret`), block
//! structure, and the nesting limits and static flow-control count of the D3D9 "flow control
//! nesting limits" tables.
//!
//! What each instruction adds to each counter (the tables for vs_2_0, vs_2_x, vs_2_sw, vs_3_0
//! and vs_3_sw; the pixel shader reference gives the same counts for ps_2_x, ps_2_sw and ps_3_0,
//! without the static flow count column):
//!
//! | instruction    | static | dynamic            | loop/rep | call | static count        |
//! |----------------|--------|--------------------|----------|------|---------------------|
//! | `if b#`        | +1     |                    |          |      | 1 (2_0 and 2_x)     |
//! | `if_comp`      |        | +1                 |          |      |                     |
//! | `if p0`        |        | +1                 |          |      |                     |
//! | `else`         |        |                    |          |      | 1 after `if b#`     |
//! | `endif`        | −1 (`if b#`) | −1 (`if p0`, `if_comp`) |  |      |                     |
//! | `rep`, `loop`  |        |                    | +1       |      | 1                   |
//! | `endrep`, `endloop` |   |                    | −1       |      |                     |
//! | `break_comp`   |        | +1 then −1         |          |      |                     |
//! | `call`, `callnz b#` |   |                    |          | +1   | 1                   |
//! | `callnz p0`    |        | +1                 |          | +1   |                     |
//! | `ret`          |        | −1 (after `callnz p0`) |      | −1   |                     |
//!
//! The vs_2_0 table lists `if b#` as adding 0 to the static nesting but `endif` as removing 1;
//! both versions whose static nesting is "limited only by the static flow count" (vs_2_0,
//! vs_2_x) are read here as +1/−1 with no limit of its own, which is the same thing.
//!
//! Limits (the "nesting depth" tables; 2_x limits come from the device caps):
//!
//! | version        | static | dynamic | loop/rep | call | static count |
//! |----------------|--------|---------|----------|------|--------------|
//! | vs_2_0         | –      | n/a     | 1        | 1    | 16           |
//! | vs_2_x         | –      | caps DynamicFlowControlDepth (0 or 24) | caps StaticFlowControlDepth (1–4) | same | 16 |
//! | ps_2_x         | 24 (0 when StaticFlowControlDepth is 0) | caps DynamicFlowControlDepth (0–24) | caps StaticFlowControlDepth (0–4) | same | none |
//! | vs_2_sw, vs_3_0, vs_3_sw, ps_2_sw, ps_3_0, ps_3_sw | 24 | 24 | 4 | 4 | none |
//!
//! Calls are followed: a subroutine's nesting adds to its caller's at each call site, and the
//! error is reported at the instruction inside the subroutine that passes the limit.

use std::collections::{HashMap, HashSet};

use super::{Cx, Rule};
use crate::bytecode::{Instruction, Nesting, Opcode, RegisterType, VersionId};

/// What flow control tells the later rules about each instruction.
pub(crate) struct FlowInfo {
    /// The instruction may run under dynamic flow control (inside `if_comp`/`if p0`, a loop
    /// left by `break_comp`/`breakp`, or a subroutine reached through such code or `callnz p0`).
    pub dynamic: Vec<bool>,
}

#[derive(Clone, Copy, Debug)]
struct Limits {
    static_nesting: Option<u32>,
    dynamic: u32,
    loops: u32,
    calls: u32,
    static_count: Option<u32>,
}

fn limits(cx: &Cx<'_>, id: VersionId) -> Option<Limits> {
    use VersionId::*;
    let caps = &cx.options.caps;
    let full = Limits { static_nesting: Some(24), dynamic: 24, loops: 4, calls: 4, static_count: None };
    Some(match id {
        Vs20 => Limits { static_nesting: None, dynamic: 0, loops: 1, calls: 1, static_count: Some(16) },
        Vs2x => {
            let depth = caps.vs_static_flow_control_depth as u32;
            Limits {
                static_nesting: None,
                dynamic: caps.vs_dynamic_flow_control_depth as u32,
                loops: depth,
                calls: depth,
                static_count: Some(16),
            }
        }
        // The pixel shader reference's ps_2_x table: static nesting 24 (0 without static flow
        // control), the rest from the caps, and no static flow count.
        Ps2x => {
            let depth = caps.ps_static_flow_control_depth as u32;
            let static_nesting = if depth > 0 { 24 } else { 0 };
            Limits {
                static_nesting: Some(static_nesting),
                dynamic: caps.ps_dynamic_flow_control_depth as u32,
                loops: depth,
                calls: depth,
                static_count: None,
            }
        }
        Vs2sw | Vs30 | Vs3sw | Ps2sw | Ps30 | Ps3sw => full,
        // No flow-control instruction exists in the other versions (the opcode table says so).
        _ => return None,
    })
}

/// A subroutine or the main program: instructions `start..end`.
#[derive(Clone, Copy, Debug)]
struct Body {
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
struct State {
    static_nesting: u32,
    dynamic: u32,
    loops: u32,
    calls: u32,
    /// `loop` blocks open (where `aL` is defined).
    aloops: u32,
    /// Reached through dynamic flow control.
    dynamic_context: bool,
}

#[derive(Clone, Copy, Debug)]
enum Block {
    If { at: usize, dynamic: bool, has_else: bool },
    Loop { at: usize, is_loop: bool, dynamic_exit: bool },
}

/// Checks the code format, structure and nesting; returns what later rules need.
pub(crate) fn check(cx: &mut Cx<'_>) -> FlowInfo {
    let n = cx.program.len();
    let mut info = FlowInfo { dynamic: vec![false; n] };
    let Split { bodies, labels, flow } = split(cx);
    let Some(id) = cx.id else { return info };
    let Some(limits) = limits(cx, id) else { return info };
    if !flow {
        // No block, break or call (most programs): the walk's state never leaves its entry
        // value, so nothing is dynamic, nothing counts towards the static flow count, and aL,
        // defined only inside `loop`, is defined nowhere.
        for b in &bodies {
            for i in b.start..b.end {
                if uses_loop_counter(cx.inst(i)) {
                    cx.relaxable(Rule::FlowControl, Some(i), LOOP_COUNTER_OUTSIDE);
                }
            }
        }
        return info;
    }
    static_count(cx, &limits);
    let mut w = Walker {
        cx,
        bodies: &bodies,
        labels: &labels,
        limits,
        seen: HashSet::new(),
        reported: HashSet::new(),
        active: Vec::new(),
        budget: 100_000,
        info: &mut info,
    };
    // bodies[0] is always the main program (split pushes it first).
    w.walk(0, State::default());
    // Subroutines nobody calls are still checked, from an empty state.
    for b in 1..bodies.len() {
        if !w.seen.iter().any(|(body, _)| *body == b) {
            w.walk(b, State::default());
        }
    }
    info
}

/// The program's bodies, main first, each label's body, and whether any instruction but `ret`
/// is one of flow control (what the walk follows).
struct Split {
    bodies: Vec<Body>,
    labels: HashMap<u16, usize>,
    flow: bool,
}

/// Splits the program into the main body and its subroutines, checking the code format:
/// subroutines (`label`) only after the main program's `ret`, each ending in `ret`, each label
/// defined once.
fn split(cx: &mut Cx<'_>) -> Split {
    let program = cx.program;
    let mut bodies = vec![];
    let mut labels = HashMap::new();
    let mut flow = false;
    let mut depth = 0u32;
    let mut current: Option<(usize, bool)> = Some((0, true)); // (start, is_main)
    let mut stray_reported = false;
    for (i, inst) in program.iter().enumerate() {
        match inst.opcode {
            Opcode::Label => {
                if let Some((start, is_main)) = current {
                    if is_main {
                        cx.error(
                            Rule::CodeFormat,
                            Some(i),
                            "a label appears before the main program's ret (subroutines follow it)",
                        );
                    } else {
                        cx.error(
                            Rule::CodeFormat,
                            i.checked_sub(1).filter(|&p| p > start),
                            "a subroutine ends without ret",
                        );
                    }
                    bodies.push(Body { start, end: i });
                }
                let num = inst.src.get(0).map_or(u16::MAX, |s| s.reg.num);
                if labels.insert(num, bodies.len()).is_some() {
                    cx.error(Rule::CodeFormat, Some(i), format_args!("label l{num} is defined twice"));
                }
                current = Some((i, false));
                depth = 0;
                stray_reported = false;
                flow = true;
                continue;
            }
            _ => {
                let info = inst.opcode.info();
                flow |= info.flow_control && inst.opcode != Opcode::Ret;
                match info.nesting {
                    Nesting::Open { .. } => depth += 1,
                    Nesting::Close => depth = depth.saturating_sub(1),
                    Nesting::Else | Nesting::None => {}
                }
            }
        }
        match current {
            None if !stray_reported => {
                // Once per run of stray instructions: the rest of the run is the same mistake.
                stray_reported = true;
                cx.error(Rule::CodeFormat, Some(i), "instructions after ret must belong to a subroutine (label l#)");
            }
            Some((start, _)) if inst.opcode == Opcode::Ret && depth == 0 => {
                bodies.push(Body { start, end: i + 1 });
                current = None;
            }
            _ => {}
        }
    }
    if let Some((start, is_main)) = current {
        if !is_main {
            cx.error(Rule::CodeFormat, Some(start), "a subroutine ends without ret");
        }
        bodies.push(Body { start, end: program.len() });
    }
    Split { bodies, labels, flow }
}

fn static_count(cx: &mut Cx<'_>, limits: &Limits) {
    let Some(limit) = limits.static_count else { return };
    let mut count = 0;
    let mut ifs: Vec<bool> = vec![]; // static?
    for (i, inst) in cx.program.iter().enumerate() {
        let bool_src = inst.src.get(0).is_some_and(|s| s.reg.ty == RegisterType::ConstBool);
        let counts = match inst.opcode {
            Opcode::If => {
                ifs.push(bool_src);
                bool_src
            }
            Opcode::Ifc => {
                ifs.push(false);
                false
            }
            Opcode::Else => ifs.last().copied().unwrap_or(false),
            Opcode::EndIf => {
                ifs.pop();
                false
            }
            Opcode::Rep | Opcode::Loop | Opcode::Call => true,
            Opcode::CallNz => inst.src.get(1).is_some_and(|s| s.reg.ty == RegisterType::ConstBool),
            _ => false,
        };
        if counts {
            count += 1;
            if count == limit + 1 {
                cx.error(
                    Rule::StaticFlowCount,
                    Some(i),
                    format_args!("static flow control count {count} exceeds the limit {limit}"),
                );
            }
        }
    }
}

struct Walker<'c, 'a> {
    cx: &'c mut Cx<'a>,
    bodies: &'c [Body],
    labels: &'c HashMap<u16, usize>,
    limits: Limits,
    seen: HashSet<(usize, State)>,
    reported: HashSet<(usize, Rule)>,
    active: Vec<usize>,
    budget: u32,
    info: &'c mut FlowInfo,
}

impl Walker<'_, '_> {
    fn error(&mut self, rule: Rule, at: usize, message: std::fmt::Arguments<'_>) {
        if self.reported.insert((at, rule)) {
            self.cx.error(rule, Some(at), message);
        }
    }

    fn limit(&mut self, at: usize, rule: Rule, what: &str, value: u32, limit: Option<u32>) {
        if let Some(limit) = limit {
            if value > limit {
                self.error(rule, at, format_args!("{what} {value} exceeds the limit {limit}"));
            }
        }
    }

    fn walk(&mut self, body: usize, entry: State) {
        if self.budget == 0 || !self.seen.insert((body, entry)) {
            return;
        }
        self.budget -= 1;
        self.active.push(body);
        let Body { start, end } = self.bodies[body];
        let mut st = entry;
        let mut blocks: Vec<Block> = vec![];
        for i in start..end {
            let inst = self.cx.inst(i);
            let in_dynamic_loop = blocks.iter().any(|b| matches!(b, Block::Loop { dynamic_exit: true, .. }));
            if st.dynamic_context || st.dynamic > 0 || in_dynamic_loop {
                self.info.dynamic[i] = true;
            }
            self.loop_counter_uses(i, &st);
            match inst.opcode {
                Opcode::If | Opcode::Ifc | Opcode::Else | Opcode::EndIf => self.branch(i, inst, &mut st, &mut blocks),
                Opcode::Loop
                | Opcode::Rep
                | Opcode::EndLoop
                | Opcode::EndRep
                | Opcode::Break
                | Opcode::BreakC
                | Opcode::BreakP => self.repetition(i, inst, end, &mut st, &mut blocks),
                Opcode::Call | Opcode::CallNz => {
                    let dynamic = inst.opcode == Opcode::CallNz && predicate_source(inst, 1);
                    self.call(i, &st, dynamic, in_dynamic_loop);
                }
                _ => {}
            }
        }
        for b in blocks {
            let (at, what) = match b {
                Block::If { at, .. } => (at, "if without endif"),
                Block::Loop { at, is_loop: true, .. } => (at, "loop without endloop"),
                Block::Loop { at, .. } => (at, "rep without endrep"),
            };
            self.error(Rule::FlowControl, at, format_args!("{what}"));
        }
        self.active.pop();
    }

    /// `if`, `if_cmp`, `else` and `endif` at instruction `i`: the nesting they open and close.
    fn branch(&mut self, i: usize, inst: &Instruction, st: &mut State, blocks: &mut Vec<Block>) {
        let limits = self.limits;
        match inst.opcode {
            Opcode::If | Opcode::Ifc => {
                let dynamic = inst.opcode == Opcode::Ifc || predicate_source(inst, 0);
                if dynamic {
                    st.dynamic += 1;
                    let what = "dynamic flow control nesting";
                    self.limit(i, Rule::DynamicNesting, what, st.dynamic, Some(limits.dynamic));
                } else {
                    st.static_nesting += 1;
                    let what = "static flow control nesting";
                    self.limit(i, Rule::StaticNesting, what, st.static_nesting, limits.static_nesting);
                }
                blocks.push(Block::If { at: i, dynamic, has_else: false });
            }
            Opcode::Else => match blocks.last_mut() {
                Some(Block::If { has_else, .. }) if !*has_else => *has_else = true,
                _ => self.error(Rule::FlowControl, i, format_args!("else without a matching if")),
            },
            _ => match blocks.last() {
                Some(&Block::If { dynamic, .. }) => {
                    blocks.pop();
                    if dynamic {
                        st.dynamic -= 1;
                    } else {
                        st.static_nesting -= 1;
                    }
                }
                _ => self.error(Rule::FlowControl, i, format_args!("endif without a matching if")),
            },
        }
    }

    /// `loop`, `rep`, their ends and the breaks at instruction `i` of a body ending at `end`.
    fn repetition(&mut self, i: usize, inst: &Instruction, end: usize, st: &mut State, blocks: &mut Vec<Block>) {
        let limits = self.limits;
        match inst.opcode {
            Opcode::Loop | Opcode::Rep => {
                let is_loop = inst.opcode == Opcode::Loop;
                st.loops += 1;
                self.limit(i, Rule::LoopNesting, "loop nesting", st.loops, Some(limits.loops));
                if is_loop {
                    st.aloops += 1;
                }
                blocks.push(Block::Loop { at: i, is_loop, dynamic_exit: self.has_dynamic_exit(i, end) });
            }
            Opcode::EndLoop | Opcode::EndRep => {
                let want_loop = inst.opcode == Opcode::EndLoop;
                match blocks.last() {
                    Some(&Block::Loop { is_loop, .. }) if is_loop == want_loop => {
                        blocks.pop();
                        st.loops -= 1;
                        if is_loop {
                            st.aloops -= 1;
                        }
                    }
                    _ => {
                        let (close, open) = if want_loop { ("endloop", "loop") } else { ("endrep", "rep") };
                        self.error(Rule::FlowControl, i, format_args!("{close} without a matching {open}"))
                    }
                }
            }
            _ => {
                if !blocks.iter().any(|b| matches!(b, Block::Loop { .. })) {
                    self.error(Rule::FlowControl, i, format_args!("break outside loop or rep"));
                }
                if inst.opcode == Opcode::BreakC {
                    let what = "dynamic flow control nesting";
                    self.limit(i, Rule::DynamicNesting, what, st.dynamic + 1, Some(limits.dynamic));
                }
            }
        }
    }

    fn call(&mut self, i: usize, st: &State, dynamic: bool, in_dynamic_loop: bool) {
        let inst = self.cx.inst(i);
        let Some(target) = inst.src.get(0).map(|s| s.reg.num) else { return };
        let Some(&body) = self.labels.get(&target) else {
            self.error(Rule::CodeFormat, i, format_args!("call to label l{target}, which is not defined"));
            return;
        };
        let mut inner = *st;
        inner.calls += 1;
        self.limit(i, Rule::CallNesting, "call nesting", inner.calls, Some(self.limits.calls));
        if dynamic {
            inner.dynamic += 1;
            self.limit(
                i,
                Rule::DynamicNesting,
                "dynamic flow control nesting",
                inner.dynamic,
                Some(self.limits.dynamic),
            );
        }
        inner.dynamic_context = st.dynamic_context || st.dynamic > 0 || in_dynamic_loop || dynamic;
        if self.active.contains(&body) {
            self.error(Rule::CallNesting, i, format_args!("recursive call to l{target}"));
            return;
        }
        // Past the limits the exact depth no longer matters: clamping keeps the walk finite.
        inner.static_nesting = inner.static_nesting.min(64);
        inner.dynamic = inner.dynamic.min(64);
        inner.loops = inner.loops.min(64);
        inner.calls = inner.calls.min(64);
        self.walk(body, inner);
    }

    /// Whether the loop/rep opened at `open` can be left by `break_comp`/`breakp` (or a `break`
    /// inside dynamic flow control), which makes its later iterations dynamic.
    fn has_dynamic_exit(&self, open: usize, end: usize) -> bool {
        let mut depth = 0i32;
        let mut dynamic_ifs = 0i32;
        let mut ifs: Vec<bool> = vec![];
        for j in open + 1..end {
            let inst = self.cx.inst(j);
            match inst.opcode {
                Opcode::Loop | Opcode::Rep => depth += 1,
                Opcode::EndLoop | Opcode::EndRep => {
                    if depth == 0 {
                        return false;
                    }
                    depth -= 1;
                }
                Opcode::If | Opcode::Ifc => {
                    let dynamic = inst.opcode == Opcode::Ifc
                        || inst.src.get(0).is_some_and(|s| s.reg.ty == RegisterType::Predicate);
                    ifs.push(dynamic);
                    dynamic_ifs += dynamic as i32;
                }
                Opcode::EndIf => dynamic_ifs -= ifs.pop().unwrap_or(false) as i32,
                Opcode::BreakC | Opcode::BreakP if depth == 0 => return true,
                Opcode::Break if depth == 0 && dynamic_ifs > 0 => return true,
                _ => {}
            }
        }
        false
    }

    /// `aL` is defined only inside `loop`.
    fn loop_counter_uses(&mut self, i: usize, st: &State) {
        if st.aloops == 0 && uses_loop_counter(self.cx.inst(i)) && self.reported.insert((i, Rule::FlowControl)) {
            self.cx.relaxable(Rule::FlowControl, Some(i), LOOP_COUNTER_OUTSIDE);
        }
    }
}

/// A translator can read aL as 0 outside `loop`: only strict mode refuses it.
const LOOP_COUNTER_OUTSIDE: &str = "aL is used outside loop/endloop";

/// Whether `inst` reads `aL` or addresses a register by it (`loop`'s own `aL` operand aside).
fn uses_loop_counter(inst: &Instruction) -> bool {
    inst.src.iter().enumerate().any(|(k, s)| {
        let own = inst.opcode == Opcode::Loop && k == 0;
        (!own && s.reg.ty == RegisterType::Loop) || s.relative.is_some_and(|r| r.reg.ty == RegisterType::Loop)
    }) || inst.dst.is_some_and(|d| d.relative.is_some_and(|r| r.reg.ty == RegisterType::Loop))
}

/// Whether source `k` of `inst` is a predicate register (a dynamic condition).
fn predicate_source(inst: &Instruction, k: usize) -> bool {
    inst.src.get(k).is_some_and(|s| s.reg.ty == RegisterType::Predicate)
}
