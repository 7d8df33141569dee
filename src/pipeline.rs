//! The build, stage after stage, in one place: what `build`, `check` and `serve` all run.
//!
//! `Session::build_changed` is the list of stages `lib.rs` describes. A stage that a session
//! memoises is called through its cache (`memo.x.get_or(key, || stage(…))`, `memo`), its key
//! computed next to it in the module of its step: `measure` (the experiment stage),
//! `bodies` (Markdown), `inputs` (what rendering reads besides them), `files` (the output
//! besides the pages, and its checks), `search`. `edit` is the fast path after edits to
//! bodies only, from the render inputs the last build kept; `stamp`, the identity of a
//! build's inputs, which lets an unchanged build return the last one.

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics};
use crate::experiments::{ExperimentOptions, Progress, Rerun, Silent};
use crate::highlight::Highlighter;
use crate::inject::Injector;
use crate::output::{Output, Store};
use crate::render::{self, RenderInputs};
use crate::site::{AssembleOptions, Site};
use crate::{config, content, i18n, site, theme};

mod bodies;
mod cards;
mod disk;
mod edit;
mod emit;
mod files;
mod inputs;
mod last;
mod marks;
mod measure;
mod memo;
mod search;
mod stamp;

pub use disk::{build_to_disk, build_to_disk_with_progress};
use memo::{Memo, theme_fingerprint, themes};
pub use search::{SearchFiles, SearchIndex, SearchJob};

/// What to build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The folder holding `site.toml`.
    pub root: PathBuf,
    /// Include `draft: true` articles.
    pub drafts: bool,
    pub experiments: ExperimentOptions,
    /// When the search index is made.
    pub search: SearchWhen,
    /// Build only this article (its folder under `content/`, or a path to it or one of its
    /// files), in every language, and measure only its experiments (`--only`).
    pub only: Option<String>,
}

/// When a build makes the search index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SearchWhen {
    /// Before the build returns: the output is complete (`build`, `check`).
    #[default]
    Now,
    /// After: the output keeps the session's previous index and [`Built::search`] says what to
    /// index ([`SearchJob::run`], then [`Session::search_done`]). `serve` publishes the pages
    /// first, so an edit never waits for the index.
    Later,
}

/// A built site, in memory, and what the build noticed without failing.
#[derive(Debug, Clone)]
pub struct Built {
    pub config: SiteConfig,
    pub output: Output,
    /// Articles that exist in some languages only: (folder, languages it lacks).
    pub missing_translations: Vec<(PathBuf, Vec<String>)>,
    pub warnings: Vec<Diagnostic>,
    pub pages: usize,
    /// Experiments built and run by this build.
    pub experiments_ran: Vec<String>,
    /// The process runs of those experiments this build made.
    pub process_runs: usize,
    /// Pages left out because they are drafts (`draft: true`, without `--drafts`).
    pub drafts: usize,
    /// Experiments whose results the site uses.
    pub experiments_used: Vec<String>,
    /// What this build rendered rather than reused.
    pub work: Work,
    /// The search index still to make (a [`SearchWhen::Later`] build whose pages changed).
    pub search: Option<SearchJob>,
    /// Every claim as this build decided it.
    pub claims: Vec<crate::claims::report::Entry>,
}

/// Runs every stage but writing, silently.
pub fn build_in_memory(opts: &BuildOptions) -> Result<Built, Diagnostics> {
    build_with_progress(opts, &Silent)
}

