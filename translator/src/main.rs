//! The `d3d9-shader` command line tool.

mod cli;

fn main() {
    keep_freed_memory();
    std::process::exit(cli::run(std::env::args_os().skip(1).collect()));
}

/// Tells glibc's allocator to keep freed memory instead of handing it back to the kernel after
/// every shader. Each translation frees everything it built, so by default the heap top is
/// trimmed and re-faulted shader after shader, and every large buffer is a fresh mapping; in
/// folder mode those page faults are most of the system time, and they take the process's
/// memory-map lock, which the worker threads share.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    const M_TRIM_THRESHOLD: std::ffi::c_int = -1;
    const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
    extern "C" {
        fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: mallopt only sets tuning parameters; it is called before any thread starts.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        // 32 MiB, glibc's largest: buffers below it come from the (kept) heap.
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
