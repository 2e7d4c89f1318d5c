//! GPU harness (in progress).
