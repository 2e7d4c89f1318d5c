//! Reading shaders from the formats they travel in: a raw little-endian blob, a `.hex` text of
//! 32-bit words, an fxc `/Fh` C header holding one or more BYTE or DWORD arrays, or an assembly
//! listing. The format comes from the file extension when it says, and from the content otherwise.
//!
//! The result is token streams; decoding them (and reporting the token index of a bad token) is
//! [`crate::bytecode::decode()`]'s job. Errors here name the line and column of the text.

use thiserror::Error;

use crate::asm::{assemble_tokens, AsmError};

/// The largest input read (a shader blob is at most a few hundred kilobytes).
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// An input format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Little-endian DWORDs, starting with the version token (`0xFFFE….` or `0xFFFF….`).
    Blob,
    /// Whitespace- or comma-separated 32-bit hex words, `0x` optional, `#` and `//` comments.
    Hex,
    /// A C header (fxc `/Fh`) with the blob as `BYTE` or `DWORD` arrays.
    Header,
    /// Assembly text.
    Asm,
}

impl Format {
    /// The format a file extension names, if it names one.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        if ext.contains('/') || ext.contains('\\') {
            return None;
        }
        Some(match ext.as_str() {
            "bin" | "pso" | "vso" | "fxo" | "cso" | "dxbc" => Format::Blob,
            "hex" => Format::Hex,
            "h" | "hpp" | "inc" => Format::Header,
            "asm" | "vsh" | "psh" | "dxasm" | "s" => Format::Asm,
            _ => return None,
        })
    }

    /// The format of `bytes` judged by content: a blob starts with a version token; among
    /// texts, a header has an array initialiser (`[`, `{`), a listing starts with `vs`/`ps`, and
    /// anything else is hex.
    pub fn sniff(bytes: &[u8]) -> Format {
        if bytes.len() >= 4 && matches!(u16::from_le_bytes([bytes[2], bytes[3]]), 0xFFFE | 0xFFFF) {
            return Format::Blob;
        }
        let Ok(text) = std::str::from_utf8(bytes) else { return Format::Blob };
        if text.contains('{') && text.contains('[') {
            return Format::Header;
        }
        let first_word = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").split(['#', ';']).next().unwrap_or("").trim())
            .find(|l| !l.is_empty())
            .unwrap_or("");
        let lower = first_word.to_ascii_lowercase();
        if lower.starts_with("vs") || lower.starts_with("ps") {
            Format::Asm
        } else {
            Format::Hex
        }
    }
}