/// Runs every stage but writing, reporting the experiments' progress.
pub fn build_with_progress(
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<Built, Diagnostics> {
    build_once(opts, progress, None)
}

/// The experiments the pages of the site at `opts.root` refer to, from the content and site
/// stages alone: nothing is measured. What `measured run --on HOST` runs when it is named none.
pub fn experiments_referred(opts: &BuildOptions) -> Result<Vec<String>, Diagnostics> {
    let config = config::load(&opts.root)?;
    let crates = crate::experiments::workspace::discover(&config.experiments.dir)?;
    let mut session = Session::new(opts.clone());
    let mut site = session.site(&config)?;
    std::mem::take(&mut site.errors).into_result(())?;
    let names: std::collections::BTreeSet<String> = session
        .refs(&site)
        .into_iter()
        .flatten()
        .filter(|n| crates.contains_key(n))
        .collect();
    Ok(names.into_iter().collect())
}

/// Which experiments `measured freeze` copies: those the published pages use, and those only
/// drafts use (with the drafts' files), from the content alone: nothing is measured.
#[derive(Debug, Clone, Default)]
pub struct FreezePlan {
    pub published: std::collections::BTreeSet<String>,
    pub drafts_only: std::collections::BTreeMap<String, Vec<PathBuf>>,
}

/// The [`FreezePlan`] of the site at `opts.root`.
pub fn freeze_plan(opts: &BuildOptions) -> Result<FreezePlan, Diagnostics> {
    let config = config::load(&opts.root)?;
    let crates = crate::experiments::workspace::discover(&config.experiments.dir)?;
    let mut session = Session::new(BuildOptions {
        drafts: true,
        ..opts.clone()
    });
    let mut site = session.site(&config)?;
    std::mem::take(&mut site.errors).into_result(())?;
    let refs = session.refs(&site);
    let mut plan = FreezePlan::default();
    for (p, names) in site.pages.iter().zip(&refs) {
        for n in names.iter().filter(|n| crates.contains_key(*n)) {
            if !p.doc.front.draft {
                plan.published.insert(n.clone());
            }
        }
    }
    for (p, names) in site.pages.iter().zip(&refs) {
        for n in names.iter().filter(|n| crates.contains_key(*n)) {
            if p.doc.front.draft && !plan.published.contains(n) {
                plan.drafts_only
                    .entry(n.clone())
                    .or_default()
                    .push(p.doc.path.clone());
            }
        }
    }
    Ok(plan)
}

/// The article folder `only` names: a folder name (`tcp-handshake`), or a path to the folder or
/// one of its files (`content/tcp-handshake/index.vi.md`).
fn only_dir(config: &SiteConfig, only: &str) -> String {
    let path = std::path::Path::new(only);
    let content = config.root.join("content");
    let rel = path
        .strip_prefix(&content)
        .or_else(|_| path.strip_prefix("content"))
        .unwrap_or(path);
    let first = rel.components().next();
    first.map_or_else(
        || only.to_string(),
        |c| c.as_os_str().to_string_lossy().into_owned(),
    )
}

/// Whether an error at `path` belongs to the article `only` names.
fn only_place(config: &SiteConfig, path: &std::path::Path, only: &str) -> bool {
    let dir = config.root.join("content").join(only_dir(config, only));
    path.starts_with(&dir) || !path.starts_with(config.root.join("content"))
}

/// Keeps only the article `only` names (`--only`) in `content`, returning the URLs and files of
/// the articles it leaves out; an error naming the closest article when there is none of that
/// name.
fn only_article(
    config: &SiteConfig,
    content: &mut content::Content,
    only: &str,
    drafts: bool,
) -> Result<LeftOut, Diagnostics> {
    let dir = only_dir(config, only);
    let all: std::collections::BTreeSet<String> =
        content.docs.iter().map(|d| d.dir.clone()).collect();
    if !all.contains(&dir) {
        let hint =
            crate::diag::did_you_mean(&dir, all.iter().map(String::as_str), "the articles are");
        return Err(Diagnostic::new(
            crate::diag::Place::file(config.root.join("content").join(&dir)),
            format!("--only: there is no article `{dir}`"),
        )
        .with_hint(hint)
        .into());
    }
    let draft = content.docs.iter().find(|d| d.dir == dir && d.front.draft);
    if let (Some(d), false) = (draft, drafts) {
        return Err(Diagnostic::new(
            crate::diag::Place::file(&d.path),
            format!("--only: the article `{dir}` is a draft, which a build leaves out"),
        )
        .with_hint(format!("add --drafts: `--only {only} --drafts`"))
        .into());
    }
    let (kept, others): (Vec<_>, Vec<_>) = std::mem::take(&mut content.docs)
        .into_iter()
        .partition(|d| d.dir == dir);
    content.docs = kept;
    content.assets.retain(|(d, _)| *d == dir);
    let mut left = LeftOut::default();
    for d in others {
        let slug = d.front.slug.as_deref().unwrap_or(&d.dir);
        let url = format!("{}{slug}/", config.lang_prefix(&d.lang));
        if drafts || !d.front.draft {
            left.published.insert(url, d.path);
        } else {
            left.drafts.insert(url, d.path);
        }
    }
    Ok(left)
}

/// The articles a build of one article (`--only`) leaves out: URL → file.
#[derive(Default)]
struct LeftOut {
    published: std::collections::BTreeMap<String, PathBuf>,
    drafts: std::collections::BTreeMap<String, PathBuf>,
}

/// Every claim of the site at `opts.root` as the last build decided it (`measured claims`):
/// read from the content and the report the last build kept; nothing is measured.
pub fn claims_report(
    opts: &BuildOptions,
) -> Result<Vec<crate::claims::report::Entry>, Diagnostics> {
    let config = config::load(&opts.root)?;
    let mut session = Session::new(opts.clone());
    let mut site = session.site(&config)?;
    std::mem::take(&mut site.errors).into_result(())?;
    let articles = crate::claims::collect(&site)?;
    let saved = crate::claims::report::load(&config.cache_dir()).unwrap_or_default();
    Ok(crate::claims::report::current(&articles, &saved))
}

/// What a whole build returns, from its render inputs and what the output stages made.
fn built_of(
    inputs: &RenderInputs,
    ran: Vec<String>,
    m: &crate::experiments::Measurements,
    work: Work,
    emitted: emit::Emitted,
    warnings: Vec<Diagnostic>,
) -> Built {
    Built {
        missing_translations: files::missing_translations(&inputs.config, &inputs.site),
        pages: inputs.site.pages.len(),
        experiments_ran: ran,
        process_runs: 0,
        drafts: inputs.site.drafts.len(),
        experiments_used: m.by_name.keys().cloned().collect(),
        work: Work {
            pages_rendered: emitted.rendered,
            cards_drawn: emitted.cards_drawn,
            ..work
        },
        config: inputs.config.clone(),
        warnings,
        search: emitted.search,
        output: emitted.output,
        claims: Vec::new(),
    }
}

/// `d` and the errors an earlier stage left for the end of the build (`deferred`), together.
fn joined(mut d: Diagnostics, deferred: &Diagnostics) -> Diagnostics {
    d.extend(deferred.clone());
    d
}

/// A build that no other follows; with a `store`, the rendered files go into it as they are
/// made ([`Session::build_into`]).
fn build_once(
    opts: &BuildOptions,
    progress: &dyn Progress,
    store: Option<&dyn Store>,
) -> Result<Built, Diagnostics> {
    let mut session = Session {
        once: true,
        ..Session::new(opts.clone())
    };
    let built = session.forget_on_failure(|session| session.build_whole(progress, store));
    // Nothing reads a one-off session's memo again, and freeing it (every article's source,
    // body and text) takes a while: on another thread, while the caller writes the site.
    std::thread::spawn(move || drop(session));
    built
}

/// Builds that share what did not change between them (`serve`, benchmarks): parsed articles
/// by file stamp, rendered bodies by the hash of their inputs, rendered pages by the hash of
/// their template context, and the machine description. [`Session::build`] runs the whole
/// pipeline, the memo skipping work whose inputs are unchanged; [`Session::build_after`],
/// told which files changed, renders only what edited article bodies reach.
pub struct Session {
    opts: BuildOptions,
    memo: Memo,
    /// A session of one build (`measured build`): it skips what only a later build would use
    /// (hashing every page's template context).
    once: bool,
}

/// What the last build of a session did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Article bodies rendered from Markdown (not reused).
    pub bodies_rendered: usize,
    /// Output files rendered from templates (not reused).
    pub pages_rendered: usize,
    /// Code blocks highlighted by syntect (not found in the highlight cache).
    pub blocks_highlighted: usize,
    /// Social cards rasterised (not found in the card cache).
    pub cards_drawn: usize,
    /// Whether every stage ran (else: nothing, or only what edited bodies reach).
    pub whole: bool,
}

