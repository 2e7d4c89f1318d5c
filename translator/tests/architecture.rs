//! The imports that must never exist (docs/architecture.md#forbidden-imports), checked on the
//! source text, and the repository's own citations (docs/architecture.md#citations).
//!
//! The sources are read with comments and string literals blanked out (line numbers kept), then
//! every `use` tree and every `crate::`/`super::`/`self::`/`d3d9_shader::` path in code is resolved
//! to the top-level module of the library it names. A failure lists each offending `file:line`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One forbidden edge: files of module `from` must not name module `to`.
struct Rule {
    from: &'static str,
    to: &'static str,
    why: &'static str,
}

/// The forbidden imports between top-level modules of the library (docs/architecture.md).
const RULES: &[Rule] = &[
    Rule { from: "interp", to: "lower", why: "the interpreter is an independent oracle of the lowering" },
    Rule { from: "lower", to: "interp", why: "the lowering must not borrow the oracle's semantics" },
    Rule { from: "bytecode", to: "*", why: "bytecode is the bottom layer: it imports no other module" },
    Rule { from: "validate", to: "lower", why: "data flows one way: validation comes before lowering" },
    Rule { from: "validate", to: "interp", why: "validation knows nothing of execution" },
    Rule { from: "analysis", to: "lower", why: "data flows one way: analysis comes before lowering" },
    Rule { from: "analysis", to: "interp", why: "analysis knows nothing of execution" },
    Rule { from: "ffp", to: "interp", why: "the fixed-function generator shares nothing with the interpreter" },
    Rule { from: "interp", to: "ffp", why: "the interpreter shares nothing with the fixed-function generator" },
    Rule { from: "ffp", to: "lower", why: "the fixed-function generator is independent of the lowering" },
    Rule { from: "key", to: "lower", why: "the lowering reads the key: the key knows nothing of the lowering" },
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("translator/ has a parent").to_path_buf()
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn rel(path: &Path) -> String {
    path.strip_prefix(workspace()).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// `text` with comments, string and char literals replaced by spaces; newlines are kept.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
                out.push(' ');
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            loop {
                if i + 1 < c.len() && c[i] == '/' && c[i + 1] == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if i + 1 < c.len() && c[i] == '*' && c[i + 1] == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                } else {
                    break;
                }
            }
        } else if c[i] == 'r' && (next == Some('"') || next == Some('#')) && raw_string_start(&c, i) {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let close: Vec<char> = close.chars().collect();
            let mut k = j + 1;
            while k < c.len() && c[k..].iter().take(close.len()).ne(close.iter()) {
                k += 1;
            }
            let end = (k + close.len()).min(c.len());
            for &ch in &c[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c[i] == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' && i + 1 < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
            if i < c.len() {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let len = if next == Some('\\') {
                c.get(i + 3..).and_then(|rest| rest.iter().position(|&ch| ch == '\'')).map(|p| p + 4)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(3)
            } else {
                None
            };
            match len {
                Some(n) => {
                    for &ch in &c[i..(i + n).min(c.len())] {
                        blank(&mut out, ch);
                    }
                    i += n;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// Whether the `r` at `i` starts a raw string (`r"`, `r#"`, or `br"`), not ends an identifier.
fn raw_string_start(c: &[char], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).map(|j| &c[j]);
    !ident_char(before(1)) || (before(1) == Some(&'b') && !ident_char(before(2)))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Open,
    Close,
    Other(char),
}

/// Tokens of stripped code with their 1-based line numbers.
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = code.chars().collect();
    let (mut out, mut line, mut i) = (Vec::new(), 1, 0);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((
                match ch {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    other => Tok::Other(other),
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

/// A source file of the library or of the `d3d9-shader` binary.
struct Source {
    path: PathBuf,
    /// Module path of the file from its crate root (`lower/tests/io.rs` is `lower::tests::io`).
    module: Vec<String>,
    /// Whether the file belongs to the binary (`main.rs`, `cli/`), whose `crate` is not the library.
    bin: bool,
    code: String,
}

fn sources() -> Vec<Source> {
    sources_in("translator/src")
}

/// The sources under `dir` (from the workspace); `main.rs` and `cli/` are the binary's.
fn sources_in(dir: &str) -> Vec<Source> {
    let src = workspace().join(dir);
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).expect("under src").with_extension("");
            let text = fs::read_to_string(&path).expect("readable source");
            source(path.clone(), &relative, &text)
        })
        .collect()
}

/// A source file from its path, its path under the crate's `src/` without extension, and its text.
fn source(path: PathBuf, relative: &Path, text: &str) -> Source {
    let mut module: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        module.pop();
    }
    let bin = relative == Path::new("main") || module.first().is_some_and(|m| m == "cli");
    Source { path, module, bin, code: strip(text) }
}

/// The library's top-level modules: `translator/src/*.rs` and `translator/src/*/`.
fn top_modules(sources: &[Source]) -> BTreeSet<String> {
    sources.iter().filter(|s| !s.bin).filter_map(|s| s.module.first().cloned()).collect()
}

/// A path named in code: where, the module it resolves to (from the library's root), and how
/// it was written.
struct Reference {
    line: usize,
    target: Vec<String>,
    written: String,
}

/// A path of a `use` tree: the path, its line, and the alias it is bound to (`use a::B as C`).
type UsePath = (Vec<String>, usize, Option<String>);

/// Expands a `use` tree (the tokens between `use` and `;`) into its paths.
fn use_paths(toks: &[(Tok, usize)], prefix: &[String], out: &mut Vec<UsePath>) {
    let mut path = prefix.to_vec();
    let mut alias = None;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(s) if s == "as" => {
                if let Some((Tok::Ident(name), _)) = toks.get(i + 1) {
                    alias = Some(name.clone());
                }
                i += 1;
            }
            Tok::Ident(s) => path.push(s.clone()),
            Tok::Path => {}
            Tok::Open => {
                let mut depth = 0;
                let mut j = i;
                let (mut item_start, mut items) = (i + 1, Vec::new());
                while j < toks.len() {
                    match toks[j].0 {
                        Tok::Open => depth += 1,
                        Tok::Close => {
                            depth -= 1;
                            if depth == 0 {
                                items.push(item_start..j);
                                break;
                            }
                        }
                        Tok::Other(',') if depth == 1 => {
                            items.push(item_start..j);
                            item_start = j + 1;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                for r in items {
                    if !toks[r.clone()].is_empty() {
                        use_paths(&toks[r], &path, out);
                    }
                }
                return;
            }
            _ => {}
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push((path, toks.first().map_or(0, |t| t.1), alias));
    }
}

/// Resolves a written path to a path from the library's root; `None` for other crates and locals.
fn resolve(written: &[String], module: &[String], bin: bool) -> Option<Vec<String>> {
    let first = written.first()?.as_str();
    let mut base: Vec<String> = match first {
        "crate" if !bin => Vec::new(),
        "d3d9_shader" => Vec::new(),
        "self" | "super" if !bin => module.to_vec(),
        _ => return None,
    };
    let mut rest = written;
    if first == "self" {
        rest = &rest[1..];
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    if first == "crate" || first == "d3d9_shader" {
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every library path a source file names in code: its `use` trees and its inline paths.
fn references(source: &Source) -> Vec<Reference> {
    written_paths(source, &|_, _| false)
        .into_iter()
        .filter_map(|w| {
            let target = resolve(&w.path, &w.module, source.bin)?;
            Some(Reference { line: w.line, target, written: w.path.join("::") })
        })
        .collect()
}

/// A path as written in code.
struct Written {
    /// The module it is written in (inline `mod` blocks included).
    module: Vec<String>,
    path: Vec<String>,
    line: usize,
    /// The name a `use` binds it to (its alias or last segment); `None` outside `use` trees and
    /// for globs.
    binds: Option<String>,
}

/// Every path of a source file's `use` trees, and every inline path rooted at `crate`, `super`,
/// `self`, `d3d9_shader` or at a name for which `is_child(module, name)` holds (a submodule named
/// without `self::`, as `mod.rs` does).
fn written_paths(source: &Source, is_child: &dyn Fn(&[String], &str) -> bool) -> Vec<Written> {
    let toks = tokens(&source.code);
    let mut out = Vec::new();
    // Inline `mod name { ... }` blocks change what `self` and `super` mean.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let module: Vec<String> =
            source.module.iter().cloned().chain(inline.iter().map(|(name, _)| name.clone())).collect();
        match &toks[i].0 {
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(k) if k == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Open, _))) = (toks.get(i + 1), toks.get(i + 2)) {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(k) if k == "use" => {
                let end = toks[i..].iter().position(|t| t.0 == Tok::Other(';')).map_or(toks.len(), |p| i + p);
                let mut paths = Vec::new();
                use_paths(&toks[i + 1..end], &[], &mut paths);
                for (path, line, alias) in paths {
                    let last = path.iter().rev().find(|s| *s != "self").filter(|s| *s != "*").cloned();
                    let binds = if path.last().is_some_and(|s| s == "*") { None } else { alias.or(last) };
                    out.push(Written { module: module.clone(), path, line, binds });
                }
                i = end;
                continue;
            }
            Tok::Ident(root)
                if (matches!(root.as_str(), "crate" | "super" | "self" | "d3d9_shader") || is_child(&module, root))
                    && toks.get(i + 1).is_some_and(|t| t.0 == Tok::Path)
                    && (i == 0 || toks[i - 1].0 != Tok::Path) =>
            {
                let line = toks[i].1;
                let mut written = vec![root.clone()];
                let mut j = i + 1;
                while let (Some((Tok::Path, _)), Some((Tok::Ident(s), _))) = (toks.get(j), toks.get(j + 1)) {
                    written.push(s.clone());
                    j += 2;
                }
                out.push(Written { module: module.clone(), path: written, line, binds: None });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Each reference from one top-level module to another: (from, to, file:line, written path).
fn edges() -> Vec<(String, String, String, String)> {
    let sources = sources();
    let tops = top_modules(&sources);
    // A path through a re-export (`crate::ShaderKey`) names the module it re-exports from.
    let library = Graph::new(sources.iter().filter(|s| !s.bin).collect());
    let mut out = Vec::new();
    for s in &sources {
        let from = if s.bin { "cli".to_string() } else { s.module.first().cloned().unwrap_or_else(|| "lib".into()) };
        for r in references(s) {
            let Some(target) = library.locate(&r.target) else { continue };
            let Some(to) = target.first() else { continue };
            if tops.contains(to) && *to != from {
                out.push((from.clone(), to.clone(), format!("{}:{}", rel(&s.path), r.line), r.written));
            }
        }
    }
    out
}

#[test]
fn no_forbidden_import_between_modules() {
    let edges = edges();
    let mut failures = Vec::new();
    for rule in RULES {
        for (from, to, at, written) in &edges {
            if from == rule.from && (rule.to == "*" || to == rule.to) {
                failures.push(format!("{at}: `{from}` names `{written}`: {}", rule.why));
            }
        }
    }
    // Sanity: the scanner finds the imports that must exist, so a broken scanner cannot pass.
    for (from, to) in [("lower", "bytecode"), ("interp", "bytecode"), ("validate", "bytecode")] {
        if !edges.iter().any(|(f, t, ..)| f == from && t == to) {
            failures.push(format!("scanner: found no import of `{to}` in `{from}` (the check is blind)"));
        }
    }
    assert!(
        failures.is_empty(),
        "forbidden imports (docs/architecture.md#forbidden-imports):\n{}",
        failures.join("\n")
    );
}

/// The key (translator/src/key/) is the caller's side of a translation and the lowering reads
/// it: imports go from `lower` to `key` only. Any `key` → `lower` reference fails, in tests too.
#[test]
fn key_and_lower_do_not_import_each_other() {
    let edges = edges();
    let key_to_lower: Vec<String> = edges
        .iter()
        .filter(|(f, t, ..)| f == "key" && t == "lower")
        .map(|(f, t, at, w)| format!("{at}: `{f}` names `{w}` ({t})"))
        .collect();
    // Sanity: the lowering reads the key, so the scanner must see lower → key edges; finding none
    // means it is blind to `key` (a renamed module, a broken resolver) and the check above proves
    // nothing.
    assert!(
        edges.iter().any(|(f, t, ..)| f == "lower" && t == "key"),
        "scanner: found no import of `key` in `lower` (the check is blind)"
    );
    assert!(
        key_to_lower.is_empty(),
        "the key imports the lowering, which imports the key (docs/architecture.md#forbidden-imports):\n{}",
        key_to_lower.join("\n")
    );
}

#[test]
fn bytecode_knows_nothing_of_naga() {
    let failures: Vec<String> = sources()
        .iter()
        .filter(|s| s.module.first().is_some_and(|m| m == "bytecode"))
        .flat_map(|s| {
            tokens(&s.code)
                .into_iter()
                .filter(|(t, _)| *t == Tok::Ident("naga".into()))
                .map(|(_, line)| format!("{}:{line}: `naga` under bytecode/", rel(&s.path)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "docs/architecture.md#forbidden-imports:\n{}", failures.join("\n"));
}

#[test]
fn the_library_never_depends_on_the_harness() {
    let root = workspace();
    let manifest = fs::read_to_string(root.join("translator/Cargo.toml")).expect("translator/Cargo.toml");
    let table: toml::Table = manifest.parse().expect("translator/Cargo.toml parses");
    let mut failures = Vec::new();
    let mut tables: Vec<(String, &toml::Table)> = Vec::new();
    for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(t) = table.get(kind).and_then(|v| v.as_table()) {
            tables.push((kind.to_string(), t));
        }
        for (target, spec) in table.get("target").and_then(|v| v.as_table()).into_iter().flatten() {
            if let Some(t) = spec.get(kind).and_then(|v| v.as_table()) {
                tables.push((format!("target.{target}.{kind}"), t));
            }
        }
    }
    for (kind, deps) in tables {
        for (name, spec) in deps {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if package == "gpu-harness" || package.replace('-', "_") == "gpu_harness" {
                let line =
                    manifest.lines().position(|l| l.trim_start().starts_with(name.as_str())).map_or(0, |p| p + 1);
                failures.push(format!("translator/Cargo.toml:{line}: [{kind}] names gpu-harness"));
            }
        }
    }
    for dir in ["src", "tests", "examples", "benches"] {
        let mut files = Vec::new();
        rs_files(&root.join("translator").join(dir), &mut files);
        for f in files {
            let code = strip(&fs::read_to_string(&f).expect("readable"));
            for (t, line) in tokens(&code) {
                if t == Tok::Ident("gpu_harness".into()) {
                    failures.push(format!("{}:{line}: names gpu_harness", rel(&f)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the library depends on the harness (docs/architecture.md#forbidden-imports):\n{}",
        failures.join("\n")
    );
}

/// One crate's module tree, for the circle checks (docs/architecture.md#no-circles).
struct Graph<'a> {
    sources: Vec<&'a Source>,
    /// Every module that is a file (`lower::tests::io`), the crate root (`[]`) included.
    modules: BTreeSet<Vec<String>>,
    /// Per module, the names its `use` items bind: to the path from the crate root they import,
    /// or to `None` for another crate's item.
    uses: BTreeMap<Vec<String>, BTreeMap<String, Option<Vec<String>>>>,
}

/// A reference from one file's module to the module that defines what it names.
struct Edge {
    from: Vec<String>,
    to: Vec<String>,
    at: String,
    written: String,
}

impl<'a> Graph<'a> {
    fn new(sources: Vec<&'a Source>) -> Self {
        let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
        let mut graph = Graph { sources, modules, uses: BTreeMap::new() };
        for s in &graph.sources {
            for w in written_paths(s, &|m, name| graph.is_child(m, name)) {
                if let Some(name) = w.binds.clone() {
                    let target = graph.resolve(&w.path, &w.module);
                    graph.uses.entry(w.module).or_default().entry(name).or_insert(target);
                }
            }
        }
        graph
    }

    fn is_child(&self, module: &[String], name: &str) -> bool {
        let mut child = module.to_vec();
        child.push(name.to_string());
        self.modules.contains(&child)
    }

    /// A written path as a path from this crate's root; `None` for other crates and locals.
    fn resolve(&self, written: &[String], module: &[String]) -> Option<Vec<String>> {
        let first = written.first()?.as_str();
        match first {
            "crate" => Some(written[1..].to_vec()),
            "self" | "super" => {
                let mut base = module.to_vec();
                let mut rest = if first == "self" { &written[1..] } else { written };
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                Some(base)
            }
            name if self.is_child(module, name) => Some(module.iter().chain(written).cloned().collect()),
            _ => None,
        }
    }

    /// The module that defines what a path from the crate root names, following `use` items
    /// (`crate::ShaderKey` is `key`); `None` for another crate's item.
    fn locate(&self, path: &[String]) -> Option<Vec<String>> {
        let mut path = path.to_vec();
        // Each step follows one `use`; the bound only stops a `use` circle the compiler rejects.
        for _ in 0..32 {
            let mut module = Vec::new();
            let mut next = None;
            for (i, segment) in path.iter().enumerate() {
                if self.is_child(&module, segment) {
                    module.push(segment.clone());
                    continue;
                }
                match self.uses.get(&module).and_then(|u| u.get(segment)) {
                    Some(Some(target)) => next = Some(target.iter().chain(&path[i + 1..]).cloned().collect()),
                    Some(None) => return None,
                    None => {}
                }
                break;
            }
            match next {
                Some(p) => path = p,
                None => return Some(module),
            }
        }
        None
    }

    /// Every reference of a file to a module of this crate, through `use` items. Test code
    /// (`tests` modules, inline or files, and `*_tests` files) is left out: nothing imports it,
    /// so it sits above everything and closes no circle.
    fn edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        for s in &self.sources {
            for w in written_paths(s, &|m, name| self.is_child(m, name)) {
                if w.module.iter().any(|m| m == "tests" || m.ends_with("_tests")) {
                    continue;
                }
                let Some(to) = self.resolve(&w.path, &w.module).and_then(|p| self.locate(&p)) else { continue };
                let at = format!("{}:{}", rel(&s.path), w.line);
                out.push(Edge { from: s.module.clone(), to, at, written: w.path.join("::") });
            }
        }
        out
    }

    /// The modules with submodules: the crate root and every folder (or file with a folder).
    fn folders(&self) -> BTreeSet<Vec<String>> {
        self.modules.iter().flat_map(|m| (0..m.len()).map(|n| m[..n].to_vec())).collect()
    }

    /// The circles between the files of one folder: its submodules (a subfolder as one node) and
    /// its own file (`mod.rs`, `lib.rs`) are the nodes. `allowed` edges (from, to) are left out.
    fn circles_in(&self, folder: &[String], allowed: &[(&str, &str)]) -> Vec<String> {
        self.circle_parts(folder, allowed).into_iter().map(|(_, report)| report).collect()
    }

    /// [`Graph::circles_in`] with the nodes of each circle's strongly connected part.
    fn circle_parts(&self, folder: &[String], allowed: &[(&str, &str)]) -> Vec<(Vec<String>, String)> {
        let own = self.sources.iter().find(|s| s.module == folder).map_or("(root)".to_string(), |s| {
            s.path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned())
        });
        let node = |m: &[String]| m.get(folder.len()).cloned().unwrap_or_else(|| own.clone());
        let mut graph: BTreeMap<(String, String), String> = BTreeMap::new();
        for e in self.edges() {
            if e.from.starts_with(folder) && e.to.starts_with(folder) {
                let (a, b) = (node(&e.from), node(&e.to));
                if a != b && !allowed.contains(&(a.as_str(), b.as_str())) {
                    graph.entry((a, b)).or_insert_with(|| format!("{} `{}`", e.at, e.written));
                }
            }
        }
        let place = match self.sources.iter().find(|s| s.module == folder) {
            Some(s) if folder.is_empty() || own == "mod.rs" => rel(s.path.parent().unwrap_or(&s.path)),
            Some(s) => rel(&s.path.with_extension("")),
            None => folder.join("/"),
        };
        circles(&graph)
            .into_iter()
            .map(|(circle, part)| {
                let steps: Vec<String> = circle
                    .iter()
                    .zip(circle.iter().cycle().skip(1))
                    .map(|(a, b)| format!("  {a} → {b}: {}", graph[&(a.clone(), b.clone())]))
                    .collect();
                let more = if part.len() > circle.len() {
                    format!(" (one circle of those between {})", part.join(", "))
                } else {
                    String::new()
                };
                (part, format!("{place}/: {} → {}{more}\n{}", circle.join(" → "), circle[0], steps.join("\n")))
            })
            .collect()
    }
}

/// One circle per strongly connected part of a directed graph (edges as (from, to) keys): the
/// shortest one through its first node, with the nodes of the part.
fn circles<V>(edges: &BTreeMap<(String, String), V>) -> Vec<(Vec<String>, Vec<String>)> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &str| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![from]);
        while let Some(n) = todo.pop() {
            for &m in next.get(n).into_iter().flatten() {
                if seen.insert(m) {
                    todo.push(m);
                }
            }
        }
        seen
    };
    let (mut done, mut out) = (BTreeSet::new(), Vec::new());
    for &start in next.keys() {
        let from_start = reach(start);
        if done.contains(start) || !from_start.contains(start) {
            continue;
        }
        let part: BTreeSet<&str> = from_start.iter().copied().filter(|&n| reach(n).contains(start)).collect();
        // Breadth-first from `start` inside the part, back to `start`.
        let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        'search: while let Some(n) = queue.pop_front() {
            for &m in next.get(n).into_iter().flatten().filter(|m| part.contains(*m)) {
                if m == start {
                    let mut circle = vec![n.to_string()];
                    let mut at = n;
                    while at != start {
                        at = parent[at];
                        circle.push(at.to_string());
                    }
                    circle.reverse();
                    out.push((circle, part.iter().map(|n| n.to_string()).collect()));
                    break 'search;
                }
                if !parent.contains_key(m) {
                    parent.insert(m, n);
                    queue.push_back(m);
                }
            }
        }
        done.extend(part);
    }
    out
}

/// The crates whose folders must hold no circle: the library (whose root is the top-level
/// check's), the `d3d9-shader` binary and the harness.
fn crates() -> Vec<(&'static str, Vec<Source>)> {
    let (bin, lib): (Vec<Source>, Vec<Source>) = sources().into_iter().partition(|s| s.bin);
    vec![("library", lib), ("binary", bin), ("harness", sources_in("gpu-harness/src"))]
}

/// Known circles between the library's top-level modules, left out until they are broken: an
/// entry is the edge (from, to) that closes one. None is known; an entry whose edge is gone
/// fails the test.
const KNOWN_CIRCLES: &[(&str, &str)] = &[];

/// No circle between the library's top-level modules, through crate-root re-exports too.
#[test]
fn no_circle_between_top_level_modules() {
    let sources = sources();
    let library = Graph::new(sources.iter().filter(|s| !s.bin).collect());
    let mut failures = library.circles_in(&[], KNOWN_CIRCLES);
    let edges = library.edges();
    for (from, to) in KNOWN_CIRCLES {
        if !edges.iter().any(|e| e.from.first().is_some_and(|f| f == from) && e.to.first().is_some_and(|t| t == to)) {
            failures.push(format!("KNOWN_CIRCLES names `{from}` → `{to}`, which no longer exists: delete the entry"));
        }
    }
    // Sanity: the re-exports resolve, so a blind scanner cannot pass.
    if library.locate(&["ShaderKey".to_string()]) != Some(vec!["key".to_string()]) {
        failures.push("scanner: `crate::ShaderKey` does not resolve to `key` (the check is blind)".into());
    }
    assert!(failures.is_empty(), "circles between modules (docs/architecture.md#no-circles):\n{}", failures.join("\n"));
}

/// The circles between files still to break, each as (crate:folder, the files of its part): a
/// part within those files passes, a larger one or one in another folder fails. None is left:
/// the last ones were a type that its folder's own file defined and extended in the files it
/// named back (`lower`'s `Lowerer`, the command line's `Cli`), and two data types that held each
/// other across files (`effect`'s `Parameter` and `State`).
const KNOWN_FOLDER_CIRCLES: &[(&str, &[&str])] = &[];

/// No circle between the files of one folder, in the library, its binary and the harness.
#[test]
fn no_circle_between_files_of_a_folder() {
    let mut failures = Vec::new();
    let (mut folders, mut seen) = (Vec::new(), BTreeSet::new());
    for (name, sources) in crates() {
        let graph = Graph::new(sources.iter().collect());
        // The library's root is the top-level check's, with its known circle.
        for folder in graph.folders().into_iter().filter(|f| name != "library" || !f.is_empty()) {
            let at = format!("{name}:{}", folder.join("::"));
            for (part, report) in graph.circle_parts(&folder, &[]) {
                let known = KNOWN_FOLDER_CIRCLES.iter().find(|(f, _)| *f == at);
                if known.is_some_and(|(_, nodes)| part.iter().all(|n| nodes.contains(&n.as_str()))) {
                    seen.insert(at.clone());
                } else {
                    failures.push(report);
                }
            }
            folders.push(at);
        }
    }
    for (folder, _) in KNOWN_FOLDER_CIRCLES.iter().filter(|(f, _)| !seen.contains(*f)) {
        failures.push(format!("KNOWN_FOLDER_CIRCLES names `{folder}`, which has no circle left: delete the entry"));
    }
    // Sanity: the folders of each crate were read, so a blind scanner cannot pass.
    for expected in ["library:interp", "library:ffp", "binary:", "harness:", "harness:case"] {
        if !folders.iter().any(|f| f == expected) {
            failures.push(format!("scanner: folder `{expected}` not read (the check is blind)"));
        }
    }
    assert!(failures.is_empty(), "circles between files (docs/architecture.md#no-circles):\n{}", failures.join("\n"));
}

/// Whether a file (its path under the scanned folder) is a test: `tests.rs`, `*_tests.rs` or
/// under a `tests/` folder.
fn is_test_file(relative: &Path) -> bool {
    let stem = relative.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
    stem == "tests"
        || stem.ends_with("_tests")
        || relative.parent().is_some_and(|p| p.components().any(|c| c.as_os_str() == "tests"))
}

/// The files over 800 lines among `(path under the scanned folder, text)`, tests left out.
fn long_files(files: &[(PathBuf, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, _)| !is_test_file(path))
        .filter_map(|(path, text)| {
            let lines = text.lines().count();
            (lines > 800).then(|| format!("{}: {lines} lines", path.display()))
        })
        .collect()
}

/// No source file over 800 lines outside the tests (docs/architecture.md#no-circles).
#[test]
fn no_file_over_800_lines() {
    let mut failures = Vec::new();
    for dir in ["translator/src", "gpu-harness/src", "tests/generate", "xtask/src", "web/src"] {
        let root = workspace().join(dir);
        let mut found = Vec::new();
        rs_files(&root, &mut found);
        if found.is_empty() {
            failures.push(format!("scanner: no sources under {dir} (the check is blind)"));
        }
        let files: Vec<(PathBuf, String)> = found
            .iter()
            .map(|p| {
                (p.strip_prefix(&root).expect("under root").to_path_buf(), fs::read_to_string(p).expect("readable"))
            })
            .collect();
        failures.extend(long_files(&files).into_iter().map(|f| format!("{dir}/{f}")));
    }
    assert!(failures.is_empty(), "files over 800 lines (docs/architecture.md#no-circles):\n{}", failures.join("\n"));
}

/// Sources of a made-up crate: (path under `src/`, text).
fn synthetic(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| {
            source(PathBuf::from(format!("synthetic/src/{path}")), &Path::new(path).with_extension(""), text)
        })
        .collect()
}

/// The circle checks on made-up sources: each circle is found, with a `file:line` per edge.
#[test]
fn the_circle_checks_find_circles() {
    // Two files of a folder that name each other, one in a `use`, one inline.
    let two = synthetic(&[
        ("lib.rs", "mod f;"),
        ("f/mod.rs", "mod a;\nmod b;"),
        ("f/a.rs", "use super::b::B;\npub struct A(B);"),
        ("f/b.rs", "// super::a::A in a comment is no edge\npub fn make() -> super::a::A { todo!() }\npub struct B;"),
    ]);
    let graph = Graph::new(two.iter().collect());
    let found = graph.circles_in(&["f".to_string()], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("synthetic/src/f/: a → b → a\n"), "{}", found[0]);
    assert!(found[0].contains("a → b: synthetic/src/f/a.rs:1 `super::b::B`"), "{}", found[0]);
    assert!(found[0].contains("b → a: synthetic/src/f/b.rs:2 `super::a::A`"), "{}", found[0]);
    assert!(graph.circles_in(&[], &[]).is_empty());

    // Test code closes no circle: nothing imports it.
    let tested = synthetic(&[
        ("lib.rs", "mod f;"),
        ("f/mod.rs", "mod a;\nmod b;"),
        ("f/a.rs", "use super::b::B;\npub struct A(B);"),
        ("f/b.rs", "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::super::a::A;\n}"),
    ]);
    assert!(Graph::new(tested.iter().collect()).circles_in(&["f".to_string()], &[]).is_empty());

    // A folder's own file and a file of it: mod.rs calls `a` (named without `self::`), `a`
    // names a type mod.rs defines.
    let own = synthetic(&[
        ("lib.rs", "mod f;"),
        ("f/mod.rs", "mod a;\npub struct Options;\npub fn run() { a::go() }"),
        ("f/a.rs", "use super::Options;\npub fn go() {}"),
    ]);
    let found = Graph::new(own.iter().collect()).circles_in(&["f".to_string()], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("synthetic/src/f/: a → mod.rs → a\n"), "{}", found[0]);

    // The same with the type in a leaf file that mod.rs re-exports: `super::Options` names the
    // leaf, and there is no circle.
    let leaf = synthetic(&[
        ("lib.rs", "mod f;"),
        ("f/mod.rs", "mod a;\nmod types;\npub use types::Options;\npub fn run() { a::go() }"),
        ("f/a.rs", "use super::Options;\nuse std::fmt::Debug;\npub fn go() {}"),
        ("f/types.rs", "pub struct Options;"),
    ]);
    let graph = Graph::new(leaf.iter().collect());
    assert_eq!(graph.locate(&["f".into(), "Options".into()]), Some(vec!["f".to_string(), "types".to_string()]));
    assert!(graph.circles_in(&["f".to_string()], &[]).is_empty());

    // A circle through a crate-root re-export: x names `crate::Y`, which lib.rs re-exports from y.
    let reexport = synthetic(&[
        ("lib.rs", "pub mod x;\npub mod y;\npub use y::Y;"),
        ("x.rs", "pub struct X;\npub fn f(_: crate::Y) {}"),
        ("y.rs", "use crate::x::X;\npub struct Y(X);"),
    ]);
    let graph = Graph::new(reexport.iter().collect());
    assert_eq!(graph.locate(&["Y".into()]), Some(vec!["y".to_string()]));
    let found = graph.circles_in(&[], &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("synthetic/src/: x → y → x\n"), "{}", found[0]);
    assert!(found[0].contains("x → y: synthetic/src/x.rs:2 `crate::Y`"), "{}", found[0]);
    // An allowed edge leaves that circle out, and only that one.
    assert!(graph.circles_in(&[], &[("x", "y")]).is_empty());
    assert_eq!(graph.circles_in(&[], &[("y", "x"), ("x", "lib.rs")]).len(), 0);
    assert_eq!(graph.circles_in(&[], &[("x", "lib.rs")]).len(), 1);
}

/// The length check on made-up files: 801 lines fail, 800 pass, tests are left out.
#[test]
fn the_length_check_finds_long_files() {
    let lines = |n: usize| "let x = 1;\n".repeat(n);
    let files = [
        (PathBuf::from("a.rs"), lines(801)),
        (PathBuf::from("b.rs"), lines(800)),
        (PathBuf::from("f/tests.rs"), lines(900)),
        (PathBuf::from("f/tests/rules.rs"), lines(900)),
        (PathBuf::from("effects_tests.rs"), lines(900)),
        (PathBuf::from("f/long.rs"), lines(1000)),
    ];
    assert_eq!(long_files(&files), ["a.rs: 801 lines", "f/long.rs: 1000 lines"]);
}

/// Text files of the repository that may cite documents: sources, manifests, docs, cases, shaders.
fn repository_texts() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !name.starts_with('.') && !["target", "snapshots", "node_modules"].contains(&name.as_str()) {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| ["rs", "toml", "md", "asm"].iter().any(|k| x == *k)) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&workspace(), &mut out);
    out.sort();
    out
}

/// `<a id="...">` anchors of a document.
fn anchors(doc: &str) -> BTreeSet<String> {
    doc.split("<a id=\"").skip(1).filter_map(|rest| rest.split('"').next()).map(str::to_string).collect()
}

/// Every `docs/<name>.md#<anchor>` cited anywhere, and every `<name>.md#<anchor>` / `#<anchor>` link inside
/// `docs/`, names a document that exists and an anchor it defines.
#[test]
fn cited_doc_anchors_exist() {
    let root = workspace();
    let docs = root.join("docs");
    let mut failures = Vec::new();
    let mut check = |at: String, doc: &str, anchor: &str| match fs::read_to_string(docs.join(doc)) {
        Ok(text) if anchors(&text).contains(anchor) => {}
        Ok(_) => failures.push(format!("{at}: docs/{doc} has no anchor `{anchor}`")),
        Err(_) => failures.push(format!("{at}: docs/{doc} does not exist")),
    };
    let slug =
        |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect::<String>();
    for file in repository_texts() {
        let text = fs::read_to_string(&file).unwrap_or_default();
        let in_docs = file.starts_with(&docs);
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", rel(&file), n + 1);
            for part in line.split("docs/").skip(1) {
                let doc = slug(part);
                if let Some(anchor) = part[doc.len()..].strip_prefix(".md#") {
                    check(at.clone(), &format!("{doc}.md"), &slug(anchor));
                }
            }
            if in_docs {
                let this = file.file_name().unwrap().to_string_lossy().into_owned();
                for part in line.split("](").skip(1) {
                    let target: String = part.split(')').next().unwrap_or("").to_string();
                    if let Some((doc, anchor)) = target.split_once('#') {
                        if !doc.contains('/') && !doc.contains(':') {
                            check(at.clone(), if doc.is_empty() { &this } else { doc }, anchor);
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "dangling citations:\n{}", failures.join("\n"));
}

/// Comments cite what the reader can open in the repository: never the notes kept beside it.
#[test]
fn citations_stay_inside_the_repository() {
    // The notes beside the repository: the conformance runner notes and case format, the
    // instruction table and the design notes.
    const OUTSIDE: &[&str] = &[
        "runner note",
        "OPCODES.md",
        "DESIGN.md",
        "DESIGN §",
        "shared/DESIGN",
        "shared/OPCODES",
        "conformance/README",
    ];
    let this = Path::new(file!()).file_name().unwrap().to_owned();
    let mut failures = Vec::new();
    for file in repository_texts() {
        if file.file_name() == Some(&this) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for needle in OUTSIDE {
                // "Runner note 6" at a sentence start too; the others are file names, case kept.
                if line.contains(needle) || (needle.starts_with("runner") && lower.contains(needle)) {
                    failures.push(format!("{}:{}: cites `{needle}`, outside the repository", rel(&file), n + 1));
                }
            }
        }
    }
    assert!(failures.is_empty(), "docs/architecture.md#citations:\n{}", failures.join("\n"));
}

/// The longest a library function may be, in lines from its `fn` to its closing brace: a longer
/// one is split by the concept it handles (an opcode family, a field table, a stage).
const MAX_FUNCTION_LINES: usize = 80;

/// Long functions still to be split, each `file::function`; the list only shrinks (an entry that
/// no longer names a long function fails the test too). None is left.
const LONG_FUNCTIONS_TO_SPLIT: &[&str] = &[];

/// Each function of `code` (stripped) outside `#[cfg(test)]` items: its name, the line of its
/// `fn` and its length in lines. Declarations without a body (`fn f();`) are left out.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let toks = tokens(code);
    // The index of the `Close` that matches the `Open` at `open`.
    let close = |open: usize| {
        let mut depth = 0;
        for (k, (t, _)) in toks.iter().enumerate().skip(open) {
            match t {
                Tok::Open => depth += 1,
                Tok::Close if depth == 1 => return k,
                Tok::Close => depth -= 1,
                _ => {}
            }
        }
        toks.len() - 1
    };
    // The `Open` of the body of the item whose tokens start at `from`, unless a `;` ends it first.
    let body = |from: usize| {
        let mut depth = 0i32;
        for (k, (t, _)) in toks.iter().enumerate().skip(from) {
            match t {
                Tok::Other('(' | '[') => depth += 1,
                Tok::Other(')' | ']') => depth -= 1,
                Tok::Other(';') if depth == 0 => return None,
                Tok::Open if depth == 0 => return Some(k),
                _ => {}
            }
        }
        None
    };
    let is = |k: usize, want: &Tok| toks.get(k).is_some_and(|(t, _)| t == want);
    let ident = |k: usize, name: &str| is(k, &Tok::Ident(name.into()));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let cfg_test = is(i, &Tok::Other('#'))
            && is(i + 1, &Tok::Other('['))
            && ident(i + 2, "cfg")
            && is(i + 3, &Tok::Other('('))
            && ident(i + 4, "test")
            && is(i + 5, &Tok::Other(')'));
        if cfg_test {
            i = body(i + 7).map_or(i + 7, |open| close(open) + 1);
            continue;
        }
        if let (true, Some((Tok::Ident(name), _))) = (ident(i, "fn"), toks.get(i + 1)) {
            if let Some(open) = body(i + 2) {
                let (line, end) = (toks[i].1, toks[close(open)].1);
                out.push((name.clone(), line, end - line + 1));
            }
        }
        i += 1;
    }
    out
}

/// House style: no library function over MAX_FUNCTION_LINES lines (test modules and the
/// `tests/` folders aside).
#[test]
fn library_functions_stay_short() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in ["translator/src", "gpu-harness/src"] {
        rs_files(&root.join(dir), &mut files);
    }
    let mut failures = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    for file in files {
        let path = rel(&file);
        if path.split('/').any(|part| part == "tests" || part == "tests.rs") {
            continue;
        }
        let code = strip(&fs::read_to_string(&file).expect("readable source"));
        for (name, line, length) in functions(&code) {
            if length <= MAX_FUNCTION_LINES {
                continue;
            }
            let entry = format!("{path}::{name}");
            if LONG_FUNCTIONS_TO_SPLIT.contains(&entry.as_str()) {
                allowed_seen.insert(entry);
            } else {
                failures.push(format!("{path}:{line}: fn {name} is {length} lines"));
            }
        }
    }
    for entry in LONG_FUNCTIONS_TO_SPLIT {
        if !allowed_seen.contains(*entry) {
            failures.push(format!("{entry}: no longer a long function; remove it from LONG_FUNCTIONS_TO_SPLIT"));
        }
    }
    assert!(
        failures.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split each by the concept it handles):\n{}",
        failures.join("\n")
    );
}
