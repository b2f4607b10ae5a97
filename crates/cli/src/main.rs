// tree-sitter allocates a node at a time, in Rust and in C; mimalloc makes both markedly cheaper
// than glibc's allocator (docs/benchmarks.md).
#![allow(unsafe_code)]

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    errata_cli::main()
}