impl Work {
    /// What a build through every stage did to its bodies (the rest is counted later).
    fn whole(bodies: &bodies::Bodies) -> Work {
        Work {
            bodies_rendered: bodies.rendered,
            blocks_highlighted: bodies.highlighted,
            whole: true,
            ..Work::default()
        }
    }
}

impl Session {
    pub fn new(opts: BuildOptions) -> Session {
        Session {
            opts,
            memo: Memo::default(),
            once: false,
        }
    }

    pub fn options(&self) -> &BuildOptions {
        &self.opts
    }

    /// Runs every stage but writing.
    pub fn build(&mut self, progress: &dyn Progress) -> Result<Built, Diagnostics> {
        self.forget_on_failure(|session| session.build_whole(progress, None))
    }

    /// Builds after the files `changed` (paths relative to the site root) changed, and
    /// nothing else: what `serve` calls with the paths its watcher reports. When every changed
    /// file is the body of an article of the last build, only what shows those bodies is
    /// rendered again (`pipeline/edit.rs`); otherwise this is [`Session::build`].
    pub fn build_after(
        &mut self,
        changed: &[PathBuf],
        progress: &dyn Progress,
    ) -> Result<Built, Diagnostics> {
        self.forget_on_failure(|session| match session.edit_bodies(changed)? {
            Some(built) => Ok(built),
            None => session.build_whole(progress, None),
        })
    }

