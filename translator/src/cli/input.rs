//! Reading the INPUT argument (the formats themselves live in the library's `input` module).
//!
//! Every subcommand loads its INPUT through [`load_program`] (or [`load_programs`] for headers
//! with several arrays); the error string is ready for stderr and names the file and the token
//! index and byte offset, or the line and column.

use std::io::Read;

use d3d9_shader::bytecode::{decode, Program};
use d3d9_shader::input::{load, MAX_INPUT_BYTES};

/// Reads the bytes of INPUT: a path, or `-` for stdin.
pub fn read_input(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let result = if path == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| {
            // One read for the whole file (the metadata's length), still capped at the limit.
            let len = f.metadata().map_or(0, |m| m.len()).min(limit);
            bytes.reserve_exact(len as usize + 1);
            f.take(limit).read_to_end(&mut bytes)
        })
    };
    result.map_err(|e| format!("{}: cannot read: {e}", display_name(path)))?;
    Ok(bytes)
}

/// The name used in messages: the path, or `<stdin>`.
pub fn display_name(path: &str) -> String {
    if path == "-" {
        "<stdin>".into()
    } else {
        path.to_string()
    }
}

/// Loads and decodes every shader of INPUT (a header may hold several). Each comes with a
/// display name: the path, with `:array` for a header's arrays.
pub fn load_programs(path: &str) -> Result<Vec<(Program, String)>, String> {
    let name = display_name(path);
    let bytes = read_input(path)?;
    let hint = if path == "-" { "" } else { path };
    // Errors are rendered with the offending line or token (and coloured on a terminal).
    let style = super::diag::Style::for_stderr();
    let text = std::str::from_utf8(&bytes).ok();
    let shaders = load(&bytes, hint).map_err(|e| {
        super::diag::render(style, &name, &e.into(), &super::diag::Source { text, ..Default::default() })
    })?;
    shaders
        .into_iter()
        .map(|s| {
            let shown = match &s.name {
                Some(array) => format!("{name}:{array}"),
                None => name.clone(),
            };
            decode(&s.tokens).map(|p| (p, shown.clone())).map_err(|e| {
                let source = super::diag::Source { tokens: Some(&s.tokens), ..Default::default() };
                super::diag::render(style, &shown, &e.into(), &source)
            })
        })
        .collect()
}

/// Loads and decodes INPUT (a path or `-`); for a header with several arrays, the first.
/// On error, the message names the file and the token index and byte offset, or line and column.
#[allow(dead_code)] // for single-shader commands; `validate` checks every array of a header
pub fn load_program(path: &str) -> Result<(Program, String), String> {
    load_programs(path)?.into_iter().next().ok_or_else(|| format!("{}: no shader found", display_name(path)))
}
