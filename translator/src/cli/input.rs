//! Reading the INPUT argument (the formats themselves live in the library's `input` module).