    /// Runs `build`. What the last build was made from ([`Memo::kept`]) stands for the next
    /// only while builds succeed: a failed one leaves the sources ahead of it, and the next
    /// build is whole.
    fn forget_on_failure(
        &mut self,
        build: impl FnOnce(&mut Session) -> Result<Built, Diagnostics>,
    ) -> Result<Built, Diagnostics> {
        let built = build(self);
        if built.is_err() {
            self.memo.last_build = None;
        }
        built
    }

    /// Runs every stage but writing, or returns the last build when no input changed since
    /// (unless the files go into a `store`, which the last build did not fill).
    fn build_whole(
        &mut self,
        progress: &dyn Progress,
        store: Option<&dyn Store>,
    ) -> Result<Built, Diagnostics> {
        let config = config::load(&self.opts.root)?;
        // A forced rerun always runs. The experiment stage's files are stamped once, for the
        // whole build's stamp and for the measurements'.
        let experiment_files = (self.opts.experiments.rerun == Rerun::None)
            .then(|| stamp::experiment_files_stamp(&config));
        let inputs = experiment_files.map(|files| stamp::inputs_stamp(&config, &self.opts, files));
        if let (Some(key), Some((Some(last_key), last))) = (inputs, &self.memo.last) {
            if key == *last_key && store.is_none() {
                let mut same = last.clone();
                same.work = Work::default();
                same.experiments_ran.clear();
                same.process_runs = 0;
                return Ok(same);
            }
        }
        let built = self.build_changed(config, experiment_files, progress, store)?;
        self.memo.last = Some((inputs, built.clone()));
        Ok(built)
    }

