//! A counting global allocator for `cargo xtask bench`: the heap calls and bytes a closure
//! makes, so that the bench can report allocations per translated shader.
//!
//! Counting is off except inside [`count`]; outside it the wrapper costs one relaxed load per
//! call, so the timed runs (which never count) see the system allocator's own speed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The system allocator, counting while [`count`] runs.
pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static CALLS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

fn note(bytes: usize) {
    if ON.load(Relaxed) {
        CALLS.fetch_add(1, Relaxed);
        BYTES.fetch_add(bytes as u64, Relaxed);
    }
}

// SAFETY: every call is passed unchanged to `System`, which upholds `GlobalAlloc`'s contract;
// the counters touch no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's guarantees for `layout` are `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A growing `Vec` is a call like any other: the bench counts it.
        note(new_size);
        // SAFETY: `ptr` came from this allocator, i.e. from `System`, with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Heap use of one closure: allocation calls (`alloc`, `alloc_zeroed` and `realloc`) and the
/// bytes they asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Allocs {
    pub calls: u64,
    pub bytes: u64,
}

/// Runs `f` with counting on. One thread only: the bench runs on one, and another thread's
/// calls during `f` would be counted too.
pub fn count<T>(f: impl FnOnce() -> T) -> (T, Allocs) {
    CALLS.store(0, Relaxed);
    BYTES.store(0, Relaxed);
    ON.store(true, Relaxed);
    let out = std::hint::black_box(f());
    ON.store(false, Relaxed);
    (out, Allocs { calls: CALLS.load(Relaxed), bytes: BYTES.load(Relaxed) })
}
