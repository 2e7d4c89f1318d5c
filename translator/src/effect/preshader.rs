//! Preshaders: the CPU expression programs an effect attaches to states (`LightDiffuse[0] =
//! g_Pos2 * 2`), to array selectors and, inside a shader's `PRES` comment, to the constants a
//! shader reads. A preshader is a token stream with version `0x4658_0200` ("FX" 2.0) whose
//! comments hold a constant table (`CTAB`: the parameters it reads, as float registers), the
//! literals (`CLIT`: a count, then that many doubles) and the code (`FXLC`: an instruction count,
//! then per instruction `opcode word, input count, operands…`; an operand is `relative flag,
//! [index table, index offset,] table, offset`, offsets counting components).
//!
//! Evaluation follows the register model `docs/effects.md` describes: literals and temporaries
//! are doubles, inputs and outputs float32 registers of four components (bool outputs one
//! component each), every operation is computed in double precision from its widened inputs and
//! rounded once when stored. Those rules reproduce the Windows results the expectation files
//! hold bit for bit.

use serde::Serialize;

use super::error::EffectError;
use crate::bytecode::ctab::parse_ctab;
use crate::bytecode::{ConstantInfo, ConstantTable};

/// The register tables of the preshader machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Table {
    /// Literals (`CLIT`), doubles.
    Literal,
    /// Float inputs (the parameters the `CTAB` names).
    Input,
    /// Vertex inputs of a `tx_1_0` texture shader (two registers, zero).
    VertexInput,
    /// Float outputs (`oC`).
    Output,
    /// Bool outputs (`oB`), one component per register.
    BoolOutput,
    /// Int outputs (`oI`).
    IntOutput,
    /// Temporaries (`r`).
    Temp,
}

/// Every table, in [`Table`] order.
pub const TABLES: [Table; 7] =
    [Table::Literal, Table::Input, Table::VertexInput, Table::Output, Table::BoolOutput, Table::IntOutput, Table::Temp];

impl Table {
    fn from_raw(raw: u32) -> Option<Table> {
        Some(match raw {
            1 => Table::Literal,
            2 => Table::Input,
            3 => Table::VertexInput,
            4 => Table::Output,
            5 => Table::BoolOutput,
            6 => Table::IntOutput,
            7 => Table::Temp,
            _ => return None,
        })
    }

    /// Components per register.
    pub fn components(self) -> u32 {
        if self == Table::BoolOutput {
            1
        } else {
            4
        }
    }

    /// The register of a component offset.
    pub fn register_of(self, offset: u32) -> u32 {
        offset / self.components()
    }
}

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[allow(missing_docs)]
pub enum Opcode {
    Nop,
    Mov,
    Neg,
    Rcp,
    Frc,
    Exp,
    Log,
    Rsq,
    Sin,
    Cos,
    Asin,
    Acos,
    Atan,
    Min,
    Max,
    Lt,
    Ge,
    Add,
    Mul,
    Atan2,
    Div,
    Cmp,
    Dot,
    DotSwiz6,
    DotSwiz8,
}

/// (code, input count, opcode, mnemonic).
const OPCODES: [(u32, usize, Opcode, &str); 25] = [
    (0x000, 0, Opcode::Nop, "nop"),
    (0x100, 1, Opcode::Mov, "mov"),
    (0x101, 1, Opcode::Neg, "neg"),
    (0x103, 1, Opcode::Rcp, "rcp"),
    (0x104, 1, Opcode::Frc, "frc"),
    (0x105, 1, Opcode::Exp, "exp"),
    (0x106, 1, Opcode::Log, "log"),
    (0x107, 1, Opcode::Rsq, "rsq"),
    (0x108, 1, Opcode::Sin, "sin"),
    (0x109, 1, Opcode::Cos, "cos"),
    (0x10a, 1, Opcode::Asin, "asin"),
    (0x10b, 1, Opcode::Acos, "acos"),
    (0x10c, 1, Opcode::Atan, "atan"),
    (0x200, 2, Opcode::Min, "min"),
    (0x201, 2, Opcode::Max, "max"),
    (0x202, 2, Opcode::Lt, "lt"),
    (0x203, 2, Opcode::Ge, "ge"),
    (0x204, 2, Opcode::Add, "add"),
    (0x205, 2, Opcode::Mul, "mul"),
    (0x206, 2, Opcode::Atan2, "atan2"),
    (0x208, 2, Opcode::Div, "div"),
    (0x300, 3, Opcode::Cmp, "cmp"),
    (0x500, 2, Opcode::Dot, "dot"),
    (0x70e, 6, Opcode::DotSwiz6, "dotswiz6"),
    (0x70e, 8, Opcode::DotSwiz8, "dotswiz8"),
];

