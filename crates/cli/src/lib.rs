//! The `errata` command line: argument parsing, the commands, and everything printed to the
//! terminal. The work itself is done by the library crates (`errata-extract`, `errata-store`).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod commands;
mod db;
mod entry;
mod link;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Find every error a codebase can raise, and match runtime errors back to their source.
#[derive(Debug, Parser)]
#[command(name = "errata", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Commands,
    /// The database to use (default: $ERRATA_DB, else .errata/errata.db in the current folder
    /// or the nearest parent that has one).
    #[arg(long, global = true, env = "ERRATA_DB", value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// Print machine-readable JSON.
    #[arg(long, global = true)]
    json: bool,
    /// More logging on stderr (-v, -vv).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Find every error site under each PATH and store the records.
    Index(commands::index::IndexArgs),
    /// Write the dataset as JSON Lines (schema v2).
    Export(commands::export::ExportArgs),
    /// Load a schema-v2 dataset (JSON Lines, as `export` writes it) into the store.
    Import(commands::import::ImportArgs),
    /// Match an error message, log line or stack trace to the records that produced it.
    Explain(commands::explain::ExplainArgs),
    /// Annotate every line of a log that matches a record, and sum them up.
    Scan(commands::scan::ScanArgs),
    /// Rewrite the explanations with a language model (any OpenAI-compatible server), held to
    /// the facts static analysis found.
    Enrich(commands::enrich::EnrichArgs),
    /// A Model Context Protocol server on stdio, for coding agents.
    Mcp,
    /// Serve the HTTP JSON API and web pages over the knowledge base.
    Serve(commands::serve::ServeArgs),
    /// Show one record by id or slug.
    Show(commands::show::ShowArgs),
    /// List the stored records.
    List(commands::list::ListArgs),
    /// Counts of the stored records.
    Stats,
}

/// What a command's failure means for the exit code.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Nothing was found where finding nothing is an answer (exit 1).
    NotFound(String),
    /// The user asked for something that cannot be done as asked (exit 2).
    Usage(String),
    /// Something was found where the user asked to fail on it (`scan --fail-on-match`, exit 1).
    Matched(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotFound(m) | Failure::Usage(m) | Failure::Matched(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Failure {}

pub(crate) struct Global {
    pub(crate) db: Option<std::path::PathBuf>,
    pub(crate) json: bool,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    let global = Global {
        db: cli.db,
        json: cli.json,
    };
    let result = match cli.command {
        Commands::Index(args) => commands::index::run(&global, args),
        Commands::Export(args) => commands::export::run(&global, args),
        Commands::Import(args) => commands::import::run(&global, args),
        Commands::Explain(args) => commands::explain::run(&global, args),
        Commands::Scan(args) => commands::scan::run(&global, args),
        Commands::Mcp => commands::mcp::run(&global),
        Commands::Enrich(args) => commands::enrich::run(&global, args),
        Commands::Serve(args) => commands::serve::run(&global, args),
        Commands::Show(args) => commands::show::run(&global, args),
        Commands::List(args) => commands::list::run(&global, args),
        Commands::Stats => commands::stats::run(&global),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            match err.downcast_ref::<Failure>() {
                Some(Failure::NotFound(m) | Failure::Matched(m)) => {
                    eprintln!("errata: {m}");
                    ExitCode::from(1)
                }
                Some(Failure::Usage(m)) => {
                    eprintln!("errata: {m}");
                    ExitCode::from(2)
                }
                None => {
                    eprintln!("errata: {err}");
                    for cause in err.chain().skip(1) {
                        eprintln!("  caused by: {cause}");
                    }
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("ERRATA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The current time as records write it: UTC, milliseconds, `Z`.
pub(crate) fn now() -> String {
    errata_api::now()
}
