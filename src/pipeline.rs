//! The build, stage after stage, in one place: what `build`, `check` and `serve` all run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::experiments::{self, ExperimentOptions, Progress, Silent};
use crate::highlight::Highlighter;
use crate::inject::{self, Injector};
use crate::markdown::{self, Labels, Rendered};
use crate::output::Output;
use crate::render::{self, RenderInput, Reproduce};
use crate::site::{AssembleOptions, Site};
use crate::{claims, config, content, i18n, links, site, theme, write};

mod edit;
mod search;

use search::SearchPages;
pub use search::{SearchFiles, SearchIndex, SearchJob};

/// How many related articles a page links to.
const RELATED: usize = 6;

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
    /// Experiments whose results the site uses.
    pub experiments_used: Vec<String>,
    /// What this build rendered rather than reused.
    pub work: Work,
    /// The search index still to make (a [`SearchWhen::Later`] build whose pages changed).
    pub search: Option<SearchJob>,
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
    let mut session = Session {
        once: true,
        ..Session::new(opts.clone())
    };
    let built = session.build(progress);
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

#[derive(Default)]
struct Memo {
    docs: content::DocMemo,
    bodies: std::collections::HashMap<blake3::Hash, Arc<Rendered>>,
    pages: render::PageMemo,
    /// Hash of the configuration and theme the memoised pages were rendered with.
    theme: Option<blake3::Hash>,
    machine: Option<experiments::machine::Machine>,
    /// The search index of each language and the hash of the pages it was made from.
    search: BTreeMap<String, (blake3::Hash, SearchFiles)>,
    /// The highlighter and its cache of highlighted blocks, for the themes it was made for.
    highlighter: Option<((String, String), Arc<Highlighter>)>,
    /// The highlight stylesheet, for the themes it was made for.
    stylesheet: Option<((String, String), String)>,
    /// The experiments each article body refers to, by hash of the body and its claims.
    refs: std::collections::HashMap<blake3::Hash, BTreeSet<String>>,
    /// The experiments' source pages, by hash of the theme and the experiments' sources.
    source_pages: Option<(blake3::Hash, Arc<Vec<render::ExtraPage>>)>,
    /// Every page's related pages, by hash of what they are chosen from.
    related: Option<(blake3::Hash, Arc<Vec<Vec<usize>>>)>,
    /// Each article's `results.json`, by hash of what it is made of.
    results_files: std::collections::HashMap<blake3::Hash, Arc<[u8]>>,
    /// The last build, and the stamp of its inputs (`None` after a build that changed bodies
    /// only, [`Session::build_after`], which stamps no file).
    last: Option<(Option<blake3::Hash>, Built)>,
    /// What the last build was made from, while every stage since succeeded.
    kept: Option<edit::Kept>,
    /// The articles of each language in the last build, as the search index reads them.
    search_pages: BTreeMap<String, SearchPages>,
    /// The experiment stage's result, and the stamp of every file it read to get it.
    measurements: Option<(blake3::Hash, experiments::Measurements)>,
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
    /// Whether every stage ran (else: nothing, or only what edited bodies reach).
    pub whole: bool,
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
        let config = config::load(&self.opts.root)?;
        // No input changed since the last build: the same site (a forced rerun always runs).
        // The experiment stage's files are stamped once, for this and for the measurements.
        let experiment_files = (self.opts.experiments.rerun == experiments::Rerun::None)
            .then(|| experiment_files_stamp(&config));
        let inputs = experiment_files.map(|files| inputs_stamp(&config, &self.opts, files));
        if let (Some(key), Some((Some(last_key), last))) = (inputs, &self.memo.last) {
            if key == *last_key {
                let mut same = last.clone();
                same.work = Work::default();
                same.experiments_ran.clear();
                return Ok(same);
            }
        }
        // What the last build was made from stands for the next only while builds succeed.
        self.memo.kept = None;
        let built = self.build_changed(config, experiment_files, progress)?;
        self.memo.last = Some((inputs, built.clone()));
        Ok(built)
    }

    /// Runs every stage, reusing what the memo holds.
    fn build_changed(
        &mut self,
        config: SiteConfig,
        experiment_files: Option<blake3::Hash>,
        progress: &dyn Progress,
    ) -> Result<Built, Diagnostics> {
        let opts = &self.opts;
        let theme = theme::load(&opts.root)?;
        let strings = i18n::load(&config, &theme)?;
        let templates = render::compile(&theme)?;
        let fingerprint = theme_fingerprint(&config, &theme);
        if self.memo.theme != Some(fingerprint) {
            self.memo.pages.clear();
            self.memo.bodies.clear();
            self.memo.theme = Some(fingerprint);
        }
        let (content, docs) = content::load_with(&config, &self.memo.docs)?;
        self.memo.docs = docs;
        let site = site::assemble(
            &config,
            content,
            AssembleOptions {
                drafts: opts.drafts,
            },
        )?;
        let machine = self
            .memo
            .machine
            .get_or_insert_with(|| experiments::machine::Machine::read(&config.experiments.dir));
        let refs = experiments_per_page(&site, &mut self.memo.refs);
        let wanted: BTreeSet<String> = refs.iter().flatten().cloned().collect();
        // Unchanged experiment sources, results and options give the same measurements; a
        // forced rerun always measures.
        let stamp =
            experiment_files.map(|files| experiments_stamp(files, &wanted, &opts.experiments));
        let measurements = match self.memo.measurements.take() {
            Some((key, mut m)) if stamp == Some(key) => {
                m.ran.clear();
                m
            }
            _ => experiments::measure_on(&config, &wanted, &opts.experiments, progress, machine)?,
        };
        // Claims are decided before rendering: measuring again for them changes the values.
        let mut runner =
            experiments::runs::Runner::new(&config, &opts.experiments, progress, machine);
        let more = claims::More {
            budget: claims::Budget::of(&config, &opts.experiments),
            runner: &mut runner,
            progress,
        };
        let measurements = claims::settle(&site, measurements, more)?.measurements;
        let themes = (
            config.highlight_light.clone(),
            config.highlight_dark.clone(),
        );
        let highlighter = match &self.memo.highlighter {
            Some((t, h)) if *t == themes => h.clone(),
            _ => Arc::new(Highlighter::with_cache_file(
                &cache_dir(&config).join("highlight.json"),
                &config.highlight_light,
                &config.highlight_dark,
            )),
        };
        self.memo.highlighter = Some((themes, highlighter.clone()));
        let highlighter = &*highlighter;
        let hooks = Injector {
            measurements: &measurements,
            strings: &strings,
            config: &config,
            highlighter,
        };
        let results_fingerprint = measurements_fingerprint(&measurements);
        let labels = labels_of(&config, &strings);
        let misses = highlighter.misses();
        let (bodies, bodies_rendered) = render_bodies(
            &site,
            &labels,
            highlighter,
            &hooks,
            &self.memo.bodies,
            results_fingerprint,
        );
        let blocks_highlighted = highlighter.misses() - misses;
        let bodies = bodies?;
        let (keys, bodies): (Vec<blake3::Hash>, Vec<Arc<Rendered>>) = bodies.into_iter().unzip();
        let sources_key = {
            let mut h = blake3::Hasher::new();
            h.update(fingerprint.as_bytes());
            let listed = measurements
                .crates
                .values()
                .chain(measurements.libraries.values());
            for info in listed {
                h.update(format!("{}\0{}\0", info.name, info.source_hash).as_bytes());
            }
            h.update(format!("{:?}", measurements.by_name.keys().collect::<Vec<_>>()).as_bytes());
            h.finalize()
        };
        let extra_pages = match self.memo.source_pages.take() {
            Some((key, pages)) if key == sources_key => pages,
            _ => Arc::new(inject::source_pages(&hooks)),
        };
        self.memo.source_pages = Some((sources_key, extra_pages.clone()));
        let used: Vec<BTreeSet<String>> = refs
            .iter()
            .map(|names| {
                names
                    .iter()
                    .filter(|n| measurements.by_name.contains_key(*n))
                    .cloned()
                    .collect()
            })
            .collect();
        let reproduce: Vec<Vec<Reproduce>> = used
            .iter()
            .zip(&site.pages)
            .map(|(names, p)| reproduce_of(&config, p, names, &measurements))
            .collect();
        let (notices, warnings) = translation_notices(&config, &site, &strings);
        // Related pages depend on every page's language, date, tags and series, not on bodies.
        let related_key = {
            let mut h = blake3::Hasher::new();
            for p in &site.pages {
                let f = &p.doc.front;
                let line = format!(
                    "{}\0{}\0{}\0{:?}\0{:?}\0{:?}\n",
                    p.doc.dir,
                    p.doc.lang.code(),
                    f.date,
                    f.tags,
                    f.series,
                    f.part
                );
                h.update(line.as_bytes());
            }
            h.finalize()
        };
        let related = match self.memo.related.take() {
            Some((key, related)) if key == related_key => related,
            _ => Arc::new(site.all_related(RELATED)),
        };
        self.memo.related = Some((related_key, related.clone()));
        let (mut output, pages, pages_rendered) = render::render(&RenderInput {
            config: &config,
            site: &site,
            bodies: &bodies,
            strings: &strings,
            templates: &templates,
            extra_pages: &extra_pages,
            reproduce: &reproduce,
            notices: &notices,
            related: &related,
            memo: (!self.once).then_some(&self.memo.pages),
        })?;
        self.memo.pages = pages;
        let mut results_files = std::collections::HashMap::new();
        for (p, names) in site.pages.iter().zip(&used) {
            if names.is_empty() {
                continue;
            }
            let key = blake3::hash(
                format!(
                    "{}\0{}\0{names:?}\0{results_fingerprint}",
                    p.url, p.doc.front.title
                )
                .as_bytes(),
            );
            let bytes = match self.memo.results_files.get(&key) {
                Some(bytes) => bytes.clone(),
                None => Arc::from(results_json(p, names, &measurements)),
            };
            output.insert_shared(
                format!("{}results.json", p.url.trim_start_matches('/')),
                bytes.clone(),
            );
            results_files.insert(key, bytes);
        }
        self.memo.results_files = results_files;
        let themes = (
            config.highlight_light.clone(),
            config.highlight_dark.clone(),
        );
        let stylesheet = match self.memo.stylesheet.take() {
            Some((t, css)) if t == themes => css,
            _ => crate::highlight::stylesheet(&themes.0, &themes.1).map_err(|m| {
                Diagnostics::one(Diagnostic::new(
                    Place::file(config.root.join("site.toml")),
                    m,
                ))
            })?,
        };
        output.insert("highlight.css".into(), stylesheet.clone().into_bytes());
        self.memo.stylesheet = Some((themes, stylesheet));
        add_static_files(&config, &theme, &site, &mut output)?;
        check_links(&site, &bodies, &output)?;
        // The highlight cache is saved (on one core) while the search index is made: neither
        // reads what the other writes.
        let pending = std::thread::scope(|scope| {
            // A cache that cannot be saved only costs time in the next build.
            let saving = scope.spawn(|| highlighter.save());
            let pending = if config.search {
                self.search_index(&mut output, &site, &keys, &bodies)
            } else {
                Ok(None)
            };
            let _ = saving.join();
            pending
        })?;
        self.memo.bodies = keys.iter().copied().zip(bodies.iter().cloned()).collect();
        self.memo.measurements = stamp.map(|key| (key, measurements.clone()));
        let missing_translations = missing_translations(&config, &site);
        let pages = site.pages.len();
        let anchor_links = edit::anchor_links(&site, &bodies);
        self.memo.kept = Some(edit::Kept {
            strings,
            templates,
            site,
            bodies,
            refs,
            reproduce,
            notices,
            related,
            extra_pages,
            results: results_fingerprint,
            labels,
            anchor_links,
        });
        Ok(Built {
            missing_translations,
            warnings,
            pages,
            experiments_ran: measurements.ran.clone(),
            experiments_used: measurements.by_name.keys().cloned().collect(),
            work: Work {
                bodies_rendered,
                pages_rendered,
                blocks_highlighted,
                whole: true,
            },
            search: pending,
            config,
            output,
        })
    }
}

