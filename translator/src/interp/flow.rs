//! The flat instruction list parsed into a tree ([`Flow`]): `if`/`ifc`/`else`, `loop`/`rep`,
//! `label` subroutines and co-issued pairs. A program whose blocks do not nest is an error, never
//! a wild jump; `control_flow.rs` walks the tree.

use crate::bytecode::{Nesting, Opcode, Program};

use super::{InterpError, InterpErrorKind as K, MAX_NESTING};

/// One node of the structured program.
#[derive(Debug)]
pub(super) enum Node {
    /// A straight-line instruction (also `break*`, `call*`, `ret`).
    Op(usize),
    /// A ps_1_x co-issued pair: both read the registers as they were before the pair.
    Pair(usize, usize),
    /// `if`/`ifc` with its `else` part (empty when absent).
    If { at: usize, then: Vec<Node>, els: Vec<Node> },
    /// `loop` or `rep` (the opcode at `at` tells which).
    Loop { at: usize, body: Vec<Node> },
}

/// The program as a tree: the main function and the subroutines by label number.
#[derive(Debug)]
pub(super) struct Flow {
    pub main: Vec<Node>,
    pub labels: Vec<(u16, Vec<Node>)>,
}

fn error(program: &Program, at: usize, kind: K) -> InterpError {
    let offset = program.instructions.get(at).map_or(0, |i| i.offset);
    InterpError { instruction: at, offset, kind }
}

impl Flow {
    /// Parses the instruction list into blocks.
    pub fn parse(program: &Program) -> Result<Flow, InterpError> {
        let mut p = Parser { program, pos: 0 };
        let (main, end) = p.block(0)?;
        let mut labels = Vec::new();
        let mut end = end;
        loop {
            match end {
                End::Stream => break,
                End::Label(at) => {
                    let num = program[at].src.get(0).map_or(0, |s| s.reg.num);
                    let (body, next) = p.block(0)?;
                    // The first definition of a label wins; a validator rejects duplicates.
                    if !labels.iter().any(|(n, _)| *n == num) {
                        labels.push((num, body));
                    }
                    end = next;
                }
                End::Closer(at, _) => return Err(error(program, at, K::Unbalanced("block end without a block start"))),
            }
        }
        Ok(Flow { main, labels })
    }

    /// The body of subroutine `l#num`.
    pub fn label(&self, num: u16) -> Option<&[Node]> {
        self.labels.iter().find(|(n, _)| *n == num).map(|(_, b)| b.as_slice())
    }
}

enum End {
    Stream,
    Label(usize),
    Closer(usize, Opcode),
}

struct Parser<'p> {
    program: &'p Program,
    pos: usize,
}

impl Parser<'_> {
    /// Parses nodes until the end of the stream, a top-level `label`, or a block closer
    /// (`else`, `endif`, `endloop`, `endrep`), which is consumed and returned.
    fn block(&mut self, depth: usize) -> Result<(Vec<Node>, End), InterpError> {
        if depth > MAX_NESTING {
            return Err(error(self.program, self.pos.saturating_sub(1), K::NestingTooDeep));
        }
        let mut nodes = Vec::new();
        while let Some(ins) = self.program.instructions.get(self.pos) {
            let at = self.pos;
            self.pos += 1;
            match ins.opcode {
                Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Nop | Opcode::Phase => {}
                Opcode::Label => {
                    if depth > 0 {
                        return Err(error(self.program, at, K::Unbalanced("label inside a block")));
                    }
                    return Ok((nodes, End::Label(at)));
                }
                _ if matches!(ins.opcode.info().nesting, Nesting::Else | Nesting::Close) => {
                    return Ok((nodes, End::Closer(at, ins.opcode)));
                }
                Opcode::If | Opcode::Ifc => {
                    let (then, end) = self.block(depth + 1)?;
                    let els = match end {
                        End::Closer(_, Opcode::EndIf) => Vec::new(),
                        End::Closer(_, Opcode::Else) => match self.block(depth + 1)? {
                            (els, End::Closer(_, Opcode::EndIf)) => els,
                            _ => return Err(error(self.program, at, K::Unbalanced("else without endif"))),
                        },
                        _ => return Err(error(self.program, at, K::Unbalanced("if without endif"))),
                    };
                    nodes.push(Node::If { at, then, els });
                }
                Opcode::Loop | Opcode::Rep => {
                    let closer = match ins.opcode.info().nesting {
                        Nesting::Open { closer } => Some(closer),
                        _ => None,
                    };
                    match self.block(depth + 1)? {
                        (body, End::Closer(_, c)) if Some(c) == closer => nodes.push(Node::Loop { at, body }),
                        _ => return Err(error(self.program, at, K::Unbalanced("loop or rep without its end"))),
                    }
                }
                _ => match nodes.last() {
                    Some(&Node::Op(prev)) if ins.coissue => {
                        *nodes.last_mut().expect("just matched") = Node::Pair(prev, at)
                    }
                    _ => nodes.push(Node::Op(at)),
                },
            }
        }
        Ok((nodes, End::Stream))
    }
}

/// The lane numbers set in `mask`.
pub(super) fn lanes(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |l| mask & (1 << l) != 0)
}
