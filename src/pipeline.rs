//! The build, stage after stage, in one place: what `build`, `check` and `serve` all run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

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

/// What to build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The folder holding `site.toml`.
    pub root: PathBuf,
    /// Include `draft: true` articles.
    pub drafts: bool,
    pub experiments: ExperimentOptions,
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
    Session::new(opts.clone()).build(progress)
}

/// Builds that share what did not change between them (`serve`, benchmarks): parsed articles
/// by file stamp, rendered bodies by the hash of their inputs, rendered pages by the hash of
/// their template context, and the machine description. Every build is still the whole
/// pipeline; the memo only skips work whose inputs are unchanged.
pub struct Session {
    opts: BuildOptions,
    memo: Memo,
}

/// The search index's files, shared with the outputs.
type SearchFiles = Vec<(String, std::sync::Arc<[u8]>)>;

#[derive(Default)]
struct Memo {
    docs: content::DocMemo,
    bodies: std::collections::HashMap<blake3::Hash, Rendered>,
    pages: render::PageMemo,
    /// Hash of the configuration and theme the memoised pages were rendered with.
    theme: Option<blake3::Hash>,
    machine: Option<experiments::machine::Machine>,
    /// The search index and the hash of the pages it was built from.
    search: Option<(blake3::Hash, SearchFiles)>,
}

/// What the last build of a session did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Article bodies rendered from Markdown (not reused).
    pub bodies_rendered: usize,
    /// Output files rendered from templates (not reused).
    pub pages_rendered: usize,
}

impl Session {
    pub fn new(opts: BuildOptions) -> Session {
        Session {
            opts,
            memo: Memo::default(),
        }
    }

    pub fn options(&self) -> &BuildOptions {
        &self.opts
    }

