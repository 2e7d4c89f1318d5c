//! Splitting one line of assembly into tokens. The assembler works line by line (an instruction
//! never spans lines), so a token carries only its column.

use super::error::{AsmError, AsmErrorKind};

/// A token of a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok<'a> {
    /// A name: `mov_sat`, `r0`, `xyzw`, `c`, `_bx2`, `true`.
    Ident(&'a str),
    /// A number: `12`, `0.5`, `1.0f`, `1e-45`, `.5`, `0x7fc00000`.
    Number(&'a str),
    /// One punctuation character: `, . [ ] ( ) + - ! =`.
    Punct(char),
    /// The end of the line.
    End,
}

impl Tok<'_> {
    /// How the token is quoted in an error message.
    pub fn describe(self) -> String {
        match self {
            Tok::Ident(s) | Tok::Number(s) => format!("`{s}`"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::End => "the end of the line".into(),
        }
    }
}

/// A cursor over one line (comments already removed).
#[derive(Clone, Copy)]
pub struct Lexer<'a> {
    line: &'a str,
    pos: usize,
    line_no: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer over `line`, which is line `line_no` of the text.
    pub fn new(line: &'a str, line_no: usize) -> Lexer<'a> {
        Lexer { line, pos: 0, line_no }
    }

    /// The line number.
    pub fn line_no(&self) -> usize {
        self.line_no
    }

    /// The same line, positioned at byte offset `at` (the start of a token already read).
    pub fn at(self, at: usize) -> Lexer<'a> {
        Lexer { pos: at.min(self.line.len()), ..self }
    }

    /// An error at byte offset `at` of the line.
    pub fn error_at(&self, at: usize, kind: AsmErrorKind) -> AsmError {
        let at = at.min(self.line.len());
        let column = self.line.get(..at).map_or(at, |s| s.chars().count()) + 1;
        AsmError { line: self.line_no, column, kind }
    }

    fn skip_space(&mut self) {
        let rest = &self.line[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The byte offset where the next token starts.
    pub fn offset(&mut self) -> usize {
        self.skip_space();
        self.pos
    }

    /// The next token without consuming it.
    pub fn peek(&self) -> Result<Tok<'a>, AsmError> {
        let mut copy = *self;
        copy.token().map(|(t, _)| t)
    }

    /// Consumes `c` if it comes next.
    pub fn eat(&mut self, c: char) -> Result<bool, AsmError> {
        if self.peek()? == Tok::Punct(c) {
            self.token()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// The next token and its byte offset.
    pub fn token(&mut self) -> Result<(Tok<'a>, usize), AsmError> {
        self.skip_space();
        let start = self.pos;
        let bytes = self.line.as_bytes();
        let Some(&first) = bytes.get(start) else { return Ok((Tok::End, start)) };
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let tok = if first.is_ascii_alphabetic() || first == b'_' {
            let len = bytes[start..].iter().take_while(|&&b| ident(b)).count();
            self.pos += len;
            Tok::Ident(&self.line[start..self.pos])
        } else if first.is_ascii_digit() || (first == b'.' && bytes.get(start + 1).is_some_and(u8::is_ascii_digit)) {
            self.pos += number_length(&bytes[start..]);
            Tok::Number(&self.line[start..self.pos])
        } else if b",.[]()+-!=".contains(&first) {
            self.pos += 1;
            Tok::Punct(first as char)
        } else {
            let c = self.line[start..].chars().next().unwrap_or('?');
            return Err(self.error_at(start, AsmErrorKind::UnexpectedChar(c)));
        };
        Ok((tok, start))
    }
}

/// The length of the number at the start of `b`: hexadecimal `0x…`, or digits with an optional
/// fraction, exponent and `f` suffix. Trailing letters stay part of it so that `12abc` is one
/// bad number rather than a number and a name.
fn number_length(b: &[u8]) -> usize {
    if b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        return 2 + b[2..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    }
    let mut i = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if b.get(i) == Some(&b'.') {
        i += 1;
        i += b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = matches!(b.get(i + 1), Some(b'+' | b'-')) as usize;
        if b.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i += 1 + sign;
            i += b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        }
    }
    i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(line: &str) -> Vec<Tok<'_>> {
        let mut lx = Lexer::new(line, 1);
        let mut out = Vec::new();
        loop {
            match lx.token().unwrap().0 {
                Tok::End => return out,
                t => out.push(t),
            }
        }
    }

    #[test]
    fn splits_operands() {
        use Tok::*;
        assert_eq!(
            tokens("mov_sat r0.xy, -c[a0.x+3]_bx2.w"),
            [
                Ident("mov_sat"),
                Ident("r0"),
                Punct('.'),
                Ident("xy"),
                Punct(','),
                Punct('-'),
                Ident("c"),
                Punct('['),
                Ident("a0"),
                Punct('.'),
                Ident("x"),
                Punct('+'),
                Number("3"),
                Punct(']'),
                Ident("_bx2"),
                Punct('.'),
                Ident("w")
            ]
        );
        assert_eq!(
            tokens("def c0, 1.0f, .5, 1e-45, 0x7fc00000"),
            [
                Ident("def"),
                Ident("c0"),
                Punct(','),
                Number("1.0f"),
                Punct(','),
                Number(".5"),
                Punct(','),
                Number("1e-45"),
                Punct(','),
                Number("0x7fc00000")
            ]
        );
        assert_eq!(tokens("1-r0"), [Number("1"), Punct('-'), Ident("r0")]);
    }

    #[test]
    fn unknown_characters_are_errors_with_columns() {
        let mut lx = Lexer::new("mov r0, $r1", 7);
        for _ in 0..3 {
            lx.token().unwrap();
        }
        let e = lx.token().unwrap_err();
        assert_eq!((e.line, e.column), (7, 9));
        assert_eq!(e.kind, AsmErrorKind::UnexpectedChar('$'));
    }
}
