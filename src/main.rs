//! The `measured` command line: parses arguments, runs the library, prints, picks the exit code.

mod progress;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use measured::experiments::{ExperimentOptions, Rerun};

/// Highlighting allocates for each regex search of each line (onig regions, syntect's scope
/// ops): with mimalloc a cold 10,000 × 2 build took about 11 % less CPU than with glibc's
/// allocator (docs/performance.md, sixth round).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// How experiments are treated by commands that build.
#[derive(Args, Clone, Default)]
struct ExperimentArgs {
    /// Re-measure every experiment, or only NAME (repeatable).
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    rerun: Vec<String>,
    /// Never run experiments: use the committed results in frozen/, whatever machine made them.
    #[arg(long, conflicts_with = "rerun")]
    frozen: bool,
    /// Ask experiments for fewer samples (also MEASURED_QUICK=1): for tests and CI, never publishing.
    #[arg(long)]
    quick: bool,
    /// Fail on any claim that does not hold (instead of publishing it with its verdict), and
    /// on drift: values that moved beyond their intervals since the experiment's previous
    /// results on this machine, or claims whose outcome changed with them (for CI).
    #[arg(long)]
    strict: bool,
}

impl ExperimentArgs {
    fn options(&self) -> ExperimentOptions {
        let rerun = if self.rerun.is_empty() {
            Rerun::None
        } else if self.rerun.iter().any(String::is_empty) {
            Rerun::All
        } else {
            Rerun::Only(self.rerun.iter().cloned().collect::<BTreeSet<_>>())
        };
        let env_quick = quick_from_env();
        ExperimentOptions {
            rerun,
            frozen: self.frozen,
            quick: self.quick || env_quick,
            strict: self.strict,
        }
    }
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
        /// Build only this article (its folder under content/, or a path to it), in every
        /// language, measuring only its experiments: for an author working on it.
        #[arg(long, value_name = "SLUG")]
        only: Option<String>,
        #[command(flatten)]
        experiments: ExperimentArgs,
    },
    /// Do everything `build` does but write, and list missing translations.
    Check {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long)]
        drafts: bool,
        /// Build only this article (its folder under content/, or a path to it), in every
        /// language, measuring only its experiments: for an author working on it.
        #[arg(long, value_name = "SLUG")]
        only: Option<String>,
        #[command(flatten)]
        experiments: ExperimentArgs,
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
        /// Build only this article (its folder under content/, or a path to it), in every
        /// language, measuring only its experiments: for an author working on it.
        #[arg(long, value_name = "SLUG")]
        only: Option<String>,
    },
    /// List every claim of the site as the last build decided it: verdict, values, runs and
    /// margin (nothing is measured).
    Claims {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Print one JSON array of objects (article, id, expr, verdict, margin, runs, lhs, rhs…).
        #[arg(long)]
        json: bool,
    },
    /// Copy the current full results of experiments (default: those the published pages use)
    /// into frozen/ (to commit), measuring nothing.
    Freeze {
        /// The experiments to freeze (default: every one the published pages use).
        names: Vec<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Measure experiment NAME on this machine into a results file with its provenance (what a
    /// reader runs from a clone of the blog; `results import` adds it as another machine).
    Measure {
        name: String,
        /// Where to write the results file (default: NAME.results.json).
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Fewer samples (also MEASURED_QUICK=1): for tests; such a file cannot be imported.
        #[arg(long)]
        quick: bool,
    },
    /// Measure experiments on a host of site.toml ([hosts.HOST]) over SSH: the workspace is
    /// copied there, built with the host's cargo, each experiment run there, and the results
    /// imported as the host's machine (nothing is written unless every experiment ran).
    Run {
        /// The host, as site.toml names it.
        #[arg(long, value_name = "HOST", required = true)]
        on: String,
        /// The experiments to run (default: every experiment the pages use).
        names: Vec<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Results files of other machines.
    Results {
        #[command(subcommand)]
        action: ResultsCommand,
    },
    /// Scaffold content/SLUG/index.<lang>.md for every language, or start one translation.
    New {
        slug: String,
        /// Start the LANG translation of an existing article from its original.
        #[arg(long, value_name = "LANG", conflicts_with = "experiment")]
        translate: Option<String>,
        /// Also create experiments/NAME (a crate with the harness, one timed section and an
        /// output table), which the new article uses.
        #[arg(long, value_name = "NAME")]
        experiment: Option<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Record that the LANG translation of SLUG follows the current original.
    Translated {
        slug: String,
        lang: String,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Convert a Hugo, Zola or Jekyll blog at SRC into a site at --root (site.toml, content/, pages/, static/).
    Import {
        generator: measured::import::Generator,
        src: PathBuf,
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Overwrite files whose text differs from what the import writes.
        #[arg(long)]
        force: bool,
        /// Publish the source's drafts (`draft: true`), as a live site built with `hugo -D` did.
        #[arg(long)]
        drafts_as_published: bool,
    },
    /// Remove a previous output `build` moved aside (run by `build` itself, detached).
    #[command(hide = true)]
    RemoveRetired { path: PathBuf },
}

#[derive(Subcommand)]
enum ResultsCommand {
    /// Check results files and add each to machines/<machine>/ (nothing is written unless all pass).
    Import {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The machine's name (default: derived from its CPU and cores).
        #[arg(long = "as", value_name = "NAME")]
        as_name: Option<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

/// Removes the previous output in a detached child process, so `build` returns at once; if no
/// child can be started, here. A child that dies early leaves it to the next build's sweep.
fn remove_detached(retired: measured::write::Retired) {
    use std::process::{Command, Stdio};
    let Some(path) = retired.path() else {
        return;
    };
    let spawned = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .arg("remove-retired")
            .arg(path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    });
    match spawned {
        Ok(_child) => {}
        Err(_) => retired.remove(),
    }
}

#[allow(clippy::print_stderr, reason = "main is the one place that prints")]
fn print_warnings(warnings: &[measured::Diagnostic]) {
    for w in warnings {
        eprintln!("{}", w.to_string().replacen(": error: ", ": warning: ", 1));
    }
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
            only,
            experiments,
        } => build(root, output, Which { drafts, only }, experiments),
        Command::Check {
            root,
            drafts,
            only,
            experiments,
        } => check(root, Which { drafts, only }, experiments),
        Command::Serve {
            root,
            port,
            bind,
            open,
            drafts,
            only,
        } => measured::serve::run(
            measured::serve::ServeOptions {
                root,
                port,
                bind,
                open,
                drafts,
                only,
            },
            |event| eprintln!("{event}"),
        ),
        Command::Claims { root, json } => claims(root, json),
        Command::Freeze { root, names } => freeze(root, names),
        Command::Measure {
            name,
            out,
            root,
            quick,
        } => measure(name, out, &root, quick),
        Command::Run { on, names, root } => run_on(on, names, root),
        Command::Results {
            action:
                ResultsCommand::Import {
                    files,
                    as_name,
                    root,
                },
        } => import_results(&files, as_name.as_deref(), &root),
        Command::New {
            slug,
            translate,
            experiment,
            root,
        } => new(&slug, translate.as_deref(), experiment.as_deref(), &root),
        Command::Translated { slug, lang, root } => measured::config::load(&root)
            .and_then(|config| measured::scaffold::mark_translated(&config, &slug, &lang))
            .map(|file| println!("updated translated_from in {}", file.display())),
        Command::Import {
            generator,
            src,
            root,
            force,
            drafts_as_published,
        } => measured::import::run(&measured::import::ImportOptions {
            generator,
            src,
            root,
            force,
            drafts_as_published,
        })
        .map(|report| print!("{report}")),
        Command::RemoveRetired { path } => measured::write::remove_retired(&path),
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

#[allow(
    clippy::print_stderr,
    reason = "main's commands are the one place that prints"
)]
fn build(
    root: PathBuf,
    output: Option<PathBuf>,
    which: Which,
    experiments: ExperimentArgs,
) -> Result<(), measured::Diagnostics> {
    let partial = which.only.clone();
    let opts = build_options(root, which, &experiments);
    let started = std::time::Instant::now();
    let progress = progress::Terminal::new();
    let (built, retired) =
        measured::pipeline::build_to_disk_with_progress(&opts, output.as_deref(), &progress)?;
    remove_detached(retired);
    print_warnings(&built.warnings);
    let out = output.unwrap_or_else(|| opts.root.join("public"));
    eprintln!(
        "built {} pages{}, {} files into {} in {:.2?} ({})",
        built.pages,
        drafts_note(&built),
        built.output.len(),
        out.display(),
        started.elapsed(),
        experiments_summary(&built)
    );
    print_claims_summary(&built.claims);
    if let Some(only) = partial {
        eprintln!(
            "note: {} holds only the article `{only}` (--only): run `measured build` before publishing",
            out.display()
        );
    }
    // The process ends here: freeing the whole site in memory, page by page, would only
    // delay it.
    std::mem::forget(built);
    Ok(())
}

#[allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "main's commands are the one place that prints"
)]
fn check(
    root: PathBuf,
    which: Which,
    experiments: ExperimentArgs,
) -> Result<(), measured::Diagnostics> {
    let opts = build_options(root, which, &experiments);
    let progress = progress::Terminal::new();
    let built = measured::pipeline::build_with_progress(&opts, &progress)?;
    print_warnings(&built.warnings);
    for (dir, langs) in &built.missing_translations {
        println!(
            "missing translation: {} (no {})",
            dir.display(),
            langs.join(", ")
        );
    }
    eprintln!(
        "check passed: {} pages{}, {} missing translations ({})",
        built.pages,
        drafts_note(&built),
        built.missing_translations.len(),
        experiments_summary(&built)
    );
    print_claims_summary(&built.claims);
    Ok(())
}

/// ` (3 drafts left out)` when drafts were left out.
fn drafts_note(built: &measured::Built) -> String {
    match built.drafts {
        0 => String::new(),
        1 => " (1 draft left out: --drafts includes it)".into(),
        n => format!(" ({n} drafts left out: --drafts includes them)"),
    }
}

/// What a build did with experiments, in counts that are true: `19 experiments used, 1 run
/// (cbor, 4 process runs)`.
fn experiments_summary(built: &measured::Built) -> String {
    let used = built.experiments_used.len();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut s = format!(
        "{} used, {} run",
        plural(used, "experiment", "experiments"),
        built.experiments_ran.len()
    );
    if !built.experiments_ran.is_empty() {
        s.push_str(&format!(
            " ({}, {})",
            built.experiments_ran.join(", "),
            plural(built.process_runs, "process run", "process runs")
        ));
    }
    s
}

/// The end of a build's report: the claims published with a verdict other than *holds*, and
/// what helps.
#[allow(
    clippy::print_stderr,
    reason = "main's commands are the one place that prints"
)]
fn print_claims_summary(claims: &[measured::claims::report::Entry]) {
    use measured::claims::Verdict;
    let not_holding: Vec<_> = claims
        .iter()
        .filter(|e| e.verdict != Verdict::Holds)
        .collect();
    let marginal = claims.iter().filter(|e| e.marginal).count();
    if not_holding.is_empty() {
        if marginal > 0 {
            eprintln!(
                "{} claims hold, {marginal} of them with a margin under 5 % (see the warnings, or `measured claims`)",
                claims.len()
            );
        }
        return;
    }
    eprintln!(
        "{} of {} claims did not hold on this machine; their pages are published with the verdict at each sentence:",
        not_holding.len(),
        claims.len()
    );
    let mut names = BTreeSet::new();
    for e in &not_holding {
        let word = match e.verdict {
            Verdict::Fails => "contradicted",
            _ => "not confirmed",
        };
        eprintln!(
            "  {}:{}: {} ({word}): {}",
            e.file.display(),
            e.line,
            e.id,
            e.summary
        );
        names.extend(e.experiments.iter().cloned());
    }
    let names: Vec<String> = names.into_iter().collect();
    eprintln!(
        "what helps: {}",
        measured::claims::report::what_helps(&names)
    );
}