/// Everything besides a page's own data that its HTML depends on: configuration, templates
/// and UI strings.
fn theme_fingerprint(config: &SiteConfig, theme: &theme::Theme) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(
        std::fs::read(config.root.join("site.toml"))
            .unwrap_or_default()
            .as_slice(),
    );
    for (name, t) in &theme.templates {
        h.update(name.as_bytes());
        h.update(t.text.as_bytes());
    }
    h.finalize()
}

/// Identity of every measurement in use: a new result re-renders the pages that inject values.
fn measurements_fingerprint(m: &experiments::Measurements) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    for (name, mm) in &m.by_name {
        h.update(name.as_bytes());
        h.update(mm.record.key.as_bytes());
        h.update(mm.record.provenance.measured_at.as_bytes());
    }
    h.finalize()
}

/// The experiments each page refers to (prose, blocks, excerpts, claims), parsed once per
/// build, and not at all for a body and claims already parsed in this session (`memo`).
fn experiments_per_page(
    site: &Site,
    memo: &mut std::collections::HashMap<blake3::Hash, BTreeSet<String>>,
) -> Vec<BTreeSet<String>> {
    let found: Vec<(blake3::Hash, BTreeSet<String>)> = site
        .pages
        .par_iter()
        .map(|p| {
            let key = refs_key(&p.doc);
            match memo.get(&key) {
                Some(names) => (key, names.clone()),
                None => (key, refs_of(&p.doc)),
            }
        })
        .collect();
    *memo = found.iter().cloned().collect();
    found.into_iter().map(|(_, names)| names).collect()
}

