//! The preshader machine: register tables, operand fetch with relative addressing, the
//! operations, and the upload of parameter values into the input registers (and, for a shader,
//! into its constant registers) through a constant table.
//!
//! Rules (see `docs/effects.md`): values are widened to double, each operation is computed in
//! double, and the result is rounded to the destination (float32 outputs; temporaries stay
//! double; round-to-nearest-even for int outputs; nonzero for bool outputs). A relative operand adds 4 × round(index) components; an
//! index past a table wraps (the input table to the next power of two of its size, others to
//! their size) and reads 0 when it still lies past the end.

use super::preshader::{Opcode, Operand, Preshader, Table, TABLES};
use super::store::{Handle, Store};
use super::types::{ParameterClass, ParameterType};
use crate::bytecode::{ConstantInfo, RegisterSet};

/// The registers of one preshader (or of one shader and its preshader).
#[derive(Clone, Debug, PartialEq)]
pub struct Registers {
    /// Literals.
    pub literals: Vec<f64>,
    /// Register sizes per table (in [`TABLES`] order).
    pub sizes: [u32; 7],
    /// Tables as words (float bits, int values, bool values); the literal and temporary
    /// tables are unused.
    pub tables: [Vec<u32>; 7],
    /// Temporaries: doubles, as the 64-bit Windows machine keeps them (32-bit x86 keeps floats;
    /// the expectation files hold the 64-bit results, with the x86 ones beside where they differ).
    pub temps: Vec<f64>,
}

/// `lrint` in the default rounding mode, as the 32-bit result the machine keeps (a NaN or an
/// out-of-range value gives the x86 "integer indefinite" value's low word, 0).
fn lrint(v: f64) -> u32 {
    if v.is_finite() && v.abs() < 9.2e18 {
        v.round_ties_even() as i64 as u32
    } else {
        0
    }
}

impl Registers {
    /// Zeroed registers for `p`.
    pub fn new(p: &Preshader) -> Registers {
        let tables = std::array::from_fn(|t| vec![0; (p.table_sizes[t] * TABLES[t].components()) as usize]);
        let temps = vec![0.0; p.table_sizes[Table::Temp as usize] as usize * 4];
        Registers { literals: p.literals.clone(), sizes: p.table_sizes, tables, temps }
    }

    /// Reads a component as a double.
    pub fn get(&self, table: Table, offset: u32) -> f64 {
        if table == Table::Literal {
            return self.literals.get(offset as usize).copied().unwrap_or(0.0);
        }
        if table == Table::Temp {
            return self.temps.get(offset as usize).copied().unwrap_or(0.0);
        }
        let Some(&w) = self.tables[table as usize].get(offset as usize) else { return 0.0 };
        match table {
            Table::BoolOutput | Table::IntOutput => f64::NAN,
            _ => f32::from_bits(w) as f64,
        }
    }

    /// Writes a component, rounding to the table's type.
    pub fn set(&mut self, table: Table, offset: u32, v: f64) {
        if table == Table::Temp {
            if let Some(slot) = self.temps.get_mut(offset as usize) {
                *slot = v;
            }
            return;
        }
        let word = match table {
            Table::IntOutput => lrint(v) as i32 as u32,
            Table::BoolOutput => (v != 0.0) as u32,
            _ => (v as f32).to_bits(),
        };
        if let Some(slot) = self.tables[table as usize].get_mut(offset as usize) {
            *slot = word;
        }
    }

    fn arg(&self, op: &Operand, comp: u32) -> f64 {
        let table = op.register.table;
        let per = table.components();
        let base = op.index.map_or(0, |i| lrint(self.get(i.table, i.offset)));
        let offset = base.wrapping_mul(per).wrapping_add(op.register.offset).wrapping_add(comp);
        let mut reg = offset / per;
        let size = self.sizes[table as usize];
        if reg < size {
            return self.get(table, offset);
        }
        let wrap = if table == Table::Input { size.max(1).next_power_of_two() } else { size };
        if wrap == 0 {
            return 0.0;
        }
        reg %= wrap;
        if reg >= size {
            return 0.0;
        }
        self.get(table, reg * per + offset % per)
    }

