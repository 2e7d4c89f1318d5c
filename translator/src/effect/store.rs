//! The run-time parameter store: every parameter, element, struct member and annotation of an
//! effect as a flat list of nodes (a [`Handle`] is an index into it), their values in one word
//! array, and the D3DX name look-ups (`a`, `b[0]`, `f.e`, `c@d`, `i@k[0].j`).

use serde::Serialize;

use super::parameters::Parameter;
use super::types::{ParameterClass, ParameterType};

/// A handle to a parameter, element, member or annotation of one effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Handle(pub u32);

/// One node of the store.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// Its D3DX full name (`s.m[1]`).
    pub full_name: String,
    /// Its own name.
    pub name: String,
    /// Its semantic.
    pub semantic: String,
    /// D3DXPARAMETER_CLASS.
    pub class: ParameterClass,
    /// D3DXPARAMETER_TYPE.
    pub ty: ParameterType,
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// Elements (0 = not an array).
    pub elements: u32,
    /// Flags (top-level parameters).
    pub flags: u32,
    /// First word of its value in the store.
    pub start: usize,
    /// Words of its value.
    pub len: usize,
    /// Elements or members, in order.
    pub children: Vec<Handle>,
    /// Annotations.
    pub annotations: Vec<Handle>,
    /// The top-level parameter it belongs to (itself for a top-level one).
    pub top: Handle,
    /// Index of the top-level parameter in the effect (`None` for annotations and their parts).
    pub parameter: Option<usize>,
}

/// The store.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Every node; the first ones are the top-level parameters, in effect order.
    pub nodes: Vec<Node>,
    /// All values.
    pub values: Vec<u32>,
    /// Top-level parameters: handle of each.
    pub top_level: Vec<Handle>,
}

impl Store {
    /// Builds the store of an effect's parameters.
    pub fn new(parameters: &[Parameter]) -> Store {
        let mut s = Store::default();
        for (i, p) in parameters.iter().enumerate() {
            let h = s.add(p, p.name.clone(), None, Some(i));
            s.top_level.push(h);
        }
        s
    }

    fn add(&mut self, p: &Parameter, full_name: String, top: Option<Handle>, parameter: Option<usize>) -> Handle {
        let h = Handle(self.nodes.len() as u32);
        let top = top.unwrap_or(h);
        let start = self.values.len();
        self.nodes.push(Node {
            full_name: full_name.clone(),
            name: p.name.clone(),
            semantic: p.semantic.clone(),
            class: p.class,
            ty: p.ty,
            rows: p.rows,
            columns: p.columns,
            elements: p.elements,
            flags: p.flags,
            start,
            len: p.value.len(),
            children: Vec::new(),
            annotations: Vec::new(),
            top,
            parameter,
        });
        let leaf = p.element_list.is_empty() && p.members.is_empty();
        if leaf {
            self.values.extend_from_slice(&p.value);
        }
        let mut children = Vec::new();
        for (i, e) in p.element_list.iter().enumerate() {
            children.push(self.add(e, format!("{full_name}[{i}]"), Some(top), parameter));
        }
        for m in &p.members {
            children.push(self.add(m, format!("{full_name}.{}", m.name), Some(top), parameter));
        }
        let mut annotations = Vec::new();
        for a in &p.annotations {
            annotations.push(self.add(a, format!("{full_name}@{}", a.name), None, None));
        }
        let node = &mut self.nodes[h.0 as usize];
        node.children = children;
        node.annotations = annotations;
        h
    }

    /// The node of a handle.
    pub fn node(&self, h: Handle) -> &Node {
        &self.nodes[h.0 as usize]
    }

    /// The value words of a node.
    pub fn value(&self, h: Handle) -> &[u32] {
        let n = self.node(h);
        &self.values[n.start..n.start + n.len]
    }

    /// The value words of a node, to write.
    pub fn value_mut(&mut self, h: Handle) -> &mut [u32] {
        let n = &self.nodes[h.0 as usize];
        let (start, len) = (n.start, n.len);
        &mut self.values[start..start + len]
    }

    /// A top-level parameter by its name.
    pub fn top_by_name(&self, name: &str) -> Option<Handle> {
        self.top_level.iter().copied().find(|&h| self.node(h).name == name)
    }

    /// A top-level parameter by its semantic (case-insensitive, as D3DX compares semantics).
    pub fn by_semantic(&self, semantic: &str) -> Option<Handle> {
        self.top_level.iter().copied().find(|&h| self.node(h).semantic.eq_ignore_ascii_case(semantic))
    }

    /// A struct member by name.
    pub fn member(&self, h: Handle, name: &str) -> Option<Handle> {
        let n = self.node(h);
        if n.class != ParameterClass::Struct || n.elements > 0 {
            return None;
        }
        n.children.iter().copied().find(|&c| self.node(c).name == name)
    }

    /// An array element.
    pub fn element(&self, h: Handle, index: usize) -> Option<Handle> {
        let n = self.node(h);
        if n.elements == 0 {
            return None;
        }
        n.children.get(index).copied()
    }

    /// An annotation by name.
    pub fn annotation(&self, h: Handle, name: &str) -> Option<Handle> {
        self.node(h).annotations.iter().copied().find(|&a| self.node(a).name == name)
    }

    /// Resolves a D3DX name below `parent` (or from the top level): a name, then any sequence of
    /// `.member`, `[n]` and `@annotation`.
    pub fn lookup(&self, parent: Option<Handle>, name: &str) -> Option<Handle> {
        let (mut current, mut rest) = match parent {
            Some(p) => (p, name),
            None => {
                let end = name.find(['.', '[', '@']).unwrap_or(name.len());
                (self.top_by_name(&name[..end])?, &name[end..])
            }
        };
        if parent.is_some() {
            // Below a parent the name starts with a member name, without a dot.
            let end = rest.find(['.', '[', '@']).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            current = self.member(current, &rest[..end])?;
            rest = &rest[end..];
        }
        // A name is caller text: after `]` any character may follow, so split on a char, not a byte.
        while let Some(sep) = rest.chars().next() {
            let tail = &rest[sep.len_utf8()..];
            match sep {
                '.' | '@' => {
                    let end = tail.find(['.', '[', '@']).unwrap_or(tail.len());
                    let part = &tail[..end];
                    current = if sep == '.' { self.member(current, part)? } else { self.annotation(current, part)? };
                    rest = &tail[end..];
                }
                '[' => {
                    let close = tail.find(']')?;
                    let index: usize = tail[..close].parse().ok()?;
                    current = self.element(current, index)?;
                    rest = &tail[close + 1..];
                }
                _ => return None,
            }
        }
        Some(current)
    }

    /// The leaves (scalar, vector, matrix or object nodes without children) below `h`, in order.
    pub fn leaves(&self, h: Handle) -> Vec<Handle> {
        let mut out = Vec::new();
        let mut stack = vec![h];
        while let Some(n) = stack.pop() {
            let node = self.node(n);
            if node.children.is_empty() {
                out.push(n);
            } else {
                stack.extend(node.children.iter().rev());
            }
        }
        out
    }
}