/// What an article's references to experiments are found in: its body and its claims.
fn refs_key(doc: &content::SourceDoc) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(doc.body_hash.as_bytes());
    for claim in doc.front.claims.iter().flat_map(|w| &w.entries) {
        h.update(b"\0");
        h.update(claim.text.as_bytes());
    }
    h.finalize()
}

/// The experiments an article refers to.
fn refs_of(doc: &content::SourceDoc) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = markdown::experiment_refs(&doc.body)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    for claim in doc.front.claims.iter().flat_map(|w| &w.entries) {
        names.extend(claims::experiments_of(&claim.text));
    }
    names
}

/// Identity of everything the experiment stage reads when nothing needs running: the
/// experiments' files (not their build output), the stored and frozen results, what the pages
/// want and the options. Names, sizes and modification times, like `make`.
fn experiments_stamp(
    files: blake3::Hash,
    wanted: &BTreeSet<String>,
    opts: &ExperimentOptions,
) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(format!("{wanted:?}\0{}\0{}", opts.quick, opts.frozen).as_bytes());
    h.update(files.as_bytes());
    h.finalize()
}

/// The folders the experiment stage reads.
fn experiment_trees(config: &SiteConfig) -> [PathBuf; 3] {
    [
        config.experiments.dir.clone(),
        cache_dir(config).join("results"),
        config.experiments.frozen_dir.clone(),
    ]
}