/// What is wrong with an input.
#[derive(Clone, PartialEq, Debug, Error)]
pub enum InputError {
    /// Larger than [`MAX_INPUT_BYTES`].
    #[error("input is {0} bytes; at most {MAX_INPUT_BYTES} are read")]
    TooLarge(usize),
    /// Nothing to read.
    #[error("input is empty")]
    Empty,
    /// A blob whose length is not a whole number of DWORDs.
    #[error("blob length {0} is not a multiple of 4 bytes")]
    Unaligned(usize),
    /// A text format that is not UTF-8.
    #[error("{format:?} input is not UTF-8 text (invalid byte at offset {offset})")]
    NotText {
        /// The format expected.
        format: Format,
        /// First invalid byte.
        offset: usize,
    },
    /// A word of a `.hex` file that is not a 32-bit hex number.
    #[error("line {line}, column {column}: `{word}` is not a 32-bit hex word")]
    BadHexWord {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// The word (shortened).
        word: String,
    },
    /// A malformed C header.
    #[error("line {line}, column {column}: {message}")]
    Header {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A DXBC container (magic `DXBC`, 0x43425844): Direct3D 10/11 (Shader Model 4 and later)
    /// bytecode, which this crate does not read.
    #[error("a DXBC container (magic \"DXBC\"): Shader Model 4+ bytecode (Direct3D 10/11), not Direct3D 9 bytecode")]
    Dxbc,
    /// [`crate::Shader::load`] was given an input holding several shaders (a header with several
    /// arrays); [`load`] reads them all.
    #[error("the input holds {0} shaders; read them with input::load")]
    Several(usize),
    /// A header with no array initialiser.
    #[error("no `BYTE`/`DWORD` array initialiser found in the header")]
    NoArray,
    /// An assembly error.
    #[error(transparent)]
    Asm(#[from] AsmError),
}

/// One shader read from an input.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoadedShader {
    /// The array's name for a header input (`g_ps20_main`), `None` otherwise.
    pub name: Option<String>,
    /// The token stream.
    pub tokens: Vec<u32>,
    /// The format it was read as.
    pub format: Format,
}

/// Reads every shader in `bytes`: one, or one per array of a header. `path` (may be empty)
/// lends its extension; without a known one the content decides.
pub fn load(bytes: &[u8], path: &str) -> Result<Vec<LoadedShader>, InputError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge(bytes.len()));
    }
    if bytes.is_empty() {
        return Err(InputError::Empty);
    }
    refuse_dxbc(bytes)?;
    let format = Format::from_path(path).unwrap_or_else(|| Format::sniff(bytes));
    let one = |tokens| Ok(vec![LoadedShader { name: None, tokens, format }]);
    match format {
        Format::Blob => one(blob_tokens(bytes)?),
        Format::Hex => one(parse_hex(text(bytes, format)?)?),
        Format::Asm => one(assemble_tokens(text(bytes, format)?)?),
        Format::Header => Ok(parse_header(text(bytes, format)?)?
            .into_iter()
            .map(|(name, tokens)| LoadedShader { name: Some(name), tokens, format })
            .collect()),
    }
}

/// The magic of the container of Shader Model 4 and later (D3D10/11): bytes `DXBC`, the
/// DWORD 0x43425844. A D3D9 blob starts with its version token (0xFFFE…/0xFFFF…), so a blob
/// starting so is never D3D9 bytecode: said plainly rather than as a bad version token.
pub const DXBC_MAGIC: u32 = 0x4342_5844;

/// [`InputError::Dxbc`] for a DXBC container.
pub fn refuse_dxbc(bytes: &[u8]) -> Result<(), InputError> {
    match bytes.get(..4) {
        Some(b) if u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == DXBC_MAGIC => Err(InputError::Dxbc),
        _ => Ok(()),
    }
}

fn text(bytes: &[u8], format: Format) -> Result<&str, InputError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| InputError::NotText { format, offset: e.valid_up_to() })
}

/// Little-endian DWORDs.
pub fn blob_tokens(bytes: &[u8]) -> Result<Vec<u32>, InputError> {
    if bytes.len() % 4 != 0 {
        return Err(InputError::Unaligned(bytes.len()));
    }
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// Parses `.hex` text: 32-bit hex words separated by whitespace or commas, `0x` optional,
/// `#` and `//` starting comments.
pub fn parse_hex(text: &str) -> Result<Vec<u32>, InputError> {
    if !text.is_ascii() {
        return parse_hex_lines(text);
    }
    // One byte scan for the usual ASCII file (a folder of hex files spent a quarter of its
    // conversion time in per-line `char` searches), each byte classed by a table: a word's
    // digits are summed as they are passed (a `char::to_digit` per digit and a comment test
    // per byte cost 27 instructions a byte, callgrind over 60 files of real-corpus-xray).
    // Separators are what `char::is_whitespace` names on ASCII, the vertical tab included,
    // and the comma.
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 9);
    let (mut line, mut line_start, mut i) = (1, 0, 0);
    while i < bytes.len() {
        match HEX_CLASS[usize::from(bytes[i])] {
            NEWLINE => (line, line_start, i) = (line + 1, i + 1, i + 1),
            SEPARATOR => i += 1,
            HASH => i = line_end(bytes, i),
            SLASH if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            _ => {
                let start = i;
                let (end, value) = scan_hex_word(bytes, i);
                i = end;
                match value {
                    Some(v) => out.push(v),
                    None => {
                        let word = text[start..i].chars().take(32).collect();
                        return Err(InputError::BadHexWord { line, column: start - line_start + 1, word });
                    }
                }
            }
        }
    }
    Ok(out)
}