#[allow(
    clippy::print_stdout,
    reason = "main's commands are the one place that prints"
)]
fn claims(root: PathBuf, json: bool) -> Result<(), measured::Diagnostics> {
    let entries = measured::pipeline::claims_report(&build_options(
        root,
        Which::default(),
        &ExperimentArgs::default(),
    ))?;
    let text = if json {
        serde_json::to_string_pretty(&entries).expect("the report serialises") + "\n"
    } else {
        claims_table(&entries)
    };
    // A reader that stops early (`| head`, `| grep -q`) is not an error.
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(measured::diag::io_error(
            std::path::Path::new("<stdout>"),
            "write the claims report",
            &e,
        )
        .into()),
        _ => Ok(()),
    }
}

/// The claims report as text: one line per claim, then the counts.
fn claims_table(entries: &[measured::claims::report::Entry]) -> String {
    use measured::claims::Verdict as V;
    let mut text = String::new();
    for e in entries {
        let margin = match (e.verdict, e.margin) {
            (V::NotMeasured, _) => "".to_string(),
            (_, None) => "exact".to_string(),
            (_, Some(m)) => measured::claims::report::percent(m),
        };
        text += &format!(
            "{:<13} {:>8}{} {:>3} runs  {}: {}  {}\n",
            e.verdict.word(),
            margin,
            if e.marginal { "!" } else { " " },
            e.runs,
            e.article,
            e.id,
            e.summary
        );
    }
    let count = |v: V| entries.iter().filter(|e| e.verdict == v).count();
    text += &format!(
        "{} claims: {} hold ({} with a margin under 5 %, marked !), {} inconclusive, {} fail, {} not measured\n",
        entries.len(),
        count(V::Holds),
        entries.iter().filter(|e| e.marginal).count(),
        count(V::Inconclusive),
        count(V::Fails),
        count(V::NotMeasured)
    );
    text
}

