// tree-sitter allocates a node at a time, in Rust and in C; mimalloc makes both markedly cheaper
// than glibc's allocator (docs/benchmarks.md).
#![allow(unsafe_code)]

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h (not exported by libmimalloc-sys).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // SAFETY: set once, before any tree-sitter object exists; mimalloc's functions keep the C
    // allocator's contracts, and nothing tree-sitter allocates is freed by another allocator.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: libmimalloc_sys::mi_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }));
    }
    // mimalloc returns freed memory to the OS after 10 ms by default; a scan frees and
    // reallocates its batches continuously, and the kernel zeroing the same pages again cost a
    // tenth of its time. Keep freed memory a second before returning it.
    // SAFETY: setting an option is allowed at any time; purge_delay is option 15 in mimalloc's
    // `mi_option_e`.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 1000);
    }
    // Transparent huge pages made the kernel zero 2 MiB at each first touch of memory that
    // mimalloc had returned: up to 0.9 s of system time in a 0.8 s scan, and twice the peak
    // memory (docs/benchmarks.md). mimalloc is built without asking for them (`no_thp`); this
    // also keeps a system whose THP setting is `always` from giving them unasked.
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes one integer flag and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    errata_cli::main()
}
