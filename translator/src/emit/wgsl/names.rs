//! Identifiers for everything the module declares: valid WGSL, never a keyword, reserved word
//! or builtin name (Tint refuses a declaration that shadows some builtins), and unique across
//! the module so that no function-scope name hides a global the function reads.
//!
//! The scheme follows naga's writer where that keeps text the same (a name ending in a digit or
//! taken by WGSL gets `_`, a repeat gets `_1`, `_2`, ...), so the project's WGSL reads like
//! before. Expression results are `_eN` (N the handle's index): declared names never start with
//! `_`, so the two can never meet.
//!
//! All name text lives in one `String`; a name is a span of it. A module has a few dozen names,
//! so uniqueness is a scan of the names given so far (cheaper than hashing at that size).

use naga::keywords::wgsl::{BUILTIN_IDENTIFIER_SET, RESERVED_SET};

use super::Unsupported;

/// A name: a range of `Names::text`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Name {
    start: u32,
    end: u32,
}

/// The names of one module's declarations, by kind and index.
#[derive(Default)]
pub(super) struct Names {
    text: String,
    /// Every name given so far in the current scope (the module, or one struct's members).
    all: Vec<Name>,
    /// Where the current scope's names start in `all`.
    scope: usize,
    /// Struct names by type index (other types have none).
    pub types: Vec<Name>,
    /// Struct member names: `members[member_start[type] + i]`.
    pub members: Vec<Name>,
    pub member_start: Vec<u32>,
    pub globals: Vec<Name>,
    pub constants: Vec<Name>,
    pub overrides: Vec<Name>,
    pub functions: Vec<Name>,
    pub entry_points: Vec<Name>,
}

/// The names one function declares: its arguments and locals.
#[derive(Default)]
pub(super) struct FunctionNames {
    pub arguments: Vec<Name>,
    pub locals: Vec<Name>,
}

impl Names {
    /// The text of a name.
    pub fn get(&self, name: Name) -> &str {
        &self.text[name.start as usize..name.end as usize]
    }

    /// Names every module-level declaration (and, into `entries` and `functions`, the
    /// arguments and locals of each entry point and function), in a fixed order (types, entry points, functions,
    /// globals, overrides, constants: naga's order but for overrides, whose names pipelines
    /// set them by and so come before a constant's).
    pub fn for_module(
        &mut self,
        module: &naga::Module,
        entries: &mut Vec<FunctionNames>,
        functions: &mut Vec<FunctionNames>,
    ) -> Result<(), Unsupported> {
        let n = self;
        n.clear();
        n.types.resize(module.types.len(), Name::default());
        n.member_start.resize(module.types.len(), 0);
        for (h, ty) in module.types.iter() {
            if let naga::TypeInner::Struct { members, .. } = &ty.inner {
                n.types[h.index()] = n.fresh(ty.name.as_deref(), "type");
                n.member_start[h.index()] = n.members.len() as u32;
                n.name_members(members);
            }
        }
        // The lists keep their entries (and the entries their capacity) from the last module.
        entries.resize_with(module.entry_points.len(), FunctionNames::default);
        for (ep, names) in module.entry_points.iter().zip(entries.iter_mut()) {
            // Callers look entry points up by their IR name: one that would need changing
            // goes to naga's writer (none of ours does).
            let name = n.fresh(Some(&ep.name), "main");
            if n.get(name) != ep.name {
                return Err(Unsupported("an entry point name WGSL cannot keep"));
            }
            n.entry_points.push(name);
            n.function_names(&ep.function, names);
        }
        functions.resize_with(module.functions.len(), FunctionNames::default);
        for ((_, f), names) in module.functions.iter().zip(functions.iter_mut()) {
            let name = n.fresh(f.name.as_deref(), "function");
            n.functions.push(name);
            n.function_names(f, names);
        }
        for (_, g) in module.global_variables.iter() {
            let name = n.fresh(g.name.as_deref(), "global");
            n.globals.push(name);
        }
        for (_, o) in module.overrides.iter() {
            // Pipelines set overrides by name, so they are named before the constants: naga's
            // pipeline-constant pass leaves a constant of each override's name beside it. One
            // name WGSL cannot keep goes to naga's writer.
            let name = n.fresh(o.name.as_deref(), "override");
            if o.name.as_deref().is_some_and(|s| s != n.get(name)) {
                return Err(Unsupported("an override name WGSL cannot keep"));
            }
            n.overrides.push(name);
        }
        for (_, c) in module.constants.iter() {
            // Unnamed constants are written as their value and need no name.
            let name = match c.name.as_deref() {
                Some(s) => n.fresh(Some(s), "constant"),
                None => Name::default(),
            };
            n.constants.push(name);
        }
        Ok(())
    }

