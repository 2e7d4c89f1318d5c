//! Hand-derived tests of the interpreter.
