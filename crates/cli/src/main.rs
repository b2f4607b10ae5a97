fn main() -> std::process::ExitCode {
    errata_cli::main()
}
