//! `measured import <hugo|zola|jekyll> SRC`: another generator's blog converted into measured's
//! layout, as stages: find the posts in SRC ([`source`]), map each front matter ([`front`])
//! and body ([`body`]), compute the old URLs ([`old_urls`]), then check and write the files
//! under the root ([`write`]). SRC is only read; nothing is written unless every file can be.

mod body;
mod front;
mod old_urls;
mod report;
mod source;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::lang::Lang;

pub use report::{Note, Report};
use source::Post;

/// The generator a blog comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Generator {
    Hugo,
    Zola,
    Jekyll,
}

impl Generator {
    pub fn name(self) -> &'static str {
        match self {
            Generator::Hugo => "Hugo",
            Generator::Zola => "Zola",
            Generator::Jekyll => "Jekyll",
        }
    }
}

/// What `measured import` was asked to do.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub generator: Generator,
    /// The other generator's site (its root, holding `content/` or `_posts/`).
    pub src: PathBuf,
    /// measured's site root, where `content/` is written.
    pub root: PathBuf,
    /// Overwrite files whose text differs from what the import writes.
    pub force: bool,
}

/// One file the import would write, relative to the root, with what it came from.
struct Planned {
    dest: PathBuf,
    bytes: Vec<u8>,
    from: PathBuf,
}

/// Imports the blog at `opts.src` into `opts.root`; the report says what was done and what
/// is left to do by hand.
pub fn run(opts: &ImportOptions) -> Result<Report, Diagnostics> {
    let default_lang = default_lang(&opts.root)?;
    let found = source::find(opts.generator, &opts.src)?;
    let mut report = Report {
        notes: found.notes,
        site_toml_missing: !opts.root.join("site.toml").is_file(),
        default_lang: default_lang.code().to_string(),
        ..Report::default()
    };
    let mut planned = Vec::new();
    let mut diags = Diagnostics::default();
    let mut folders: BTreeMap<String, PathBuf> = BTreeMap::new();
    for group in source::group(found.posts, found.lang.as_ref(), &default_lang) {
        match article(opts, &default_lang, &group, &mut report) {
            Ok((slug, files)) => {
                let first = group[0].rel.clone();
                if let Some(other) = folders.insert(slug.clone(), first.clone()) {
                    diags.push(
                        Diagnostic::new(
                            Place::file(opts.src.join(&first)),
                            format!(
                                "this post and {} would both be content/{slug}/",
                                other.display()
                            ),
                        )
                        .with_hint(
                            "give one of them another `slug:` in SRC, or import them one at a time",
                        ),
                    );
                }
                planned.extend(files);
            }
            Err(d) => diags.extend(d),
        }
    }
    diags.into_result(())?;
    // Two articles may show one static image.
    planned.sort_by(|a, b| a.dest.cmp(&b.dest));
    planned.dedup_by(|a, b| a.dest == b.dest && a.bytes == b.bytes);
    report.images += planned
        .iter()
        .filter(|p| p.dest.starts_with("static"))
        .count();
    let outcome = write::write_all(&opts.root, &opts.src, &planned, opts.force)?;
    report.written = outcome.written;
    report.unchanged = outcome.unchanged;
    Ok(report)
}

/// The site's default language: from `ROOT/site.toml` when there is one, else `vi`.
fn default_lang(root: &Path) -> Result<Lang, Diagnostics> {
    if root.join("site.toml").is_file() {
        Ok(crate::config::load(root)?.default_lang)
    } else {
        Ok(Lang::parse("vi").expect("vi is a language code"))
    }
}