#[allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "main's commands are the one place that prints"
)]
fn freeze(root: PathBuf, names: Vec<String>) -> Result<(), measured::Diagnostics> {
    let opts = build_options(root, Which::default(), &ExperimentArgs::default());
    let config = measured::config::load(&opts.root)?;
    let plan = measured::pipeline::freeze_plan(&opts)?;
    let wanted: BTreeSet<String> = if names.is_empty() {
        plan.published.clone()
    } else {
        names.into_iter().collect()
    };
    let (written, errors) = measured::experiments::freeze(&config, &wanted);
    for f in &written {
        println!("froze {}", f.display());
    }
    for (name, drafts) in &plan.drafts_only {
        if !wanted.contains(name) {
            let files: Vec<String> = drafts.iter().map(|p| p.display().to_string()).collect();
            eprintln!(
                "skipped `{name}`: only draft articles use it ({}); freeze it by name: `measured freeze {name}`",
                files.join(", ")
            );
        }
    }
    if wanted.is_empty() {
        eprintln!("nothing to freeze: no published article uses an experiment");
    }
    errors.into_result(())?;
    eprintln!("froze {} experiment(s), measured nothing", written.len());
    Ok(())
}

#[allow(
    clippy::print_stdout,
    reason = "main's commands are the one place that prints"
)]
fn measure(
    name: String,
    out: Option<PathBuf>,
    root: &std::path::Path,
    quick: bool,
) -> Result<(), measured::Diagnostics> {
    let config = measured::config::load(root)?;
    let env_quick = quick_from_env();
    let out = out.unwrap_or_else(|| PathBuf::from(format!("{name}.results.json")));
    let opts = measured::experiments::measure_file::MeasureOptions {
        name,
        out,
        quick: quick || env_quick,
    };
    let progress = progress::Terminal::new();
    let file = measured::experiments::measure_file::measure_to_file(&config, &opts, &progress)?;
    let p = file.provenance();
    println!(
        "wrote {} ({} runs of {} on {}, cores: {}, {})",
        opts.out.display(),
        file.runs.len(),
        file.experiment,
        p.cpu,
        p.cores,
        p.rustc
    );
    Ok(())
}

