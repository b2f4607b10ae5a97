// tree-sitter allocates a node at a time; mimalloc makes that markedly cheaper than glibc's
// allocator (measured in docs/benchmarks.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    errata_cli::main()
}