/// [`HEX_CLASS`] values past the digits 0..=15.
const OTHER: u8 = 16;
const SEPARATOR: u8 = 17;
const NEWLINE: u8 = 18;
const HASH: u8 = 19;
const SLASH: u8 = 20;

/// What each byte is to [`parse_hex`]: a hex digit's value, or one of the classes above.
const HEX_CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            b' ' | b'\t' | 0x0B | 0x0C | b'\r' | b',' => SEPARATOR,
            b'\n' => NEWLINE,
            b'#' => HASH,
            b'/' => SLASH,
            _ => OTHER,
        };
        b += 1;
    }
    t
};

/// The position of the newline ending the line at `i` (or the end of the text).
fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n)
}

/// The end of the word starting at `start` (a separator, a newline or a comment ends it) and
/// its value as [`hex_word`] reads it.
fn scan_hex_word(bytes: &[u8], start: usize) -> (usize, Option<u32>) {
    // The usual word: eight digits, then a separator or the end (one table look-up a digit,
    // no branch per digit).
    if let Some(word) = bytes.get(start..start + 8) {
        let (mut value, mut seen) = (0u32, 0u8);
        for &b in word {
            let class = HEX_CLASS[usize::from(b)];
            seen |= class;
            value = value << 4 | u32::from(class & 15);
        }
        if seen < 16 && (start + 8 == bytes.len() || word_ends(bytes, start + 8)) {
            return (start + 8, Some(value));
        }
    }
    let mut i = start;
    // `0x`/`0X`: skipped when a digit or the word's end follows; otherwise `hex_word` decides.
    let prefixed = bytes[i] == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X'));
    if prefixed {
        i += 2;
    }
    let (mut value, mut digits) = (0u32, 0usize);
    while let Some(&b) = bytes.get(i) {
        let class = HEX_CLASS[usize::from(b)];
        if class < 16 {
            value = value << 4 | u32::from(class);
            digits += 1;
            i += 1;
            continue;
        }
        let ends = matches!(class, SEPARATOR | NEWLINE | HASH) || (class == SLASH && bytes.get(i + 1) == Some(&b'/'));
        if ends {
            break;
        }
        // Anything else makes the word bad: find its end the slow way.
        let mut end = i;
        while end < bytes.len() && !word_ends(bytes, end) {
            end += 1;
        }
        return (end, hex_word(&bytes[start..end]));
    }
    (i, (digits > 0 && digits <= 8).then_some(value))
}

/// Whether the byte at `i` ends a word (a separator, a newline or a comment).
fn word_ends(bytes: &[u8], i: usize) -> bool {
    match HEX_CLASS[usize::from(bytes[i])] {
        SEPARATOR | NEWLINE | HASH => true,
        SLASH => bytes.get(i + 1) == Some(&b'/'),
        _ => false,
    }
}

/// [`parse_hex`] line by line, for text with Unicode whitespace.
fn parse_hex_lines(text: &str) -> Result<Vec<u32>, InputError> {
    let mut out = Vec::with_capacity(text.len() / 9);
    for (n, line) in text.lines().enumerate() {
        let end = [line.find('#'), line.find("//")].into_iter().flatten().min().unwrap_or(line.len());
        let code = &line[..end];
        if let Some(start) = hex_words(code, &mut out) {
            let tail = &code[start..];
            let len = tail.find(|c: char| c.is_whitespace() || c == ',').unwrap_or(tail.len());
            let column = code[..start].chars().count() + 1;
            return Err(InputError::BadHexWord { line: n + 1, column, word: tail[..len].chars().take(32).collect() });
        }
    }
    Ok(out)
}