#[allow(
    clippy::print_stdout,
    reason = "main's commands are the one place that prints"
)]
fn run_on(host: String, names: Vec<String>, root: PathBuf) -> Result<(), measured::Diagnostics> {
    if quick_from_env() {
        return Err(measured::Diagnostic::new(
            measured::diag::Place::file("MEASURED_QUICK"),
            "is set, and `run --on` measures results to publish in machines/, which quick results never are",
        )
        .with_hint("unset MEASURED_QUICK to run the experiments on the host in full")
        .into());
    }
    let config = measured::config::load(&root)?;
    let names = if names.is_empty() {
        measured::pipeline::experiments_referred(&build_options(
            root,
            Which::default(),
            &ExperimentArgs::default(),
        ))?
    } else {
        names
    };
    let progress = progress::Terminal::new();
    let opts = measured::experiments::remote::RunOnOptions { host, names };
    let ran = measured::experiments::remote::run_on(&config, &opts, &progress)?;
    for i in &ran.imported {
        println!(
            "{} {} of machine `{}` (commit it)",
            if i.replaced { "replaced" } else { "imported" },
            i.path.display(),
            i.machine
        );
    }
    let m = &ran.machine;
    println!(
        "ran {} experiment(s) {} times each on host `{}` ({}, cores: {}, {})",
        ran.imported.len(),
        config.experiments.runs,
        ran.host.name,
        m.cpu,
        m.cores,
        m.rustc
    );
    Ok(())
}

