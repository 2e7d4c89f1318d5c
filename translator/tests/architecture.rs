//! The imports that must never exist (docs/architecture.md#forbidden-imports), checked on the
//! source text, and the repository's own citations (docs/architecture.md#citations).
//!
//! The sources are read with comments and string literals blanked out (line numbers kept), then
//! every `use` tree and every `crate::`/`super::`/`self::`/`d3d9_shader::` path in code is resolved
//! to the top-level module of the library it names. A failure lists each offending `file:line`.

use std::collections::BTreeSet;
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
    let src = workspace().join("translator/src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).expect("under src").with_extension("");
            let mut module: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            let bin = relative == Path::new("main") || module.first().is_some_and(|m| m == "cli");
            let text = fs::read_to_string(&path).expect("readable source");
            Source { path, module, bin, code: strip(&text) }
        })
        .collect()
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

/// Expands a `use` tree (the tokens between `use` and `;`) into its paths.
fn use_paths(toks: &[(Tok, usize)], prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(s) if s == "as" => i += 1, // skip the alias
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
        out.push((path, toks.first().map_or(0, |t| t.1)));
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
                for (written, line) in paths {
                    if let Some(target) = resolve(&written, &module, source.bin) {
                        out.push(Reference { line, target, written: written.join("::") });
                    }
                }
                i = end;
                continue;
            }
            Tok::Ident(root)
                if matches!(root.as_str(), "crate" | "super" | "self" | "d3d9_shader")
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
                if let Some(target) = resolve(&written, &module, source.bin) {
                    out.push(Reference { line, target, written: written.join("::") });
                }
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
    let mut out = Vec::new();
    for s in &sources {
        let from = if s.bin { "cli".to_string() } else { s.module.first().cloned().unwrap_or_else(|| "lib".into()) };
        for r in references(s) {
            let Some(to) = r.target.first() else { continue };
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

#[test]
fn key_and_lower_do_not_import_each_other() {
    let edges = edges();
    let key_to_lower: Vec<_> = edges.iter().filter(|(f, t, ..)| f == "key" && t == "lower").collect();
    let lower_to_key: Vec<_> = edges.iter().filter(|(f, t, ..)| f == "lower" && t == "key").collect();
    if key_to_lower.is_empty() || lower_to_key.is_empty() {
        return;
    }
    let lines: Vec<String> = key_to_lower
        .iter()
        .chain(lower_to_key.iter().take(1))
        .map(|(f, t, at, w)| format!("{at}: `{f}` names `{w}` ({t})"))
        .collect();
    panic!(
        "key and lower import each other (docs/architecture.md#forbidden-imports); {} more lower → key lines:\n{}",
        lower_to_key.len() - 1,
        lines.join("\n")
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

/// Long functions in files other work is restructuring now, each to be split there; the list
/// only shrinks (an entry that no longer names a long function fails the test too).
const LONG_FUNCTIONS_TO_SPLIT: &[&str] = &[
    // To split where their files are being restructured (moved into key/, imports reworked).
    "translator/src/key.rs::set",
    "translator/src/interp/registers.rs::write_dst",
];

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