/// The value of one hex word (`0x` optional, at most eight digits).
fn hex_word(word: &[u8]) -> Option<u32> {
    let digits = word.strip_prefix(b"0x").or_else(|| word.strip_prefix(b"0X")).unwrap_or(word);
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    digits.iter().try_fold(0u32, |v, &b| Some(v << 4 | (b as char).to_digit(16)?))
}

/// Pushes the words of a line with Unicode whitespace; the byte offset of a bad word.
fn hex_words(code: &str, out: &mut Vec<u32>) -> Option<usize> {
    let separator = |c: char| c.is_whitespace() || c == ',';
    let mut rest = code;
    while let Some(start) = rest.find(|c: char| !separator(c)) {
        let tail = &rest[start..];
        let len = tail.find(separator).unwrap_or(tail.len());
        let at = code.len() - tail.len();
        match hex_word(&tail.as_bytes()[..len]) {
            Some(v) => out.push(v),
            None => return Some(at),
        }
        rest = &tail[len..];
    }
    None
}

/// A token of the small C subset a header needs.
#[derive(Clone, Copy, PartialEq, Debug)]
enum CTok<'a> {
    Word(&'a str),
    Punct(char),
}

/// Splits C text into words (identifiers and numbers) and punctuation, skipping comments,
/// preprocessor lines and the `#if 0 … #endif` block where fxc puts the listing. Each token
/// carries its line and column.
fn c_tokens(text: &str) -> Result<Vec<(CTok<'_>, usize, usize)>, InputError> {
    let mut out = Vec::new();
    let mut in_block_comment = false;
    let mut if_depth = 0usize; // nesting inside a `#if 0`
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let trimmed = line.trim_start();
        if !in_block_comment && trimmed.starts_with('#') {
            let directive = trimmed[1..].trim_start();
            if if_depth > 0 {
                if directive.starts_with("if") {
                    if_depth += 1;
                } else if directive.starts_with("endif") {
                    if_depth -= 1;
                }
            } else if directive.starts_with("if 0") {
                if_depth = 1;
            }
            continue;
        }
        if if_depth > 0 {
            continue;
        }
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if in_block_comment {
                match line[i..].find("*/") {
                    Some(k) => {
                        i += k + 2;
                        in_block_comment = false;
                    }
                    None => i = bytes.len(),
                }
                continue;
            }
            let b = bytes[i];
            if b.is_ascii_whitespace() {
                i += 1;
            } else if line[i..].starts_with("//") {
                break;
            } else if line[i..].starts_with("/*") {
                in_block_comment = true;
                i += 2;
            } else if b.is_ascii_alphanumeric() || b == b'_' {
                let len = bytes[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
                out.push((CTok::Word(&line[i..i + len]), line_no, i + 1));
                i += len;
            } else {
                let c = line[i..].chars().next().unwrap_or('?');
                out.push((CTok::Punct(c), line_no, i + 1));
                i += c.len_utf8();
            }
        }
    }
    Ok(out)
}

/// A C integer literal: decimal, `0x` hex or octal, with `u`/`l` suffixes.
fn c_integer(word: &str) -> Option<u64> {
    let w = word.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if w.len() > 1 && w.starts_with('0') {
        u64::from_str_radix(&w[1..], 8).ok()
    } else {
        w.parse().ok()
    }
}