impl Opcode {
    /// The assembly mnemonic.
    pub fn mnemonic(self) -> &'static str {
        OPCODES.iter().find(|o| o.2 == self).map_or("?", |o| o.3)
    }

    /// `dot` reads all components of its inputs and writes one.
    fn all_components(self) -> bool {
        self == Opcode::Dot
    }
}

/// A register reference: a table and a component offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Register {
    /// The table.
    pub table: Table,
    /// Component offset (register × components + component).
    pub offset: u32,
}

/// An operand, optionally indexed by a register's value (in registers of four components).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Operand {
    /// The register.
    pub register: Register,
    /// The index register of a relative operand.
    pub index: Option<Register>,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Instruction {
    /// The operation.
    pub opcode: Opcode,
    /// The first input is a scalar broadcast to every component.
    pub scalar: bool,
    /// Components computed (1–4).
    pub components: u32,
    /// Inputs.
    pub inputs: Vec<Operand>,
    /// Output.
    pub output: Register,
}

/// A parsed preshader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preshader {
    /// The version token (`0x4658_0200`, or `0x5458_0100` for a `tx_1_0` texture shader).
    pub version: u32,
    /// Literals.
    pub literals: Vec<f64>,
    /// The code.
    pub instructions: Vec<Instruction>,
    /// The constant table: the parameters read, as float input registers.
    #[serde(skip)]
    pub inputs: Vec<ConstantInfo>,
    /// Registers per table (in [`TABLES`] order), as the code and the constant table need them.
    pub table_sizes: [u32; 7],
    /// Absolute byte offset of the version token in the blob.
    pub offset: usize,
}

/// The most registers a table may have: far more than any D3D9 register file (8192 float
/// constants for software vertex processing), little enough that a lying offset cannot make the
/// evaluator allocate much.
pub const MAX_REGISTERS: u32 = 8192;

fn err(offset: usize, message: impl Into<String>) -> EffectError {
    EffectError::Preshader { offset, message: message.into() }
}

/// The comments of a token stream after its version token: (FourCC, absolute byte offset of the
/// payload after the FourCC, payload words).
pub(crate) fn comments(tokens: &[u32], offset: usize) -> Vec<(u32, usize, &[u32])> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < tokens.len() && tokens[i] & 0xffff == 0xfffe {
        let len = ((tokens[i] >> 16) & 0x7fff) as usize;
        if len == 0 || i + 1 + len > tokens.len() {
            break;
        }
        out.push((tokens[i + 1], offset + 4 * (i + 2), &tokens[i + 2..i + 1 + len]));
        i += 1 + len;
    }
    out
}

const CLIT: u32 = u32::from_le_bytes(*b"CLIT");
const FXLC: u32 = u32::from_le_bytes(*b"FXLC");
const CTAB: u32 = u32::from_le_bytes(*b"CTAB");

impl Preshader {
    /// A preshader with no code.
    pub fn empty() -> Preshader {
        Preshader {
            version: 0x4658_0200,
            literals: Vec::new(),
            instructions: Vec::new(),
            inputs: Vec::new(),
            table_sizes: [0; 7],
            offset: 0,
        }
    }