/// Identity of every file a build reads (the built-in theme is part of the binary; the
/// experiment stage's files are `experiment_files`) and of the options: equal stamps, equal
/// builds.
fn inputs_stamp(
    config: &SiteConfig,
    opts: &BuildOptions,
    experiment_files: blake3::Hash,
) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(format!("{opts:?}").as_bytes());
    let root = &config.root;
    let trees = [
        root.join("site.toml"),
        root.join("content"),
        root.join("templates"),
        root.join("static"),
    ];
    stamp_trees(&mut h, &trees);
    h.update(experiment_files.as_bytes());
    h.finalize()
}

/// Identity of the files the experiment stage reads.
fn experiment_files_stamp(config: &SiteConfig) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    stamp_trees(&mut h, &experiment_trees(config));
    h.finalize()
}

/// Feeds the path, size and modification time of everything under `trees` (files or folders;
/// an experiments workspace's `target/` aside) to `h`, like `make`.
fn stamp_trees(h: &mut blake3::Hasher, trees: &[PathBuf]) {
    for tree in trees {
        let walk = walkdir::WalkDir::new(tree)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() != 1 || e.file_name() != "target");
        for entry in walk.filter_map(Result::ok) {
            h.update(entry.path().as_os_str().as_encoded_bytes());
            if let Ok(meta) = entry.metadata() {
                use std::os::unix::fs::MetadataExt;
                // The inode too: an editor's save renames a new file over the old one.
                for n in [meta.len(), meta.ino()] {
                    h.update(&n.to_le_bytes());
                }
                for t in [
                    meta.mtime(),
                    meta.mtime_nsec(),
                    meta.ctime(),
                    meta.ctime_nsec(),
                ] {
                    h.update(&t.to_le_bytes());
                }
            }
        }
    }
}