    /// Runs the code.
    pub fn run(&mut self, p: &Preshader) {
        let mut args = [0.0f64; 8];
        for ins in &p.instructions {
            let n = ins.components;
            let arg_comp = |k: usize, j: u32| if ins.scalar && k == 0 { 0 } else { j };
            if ins.opcode == Opcode::Dot {
                let mut sum = 0.0;
                for j in 0..n {
                    sum += self.arg(&ins.inputs[0], arg_comp(0, j)) * self.arg(&ins.inputs[1], arg_comp(1, j));
                }
                self.set(ins.output.table, ins.output.offset, sum);
                continue;
            }
            for j in 0..n {
                for (k, input) in ins.inputs.iter().enumerate() {
                    args[k] = self.arg(input, arg_comp(k, j));
                }
                self.set(ins.output.table, ins.output.offset + j, operate(ins.opcode, &args));
            }
        }
    }
}

/// One operation on doubles.
fn operate(op: Opcode, a: &[f64; 8]) -> f64 {
    let signed_nan = |v: f64| if v.is_nan() { f64::from_bits(0xfff8_0000_0000_0000) } else { v };
    match op {
        Opcode::Nop => 0.0,
        Opcode::Mov => a[0],
        Opcode::Neg => -a[0],
        Opcode::Rcp => 1.0 / a[0],
        Opcode::Frc => a[0] - a[0].floor(),
        Opcode::Exp => 2f64.powf(a[0]),
        Opcode::Log => match a[0].abs() {
            0.0 => 0.0,
            v => v.log2(),
        },
        Opcode::Rsq => match a[0].abs() {
            0.0 => f64::INFINITY,
            v => 1.0 / v.sqrt(),
        },
        Opcode::Sin => a[0].sin(),
        Opcode::Cos => a[0].cos(),
        Opcode::Asin => signed_nan(a[0].asin()),
        Opcode::Acos => signed_nan(a[0].acos()),
        Opcode::Atan => a[0].atan(),
        Opcode::Min => a[0].min(a[1]),
        Opcode::Max => a[0].max(a[1]),
        Opcode::Lt => (a[0] < a[1]) as u32 as f64,
        Opcode::Ge => (a[0] >= a[1]) as u32 as f64,
        Opcode::Add => a[0] + a[1],
        Opcode::Mul => a[0] * a[1],
        Opcode::Atan2 => a[0].atan2(a[1]),
        // The compiler never emits div (it writes rcp and mul); Windows' machine gives 0.
        Opcode::Div => 0.0,
        Opcode::Cmp => {
            if a[0] >= 0.0 {
                a[1]
            } else {
                a[2]
            }
        }
        Opcode::Dot => a[0] * a[1],
        Opcode::DotSwiz6 => a[0] * a[3] + a[1] * a[4] + a[2] * a[5],
        Opcode::DotSwiz8 => a[0] * a[4] + a[1] * a[5] + a[2] * a[6] + a[3] * a[7],
    }
}

/// Which table a constant table's register set fills: a preshader's `CTAB` names its inputs, a
/// shader's names its constants (the preshader's outputs are the shader's constants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A preshader's inputs.
    PreshaderInputs,
    /// A shader's constant registers.
    ShaderConstants,
}

fn table_for(set: RegisterSet, target: Target) -> Option<Table> {
    Some(match (set, target) {
        (RegisterSet::Bool, _) => Table::BoolOutput,
        (RegisterSet::Int4, _) => Table::IntOutput,
        (RegisterSet::Float4, Target::PreshaderInputs) => Table::Input,
        (RegisterSet::Float4, Target::ShaderConstants) => Table::Output,
        _ => return None,
    })
}

/// One leaf upload: a parameter leaf into `count` registers of `table` from `register`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// The leaf parameter.
    pub param: Handle,
    /// The table written.
    pub table: Table,
    /// First register.
    pub register: u32,
    /// Registers.
    pub count: u32,
    /// The constant table's class for the leaf (decides matrix transposition).
    pub class: u16,
}

/// Registers one element or member of a constant occupies.
fn registers_of(t: &crate::bytecode::TypeInfo) -> u32 {
    let one = match t.class {
        2 => t.rows as u32,
        3 => t.columns as u32,
        5 => t.members.iter().map(|m| registers_of(&m.1)).sum(),
        _ => 1,
    };
    one * (t.elements.max(1) as u32)
}