/// Reads every `type name[] = { … };` array of an fxc `/Fh` header. Arrays of `BYTE`,
/// `unsigned char`, `uint8_t` give little-endian bytes; any other element type is read as DWORDs.
pub fn parse_header(text: &str) -> Result<Vec<(String, Vec<u32>)>, InputError> {
    let toks = c_tokens(text)?;
    let err = |i: usize, message: String| {
        let (line, column) = toks.get(i).map_or((text.lines().count().max(1), 1), |t| (t.1, t.2));
        InputError::Header { line, column, message }
    };
    let mut arrays = Vec::new();
    let mut statement_start = 0;
    let mut i = 0;
    while i < toks.len() {
        match toks[i].0 {
            CTok::Punct(';') | CTok::Punct('}') => {
                statement_start = i + 1;
                i += 1;
            }
            CTok::Punct('{') => {
                let decl = &toks[statement_start..i];
                let words: Vec<&str> =
                    decl.iter().filter_map(|t| if let CTok::Word(w) = t.0 { Some(w) } else { None }).collect();
                let bracket = decl.iter().position(|t| t.0 == CTok::Punct('['));
                let name = match bracket {
                    Some(b) if b > 0 => match decl[b - 1].0 {
                        CTok::Word(w) => w.to_string(),
                        _ => return Err(err(statement_start + b, "expected the array's name before `[`".into())),
                    },
                    _ => return Err(err(i, "expected an array declaration `TYPE name[] =` before `{`".into())),
                };
                let bytes = words.iter().any(|w| matches!(*w, "BYTE" | "char" | "uint8_t" | "UINT8" | "u8"));
                i += 1;
                let mut values: Vec<u64> = Vec::new();
                loop {
                    let Some(&(tok, ..)) = toks.get(i) else {
                        return Err(err(i, format!("array `{name}` has no closing `}}`")));
                    };
                    match tok {
                        CTok::Punct('}') => break,
                        CTok::Punct(',') => {}
                        CTok::Word(w) => {
                            let limit = if bytes { 0xFF } else { 0xFFFF_FFFF };
                            match c_integer(w) {
                                Some(v) if v <= limit => values.push(v),
                                _ => {
                                    let what = if bytes { "a byte (0-255)" } else { "a 32-bit DWORD" };
                                    return Err(err(i, format!("`{w}` in array `{name}` is not {what}")));
                                }
                            }
                        }
                        CTok::Punct(c) => return Err(err(i, format!("unexpected `{c}` in array `{name}`"))),
                    }
                    i += 1;
                }
                let tokens = if bytes {
                    if values.len() % 4 != 0 {
                        return Err(err(i, format!("array `{name}` holds {} bytes, not whole DWORDs", values.len())));
                    }
                    values
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0] as u8, c[1] as u8, c[2] as u8, c[3] as u8]))
                        .collect()
                } else {
                    values.into_iter().map(|v| v as u32).collect()
                };
                arrays.push((name, tokens));
                i += 1;
                statement_start = i;
            }
            _ => i += 1,
        }
    }
    if arrays.is_empty() {
        return Err(InputError::NoArray);
    }
    Ok(arrays)
}

#[cfg(test)]
mod tests {
    use super::*;

    // ps_2_0 `mov oC0, c0`: version, instruction, dst oC0 (type 8 → bits 28-30 = 0, 11-12 = 1),
    // src c0, end — written by hand from the token format.
    const TOKENS: [u32; 5] = [0xFFFF_0200, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];

