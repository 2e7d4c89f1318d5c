//! The validator's rule tests: programs built in memory, each with the D3D9 rule it proves.

mod builder;
mod nesting;
mod rules;