#[allow(
    clippy::print_stdout,
    reason = "main's commands are the one place that prints"
)]
fn import_results(
    files: &[PathBuf],
    as_name: Option<&str>,
    root: &std::path::Path,
) -> Result<(), measured::Diagnostics> {
    let config = measured::config::load(root)?;
    for i in measured::experiments::machines::import(&config, files, as_name)? {
        println!(
            "{} {} of machine `{}` (commit it)",
            if i.replaced { "replaced" } else { "imported" },
            i.path.display(),
            i.machine
        );
    }
    Ok(())
}

#[allow(
    clippy::print_stdout,
    reason = "main's commands are the one place that prints"
)]
fn new(
    slug: &str,
    translate: Option<&str>,
    experiment: Option<&str>,
    root: &std::path::Path,
) -> Result<(), measured::Diagnostics> {
    let config = measured::config::load(root)?;
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    match translate {
        None if experiment.is_some() => {
            let name = experiment.unwrap_or_default();
            for f in measured::scaffold::new_with_experiment(&config, slug, name, today)? {
                println!("created {}", f.display());
            }
            println!(
                "build it: measured build --only {slug} --drafts (or measured serve --only {slug} --drafts)"
            );
        }
        None => {
            for f in measured::scaffold::new_article(&config, slug, today)? {
                println!("created {}", f.display());
            }
        }
        Some(lang) => {
            let file = measured::scaffold::new_translation(&config, slug, lang)?;
            println!(
                "created {} (translate it, then remove `draft: true`)",
                file.display()
            );
        }
    }
    Ok(())
}

/// Whether `MEASURED_QUICK` asks for quick mode (anything but unset, empty or `0`): the one
/// place the command line reads the environment.
fn quick_from_env() -> bool {
    std::env::var("MEASURED_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Which articles a command builds: drafts too, and only one.
#[derive(Default)]
struct Which {
    drafts: bool,
    only: Option<String>,
}

/// What `build`, `check` and `freeze` build: the site at `root`, with the command line's
/// experiment options.
fn build_options(
    root: PathBuf,
    which: Which,
    experiments: &ExperimentArgs,
) -> measured::BuildOptions {
    measured::BuildOptions {
        root,
        drafts: which.drafts,
        only: which.only,
        experiments: experiments.options(),
        ..Default::default()
    }
}
