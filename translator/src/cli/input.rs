//! Reading the INPUT argument: a `.hex` file (32-bit words in hex, `#`/`//` comments), a raw
//! little-endian blob, or `-` for stdin (hex when it reads as hex, raw otherwise).
//!
//! A minimal loader until the library's full input module (fxc headers, assembly) takes over.

use std::io::Read;

/// The token words of INPUT.
pub fn load_tokens(path: &str) -> Result<Vec<u32>, String> {
    let bytes = if path == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b).map_err(|e| e.to_string())?;
        b
    } else {
        std::fs::read(path).map_err(|e| e.to_string())?
    };
    let looks_hex = path.ends_with(".hex") || (path == "-" && std::str::from_utf8(&bytes).is_ok_and(|t| parse_hex(t).is_ok()));
    if looks_hex {
        let text = std::str::from_utf8(&bytes).map_err(|_| "a .hex file must be text".to_string())?;
        return parse_hex(text);
    }
    if bytes.len() % 4 != 0 {
        return Err(format!("blob length {} is not a multiple of 4 bytes", bytes.len()));
    }
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

fn parse_hex(text: &str) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let line = line.split("//").next().unwrap_or("");
        for word in line.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let w = word.trim_start_matches("0x").trim_start_matches("0X");
            out.push(u32::from_str_radix(w, 16).map_err(|e| format!("line {}: {word}: {e}", n + 1))?);
        }
    }
    Ok(out)
}
