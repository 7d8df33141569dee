//! The benchmark's corpus: N articles, each in Vietnamese, English or both, written from one
//! seed as a `measured` site, a Hugo site and a Zola site, so the three generators build the
//! same text.
//!
//! Every article is planned once from its own seeded generator (`plan.rs`) and written in each
//! of its languages for each generator: a long-tailed length (half are short notes, one in
//! twenty very long), prose-only, ordinary and code-heavy articles with code in ten languages
//! (`code.rs`), tags of skewed popularity, series, drafts, dates with and without a time, and
//! translations that leave out and add sentences and blocks (seven articles in ten are
//! translated, the rest written in one language). Links lead to published articles that exist
//! in both languages. `measured` reads the values from a hand-made `frozen/bench.json`; Hugo
//! and Zola get them as plain text.

mod code;
mod hugo;
mod plan;
mod scaffold;
mod text;
mod zola;

use std::io;
use std::path::{Path, PathBuf};

use plan::Plan;

/// A tiny xorshift64* generator: deterministic, seedable, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() - 1)]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Whether an article's two translations show the same code (a real bilingual blog often
/// shares it, and a generator that highlights each distinct block once then does half the
/// work) or each its own: the same languages and lengths, other names and numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeVariant {
    Shared,
    Differing,
}

impl CodeVariant {
    /// Its name in `BENCH_CODE` and in the report.
    pub fn name(self) -> &'static str {
        match self {
            CodeVariant::Shared => "shared",
            CodeVariant::Differing => "differing",
        }
    }

    pub fn parse(name: &str) -> Option<CodeVariant> {
        [CodeVariant::Shared, CodeVariant::Differing]
            .into_iter()
            .find(|v| v.name() == name)
    }

    /// How the report describes it.
    pub fn describe(self) -> &'static str {
        match self {
            CodeVariant::Shared => "translations share their code",
            CodeVariant::Differing => "each translation has code of its own",
        }
    }
}

/// Where a written corpus lives and what it holds.
pub struct Corpus {
    /// The `measured` site root (holds `site.toml`).
    pub measured: PathBuf,
    /// The Hugo site root (holds `hugo.toml`).
    pub hugo: PathBuf,
    /// The Zola site root (holds `config.toml`).
    pub zola: PathBuf,
    pub articles: usize,
    /// Article pages a build publishes (drafts left out), in all languages.
    pub pages: usize,
    /// Of which: in Vietnamese, in English, and articles in both languages.
    pub vi: usize,
    pub en: usize,
    pub translated: usize,
    /// Markdown files written per site, drafts included.
    pub files: usize,
    /// Bytes of Markdown in the `measured` site.
    pub markdown_bytes: usize,
    /// The smallest, median and largest article file of the `measured` site, in bytes.
    pub sizes: [usize; 3],
    /// Fenced code blocks in the `measured` site (published pages), and prose-only pages.
    pub code_blocks: usize,
    pub prose_only: usize,
    pub variant: CodeVariant,
    seed: u64,
}

impl Corpus {
    /// Path of the Vietnamese Markdown file of article `i` in the `measured` site.
    pub fn article_path(&self, i: usize) -> PathBuf {
        self.measured
            .join("content")
            .join(slug(i))
            .join("index.vi.md")
    }

    /// The first article from `i` on that is published in Vietnamese (one to edit).
    pub fn published_vi(&self, i: usize) -> usize {
        (i..self.articles)
            .find(|&k| {
                let p = presence(self.seed, k);
                p.vi && !p.draft
            })
            .unwrap_or(i)
    }
}

