//! The `measured` command line: parses arguments, runs the library, prints, picks the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "measured",
    version,
    about = "Build a bilingual blog whose every number is measured"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site into DIR/public (or --output).
    Build {
        /// The site root, holding site.toml.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Where to write the site (default: ROOT/public).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Include articles marked `draft: true`.
        #[arg(long)]
        drafts: bool,
    },
    /// Do everything `build` does but write, and list missing translations.
    Check {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long)]
        drafts: bool,
    },
    /// Build, serve on loopback with live reload, and rebuild on every change.
    Serve {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// The address to listen on (default: loopback only).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
        #[arg(long)]
        drafts: bool,
    },
    /// Scaffold content/SLUG/index.<lang>.md for every language.
    New {
        slug: String,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

#[allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "main is the one place that prints"
)]
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build {
            root,
            output,
            drafts,
        } => {
            let opts = measured::BuildOptions { root, drafts };
            let started = std::time::Instant::now();
            measured::build_to_disk(&opts, output.as_deref()).map(|built| {
                let out = output.unwrap_or_else(|| opts.root.join("public"));
                eprintln!(
                    "built {} pages, {} files into {} in {:.2?}",
                    built.pages,
                    built.output.len(),
                    out.display(),
                    started.elapsed()
                );
            })
        }
        Command::Check { root, drafts } => {
            let opts = measured::BuildOptions { root, drafts };
            measured::build_in_memory(&opts).map(|built| {
                for (dir, langs) in &built.missing_translations {
                    println!(
                        "missing translation: {} (no {})",
                        dir.display(),
                        langs.join(", ")
                    );
                }
                eprintln!(
                    "check passed: {} pages, {} missing translations",
                    built.pages,
                    built.missing_translations.len()
                );
            })
        }
        Command::Serve {
            root,
            port,
            bind,
            open,
            drafts,
        } => measured::serve::run(measured::serve::ServeOptions {
            root,
            port,
            bind,
            open,
            drafts,
        }),
        Command::New { slug, root } => measured::config::load(&root).and_then(|config| {
            let today = jiff::Timestamp::now()
                .to_zoned_datetime(jiff::tz::TimeZone::UTC)
                .date();
            measured::scaffold::new_article(&config, &slug, today).map(|files| {
                for f in files {
                    println!("created {}", f.display());
                }
            })
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(diags) => {
            eprintln!("{diags}");
            eprintln!("error: {} problem(s); nothing was written", diags.0.len());
            ExitCode::FAILURE
        }
    }
}