fn reproduce_of(
    config: &SiteConfig,
    page: &site::Page,
    names: &BTreeSet<String>,
    m: &experiments::Measurements,
) -> Vec<Reproduce> {
    names
        .iter()
        .map(|name| {
            let p = &m.by_name[name].record.provenance;
            Reproduce {
                experiment: name.clone(),
                source_url: format!("{}experiments/{name}/", config.lang_prefix(&page.doc.lang)),
                command: p.command.clone(),
                lock_hash: p.lock_hash.clone(),
                source_hash: p.source_hash.clone(),
                machine: format!("{}, {} × CPU, Linux {}", p.cpu, p.cores, p.kernel),
                rustc: p.rustc.clone(),
                measured_at: p.measured_at.clone(),
                quick: p.quick,
            }
        })
        .collect()
}

/// `results.json` of a page: the results and provenance of every experiment it uses.
fn results_json(
    page: &site::Page,
    names: &BTreeSet<String>,
    m: &experiments::Measurements,
) -> Vec<u8> {
    let experiments: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| {
            let r = &m.by_name[n].record;
            (n.clone(), serde_json::json!({ "provenance": r.provenance, "results": r.results, "output": r.output }))
        })
        .collect();
    let doc = serde_json::json!({ "article": page.url, "title": page.doc.front.title, "experiments": experiments });
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}

/// Per page, the notice that its original changed since it was translated; and the warnings.
fn translation_notices(
    config: &SiteConfig,
    site: &Site,
    strings: &std::collections::BTreeMap<crate::lang::Lang, crate::i18n::Strings>,
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let notices = site
        .pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let recorded = p.doc.front.translated_from.as_deref()?;
            let original = site.translation(i, &config.default_lang).map(|j| &site.pages[j])?;
            if original.doc.content_hash == recorded {
                return None;
            }
            warnings.push(
                Diagnostic::new(
                    Place::file(&p.doc.path),
                    format!(
                        "the original {} changed since this translation was made (translated_from: {recorded}, original now {})",
                        original.doc.path.display(),
                        original.doc.content_hash
                    ),
                )
                .with_hint(format!(
                    "update the translation, then run `measured translated {} {}`",
                    p.doc.dir,
                    p.doc.lang
                )),
            );
            let t = &strings[&p.doc.lang];
            Some(t.fill("translation_outdated", &[("language", t.get(&format!("lang_{}", original.doc.lang.code())))]))
        })
        .collect();
    (notices, warnings)
}

/// Builds and writes the site into `out` (default `<root>/public`).
pub fn build_to_disk(opts: &BuildOptions, out: Option<&Path>) -> Result<Built, Diagnostics> {
    build_to_disk_with_progress(opts, out, &Silent)
}

/// Builds and writes the site, reporting the experiments' progress.
pub fn build_to_disk_with_progress(
    opts: &BuildOptions,
    out: Option<&Path>,
    progress: &dyn Progress,
) -> Result<Built, Diagnostics> {
    let built = build_with_progress(opts, progress)?;
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| opts.root.join("public"));
    let protected: Vec<PathBuf> = ["content", "templates", "static", "experiments", "site.toml"]
        .iter()
        .map(|p| opts.root.join(p))
        .chain([opts.root.clone()])
        .collect();
    write::write_site(&built.output, &out, &protected)?;
    Ok(built)
}

/// Where the generator keeps caches between builds (git-ignored).
pub fn cache_dir(config: &SiteConfig) -> PathBuf {
    config.root.join(".measured")
}

/// Renders every page's Markdown, reusing bodies whose inputs hash the same as in `memo`.
/// Returns the bodies with their input hashes, and how many were rendered anew.
#[allow(
    clippy::type_complexity,
    reason = "a private helper's return value, named at its one call site"
)]
fn render_bodies(
    site: &Site,
    labels: &BTreeMap<crate::lang::Lang, Labels>,
    highlighter: &Highlighter,
    hooks: &dyn markdown::Hooks,
    memo: &std::collections::HashMap<blake3::Hash, Arc<Rendered>>,
    results: blake3::Hash,
) -> (
    Result<Vec<(blake3::Hash, Arc<Rendered>)>, Diagnostics>,
    usize,
) {
    let fresh = std::sync::atomic::AtomicUsize::new(0);
    let render = |p: &site::Page| {
        let key = body_key(&p.doc, results);
        if let Some(r) = memo.get(&key) {
            return Ok((key, r.clone()));
        }
        fresh.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        render_body(&p.doc, labels, highlighter, hooks).map(|r| (key, r))
    };
    // An article's translations share most of their code blocks, so one worker renders them one
    // after another and the later ones find those blocks highlighted. The pages are sorted by
    // language: split in halves between workers, both halves reached the same articles at the
    // same time and each block was highlighted twice.
    let articles: Vec<Vec<usize>> = site.articles().collect();
    let mut rendered: Vec<(usize, Result<(blake3::Hash, Arc<Rendered>), Diagnostics>)> = articles
        .par_iter()
        .flat_map_iter(|pages| pages.iter().map(|&i| (i, render(&site.pages[i]))))
        .collect();
    rendered.sort_unstable_by_key(|(i, _)| *i);
    let mut diags = Diagnostics::default();
    let mut bodies = Vec::with_capacity(rendered.len());
    for (_, r) in rendered {
        match r {
            Ok(b) => bodies.push(b),
            Err(d) => diags.extend(d),
        }
    }
    (diags.into_result(bodies), fresh.into_inner())
}