    /// Parses a preshader token stream that starts at absolute byte `offset` of the blob.
    pub fn parse(tokens: &[u32], offset: usize) -> Result<Preshader, EffectError> {
        let version = *tokens.first().ok_or_else(|| err(offset, "empty preshader"))?;
        let sections = comments(tokens, offset);
        let find = |cc| sections.iter().find(|s| s.0 == cc);
        let literals = match find(CLIT) {
            Some(&(_, at, data)) => read_literals(data, at)?,
            None => Vec::new(),
        };
        let instructions = match find(FXLC) {
            Some(&(_, at, data)) => read_code(data, at)?,
            None => Vec::new(),
        };
        let table: ConstantTable = match find(CTAB) {
            Some(&(_, at, data)) => parse_ctab(data).map_err(|e| err(at, e.to_string()))?,
            None => ConstantTable {
                creator: String::new(),
                version,
                flags: 0,
                target: String::new(),
                constants: Vec::new(),
            },
        };
        let mut p = Preshader { version, literals, instructions, inputs: table.constants, table_sizes: [0; 7], offset };
        p.size_tables()?;
        Ok(p)
    }

    fn size_tables(&mut self) -> Result<(), EffectError> {
        let at = self.offset;
        if self.literals.len() % 4 != 0 {
            return Err(err(at, format!("{} literals is not a multiple of 4", self.literals.len())));
        }
        self.table_sizes[Table::Literal as usize] = (self.literals.len() / 4) as u32;
        if self.version == 0x5458_0100 {
            self.table_sizes[Table::VertexInput as usize] = 2;
        }
        let lasts: Vec<u32> = self
            .inputs
            .iter()
            .filter(|c| c.register_count > 0 && c.register_set == crate::bytecode::RegisterSet::Float4)
            .map(|c| c.register_index as u32 + c.register_count as u32 - 1)
            .collect();
        for last in lasts {
            self.grow(Table::Input, last)?;
        }
        for ins in self.instructions.clone() {
            for (j, input) in ins.inputs.iter().enumerate() {
                let (table, reg) = match input.index {
                    None => {
                        let last = if ins.scalar && j == 0 { 0 } else { ins.components - 1 };
                        let t = input.register.table;
                        (t, t.register_of(input.register.offset.saturating_add(last)))
                    }
                    Some(index) => (index.table, index.table.register_of(index.offset)),
                };
                if reg >= self.table_sizes[table as usize] {
                    return Err(err(
                        at,
                        format!("{} reads {table:?} register {reg} past the table", ins.opcode.mnemonic()),
                    ));
                }
            }
            self.grow(ins.output.table, ins.output.table.register_of(ins.output.offset))?;
        }
        Ok(())
    }

    /// Makes `table` hold at least `last + 1` registers.
    pub(crate) fn grow(&mut self, table: Table, last: u32) -> Result<(), EffectError> {
        if last >= MAX_REGISTERS {
            return Err(err(self.offset, format!("{table:?} register {last} is past {MAX_REGISTERS}")));
        }
        let size = &mut self.table_sizes[table as usize];
        *size = (*size).max(last + 1);
        Ok(())
    }
}

fn read_literals(data: &[u32], at: usize) -> Result<Vec<f64>, EffectError> {
    let count = *data.first().ok_or_else(|| err(at, "CLIT without a count"))? as usize;
    if count > (data.len() - 1) / 2 {
        return Err(err(at, format!("CLIT count {count} exceeds its {} words", data.len())));
    }
    Ok((0..count).map(|i| f64::from_bits(data[1 + 2 * i] as u64 | (data[2 + 2 * i] as u64) << 32)).collect())
}

struct Words<'a> {
    data: &'a [u32],
    pos: usize,
    at: usize,
}