/// Writes `articles` articles under `dir/measured`, `dir/hugo` and `dir/zola`, their
/// translations' code as `variant` says.
pub fn write(dir: &Path, articles: usize, seed: u64, variant: CodeVariant) -> io::Result<Corpus> {
    let measured = dir.join("measured");
    let hugo = dir.join("hugo");
    let zola = dir.join("zola");
    scaffold::write_measured_scaffold(&measured)?;
    hugo::write_hugo_scaffold(&hugo)?;
    zola::write_zola_scaffold(&zola)?;
    let mut corpus = Corpus {
        measured,
        hugo,
        zola,
        articles,
        pages: 0,
        vi: 0,
        en: 0,
        translated: 0,
        files: 0,
        markdown_bytes: 0,
        sizes: [0; 3],
        code_blocks: 0,
        prose_only: 0,
        variant,
        seed,
    };
    let mut sizes = Vec::with_capacity(2 * articles);
    for i in 0..articles {
        let plan = Plan::new(i, articles, seed, variant);
        let published = !plan.draft;
        if published {
            corpus.translated += usize::from(plan.vi && plan.en);
        }
        for lang in plan.langs().collect::<Vec<_>>() {
            let ours = plan.render(lang, Flavor::Measured);
            if published {
                let blocks = plan.code_count(lang);
                corpus.code_blocks += blocks;
                corpus.prose_only += usize::from(blocks == 0);
                corpus.pages += 1;
                if lang == Lang::Vi {
                    corpus.vi += 1;
                } else {
                    corpus.en += 1;
                }
            }
            corpus.files += 1;
            corpus.markdown_bytes += ours.len();
            sizes.push(ours.len());
            let name = format!("index.{}.md", lang.code());
            write_in(&corpus.measured, i, &name, &ours)?;
            write_in(&corpus.hugo, i, &name, &plan.render(lang, Flavor::Hugo))?;
            // Zola's default language has no suffix: `index.md`, `index.en.md`.
            let zola_name = match lang {
                Lang::Vi => "index.md".to_string(),
                Lang::En => name,
            };
            write_in(
                &corpus.zola,
                i,
                &zola_name,
                &plan.render(lang, Flavor::Zola),
            )?;
        }
    }
    sizes.sort_unstable();
    if let (Some(first), Some(last)) = (sizes.first(), sizes.last()) {
        corpus.sizes = [*first, sizes[sizes.len() / 2], *last];
    }
    Ok(corpus)
}

fn write_in(root: &Path, i: usize, name: &str, text: &str) -> io::Result<()> {
    let folder = root.join("content").join(slug(i));
    std::fs::create_dir_all(&folder)?;
    std::fs::write(folder.join(name), text)
}

/// Rewrites the Vietnamese file of article `i` with one sentence changed (`edit` varies it).
pub fn edit_article(corpus: &Corpus, i: usize, edit: usize) -> io::Result<()> {
    let path = corpus.article_path(i);
    let text = std::fs::read_to_string(&path)?;
    let marker = "\n\n";
    let cut = text.rfind(marker).unwrap_or(text.len());
    let edited = format!(
        "{}\n\nMột câu vừa được sửa, lần thứ {edit}: tác giả đang viết lại đoạn kết.{}",
        &text[..cut],
        &text[cut..]
    );
    std::fs::write(path, edited)
}

/// Which languages article `i` is written in and whether it is a draft: a function of the
/// seed and the index alone, so that links can be drawn to articles that exist.
#[derive(Clone, Copy)]
pub struct Presence {
    pub vi: bool,
    pub en: bool,
    pub draft: bool,
}

pub fn presence(seed: u64, i: usize) -> Presence {
    let mut rng = Rng::new(seed ^ 0x7072_6573 ^ (i as u64).wrapping_mul(0x2000_0003));
    let (vi, en) = match rng.range(0, 99) {
        0..70 => (true, true),
        70..92 => (true, false),
        _ => (false, true),
    };
    Presence {
        vi,
        en,
        draft: rng.chance(3),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Vi,
    En,
}

impl Lang {
    fn code(self) -> &'static str {
        match self {
            Lang::Vi => "vi",
            Lang::En => "en",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            Lang::Vi => "/",
            Lang::En => "/en/",
        }
    }

    fn of<'a>(self, pair: &'a (&'a str, &'a str)) -> &'a str {
        match self {
            Lang::Vi => pair.0,
            Lang::En => pair.1,
        }
    }
}

/// Which generator a file is written for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Measured,
    Hugo,
    Zola,
}

fn slug(i: usize) -> String {
    format!("a{i:05}")
}