/// The files of one article (its translations and its bundle's files), and its folder.
fn article(
    opts: &ImportOptions,
    default_lang: &Lang,
    group: &[Post],
    report: &mut Report,
) -> Result<(String, Vec<Planned>), Diagnostics> {
    one_file_a_language(opts, default_lang, group)?;
    let mut converted = Vec::new();
    for post in group {
        converted.push(front::convert(opts.generator, &opts.src, post)?);
    }
    let slug = front::folder(&opts.src, &group[0], &converted[0])?;
    let bundle = group[0].bundle.as_ref().map(|b| opts.src.join(b));
    let bundle_files = bundle
        .as_deref()
        .map(source::bundle_files)
        .unwrap_or_default();
    let mut files = Vec::new();
    for (post, conv) in group.iter().zip(converted) {
        let lang = post.lang.clone().unwrap_or_else(|| default_lang.clone());
        let new_url = if lang == *default_lang {
            format!("/{slug}/")
        } else {
            format!("/{}/{slug}/", lang.code())
        };
        let mut aliases = conv.aliases.clone();
        aliases.extend(old_urls::old_urls(
            opts.generator,
            post,
            &conv,
            default_lang,
        ));
        let aliases = old_urls::distinct(aliases, &new_url);
        let old_dirs = old_urls::old_dirs(opts.generator, post, &conv, default_lang);
        let text = body_of(opts, post, &conv, &old_dirs, &bundle_files, report);
        files.extend(static_images(opts, post, conv.body_line, &text, report));
        report.aliases += aliases.len();
        files.push(Planned {
            dest: PathBuf::from("content")
                .join(&slug)
                .join(format!("index.{}.md", lang.code())),
            bytes: format!("{}{text}", front::render(&conv, &aliases)).into_bytes(),
            from: post.rel.clone(),
        });
    }
    for rel in &bundle_files {
        let from = bundle.as_deref().unwrap_or(&opts.src).join(rel);
        let bytes = std::fs::read(&from)
            .map_err(|e| crate::diag::io_error(&from, "read the bundle's file", &e))?;
        report.images += 1;
        files.push(Planned {
            dest: PathBuf::from("content").join(&slug).join(rel),
            bytes,
            from: from.strip_prefix(&opts.src).unwrap_or(&from).to_path_buf(),
        });
    }
    report.articles += 1;
    Ok((slug, files))
}

/// An error when two files of `group` are in one language (`x.md` and `x.vi.md` on a site
/// whose default is `vi`): one would silently replace the other.
fn one_file_a_language(
    opts: &ImportOptions,
    default_lang: &Lang,
    group: &[Post],
) -> Result<(), Diagnostics> {
    let Some(pair) = group.windows(2).find(|p| p[0].lang == p[1].lang) else {
        return Ok(());
    };
    let lang = pair[0].lang.as_ref().unwrap_or(default_lang);
    Err(Diagnostic::new(
        Place::file(opts.src.join(&pair[1].rel)),
        format!(
            "this post and {} are both the `{}` version of one article",
            pair[0].rel.display(),
            lang.code()
        ),
    )
    .with_hint("name the translation `x.<lang>.md`, or set the site's default language (`default_language` in site.toml, Hugo's `defaultContentLanguage`)")
    .into())
}

/// The body of `post` as measured reads it (template syntax inert, bundle links relative),
/// with what is left to fix and what was dropped added to the report.
fn body_of(
    opts: &ImportOptions,
    post: &Post,
    conv: &front::Converted,
    old_dirs: &[String],
    bundle_files: &[PathBuf],
    report: &mut Report,
) -> String {
    let file = opts.src.join(&post.rel);
    let inert = body::inert(opts.generator, &file, conv.body_line, &conv.body);
    report.highlights += inert.highlights;
    report.to_fix.extend(inert.notes);
    let (text, rewritten) = body::rewrite_links(&inert.text, old_dirs, bundle_files);
    report.links_rewritten += rewritten;
    report.to_fix.extend(conv.to_fix.iter().cloned());
    report
        .to_fix
        .extend(old_urls::permalink_note(&file, post, conv));
    report.dropped.extend(conv.dropped.iter().cloned());
    text
}

/// The old site's static images the body links at absolute paths (`/images/x.png`), copied to
/// `static/` at the same path so the links still work; a note for each that SRC lacks.
fn static_images(
    opts: &ImportOptions,
    post: &Post,
    body_line: usize,
    text: &str,
    report: &mut Report,
) -> Vec<Planned> {
    let file = opts.src.join(&post.rel);
    let static_dir = match opts.generator {
        Generator::Jekyll => opts.src.clone(),
        _ => opts.src.join("static"),
    };
    let mut files = Vec::new();
    for (line, target) in body::absolute_images(body_line, text) {
        let rel = target.trim_start_matches('/');
        let from = static_dir.join(rel);
        match std::fs::read(&from) {
            Ok(bytes) if from.is_file() => files.push(Planned {
                dest: PathBuf::from("static").join(rel),
                bytes,
                from: from.strip_prefix(&opts.src).unwrap_or(&from).to_path_buf(),
            }),
            _ => report.to_fix.push(Note::at(
                &file,
                line,
                format!("the image `{target}` is not in {}: put it in static/ (same path) or next to the article", static_dir.display()),
            )),
        }
    }
    files
}
