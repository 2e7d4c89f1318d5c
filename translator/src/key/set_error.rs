//! The error of [`ShaderKey::set`](crate::ShaderKey::set): the CLI's `--key`, the web page's key
//! fields and xtask's `--key` report it as the user wrote the assignment.

/// Why a `FIELD=VALUE` assignment was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeySetError {
    /// No `=` in the assignment.
    #[error("`{assignment}`: expected FIELD=VALUE")]
    MissingEquals {
        /// The assignment as given.
        assignment: String,
    },
    /// The field is not one of the key's.
    #[error("unknown key field `{field}`")]
    UnknownField {
        /// The field as given.
        field: String,
    },
    /// The value is not one the field takes.
    #[error("`{field}`: bad value `{value}`{}", one_of(expected))]
    BadValue {
        /// The field.
        field: String,
        /// The value as read (lower case).
        value: String,
        /// The spellings the field takes, where it has a table of them (the modes, sampler
        /// types, vertex input types, booleans); empty for numbers.
        expected: &'static [&'static str],
    },
    /// An indexed field's index is past the key's array.
    #[error("`{field}`: {what} out of range")]
    IndexOutOfRange {
        /// The field as given (`sampler16`).
        field: String,
        /// What the index counts (`stage`, `sampler index`, `input index`).
        what: &'static str,
    },
}

/// ` (one of a, b, c)`, or nothing for a field without spellings.
fn one_of(expected: &[&str]) -> String {
    if expected.is_empty() {
        String::new()
    } else {
        format!(" (one of {})", expected.join(", "))
    }
}
