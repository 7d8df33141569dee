//! `site.toml`: what the file says (a raw serde struct that rejects unknown keys), then the
//! validated `SiteConfig` every later stage reads.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

mod base_url;
mod hosts;
pub mod paths;
mod redirects;
mod ssh_options;
mod texts;

use base_url::{base_path_of, check_base_url};
pub use hosts::HostConfig;
pub use redirects::{SiteRedirect, site_path};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    base_url: String,
    default_language: String,
    languages: BTreeMap<String, RawLanguage>,
    author: Option<String>,
    /// List articles that have no translation in the other language's listings, with a marker.
    show_untranslated: Option<bool>,
    /// How many of the latest articles each language's feed carries (0: all).
    feed_limit: Option<usize>,
    /// How many articles a page of a listing (home, tag page) shows (0: all on one page).
    paginate: Option<usize>,
    experiments: Option<RawExperiments>,
    claims: Option<RawClaims>,
    machines: Option<RawMachines>,
    highlight: Option<RawHighlight>,
    search: Option<RawSearch>,
    cards: Option<RawCards>,
    /// The hosts `measured run --on NAME` measures on, by name.
    hosts: Option<BTreeMap<String, hosts::RawHost>>,
    /// A tag's own URL segment, by its name (`"C++" = "cpp"`).
    tags: Option<BTreeMap<String, String>>,
    /// Old URLs that are no article's, each with the site path it now leads to.
    redirects: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSearch {
    /// Build the search index (and show the search box); on by default.
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCards {
    /// Draw each article's social card (`og:image`); on by default.
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLanguage {
    title: String,
    description: Option<String>,
    /// The sentence at the foot of every page: the site's, so a theme never speaks for it.
    footer: Option<String>,
    /// The header's menu in this language, in order.
    menu: Option<Vec<RawMenuItem>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMenuItem {
    name: String,
    url: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiments {
    timeout_secs: Option<u64>,
    dir: Option<PathBuf>,
    frozen_dir: Option<PathBuf>,
    /// Independent process runs of each experiment whose values are published.
    runs: Option<usize>,
    /// The same in quick mode.
    quick_runs: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClaims {
    /// Runs of an experiment, beyond `runs`, that inconclusive claims may ask for.
    extra_runs: Option<usize>,
    /// Seconds a build may spend on those extra runs.
    extra_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMachines {
    /// Where imported machines' results are kept (committed): `<dir>/<machine>/<experiment>.json`.
    dir: Option<PathBuf>,
    /// The machine whose results the article text uses; absent: the machine that builds.
    primary: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHighlight {
    light_theme: Option<String>,
    dark_theme: Option<String>,
}

impl RawExperiments {
    /// The `[experiments]` table with its defaults; `err` places a message at a key's line.
    fn validate(
        self,
        root: &Path,
        err: &dyn Fn(&str, String) -> Diagnostic,
        diags: &mut Diagnostics,
    ) -> ExperimentsConfig {
        let RawExperiments {
            timeout_secs,
            dir,
            frozen_dir,
            runs,
            quick_runs,
        } = self;
        let runs = runs.unwrap_or(3);
        if runs < 3 {
            diags.push(err("runs", format!("[experiments] runs = {runs}: a published value combines at least 3 independent runs"))
                .with_hint("set runs = 3 or more (quick mode has its own quick_runs)"));
        }
        let quick_runs = quick_runs.unwrap_or(3);
        if quick_runs < 2 {
            diags.push(err("quick_runs", format!("[experiments] quick_runs = {quick_runs}: an interval across runs needs at least 2"))
                .with_hint("set quick_runs = 2 or more"));
        }
        ExperimentsConfig {
            dir: root.join(dir.unwrap_or_else(|| PathBuf::from("experiments"))),
            frozen_dir: root.join(frozen_dir.unwrap_or_else(|| PathBuf::from("frozen"))),
            timeout: Duration::from_secs(timeout_secs.unwrap_or(600)),
            runs,
            quick_runs,
        }
    }
}

impl RawMachines {
    /// The `[machines]` table with its defaults.
    fn validate(
        self,
        root: &Path,
        err: &dyn Fn(&str, String) -> Diagnostic,
        diags: &mut Diagnostics,
    ) -> MachinesConfig {
        let RawMachines { dir, primary } = self;
        if let Some(problem) = primary.as_deref().and_then(machine_id_problem) {
            diags.push(err("primary", format!("[machines] primary: {problem}")).with_hint(
                "name a folder of machines/ (`measured results import` prints it), or remove `primary` to publish this machine's results",
            ));
        }
        MachinesConfig {
            dir: root.join(dir.unwrap_or_else(|| PathBuf::from("machines"))),
            primary,
        }
    }
}

/// What is wrong with a machine id, if anything: `[a-z0-9][a-z0-9-]*`, at most 64 characters.
pub fn machine_id_problem(id: &str) -> Option<String> {
    let ok = id.len() <= 64
        && id.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    (!ok).then(|| {
        format!("machine id `{id}` is not lowercase letters, digits and `-` (at most 64), starting with a letter or digit")
    })
}

impl RawClaims {
    /// The `[claims]` table with its defaults.
    fn validate(self) -> ClaimsConfig {
        let RawClaims {
            extra_runs,
            extra_secs,
        } = self;
        ClaimsConfig {
            extra_runs: extra_runs.unwrap_or(6),
            extra_time: Duration::from_secs(extra_secs.unwrap_or(600)),
        }
    }
}

/// One language of the site.
#[derive(Debug, Clone)]
pub struct LanguageConfig {
    pub lang: Lang,
    pub title: String,
    pub description: String,
    /// The site's note at the foot of every page (`footer`), none when it does not set one.
    pub footer: Option<String>,
    /// `[[languages.<code>.menu]]`: the header's links in this language.
    pub menu: Vec<MenuItem>,
}

/// One link of a language's menu.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MenuItem {
    pub name: String,
    /// A site path (`/about/`, checked like a link) or an absolute URL.
    pub url: String,
    /// Where `site.toml` says it, for the link check's errors.
    #[serde(skip)]
    pub place: Place,
}

/// The validated site configuration.
#[derive(Debug, Clone)]
pub struct SiteConfig {
    /// The site root: the folder holding `site.toml`.
    pub root: PathBuf,
    /// `base_url` without a trailing slash.
    pub base_url: String,
    /// The path of `base_url` without its trailing slash: `/blog` for a site published at
    /// `https://user.github.io/blog/`, empty at the root of its host. Site paths (`/a/`) stay
    /// as they are everywhere inside the build; what a browser reads gets this prefix
    /// ([`SiteConfig::href`]).
    pub base_path: String,
    pub default_lang: Lang,
    /// All languages, the default one first.
    pub languages: Vec<LanguageConfig>,
    pub author: String,
    pub show_untranslated: bool,
    /// The latest articles each feed carries; `usize::MAX` for all.
    pub feed_limit: usize,
    /// The articles a page of a listing shows (`paginate`, default 10); `None`: all on one
    /// page. Page 1 is the listing's own URL, page n `<listing>page/<n>/`.
    pub paginate: Option<std::num::NonZeroUsize>,
    pub experiments: ExperimentsConfig,
    pub claims: ClaimsConfig,
    pub machines: MachinesConfig,
    /// Whether the site has a search index and box (`[search] enabled`).
    pub search: bool,
    /// Whether each article gets a social card, `og:image` (`[cards] enabled`).
    pub cards: bool,
    pub highlight_light: String,
    pub highlight_dark: String,
    /// `[tags]`: the URL segment of the tags named there.
    pub tag_slugs: BTreeMap<String, String>,
    /// `[hosts.NAME]`: the machines `measured run --on NAME` reaches over SSH.
    pub hosts: BTreeMap<String, HostConfig>,
    /// `[redirects]`: old URLs that are no article's, answered by the build.
    pub redirects: Vec<SiteRedirect>,
}

/// The `[experiments]` table.
#[derive(Debug, Clone)]
pub struct ExperimentsConfig {
    /// The experiments' Cargo workspace.
    pub dir: PathBuf,
    /// Where `measured freeze` puts committed results.
    pub frozen_dir: PathBuf,
    pub timeout: Duration,
    /// Independent process runs of each experiment the pages use (at least 3).
    pub runs: usize,
    /// The same in quick mode (at least 2).
    pub quick_runs: usize,
}

impl ExperimentsConfig {
    /// The runs a measurement combines, in quick mode or not.
    pub fn runs_for(&self, quick: bool) -> usize {
        if quick { self.quick_runs } else { self.runs }
    }
}

/// The `[machines]` table: results of other machines, side by side with this one's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachinesConfig {
    /// `machines/`: one folder per imported machine, one results file per experiment.
    pub dir: PathBuf,
    /// The imported machine whose results the article text uses (`None`: the machine that
    /// builds, measuring or reusing its cache).
    pub primary: Option<String>,
}

/// The `[claims]` table: how much more measuring an inconclusive claim may ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimsConfig {
    /// Runs of one experiment beyond `[experiments] runs`.
    pub extra_runs: usize,
    /// Time one build may spend on extra runs.
    pub extra_time: Duration,
}

impl SiteConfig {
    pub fn language(&self, lang: &Lang) -> &LanguageConfig {
        self.languages
            .iter()
            .find(|l| &l.lang == lang)
            .unwrap_or(&self.languages[0])
    }

    pub fn langs(&self) -> impl Iterator<Item = &Lang> {
        self.languages.iter().map(|l| &l.lang)
    }

    /// The language for a code, if the site has it.
    pub fn lang(&self, code: &str) -> Option<&Lang> {
        self.langs().find(|l| l.code() == code)
    }

    /// The URL path prefix of a language: `/` for the default one, `/<code>/` for the others.
    pub fn lang_prefix(&self, lang: &Lang) -> String {
        if *lang == self.default_lang {
            "/".to_string()
        } else {
            format!("/{}/", lang.code())
        }
    }

    /// What a browser follows to reach a site path that starts with `/`: `/blog/a/` for `/a/`
    /// on a site under `/blog/`.
    pub fn href(&self, path: &str) -> String {
        format!("{}{}", self.base_path, path)
    }

    /// An absolute URL for a site path that starts with `/`.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// Where the generator keeps caches between builds (git-ignored): `<root>/.measured`.
    pub fn cache_dir(&self) -> PathBuf {
        self.root.join(paths::CACHE)
    }
}

/// The articles a page of a listing shows when `site.toml` does not say (Hugo's default).
pub const DEFAULT_PAGINATE: usize = 10;

/// The `[languages.*]` tables, the default language first, and the default language (`None`
/// when it has no table: an error in `diags`).
fn languages_of(
    languages: BTreeMap<String, RawLanguage>,
    default_language: &str,
    err: &impl Fn(&str, String) -> Diagnostic,
    place_of: &impl Fn(&str) -> Place,
    diags: &mut Diagnostics,
) -> (Vec<LanguageConfig>, Option<Lang>) {
    let mut langs = Vec::new();
    for (code, l) in languages {
        let RawLanguage {
            title,
            description,
            menu,
            footer,
        } = l;
        let menu = menu_of(menu.unwrap_or_default(), place_of, diags);
        match Lang::parse(&code) {
            Ok(lang) => langs.push(LanguageConfig {
                lang,
                title,
                description: description.unwrap_or_default(),
                menu,
                footer: footer.filter(|f| !f.trim().is_empty()),
            }),
            Err(m) => diags.push(err("[languages", m)),
        }
    }
    let default_lang = match langs.iter().position(|l| l.lang.code() == default_language) {
        Some(i) => {
            let l = langs.remove(i);
            let lang = l.lang.clone();
            langs.insert(0, l);
            Some(lang)
        }
        None => {
            diags.push(err(
                "default_language",
                format!("default_language `{default_language}` has no [languages.{default_language}] table"),
            ));
            None
        }
    };
    (langs, default_lang)
}

/// A language's menu entries, each with the place of its `url` in `site.toml`; an entry with
/// an empty name, or a URL that is neither a site path nor an absolute one, is an error.
fn menu_of(
    raw: Vec<RawMenuItem>,
    place_of: &impl Fn(&str) -> Place,
    diags: &mut Diagnostics,
) -> Vec<MenuItem> {
    let mut menu = Vec::new();
    for RawMenuItem { name, url } in raw {
        let place = place_of(&url);
        let absolute = ["https://", "http://", "mailto:"]
            .iter()
            .any(|s| url.starts_with(s));
        let problem = if name.trim().is_empty() {
            Some(format!("the menu entry for `{url}` has an empty name"))
        } else if !(absolute || url.starts_with('/') && !url.starts_with("//")) {
            Some(format!(
                "the menu entry `{name}` has the URL `{url}`, which is neither a page of the site nor an address elsewhere"
            ))
        } else {
            None
        };
        match problem {
            Some(message) => diags.push(Diagnostic::new(place, message).with_hint(
                "write a page of the site from its root, `/about/` (or `/en/about/`), or a whole address, `https://…`",
            )),
            None => menu.push(MenuItem { name, url, place }),
        }
    }
    menu
}

/// Reads and validates `<root>/site.toml`.
pub fn load(root: &Path) -> Result<SiteConfig, Diagnostics> {
    let path = root.join("site.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Diagnostic::new(
            Place::file(&path),
            format!("cannot read the site configuration: {e}"),
        )
        .with_hint("run measured in the folder that holds site.toml, or pass --root DIR")
    })?;
    parse(root, &path, &text)
}

/// Parses the text of a `site.toml` found at `path`.
pub fn parse(root: &Path, path: &Path, text: &str) -> Result<SiteConfig, Diagnostics> {
    let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    validate(root, path, text, raw)
}

fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Diagnostic {
    let (place, line) = match e.span() {
        Some(span) => {
            let (line, col) = measured_core::diag::line_col(text, span.start);
            (Place::at(path, line, col), line)
        }
        None => (Place::file(path), 0),
    };
    let message = e.message().to_string();
    let hint = if message.starts_with("unknown field") {
        "remove the key or fix its spelling; docs/authoring.md lists the keys of site.toml"
    } else {
        "site.toml needs base_url, default_language and a [languages.<code>] table with a title for each language"
    };
    Diagnostic::new(place, format!("site.toml: {message}"))
        .with_line_of(text, line)
        .with_hint(hint)
}

fn validate(
    root: &Path,
    path: &Path,
    text: &str,
    raw: RawConfig,
) -> Result<SiteConfig, Diagnostics> {
    let RawConfig {
        base_url,
        default_language,
        languages,
        author,
        show_untranslated,
        feed_limit,
        paginate,
        experiments,
        claims,
        machines,
        highlight,
        search,
        cards,
        hosts,
        tags,
        redirects,
    } = raw;
    let mut diags = Diagnostics::default();
    let err = |key: &str, msg: String| at_key(path, text, key, msg);
    check_base_url(&base_url, &err, &mut diags);
    let place_of = |url: &str| menu_place(path, text, url);
    // Which of the folders `site.toml` may move it does move (paths::MOVABLE's order).
    let set = [
        experiments.as_ref().and_then(|e| e.dir.clone()),
        experiments.as_ref().and_then(|e| e.frozen_dir.clone()),
        machines.as_ref().and_then(|m| m.dir.clone()),
    ];
    texts::check(path, text, author.as_deref(), &languages, &mut diags);
    let (langs, default_lang) =
        languages_of(languages, &default_language, &err, &place_of, &mut diags);
    let experiments = experiments
        .unwrap_or_default()
        .validate(root, &err, &mut diags);
    let claims = claims.unwrap_or_default().validate();
    let machines = machines
        .unwrap_or_default()
        .validate(root, &err, &mut diags);
    let (light, dark) = highlight.map_or((None, None), |h| (h.light_theme, h.dark_theme));
    paths::check_moved(
        root,
        [&experiments.dir, &experiments.frozen_dir, &machines.dir],
        set,
        &|table, key, msg| paths::at_table_key(path, text, table, key, msg),
        &mut diags,
    );
    let tag_slugs = tags.unwrap_or_default();
    check_tag_slugs(&tag_slugs, &err, &mut diags);
    let hosts = hosts::validate(
        hosts.unwrap_or_default(),
        &hosts::Source {
            root,
            path,
            text,
            base_url: &base_url,
        },
        &mut diags,
    );
    let redirects = redirects::validate(redirects.unwrap_or_default(), path, text, &mut diags);
    let Some(default_lang) = default_lang else {
        return Err(diags);
    };
    diags.into_result(())?;
    let base_url = base_url.trim_end_matches('/').to_string();
    Ok(SiteConfig {
        root: root.to_path_buf(),
        base_path: base_path_of(&base_url),
        base_url,
        default_lang,
        languages: langs,
        author: author.unwrap_or_default(),
        show_untranslated: show_untranslated.unwrap_or(true),
        feed_limit: match feed_limit.unwrap_or(20) {
            0 => usize::MAX,
            n => n,
        },
        paginate: std::num::NonZeroUsize::new(paginate.unwrap_or(DEFAULT_PAGINATE)),
        experiments,
        claims,
        machines,
        search: search.and_then(|s| s.enabled).unwrap_or(true),
        cards: cards.and_then(|c| c.enabled).unwrap_or(false),
        highlight_light: light.unwrap_or_else(|| "InspiredGitHub".to_string()),
        highlight_dark: dark.unwrap_or_else(|| "base16-ocean.dark".to_string()),
        tag_slugs,
        hosts,
        redirects,
    })
}

/// A menu entry's place: the line of `text` (the file at `path`) that gives its URL.
fn menu_place(path: &Path, text: &str, url: &str) -> Place {
    let quoted = [format!("\"{url}\""), format!("'{url}'")];
    match text.lines().position(|l| {
        l.trim_start().starts_with("url") && quoted.iter().any(|q| l.contains(q.as_str()))
    }) {
        Some(i) => Place::at(path, i + 1, 1),
        None => Place::file(path),
    }
}

/// A message at the first line of `text` (the file at `path`) that starts with `key`, or at
/// the file when no line does.
fn at_key(path: &Path, text: &str, key: &str, msg: String) -> Diagnostic {
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with(key))
        .map(|i| i + 1);
    match line {
        Some(l) => Diagnostic::new(Place::at(path, l, 1), msg).with_line_of(text, l),
        None => Diagnostic::new(Place::file(path), msg),
    }
}

/// Each slug of `[tags]` is a URL segment.
fn check_tag_slugs(
    tag_slugs: &BTreeMap<String, String>,
    err: &dyn Fn(&str, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    for (name, slug) in tag_slugs {
        if let Some(problem) = measured_core::urls::segment_problem(slug) {
            diags.push(
                err(
                    "[tags]",
                    format!(
                        "[tags] {name:?} = {slug:?}: the slug cannot be a URL segment: {problem}"
                    ),
                )
                .with_hint(format!(
                    "a URL segment holds {}, e.g. {:?}",
                    measured_core::urls::ALLOWED,
                    measured_core::urls::suggestion(slug)
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "base_url = \"https://example.org/\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Đo thật\"\n[languages.en]\ntitle = \"Measured\"\n";

    fn parse_str(text: &str) -> Result<SiteConfig, Diagnostics> {
        parse(Path::new("/site"), Path::new("/site/site.toml"), text)
    }

    #[test]
    fn minimal_config_gets_defaults_and_default_language_first() {
        let c = parse_str(MINIMAL).unwrap();
        assert_eq!(c.base_url, "https://example.org");
        assert_eq!(
            c.languages
                .iter()
                .map(|l| l.lang.code())
                .collect::<Vec<_>>(),
            ["vi", "en"]
        );
        assert_eq!(c.experiments.timeout, Duration::from_secs(600));
        assert_eq!((c.experiments.runs, c.experiments.quick_runs), (3, 3));
        assert_eq!(
            c.claims,
            ClaimsConfig {
                extra_runs: 6,
                extra_time: Duration::from_secs(600)
            }
        );
        assert_eq!(c.lang_prefix(&c.default_lang), "/");
        assert_eq!(c.lang_prefix(c.lang("en").unwrap()), "/en/");
        assert_eq!(c.paginate.map(|n| n.get()), Some(10));
    }

    #[test]
    fn paginate_is_a_page_size_zero_for_one_page_and_never_negative() {
        let size = |line: &str| {
            let text = format!("{line}\n{MINIMAL}");
            parse_str(&text).map(|c| c.paginate.map(|n| n.get()))
        };
        assert_eq!(size("paginate = 25").unwrap(), Some(25));
        assert_eq!(size("paginate = 0").unwrap(), None);
        let e = size("paginate = -1").unwrap_err().to_string();
        assert!(e.contains("site.toml:1:12"), "{e}");
        let e = size("paginate_by = 5").unwrap_err().to_string();
        assert!(
            e.contains("site.toml:1:1") && e.contains("unknown field `paginate_by`"),
            "{e}"
        );
    }

    #[test]
    fn unknown_key_is_named_with_its_line() {
        let text = format!("{MINIMAL}\n[experiments]\ntimeout_sec = 5\n");
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(e.contains("unknown field `timeout_sec`"), "{e}");
        assert!(e.contains("site.toml:9:1"), "{e}");
    }

    #[test]
    fn missing_required_key_is_an_error() {
        let e = parse_str("default_language = \"vi\"\n[languages.vi]\ntitle = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `base_url`"), "{e}");
    }

    #[test]
    fn default_language_must_exist() {
        let text = MINIMAL.replace("default_language = \"vi\"", "default_language = \"fr\"");
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(
            e.contains("default_language `fr` has no [languages.fr] table"),
            "{e}"
        );
    }

    #[test]
    fn the_primary_machine_is_a_machine_id_and_machines_live_in_machines() {
        let c = parse_str(MINIMAL).unwrap();
        assert_eq!(c.machines.primary, None);
        assert!(c.machines.dir.ends_with("machines"));
        let c = parse_str(&format!("{MINIMAL}[machines]\nprimary = \"big-box\"\n")).unwrap();
        assert_eq!(c.machines.primary.as_deref(), Some("big-box"));
        let e = parse_str(&format!("{MINIMAL}[machines]\nprimary = \"Big Box\"\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("site.toml:8:1: error: [machines] primary: machine id `Big Box` is not lowercase letters, digits and `-`"),
            "{e}"
        );
        let e = parse_str(&format!("{MINIMAL}[machines]\nprimery = \"x\"\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `primery`"), "{e}");
    }

    #[test]
    fn runs_and_the_claims_budget_are_read_and_validated() {
        let text = format!(
            "{MINIMAL}[experiments]\nruns = 5\nquick_runs = 3\n[claims]\nextra_runs = 2\nextra_secs = 30\n"
        );
        let c = parse_str(&text).unwrap();
        assert_eq!(
            (c.experiments.runs_for(false), c.experiments.runs_for(true)),
            (5, 3)
        );
        assert_eq!(c.claims.extra_runs, 2);
        assert_eq!(c.claims.extra_time, Duration::from_secs(30));
        let text = format!("{MINIMAL}[experiments]\nruns = 1\nquick_runs = 1\n");
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(e.contains("site.toml:8:1: error: [experiments] runs = 1: a published value combines at least 3 independent runs"), "{e}");
        assert!(e.contains("site.toml:9:1: error: [experiments] quick_runs = 1: an interval across runs needs at least 2"), "{e}");
        let text = format!("{MINIMAL}[claims]\nextra_run = 2\n");
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(e.contains("unknown field `extra_run`"), "{e}");
    }

    #[test]
    fn a_base_url_with_a_path_gives_the_prefix_of_every_link() {
        let at = |url: &str| MINIMAL.replace("https://example.org/", url);
        let c = parse_str(&at("https://user.github.io/blog/")).unwrap();
        assert_eq!(c.base_url, "https://user.github.io/blog");
        assert_eq!(c.base_path, "/blog");
        assert_eq!(c.href("/a/"), "/blog/a/");
        assert_eq!(c.absolute("/a/"), "https://user.github.io/blog/a/");
        let c = parse_str(&at("http://127.0.0.1:8080/a/b")).unwrap();
        assert_eq!(c.base_path, "/a/b");
        assert_eq!(parse_str(MINIMAL).unwrap().base_path, "");
        assert_eq!(parse_str(MINIMAL).unwrap().href("/a/"), "/a/");
        for (url, problem) in [
            (
                "https://e.org/my blog/",
                "has the path segment `my blog`, which cannot be used: it holds a space",
            ),
            ("https://e.org/blog/?lang=vi", "has a query or a fragment"),
        ] {
            let e = parse_str(&at(url)).unwrap_err().to_string();
            assert!(
                e.contains(&format!("site.toml:1:1: error: base_url `{url}` {problem}")),
                "{e}"
            );
        }
    }

    #[test]
    fn each_language_has_its_menu_in_order_with_the_line_of_each_url() {
        let text = format!(
            "{MINIMAL}[[languages.vi.menu]]\nname = \"Giới thiệu\"\nurl = \"/about/\"\n[[languages.vi.menu]]\nname = \"Mã\"\nurl = 'https://e.org/code'\n"
        );
        let c = parse_str(&text).unwrap();
        let vi: Vec<(&str, &str, Option<usize>)> = c.languages[0]
            .menu
            .iter()
            .map(|m| (m.name.as_str(), m.url.as_str(), m.place.line))
            .collect();
        assert_eq!(
            vi,
            [
                ("Giới thiệu", "/about/", Some(9)),
                ("Mã", "https://e.org/code", Some(12))
            ]
        );
        assert!(c.languages[1].menu.is_empty());
        let text = format!("{MINIMAL}[[languages.en.menu]]\nname = \" \"\nurl = \"/en/\"\n");
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(
            e.contains("site.toml:9:1: error: the menu entry for `/en/` has an empty name"),
            "{e}"
        );
        let text = format!(
            "{MINIMAL}[[languages.en.menu]]\nname = \"A\"\nurl = \"/en/\"\ntitle = \"x\"\n"
        );
        let e = parse_str(&text).unwrap_err().to_string();
        assert!(e.contains("unknown field `title`"), "{e}");
    }
}