impl Words<'_> {
    fn next(&mut self, what: &str) -> Result<u32, EffectError> {
        let w = self.data.get(self.pos).copied();
        self.pos += 1;
        w.ok_or_else(|| err(self.at + 4 * (self.pos - 1), format!("FXLC ends inside {what}")))
    }

    fn here(&self) -> usize {
        self.at + 4 * self.pos
    }

    fn register(&mut self) -> Result<Register, EffectError> {
        let at = self.here();
        let raw = self.next("an operand")?;
        let table = Table::from_raw(raw).ok_or_else(|| err(at, format!("register table {raw:#x}")))?;
        let mut offset = self.next("an operand")?;
        if table == Table::BoolOutput {
            offset /= 4;
        }
        Ok(Register { table, offset })
    }

    fn operand(&mut self) -> Result<Operand, EffectError> {
        let at = self.here();
        let index = match self.next("an operand")? {
            0 => None,
            1 => Some(self.register()?),
            flag => return Err(err(at, format!("relative addressing flag {flag:#x}"))),
        };
        Ok(Operand { register: self.register()?, index })
    }

    fn instruction(&mut self) -> Result<Instruction, EffectError> {
        let at = self.here();
        let raw = self.next("an instruction")?;
        let code = (raw & 0x7ff0_0000) >> 20;
        let components = raw & 0xffff;
        if !(1..=4).contains(&components) {
            return Err(err(at, format!("instruction {raw:#010x} computes {components} components")));
        }
        let count = self.next("an instruction")? as usize;
        let &(_, _, opcode, _) = OPCODES
            .iter()
            .find(|o| o.0 == code && o.1 == count)
            .ok_or_else(|| err(at, format!("unknown opcode {code:#x} with {count} inputs")))?;
        let inputs = (0..count).map(|_| self.operand()).collect::<Result<Vec<_>, _>>()?;
        let out_at = self.here();
        let output = self.operand()?;
        if output.index.is_some() {
            return Err(err(out_at, "relative addressing of an output"));
        }
        let output = output.register;
        let last = output.offset.saturating_add(if opcode.all_components() { 0 } else { components - 1 });
        if output.table.register_of(last) != output.table.register_of(output.offset) {
            return Err(err(out_at, "an output spanning two registers"));
        }
        Ok(Instruction { opcode, scalar: raw & 0x8000_0000 != 0, components, inputs, output })
    }
}

fn read_code(data: &[u32], at: usize) -> Result<Vec<Instruction>, EffectError> {
    let mut w = Words { data, pos: 0, at };
    let count = w.next("the instruction count")? as usize;
    // Every instruction takes at least 5 words (opcode, count, one 3-word output).
    if count > data.len() / 5 {
        return Err(err(at, format!("instruction count {count} exceeds the {} words of FXLC", data.len())));
    }
    (0..count).map(|_| w.instruction()).collect()
}

impl std::fmt::Display for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = match self.table {
            Table::Literal => "imm",
            Table::Input => "c",
            Table::VertexInput => "v",
            Table::Output => "oC",
            Table::BoolOutput => "oB",
            Table::IntOutput => "oI",
            Table::Temp => "r",
        };
        let per = self.table.components();
        if per == 1 {
            write!(f, "{prefix}{}", self.offset)
        } else {
            write!(f, "{prefix}{}.{}", self.offset / per, ["x", "y", "z", "w"][(self.offset % per) as usize])
        }
    }
}

impl std::fmt::Display for Preshader {
    /// An assembly-like listing: literals, inputs, then one instruction a line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, chunk) in self.literals.chunks(4).enumerate() {
            writeln!(f, "// imm{i} = {chunk:?}")?;
        }
        for c in &self.inputs {
            writeln!(f, "// c{}..+{} = {}", c.register_index, c.register_count, c.name)?;
        }
        for ins in &self.instructions {
            write!(f, "{}{} {}", ins.opcode.mnemonic(), if ins.scalar { "_s" } else { "" }, ins.output)?;
            write!(f, " ({} comp)", ins.components)?;
            for input in &ins.inputs {
                match input.index {
                    Some(index) => write!(f, ", {}[{}]", input.register, index)?,
                    None => write!(f, ", {}", input.register)?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