    #[test]
    fn every_format_reads_the_same_tokens() {
        let blob: Vec<u8> = TOKENS.iter().flat_map(|t| t.to_le_bytes()).collect();
        let hex = "# a comment\nffff0200 0x02000001, 800f0800 // dst\n a0e40000\n0000FFFF\n";
        let header_bytes = format!(
            "#if 0\n    ps_2_0\n    mov oC0, c0 {{ }}\n#endif\n\nconst BYTE g_main[] =\n{{\n  {}\n}};\n",
            blob.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
        );
        let header_dwords = "/* two */ const DWORD a[] = { 0xffff0200, 0x02000001, 0x800f0800, 0xa0e40000, 0x0000ffff, };\n\
                             static const unsigned int b[5] = { 4294902272u, 33554433, 2148468736, 2699296768, 65535 };";
        let asm = "ps_2_0\nmov oC0, c0\n";
        for (bytes, path, format) in [
            (blob.as_slice(), "", Format::Blob),
            (hex.as_bytes(), "", Format::Hex),
            (header_bytes.as_bytes(), "", Format::Header),
            (asm.as_bytes(), "", Format::Asm),
            (hex.as_bytes(), "x.hex", Format::Hex),
            (blob.as_slice(), "x.pso", Format::Blob),
        ] {
            let got = load(bytes, path).unwrap();
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].tokens, TOKENS, "{format:?}");
            assert_eq!(got[0].format, format);
        }
        let two = load(header_dwords.as_bytes(), "shaders.h").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[0].name.as_deref(), Some("a"));
        assert_eq!(two[1].name.as_deref(), Some("b"));
        assert!(two.iter().all(|s| s.tokens == TOKENS));
    }

    #[test]
    fn hex_words_split_on_whitespace_and_commas() {
        // Every separator `char::is_whitespace` names on ASCII (the vertical tab too), commas,
        // both prefixes, comments, and a line with Unicode whitespace (NBSP), which takes the
        // `char` path: the same words either way.
        let ascii = "0xFFFF0200,\x0b1\t0X2 # one\n  3,,4\x0c5\r\n6 7// two\n8#9\n/\n";
        let unicode = ascii.replace("6 7", "6\u{a0}7");
        for text in [&ascii[..ascii.len() - 2], &unicode[..unicode.len() - 2]] {
            assert_eq!(parse_hex(text).unwrap(), [0xffff_0200, 1, 2, 3, 4, 5, 6, 7, 8]);
        }
        // A lone `/` is a word, not a comment, on both paths.
        for text in [ascii, &unicode[..]] {
            assert_eq!(parse_hex(text).unwrap_err(), InputError::BadHexWord { line: 5, column: 1, word: "/".into() });
        }
        // A bad word after Unicode whitespace: the column counts characters, not bytes.
        assert_eq!(
            parse_hex("1\u{a0}0x\n").unwrap_err(),
            InputError::BadHexWord { line: 1, column: 3, word: "0x".into() }
        );
        assert_eq!(
            parse_hex("1, 2 zz9").unwrap_err(),
            InputError::BadHexWord { line: 1, column: 6, word: "zz9".into() }
        );
    }

    #[test]
    fn eight_digit_words_and_their_neighbours() {
        // Eight digits ended by a comment, the text's end, a comma; a prefixed word of eight
        // digits (ten bytes); short words.
        assert_eq!(parse_hex("ffff0300#c\n0000FFFF").unwrap(), [0xffff_0300, 0xffff]);
        assert_eq!(parse_hex("0x0000ffff,1,a//x").unwrap(), [0xffff, 1, 10]);
        // Nine digits, a word running into a lone `/`, and `0x` with no digit are bad words.
        let bad = |text: &str, column: usize, word: &str| {
            assert_eq!(parse_hex(text).unwrap_err(), InputError::BadHexWord { line: 1, column, word: word.into() });
        };
        bad("1 123456789", 3, "123456789");
        bad("12345678/9", 1, "12345678/9");
        bad("0x", 1, "0x");
        bad("0x0x1", 1, "0x0x1");
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            parse_hex("ffff0200\n  0200001g\n").unwrap_err(),
            InputError::BadHexWord { line: 2, column: 3, word: "0200001g".into() }
        );
        assert!(matches!(parse_hex("123456789"), Err(InputError::BadHexWord { line: 1, column: 1, .. })));
        match parse_header("const BYTE x[] = {\n 1, 2, 300, 4 };") {
            Err(InputError::Header { line: 2, column: 8, message }) => assert!(message.contains("300")),
            other => panic!("{other:?}"),
        }
        assert!(parse_header("int main() { return 0; }").unwrap_err().to_string().contains("array"));
        assert_eq!(parse_header("// nothing here"), Err(InputError::NoArray));
        assert!(matches!(load(b"\xFF\xFF\x00", "x.bin"), Err(InputError::Unaligned(3))));
        assert!(matches!(load(b"", ""), Err(InputError::Empty)));
        assert!(matches!(load(b"vs_1_1\nmov r0, q0\n", ""), Err(InputError::Asm(e)) if e.line == 2 && e.column == 9));
        assert!(matches!(load(b"ffff0200 \xC3\x28", "x.hex"), Err(InputError::NotText { offset: 9, .. })));
    }
}