    /// Runs every stage, in the order of `lib.rs`, each memoised one reusing its last value for
    /// the same key. `files`: the stamp of the experiment stage's files (`None`: a forced rerun);
    /// `store`: where rendered pages go as they are made, instead of the output.
    fn build_changed(
        &mut self,
        config: SiteConfig,
        files: Option<blake3::Hash>,
        progress: &dyn Progress,
        store: Option<&dyn Store>,
    ) -> Result<Built, Diagnostics> {
        // 2. Theme and UI strings; pages and bodies made with another are forgotten.
        let theme = theme::load(&self.opts.root)?;
        let strings = i18n::load(&config, &theme)?;
        let templates = render::compile(&theme)?;
        let fingerprint = theme_fingerprint(&config, &theme);
        self.memo.use_theme(fingerprint);
        // 3–4. Content and the site model; their errors are reported with every later
        //      stage's (`deferred`), so that one build names them all.
        let mut site = self.site(&config)?;
        let mut deferred = std::mem::take(&mut site.errors);
        // 5. The experiments the pages refer to, measured.
        let refs = self.refs(&site);
        let mut measured = self
            .measure(&config, &site, &refs, files, progress)
            .map_err(|d| joined(d, &deferred))?;
        let drift = self.drift(&mut measured);
        let m = &*measured.measurements;
        // 6. Bodies, through the experiment stage's hooks (the claims were settled with the
        //    measurements: measuring again for them changes the values pages show).
        let highlighter = self.highlighter(&config);
        let hooks = Injector {
            measurements: m,
            claims: &measured.claims,
            strings: &strings,
            config: &config,
            highlighter: &highlighter,
        };
        let body_theme = bodies::BodyTheme::of(&config, &strings, &theme);
        let standalone = self.standalone(&config, &highlighter, &hooks, &body_theme, &mut deferred);
        let mut failed = std::mem::take(&mut measured.failures);
        // What each article's social card shows: its errors are reported with the bodies'.
        let cards = cards::cards(&site, &hooks).unwrap_or_else(|d| {
            failed.extend(d);
            Vec::new()
        });
        let bodies = self
            .checked_bodies(&site, &hooks, body_theme, failed)
            .map_err(|d| joined(d, &deferred))?;
        // 7. Every output file, from one owned set of render inputs.
        let used = measure::used(&refs, m);
        let work = Work::whole(&bodies);
        let (notices, warnings) = inputs::translation_notices(&config, &site, &strings);
        let later = [
            drift,
            site::drafts_warning(&config, &site).into_iter().collect(),
            m.warnings.clone(),
            std::mem::take(&mut measured.claim_warnings),
        ];
        let warnings = marks::all_warnings(warnings, &site, &bodies.bodies, later.concat());
        let mut inputs = RenderInputs {
            cards: Arc::new(cards),
            extra_pages: self.source_pages(fingerprint, &hooks),
            reproduce: inputs::reproduce(&config, &site, &used, m),
            related: self.related(&site),
            standalone: Arc::new(standalone),
            bodies: bodies.bodies,
            notices,
            claims: measured.published.clone(),
            templates,
            strings,
            site,
            config,
        };
        let emit = emit::EmitInputs {
            theme: &theme,
            used: &used,
            m,
            body_keys: &bodies.keys,
            store,
        };
        let emitted = self.emit(&mut inputs, &emit, deferred)?;
        self.retain_bodies(&bodies.keys, &inputs.bodies);
        let ran = std::mem::take(&mut measured.ran);
        let mut built = built_of(&inputs, ran, m, work, emitted, warnings);
        built.claims = std::mem::take(&mut measured.report);
        built.process_runs = measured.process_runs;
        // A forced rerun measures at every build: edits after it go through the whole build;
        // a one-off session has no later build.
        self.memo.last_build = (measured.reusable && !self.once).then(|| last::LastBuild {
            anchor_links: edit::anchor_links(&inputs.site, &inputs.bodies),
            measurements: measured.measurements.clone(),
            claims: measured.claims.clone(),
            theme: bodies.theme,
            results: bodies.results,
            highlighter,
            refs,
            inputs,
        });
        Ok(built)
    }

    /// Keeps the bodies rendered (by key) for the session's next build; a one-off build has
    /// none.
    fn retain_bodies(&mut self, keys: &[blake3::Hash], bodies: &[Arc<crate::markdown::Rendered>]) {
        if !self.once {
            let kept = keys.iter().copied().zip(bodies.iter().cloned());
            self.memo.bodies.retain(kept);
        }
    }