/// The identity of what an article's rendered body is made from (`results`: the fingerprint
/// of the measurements, which only bodies that use results depend on).
fn body_key(doc: &content::SourceDoc, results: blake3::Hash) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(doc.path.as_os_str().as_encoded_bytes());
    h.update(doc.lang.code().as_bytes());
    h.update(&doc.body_line.to_le_bytes());
    h.update(doc.body_hash.as_bytes());
    if doc.uses_results {
        h.update(results.as_bytes());
    }
    h.finalize()
}

/// An article's Markdown as HTML.
fn render_body(
    doc: &content::SourceDoc,
    labels: &BTreeMap<crate::lang::Lang, Labels>,
    highlighter: &Highlighter,
    hooks: &dyn markdown::Hooks,
) -> Result<Arc<Rendered>, Diagnostics> {
    markdown::render(&markdown::Input {
        path: &doc.path,
        body: &doc.body,
        body_line: doc.body_line,
        lang: &doc.lang,
        highlighter,
        hooks,
        labels: &labels[&doc.lang],
    })
    .map(Arc::new)
}

/// The Markdown stage's UI words, per language.
fn labels_of(
    config: &SiteConfig,
    strings: &BTreeMap<crate::lang::Lang, crate::i18n::Strings>,
) -> BTreeMap<crate::lang::Lang, Labels> {
    config
        .langs()
        .map(|l| {
            (
                l.clone(),
                Labels {
                    anchor: strings[l].get("anchor_label").to_string(),
                },
            )
        })
        .collect()
}

fn add_static_files(
    config: &SiteConfig,
    theme: &theme::Theme,
    site: &Site,
    output: &mut Output,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for (rel, source) in &theme.statics {
        match source.read() {
            Ok(bytes) => output.insert(rel.clone(), bytes),
            Err(e) => diags.push(Diagnostic::new(
                Place::file(rel),
                format!("cannot read the static file: {e}"),
            )),
        }
    }
    for page in &site.pages {
        let Some(files) = site.assets.get(&page.doc.dir) else {
            continue;
        };
        let folder = config.root.join("content").join(&page.doc.dir);
        for rel in files {
            let path = folder.join(rel);
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let rel = rel
                        .iter()
                        .map(|c| c.to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/");
                    output.insert(format!("{}{rel}", page.url.trim_start_matches('/')), bytes);
                }
                Err(e) => diags.push(crate::diag::io_error(&path, "read the asset", &e)),
            }
        }
    }
    diags.into_result(())
}

fn check_links(site: &Site, bodies: &[Arc<Rendered>], output: &Output) -> Result<(), Diagnostics> {
    let all: Vec<Diagnostics> = site
        .pages
        .par_iter()
        .zip(bodies.par_iter())
        .map(|(p, b)| links::check(&p.url, &b.links, output))
        .collect();
    let mut diags = Diagnostics::default();
    all.into_iter().for_each(|d| diags.extend(d));
    diags.into_result(())
}

fn missing_translations(config: &SiteConfig, site: &Site) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    for pages in site.articles() {
        let p = &site.pages[pages[0]];
        let have: Vec<&crate::lang::Lang> =
            pages.iter().map(|&i| &site.pages[i].doc.lang).collect();
        let missing: Vec<String> = config
            .langs()
            .filter(|l| !have.contains(l))
            .map(|l| l.code().to_string())
            .collect();
        if !missing.is_empty() {
            out.push((config.root.join("content").join(&p.doc.dir), missing));
        }
    }
    out
}
