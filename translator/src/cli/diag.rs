//! Error messages: the file, the error, and the offending text line (with a caret under the
//! column), token (with its neighbours) or instruction (disassembled). In colour when stderr is a
//! terminal, unless `NO_COLOR` is set (<https://no-color.org>); `CLICOLOR_FORCE=1` forces it.

use std::fmt::Write;
use std::io::IsTerminal;

use d3d9_shader::asm::write_instruction;
use d3d9_shader::bytecode::Program;
use d3d9_shader::validate::Diagnostic;
use d3d9_shader::{Error, Location};

/// Whether to colour, decided once per run.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    color: bool,
}

const RED: &str = "1;31";
const YELLOW: &str = "1;33";
const BLUE: &str = "1;34";
const BOLD: &str = "1";

impl Style {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset or empty.
    pub fn for_stderr() -> Style {
        let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        let color = set("CLICOLOR_FORCE") || (std::io::stderr().is_terminal() && !set("NO_COLOR"));
        Style { color }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `error: NAME: MESSAGE`.
    pub fn error(self, name: &str, message: &str) -> String {
        format!("{} {}: {message}", self.paint(RED, "error:"), self.paint(BOLD, name))
    }

    /// `warning: NAME: MESSAGE`.
    pub fn warning(self, name: &str, message: &str) -> String {
        format!("{} {}: {message}", self.paint(YELLOW, "warning:"), self.paint(BOLD, name))
    }

    fn gutter(self, text: &str) -> String {
        self.paint(BLUE, text)
    }
}

/// What the input was, for showing the place of an error.
#[derive(Default)]
pub struct Source<'a> {
    /// The input's text, when it is text (assembly, hex, header).
    pub text: Option<&'a str>,
    /// The token stream, once read.
    pub tokens: Option<&'a [u32]>,
    /// The decoded program, once decoded.
    pub program: Option<&'a Program>,
}

/// Renders `error` for the input shown as `name`; several lines, no trailing newline.
pub fn render(style: Style, name: &str, error: &Error, source: &Source) -> String {
    if let Error::Invalid { errors } = error {
        return errors.iter().map(|d| render_diagnostic(style, name, d, source, false)).collect::<Vec<_>>().join("\n");
    }
    let mut out = style.error(name, &error.to_string());
    if let Some(location) = error.location() {
        snippet(style, &mut out, location, source);
    }
    out
}

/// Renders one validator diagnostic (an error, or a warning when `warning`).
pub fn render_diagnostic(style: Style, name: &str, d: &Diagnostic, source: &Source, warning: bool) -> String {
    let mut out = if warning { style.warning(name, &d.to_string()) } else { style.error(name, &d.to_string()) };
    if let Some(t) = d.token {
        snippet(style, &mut out, Location::Token(t as usize), source);
    }
    out
}

fn snippet(style: Style, out: &mut String, location: Location, source: &Source) {
    match location {
        Location::Text { line, column } => {
            let Some(text) = source.text.and_then(|t| t.lines().nth(line.saturating_sub(1))) else { return };
            let number = line.to_string();
            let pad = " ".repeat(number.len());
            let shown: String = text.chars().take(160).collect();
            let caret = format!("{}^", " ".repeat(column.saturating_sub(1).min(160)));
            let _ = write!(
                out,
                "\n {} {shown}\n {} {}",
                style.gutter(&format!("{number} |")),
                style.gutter(&format!("{pad} |")),
                style.paint(RED, &caret)
            );
        }
        Location::Token(token) => {
            // The instruction at that token, disassembled, says the most.
            let instruction = source.program.and_then(|p| {
                let inst = p.instructions.iter().find(|i| i.offset as usize == token)?;
                let mut text = String::new();
                write_instruction(&mut text, inst, p.version).ok()?;
                Some(text)
            });
            if let Some(text) = instruction {
                let _ = write!(out, "\n {} {}", style.gutter(&format!("token {token} |")), text.trim());
                return;
            }
            let Some(tokens) = source.tokens else { return };
            let start = token.saturating_sub(2);
            let end = (token + 3).min(tokens.len());
            if start >= end {
                let _ = write!(
                    out,
                    "\n {} (past the end of the {} tokens)",
                    style.gutter(&format!("token {token} |")),
                    tokens.len()
                );
                return;
            }
            let mut words = String::new();
            for (i, w) in tokens[start..end].iter().enumerate() {
                let w = format!("{w:08x}");
                let w = if start + i == token { style.paint(RED, &format!("[{w}]")) } else { w };
                let _ = write!(words, "{w} ");
            }
            let _ = write!(out, "\n {} {}", style.gutter(&format!("tokens {start}.. |")), words.trim_end());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3d9_shader::{ParseOptions, Shader};

    const PLAIN: Style = Style { color: false };

    #[test]
    fn an_assembly_error_shows_the_line_and_a_caret_under_the_column() {
        let text = "ps_2_0\nmov oC0, q0\n";
        let e = Shader::from_asm(text, &ParseOptions::default()).unwrap_err();
        let shown = render(PLAIN, "a.asm", &e, &Source { text: Some(text), ..Source::default() });
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].starts_with("error: a.asm: line 2, column 10:"), "{shown}");
        assert_eq!(lines[1], " 2 | mov oC0, q0");
        assert_eq!(lines[2], "   |          ^");
    }

    #[test]
    fn a_decode_error_marks_the_token() {
        let tokens = [0xFFFF_0200, 0x0300_0002];
        let e = Shader::from_tokens(&tokens, &ParseOptions::default()).unwrap_err();
        let shown = render(PLAIN, "b.hex", &e, &Source { tokens: Some(&tokens), ..Source::default() });
        assert!(shown.contains('['), "{shown}");
    }

    #[test]
    fn colour_wraps_the_label_in_escape_codes() {
        let s = Style { color: true }.error("x", "y");
        assert_eq!(s, "\x1b[1;31merror:\x1b[0m \x1b[1mx\x1b[0m: y");
    }
}