    /// The drift the measurements found, as warnings; under `--strict`, errors reported with
    /// the claims that do not hold and every later stage's (nothing is written).
    fn drift(&self, measured: &mut measure::Measured) -> Vec<Diagnostic> {
        let drift = std::mem::take(&mut measured.drift);
        if self.opts.experiments.strict {
            measured.failures.extend(Diagnostics(drift));
            return Vec::new();
        }
        drift
    }

    /// The standalone pages of `pages/`, their bodies rendered as articles' are; their errors
    /// are kept for the end of the build (`deferred`), without the pages.
    fn standalone(
        &self,
        config: &SiteConfig,
        highlighter: &Highlighter,
        hooks: &Injector<'_>,
        theme: &bodies::BodyTheme,
        deferred: &mut Diagnostics,
    ) -> Vec<crate::standalone::Standalone> {
        let rendered = crate::standalone::load(config, self.opts.drafts)
            .and_then(|sources| self.standalone_bodies(sources, highlighter, hooks, theme));
        rendered.unwrap_or_else(|d| {
            deferred.extend(d);
            Vec::new()
        })
    }

    fn standalone_bodies(
        &self,
        sources: Vec<crate::standalone::PageSource>,
        highlighter: &Highlighter,
        hooks: &Injector<'_>,
        theme: &bodies::BodyTheme,
    ) -> Result<Vec<crate::standalone::Standalone>, Diagnostics> {
        crate::standalone::render(
            sources,
            &crate::standalone::BodyInput {
                highlighter,
                hooks,
                labels: &theme.labels,
                theme_ids: &theme.ids,
            },
        )
    }

    /// Every page's body, and its article's claims' markers checked; the claims that failed
    /// (`failed`) fail the build after the bodies' errors are found with them.
    fn checked_bodies(
        &mut self,
        site: &Site,
        hooks: &Injector<'_>,
        body_theme: bodies::BodyTheme,
        mut failed: Diagnostics,
    ) -> Result<bodies::Bodies, Diagnostics> {
        match self.bodies(site, hooks, body_theme) {
            Ok(b) => {
                if let Err(d) = marks::check(site, &b.bodies, hooks.claims) {
                    failed.extend(d);
                }
                failed.into_result(b)
            }
            Err(d) => {
                failed.extend(d);
                Err(failed)
            }
        }
    }

    /// The content stage and the site model: `content/` → articles (reusing those whose file
    /// did not change) → the site.
    ///
    /// An article whose front matter fails, two pages at one URL, or a page on a listing's URL
    /// leaves the site without them and its errors in [`Site::errors`], which the build
    /// reports with those of every later stage.
    fn site(&mut self, config: &SiteConfig) -> Result<Site, Diagnostics> {
        let mut loaded = content::load_deferring(config, &self.memo.docs)?;
        self.memo.docs = loaded.memo;
        let mut left = LeftOut::default();
        if let Some(only) = &self.opts.only {
            left = only_article(config, &mut loaded.content, only, self.opts.drafts)?;
            loaded
                .errors
                .0
                .retain(|d| only_place(config, &d.place.path, only));
        }
        let content = loaded.content;
        let opts = AssembleOptions {
            drafts: self.opts.drafts,
        };
        let mut site = site::assemble(config, content, opts).map_err(|mut d| {
            d.extend(loaded.errors.clone());
            d
        })?;
        site.errors.extend(loaded.errors);
        site.elsewhere = left.published;
        site.drafts.extend(left.drafts);
        site.failed = loaded
            .failed
            .into_iter()
            .map(|(dir, lang, path)| (format!("{}{dir}/", config.lang_prefix(&lang)), path))
            .collect();
        Ok(site)
    }

    /// The highlighter of the configuration's themes, with its cache of highlighted blocks.
    fn highlighter(&mut self, config: &SiteConfig) -> Arc<Highlighter> {
        self.memo.highlighter.get_or(themes(config), || {
            Arc::new(Highlighter::with_cache_file(
                &config.cache_dir().join("highlight.json"),
                &config.highlight_light,
                &config.highlight_dark,
            ))
        })
    }
}