    /// Forgets every name, keeping the lists' capacity.
    fn clear(&mut self) {
        self.text.clear();
        self.all.clear();
        self.scope = 0;
        for list in [
            &mut self.types,
            &mut self.members,
            &mut self.globals,
            &mut self.constants,
            &mut self.overrides,
            &mut self.functions,
            &mut self.entry_points,
        ] {
            list.clear();
        }
        self.member_start.clear();
    }

    fn function_names(&mut self, f: &naga::Function, names: &mut FunctionNames) {
        names.arguments.clear();
        names.locals.clear();
        for a in &f.arguments {
            let name = self.fresh(a.name.as_deref(), "param");
            names.arguments.push(name);
        }
        for (_, l) in f.local_variables.iter() {
            let name = self.fresh(l.name.as_deref(), "local");
            names.locals.push(name);
        }
    }

    /// Members are reached only through their struct, so they need to be unique only among
    /// themselves: a set of their own for the duration.
    fn name_members(&mut self, members: &[naga::StructMember]) {
        let outer = self.all.len();
        self.scope = outer;
        for m in members {
            let name = self.fresh(m.name.as_deref(), "member");
            self.members.push(name);
        }
        self.all.truncate(outer);
        self.scope = 0;
    }

    /// A new unique name from `wanted`, or from `fallback` when `wanted` is absent or not an
    /// identifier we keep as it is.
    fn fresh(&mut self, wanted: Option<&str>, fallback: &'static str) -> Name {
        // naga's names drop trailing `_` too: they would double the separator below.
        let base = wanted.map(|s| s.trim_end_matches('_')).filter(|s| plain_identifier(s)).unwrap_or(fallback);
        let start = self.text.len();
        self.text.push_str(base);
        // A trailing digit would meet the `_N` of a repeat; a WGSL word would be refused.
        if base.ends_with(|c: char| c.is_ascii_digit())
            || RESERVED_SET.contains(base)
            || BUILTIN_IDENTIFIER_SET.contains(base)
        {
            self.text.push('_');
        }
        let mut k = 0u32;
        while self.taken(start) {
            k += 1;
            self.text.truncate(start + base.len());
            self.text.push('_');
            super::text::push_u32(&mut self.text, k);
        }
        let name = Name { start: start as u32, end: self.text.len() as u32 };
        self.all.push(name);
        name
    }

    /// Whether the text from `start` to the end is a name already given.
    fn taken(&self, start: usize) -> bool {
        let candidate = &self.text[start..];
        self.all[self.scope..]
            .iter()
            .any(|&n| (n.end - n.start) as usize == candidate.len() && self.get(n) == candidate)
    }
}

/// ASCII letters, digits and single underscores, starting with a letter: such a name is kept
/// (a leading `_` could meet our `_eN`, and `__` is reserved in WGSL).
fn plain_identifier(s: &str) -> bool {
    // One pass over the bytes (`str::contains` sets up a substring search per name).
    let bytes = s.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut previous = 0u8;
    for &b in bytes {
        if !(b.is_ascii_alphanumeric() || b == b'_') || (b == b'_' && previous == b'_') {
            return false;
        }
        previous = b;
    }
    true
}