/// Plans the uploads of a constant table against the store (constants naming no parameter, or
/// naming samplers, are skipped).
pub fn plan(store: &Store, constants: &[ConstantInfo], target: Target) -> Vec<Upload> {
    let mut out = Vec::new();
    for c in constants {
        let (Some(h), Some(table)) = (store.top_by_name(&c.name), table_for(c.register_set, target)) else { continue };
        plan_node(store, h, &c.type_info, table, c.register_index as u32, c.register_count as u32, &mut out);
    }
    out
}

fn plan_node(
    store: &Store,
    h: Handle,
    t: &crate::bytecode::TypeInfo,
    table: Table,
    register: u32,
    count: u32,
    out: &mut Vec<Upload>,
) {
    let node = store.node(h);
    if count == 0 {
        return;
    }
    if node.elements > 0 || node.class == ParameterClass::Struct {
        let element = crate::bytecode::TypeInfo { elements: 1, ..t.clone() };
        let mut at = 0u32;
        for (i, &child) in node.children.iter().enumerate() {
            let child_type = if node.elements > 0 {
                &element
            } else {
                match t.members.get(i) {
                    Some(m) => &m.1,
                    None => return,
                }
            };
            let size = registers_of(child_type);
            let left = count.saturating_sub(at);
            plan_node(store, child, child_type, table, register + at, size.min(left), out);
            at += size;
        }
        return;
    }
    if node.class.is_numeric() {
        out.push(Upload { param: h, table, register, count, class: t.class });
    }
}

/// Writes the planned parameter values into the registers.
pub fn upload(regs: &mut Registers, store: &Store, uploads: &[Upload]) {
    for u in uploads {
        let node = store.node(u.param);
        let data = store.value(u.param);
        let per = u.table.components();
        let start = u.register * per;
        let convert = |w: u32| convert(w, node.ty, u.table);
        let is_matrix = matches!(u.class, 2 | 3);
        if !is_matrix || per == 1 {
            let n = if is_matrix { (u.count as usize).min(data.len()) } else { node.rows.max(node.columns) as usize };
            for (i, &w) in data.iter().take(n).enumerate() {
                write(regs, u.table, start + i as u32, convert(w));
            }
            continue;
        }
        let node_columns_major = u.class == 3;
        let (major, minor) = if node_columns_major { (node.columns, node.rows) } else { (node.rows, node.columns) };
        let param_columns = node.class == ParameterClass::MatrixColumns;
        let transpose = node_columns_major != param_columns;
        for i in 0..u.count.min(major) {
            for j in 0..minor {
                let k = if transpose { i + j * major } else { i * minor + j } as usize;
                if let Some(&w) = data.get(k) {
                    write(regs, u.table, start + i * 4 + j, convert(w));
                }
            }
        }
    }
}

fn write(regs: &mut Registers, table: Table, offset: u32, w: u32) {
    if let Some(slot) = regs.tables[table as usize].get_mut(offset as usize) {
        *slot = w;
    }
}

/// A parameter word converted to a table's type.
fn convert(w: u32, ty: ParameterType, table: Table) -> u32 {
    let float_table = !matches!(table, Table::BoolOutput | Table::IntOutput);
    match (ty, table) {
        (_, Table::BoolOutput) => (w != 0) as u32,
        (ParameterType::Float, Table::IntOutput) => f32_to_i32(f32::from_bits(w)) as u32,
        (ParameterType::Bool, Table::IntOutput) => (w != 0) as u32,
        (ParameterType::Int, _) if float_table => (w as i32 as f32).to_bits(),
        (ParameterType::Bool, _) if float_table => ((w != 0) as u32 as f32).to_bits(),
        _ => w,
    }
}

/// C's float-to-int conversion on x86 (truncation; out of range gives `i32::MIN`).
pub fn f32_to_i32(f: f32) -> i32 {
    if f.is_nan() || !(-2147483648.0..2147483648.0).contains(&f) {
        i32::MIN
    } else {
        f as i32
    }
}
