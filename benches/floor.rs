//! The floor of the benchmark: the least work any generator must do on the corpus (read every
//! file, pulldown-cmark alone, syntect alone over every code block), on all cores, and the
//! writing floor: the same, then writing the bytes of a build's output to as many files.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use rayon::prelude::*;
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

use crate::{Res, corpus, median_of};

pub struct Floor {
    pub read: Duration,
    pub cmark: Duration,
    /// Highlighting with a fresh SyntaxSet (load and lazy regex compilation included).
    pub syntect: Duration,
    /// Highlighting again with the same, already compiled SyntaxSet.
    pub warm: Duration,
    /// Highlighting each distinct block once (translations share their code), fresh SyntaxSet.
    pub distinct: Duration,
    pub distinct_blocks: usize,
    pub load: Duration,
    pub blocks: usize,
}

impl Floor {
    pub fn total(&self) -> Duration {
        self.read + self.cmark + self.syntect
    }

    /// The floor of a generator that highlights each distinct block once, as ours does.
    pub fn total_distinct(&self) -> Duration {
        self.read + self.cmark + self.distinct
    }
}

/// The least work any generator must do on this corpus: read every file, turn its Markdown into
/// HTML, and highlight every code block (classed HTML, the default Oniguruma engine, as ours).
pub fn floor(corpus: &corpus::Corpus, runs: usize) -> Res<Floor> {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(corpus.measured.join("content"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        // Drafts are not built.
        .filter(|p| !std::fs::read_to_string(p).is_ok_and(|t| t.contains("\ndraft: true\n")))
        .collect();
    let read = || -> Vec<String> {
        files
            .par_iter()
            .map(|p| std::fs::read_to_string(p).unwrap_or_default())
            .collect()
    };
    let mut texts = read();
    let read_time = median_of(runs, || texts = read());
    let cmark_time = median_of(runs, || {
        texts.par_iter().for_each(|t| {
            let mut html = String::with_capacity(t.len() * 2);
            pulldown_cmark::html::push_html(
                &mut html,
                Parser::new_ext(body_of(t), measured::markdown::options()),
            );
            std::hint::black_box(html);
        });
    });
    let blocks: Vec<(String, String)> = texts
        .par_iter()
        .flat_map_iter(|t| code_blocks(body_of(t)))
        .collect();
    // A fresh SyntaxSet per run: a build pays for loading it and for compiling the regexes
    // its blocks use (syntect compiles them lazily); the warm pass reuses the compiled set.
    // bat's set, the one `measured` highlights with: syntect's own has no TOML, whose blocks
    // the floor then skipped (the cost a line is about the same in both for the other nine
    // languages of the corpus).
    let syntect_runs = runs.min(3);
    let mut warm_set = None;
    let syntect_time = median_of(syntect_runs, || {
        let set = two_face::syntax::extra_newlines();
        highlight_all(&set, &blocks);
        warm_set = Some(set);
    });
    let warm_set = warm_set.expect("at least one run");
    let warm = median_of(syntect_runs, || highlight_all(&warm_set, &blocks));
    let distinct: Vec<(String, String)> = {
        let mut seen = std::collections::HashSet::new();
        blocks.iter().filter(|b| seen.insert(*b)).cloned().collect()
    };
    let distinct_time = median_of(syntect_runs, || {
        highlight_all(&two_face::syntax::extra_newlines(), &distinct)
    });
    let started = Instant::now();
    std::hint::black_box(two_face::syntax::extra_newlines());
    let load = started.elapsed();
    Ok(Floor {
        read: read_time,
        cmark: cmark_time,
        syntect: syntect_time,
        warm,
        distinct: distinct_time,
        distinct_blocks: distinct.len(),
        load,
        blocks: blocks.len(),
    })
}

fn highlight_all(syntaxes: &SyntaxSet, blocks: &[(String, String)]) {
    blocks.par_iter().for_each(|(token, code)| {
        let Some(syntax) = syntaxes.find_syntax_by_token(token) else {
            return;
        };
        let mut g = ClassedHTMLGenerator::new_with_class_style(
            syntax,
            syntaxes,
            ClassStyle::SpacedPrefixed { prefix: "z-" },
        );
        for line in LinesWithEndings::from(code) {
            let _ = g.parse_html_for_line_which_includes_newline(line);
        }
        std::hint::black_box(g.finalize());
    });
}

/// The Markdown after the front matter.
fn body_of(text: &str) -> &str {
    text.strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(text, |(_, body)| body)
}

/// The fenced code blocks with a language (experiment blocks are not code).
fn code_blocks(body: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new_ext(body, measured::markdown::options()) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if !info.starts_with("experiment") =>
            {
                current = Some((info.to_string(), String::new()));
            }
            Event::Text(t) => {
                if let Some((_, code)) = &mut current {
                    code.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

/// The files of a build's output, to write again: each path (relative) and its bytes.
pub struct Written {
    folders: Vec<PathBuf>,
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl Written {
    /// Every file and folder under `dir`, read into memory.
    pub fn read(dir: &std::path::Path) -> Res<Written> {
        let mut folders = Vec::new();
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dir).min_depth(1) {
            let entry = entry?;
            let rel = entry.path().strip_prefix(dir)?.to_path_buf();
            if entry.file_type().is_dir() {
                folders.push(rel);
            } else if entry.file_type().is_file() {
                files.push((rel, std::fs::read(entry.path())?));
            }
        }
        Ok(Written { folders, files })
    }

    pub fn files(&self) -> usize {
        self.files.len()
    }

    pub fn bytes(&self) -> usize {
        self.files.iter().map(|(_, b)| b.len()).sum()
    }

    /// The least a build must do to put these files on disk: make the folders, then write
    /// every file on all cores, into a new folder under `base` for each of `runs` runs (after
    /// `sync`, as the builds), all removed at the end. The median.
    pub fn time(&self, base: &std::path::Path, runs: usize) -> Res<Duration> {
        let mut times = Vec::new();
        for run in 0..runs.max(1) {
            let dest = base.join(format!("write-{run}"));
            let _ = std::fs::remove_dir_all(&dest);
            std::process::Command::new("sync").status()?;
            let started = Instant::now();
            std::fs::create_dir_all(&dest)?;
            for folder in &self.folders {
                std::fs::create_dir(dest.join(folder))?;
            }
            self.files
                .par_iter()
                .try_for_each(|(path, bytes)| std::fs::write(dest.join(path), bytes))?;
            times.push(started.elapsed());
        }
        for run in 0..runs.max(1) {
            let _ = std::fs::remove_dir_all(base.join(format!("write-{run}")));
        }
        Ok(crate::median(times))
    }
}
