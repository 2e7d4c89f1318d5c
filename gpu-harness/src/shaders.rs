//! Finding and decoding the shaders a case names: `<folder>/<name>` is `<root>/<folder>/<name>.hex`
//! (tokens as hex words) or `.asm` (assembled with the project's assembler) under the first root
//! that has it. The roots are the corpus folders and the project's `shaders/`.

use std::path::{Path, PathBuf};

use d3d9_shader::bytecode::{decode, Program};

/// A shader that could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ShaderError {
    /// No root holds the name.
    #[error("shader `{name}` not found under {roots}")]
    NotFound {
        /// The name.
        name: String,
        /// The roots searched.
        roots: String,
    },
    /// The file could not be read or parsed.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// Parses whitespace-separated hex words (`0x` optional; `#` and `//` comments) with the
/// translator's reader, the error as text.
pub fn parse_hex(text: &str) -> Result<Vec<u32>, String> {
    d3d9_shader::input::parse_hex(text).map_err(|e| e.to_string())
}

/// The file a name resolves to.
pub fn resolve(name: &str, roots: &[PathBuf]) -> Result<PathBuf, ShaderError> {
    for root in roots {
        for ext in ["hex", "asm"] {
            let p = root.join(format!("{name}.{ext}"));
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err(ShaderError::NotFound {
        name: name.to_string(),
        roots: roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", "),
    })
}

/// Reads the tokens of a `.hex` or `.asm` file.
pub fn tokens(path: &Path) -> Result<Vec<u32>, ShaderError> {
    let err = |message: String| ShaderError::Read { path: path.into(), message };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("hex") => parse_hex(&text).map_err(err),
        Some("asm") => assemble(&text).map_err(err),
        _ => Err(err("not a .hex or .asm file".into())),
    }
}

/// Assembles shader assembly with the project's assembler.
fn assemble(text: &str) -> Result<Vec<u32>, String> {
    d3d9_shader::asm::assemble_tokens(text).map_err(|e| e.to_string())
}

/// Resolves, reads and decodes a shader.
pub fn load(name: &str, roots: &[PathBuf]) -> Result<(PathBuf, Program), ShaderError> {
    let path = resolve(name, roots)?;
    let words = tokens(&path)?;
    let program = decode(&words).map_err(|e| ShaderError::Read { path: path.clone(), message: e.to_string() })?;
    Ok((path, program))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_words_with_comments() {
        assert_eq!(parse_hex("0xfffe0101 # version\n0000ffff // end\n"), Ok(vec![0xfffe0101, 0xffff]));
        assert!(parse_hex("0xzz").is_err());
    }
}