    /// Runs every stage but writing.
    pub fn build(&mut self, progress: &dyn Progress) -> Result<Built, Diagnostics> {
        let opts = &self.opts;
        let config = config::load(&opts.root)?;
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
        let refs = experiments_per_page(&site);
        let measurements = experiments::measure_on(
            &config,
            &refs.iter().flatten().cloned().collect(),
            &opts.experiments,
            progress,
            machine,
        )?;
        let highlighter = Highlighter::with_cache_file(
            &cache_dir(&config).join("highlight.json"),
            &config.highlight_light,
            &config.highlight_dark,
        );
        let hooks = Injector {
            measurements: &measurements,
            strings: &strings,
            config: &config,
            highlighter: &highlighter,
        };
        let results_fingerprint = measurements_fingerprint(&measurements);
        let (bodies, bodies_rendered) = render_bodies(
            &config,
            &site,
            &strings,
            &highlighter,
            &hooks,
            &self.memo.bodies,
            results_fingerprint,
        );
        let claims = claims::check_site(&site, &measurements);
        let (bodies, ()) = join_results(bodies, claims)?;
        let extra_pages = inject::source_pages(&hooks);
        let used: Vec<BTreeSet<String>> = refs
            .into_iter()
            .map(|mut names| {
                names.retain(|n| measurements.by_name.contains_key(n));
                names
            })
            .collect();
        let reproduce: Vec<Vec<Reproduce>> = used
            .iter()
            .zip(&site.pages)
            .map(|(names, p)| reproduce_of(&config, p, names, &measurements))
            .collect();
        let (notices, warnings) = translation_notices(&config, &site, &strings);
        let (mut output, pages) = render::render(&RenderInput {
            config: &config,
            site: &site,
            bodies: &bodies.iter().map(|(_, b)| b.clone()).collect::<Vec<_>>(),
            strings: &strings,
            templates: &templates,
            extra_pages: &extra_pages,
            reproduce: &reproduce,
            notices: &notices,
            memo: &self.memo.pages,
        })?;
        let pages_rendered = pages
            .iter()
            .filter(|(path, (hash, _))| self.memo.pages.get(*path).is_none_or(|(h, _)| h != hash))
            .count();
        self.memo.pages = pages;
        for (p, names) in site.pages.iter().zip(&used) {
            if !names.is_empty() {
                output.insert(
                    format!("{}results.json", p.url.trim_start_matches('/')),
                    results_json(p, names, &measurements),
                );
            }
        }
        add_static_files(&config, &theme, &site, &mut output)?;
        let rendered: Vec<Rendered> = bodies.iter().map(|(_, b)| b.clone()).collect();
        check_links(&site, &rendered, &output)?;
        // The search index depends only on the HTML pages; they are unchanged when every
        // page hashed the same as in the previous build of this session.
        let pages_key = {
            let mut h = blake3::Hasher::new();
            let mut keys: Vec<(&String, &blake3::Hash)> =
                self.memo.pages.iter().map(|(p, (k, _))| (p, k)).collect();
            keys.sort_by_key(|(p, _)| *p);
            for (p, k) in keys {
                h.update(p.as_bytes());
                h.update(k.as_bytes());
            }
            h.finalize()
        };
        let index = match self.memo.search.take() {
            Some((key, files)) if key == pages_key => files,
            _ => crate::search::index(&output)?
                .into_iter()
                .map(|(p, b)| (p, std::sync::Arc::from(b)))
                .collect(),
        };
        for (path, bytes) in &index {
            output.insert_shared(path.clone(), bytes.clone());
        }
        self.memo.search = Some((pages_key, index));
        self.memo.bodies = bodies.into_iter().collect();
        // A cache that cannot be saved only costs time in the next build.
        let _ = highlighter.save();
        Ok(Built {
            missing_translations: missing_translations(&config, &site),
            warnings,
            pages: site.pages.len(),
            experiments_ran: measurements.ran.clone(),
            experiments_used: measurements.by_name.keys().cloned().collect(),
            work: Work {
                bodies_rendered,
                pages_rendered,
            },
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

/// The experiments each page refers to (prose, blocks, excerpts, claims), parsed once per build.
fn experiments_per_page(site: &Site) -> Vec<BTreeSet<String>> {
    site.pages
        .par_iter()
        .map(|p| {
            let mut names: BTreeSet<String> = markdown::experiment_refs(&p.doc.body)
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            for (claim, _) in &p.doc.front.claims {
                names.extend(claims::experiments_of(claim));
            }
            names
        })
        .collect()
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

/// Both results, or every diagnostic of both.
fn join_results<A, B>(
    a: Result<A, Diagnostics>,
    b: Result<B, Diagnostics>,
) -> Result<(A, B), Diagnostics> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(mut d), Err(e)) => {
            d.extend(e);
            Err(d.into_result(()).unwrap_err())
        }
        (Err(d), _) | (_, Err(d)) => Err(d),
    }
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
    config: &SiteConfig,
    site: &Site,
    strings: &std::collections::BTreeMap<crate::lang::Lang, crate::i18n::Strings>,
    highlighter: &Highlighter,
    hooks: &dyn markdown::Hooks,
    memo: &std::collections::HashMap<blake3::Hash, Rendered>,
    results: blake3::Hash,
) -> (Result<Vec<(blake3::Hash, Rendered)>, Diagnostics>, usize) {
    let labels: std::collections::BTreeMap<_, _> = config
        .langs()
        .map(|l| {
            (
                l.clone(),
                Labels {
                    anchor: strings[l].get("anchor_label").to_string(),
                },
            )
        })
        .collect();
    let fresh = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<(blake3::Hash, Rendered), Diagnostics>> = site
        .pages
        .par_iter()
        .map(|p| {
            let mut h = blake3::Hasher::new();
            h.update(p.doc.path.as_os_str().as_encoded_bytes());
            h.update(p.doc.lang.code().as_bytes());
            h.update(&p.doc.body_line.to_le_bytes());
            h.update(p.doc.body.as_bytes());
            if p.doc.body.contains("{{")
                || p.doc.body.contains("```experiment")
                || p.doc.body.contains("```source")
            {
                h.update(results.as_bytes());
            }
            let key = h.finalize();
            if let Some(r) = memo.get(&key) {
                return Ok((key, r.clone()));
            }
            fresh.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            markdown::render(&markdown::Input {
                path: &p.doc.path,
                body: &p.doc.body,
                body_line: p.doc.body_line,
                lang: &p.doc.lang,
                highlighter,
                hooks,
                labels: &labels[&p.doc.lang],
            })
            .map(|r| (key, r))
        })
        .collect();
    let mut diags = Diagnostics::default();
    let mut bodies = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(b) => bodies.push(b),
            Err(d) => diags.extend(d),
        }
    }
    (diags.into_result(bodies), fresh.into_inner())
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
    match crate::highlight::stylesheet(&config.highlight_light, &config.highlight_dark) {
        Ok(css) => output.insert("highlight.css".into(), css.into_bytes()),
        Err(m) => diags.push(Diagnostic::new(
            Place::file(config.root.join("site.toml")),
            m,
        )),
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

fn check_links(site: &Site, bodies: &[Rendered], output: &Output) -> Result<(), Diagnostics> {
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
    let mut seen = std::collections::BTreeSet::new();
    for p in &site.pages {
        if !seen.insert(&p.doc.dir) {
            continue;
        }
        let have: Vec<&crate::lang::Lang> = std::iter::once(&p.doc.lang)
            .chain(p.translations.iter().map(|&i| &site.pages[i].doc.lang))
            .collect();
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
