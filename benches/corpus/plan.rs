//! One article's plan, decided once from its own seeded generator and written in each of its
//! languages for each generator: a long-tailed length, a code share of its own, a main code
//! language, front matter that varies (tags, series, drafts, dates with and without a time,
//! updates) and translations that are not sentence-for-sentence copies.

use std::fmt::Write as _;

use super::code::{LANGUAGES, code};
use super::text::{FORMATS, HEADINGS, ITEMS, LINK_TEXTS, ROWS, SENTENCES, TAGS, TOPICS};
use super::{CodeVariant, Flavor, Lang, Rng, presence, slug};

/// Which of an article's languages a block is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Both,
    Only(Lang),
}

/// One block of an article's body.
enum Block {
    Heading(usize),
    /// Sentence ids in Vietnamese and in English (a translation drops and adds some), a link.
    Paragraph(Vec<usize>, Vec<usize>, Option<(usize, usize)>),
    List(bool, Vec<usize>),
    Table(Vec<[u32; 3]>),
    /// A fence token, the lines drawn, the code, and the English translation's own code when
    /// the translations' code differs ([`CodeVariant::Differing`]).
    Code(&'static str, usize, String, Option<String>),
    Values,
    Experiment,
}

/// An inclusive range of counts.
type Span = (usize, usize);

/// How long an article is: its share in percent, sections, paragraphs a section.
const LENGTHS: [(u64, Span, Span); 4] = [
    (50, (1, 3), (1, 3)),  // half the articles are short notes
    (30, (3, 6), (2, 3)),  // medium
    (15, (6, 10), (2, 4)), // long
    (5, (12, 30), (2, 5)), // a few very long ones
];

/// Everything about one article, decided once.
pub struct Plan {
    index: usize,
    topic: usize,
    pub vi: bool,
    pub en: bool,
    pub draft: bool,
    date: String,
    updated: Option<String>,
    described: bool,
    tags: Vec<usize>,
    /// Series number and part, for the articles of a series.
    series: Option<(usize, usize)>,
    blocks: Vec<(Which, Block)>,
}

/// An article's code: how likely each section has a block, how many lines, its main language.
struct CodeStyle {
    chance: u64,
    lines: (usize, usize),
    per_section: usize,
    main: &'static str,
}

impl Plan {
    pub fn new(index: usize, articles: usize, seed: u64, variant: CodeVariant) -> Plan {
        let here = presence(seed, index);
        let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x1000_0001));
        let topic = rng.range(0, TOPICS.len() - 1);
        let (y, m, d) = (2000 + index / 336, index / 28 % 12 + 1, index % 28 + 1);
        let date = if rng.chance(30) {
            let (h, min) = (rng.range(6, 23), rng.range(0, 59));
            format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:00+07:00")
        } else {
            format!("{y:04}-{m:02}-{d:02}")
        };
        let updated = (d < 28 && rng.chance(15))
            .then(|| format!("{y:04}-{m:02}-{:02}", rng.range(d + 1, 28)));
        let mut tags = Vec::new();
        for _ in 0..rng.range(0, 5) {
            // Popular tags are popular: the square skews the draw towards the first ones.
            let u = rng.range(0, 999) as f64 / 1000.0;
            let t = (u * u * TAGS.len() as f64) as usize;
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        let group = index / 6;
        let series = Rng::new(seed ^ 0x5e71e5 ^ group as u64)
            .chance(35)
            .then_some((group, index % 6 + 1));
        let style = code_style(&mut rng);
        let both = here.vi && here.en;
        let mut blocks: Vec<(Which, Block)> = vec![
            (
                Which::Both,
                paragraph(&mut rng, both, (2, 4), seed, articles, false),
            ),
            (Which::Both, Block::Values),
        ];
        let length = pick_length(&mut rng);
        let sections = rng.range(length.0.0, length.0.1);
        let experiment_at = rng.range(0, sections - 1);
        for s in 0..sections {
            blocks.push((Which::Both, Block::Heading(s)));
            let ctx = Section {
                both,
                paragraphs: length.1,
                style: &style,
                seed,
                articles,
            };
            section(&mut rng, &ctx, &mut blocks);
            if s == experiment_at {
                blocks.push((Which::Both, Block::Experiment));
            }
        }
        if both && variant == CodeVariant::Differing {
            english_code(&mut blocks, seed, index);
        }
        Plan {
            index,
            topic,
            vi: here.vi,
            en: here.en,
            draft: here.draft,
            date,
            updated,
            described: rng.chance(80),
            tags,
            series,
            blocks,
        }
    }

    /// The languages this article is written in.
    pub fn langs(&self) -> impl Iterator<Item = Lang> + '_ {
        [Lang::Vi, Lang::En]
            .into_iter()
            .filter(|l| if *l == Lang::Vi { self.vi } else { self.en })
    }

    /// Fenced code blocks in `lang`'s file.
    pub fn code_count(&self, lang: Lang) -> usize {
        self.blocks
            .iter()
            .filter(|(w, b)| matches!(b, Block::Code(..)) && shown(*w, lang))
            .count()
    }

    pub fn render(&self, lang: Lang, flavor: Flavor) -> String {
        let mut out = String::with_capacity(8000);
        self.front_matter(&mut out, lang, flavor);
        for (which, block) in &self.blocks {
            if shown(*which, lang) {
                out.push('\n');
                self.block(&mut out, block, lang, flavor);
            }
        }
        out
    }

    fn title(&self, lang: Lang) -> String {
        let topic = lang.of(&TOPICS[self.topic]);
        match lang {
            Lang::Vi => format!("Đo {topic}, bài số {}", self.index + 1),
            Lang::En => format!("Measuring {topic}, article {}", self.index + 1),
        }
    }

    fn front_matter(&self, out: &mut String, lang: Lang, flavor: Flavor) {
        let tags: Vec<String> = self
            .tags
            .iter()
            .map(|&t| format!("\"{}\"", lang.of(&TAGS[t])))
            .collect();
        let series = self.series.map(|(s, part)| {
            let name = match lang {
                Lang::Vi => format!("Loạt bài số {}", s + 1),
                Lang::En => format!("Series {}", s + 1),
            };
            (name, part)
        });
        let description = self.described.then(|| match lang {
            Lang::Vi => format!(
                "Chúng tôi đo {} trên máy hai nhân và ghi lại mọi con số, kèm điều kiện đo.",
                lang.of(&TOPICS[self.topic])
            ),
            Lang::En => format!(
                "We measure {} on a two-core machine and record every number with how it was measured.",
                lang.of(&TOPICS[self.topic])
            ),
        });
        let fields = FrontMatter {
            title: self.title(lang),
            date: &self.date,
            updated: self.updated.as_deref(),
            description,
            tags: tags.join(", "),
            series,
            draft: self.draft,
        };
        match flavor {
            Flavor::Zola => fields.toml(out),
            Flavor::Measured | Flavor::Hugo => fields.yaml(out, flavor),
        }
    }

    fn block(&self, out: &mut String, block: &Block, lang: Lang, flavor: Flavor) {
        match block {
            Block::Heading(s) => {
                let _ = writeln!(
                    out,
                    "## {} {}",
                    lang.of(&HEADINGS[(self.index + s) % HEADINGS.len()]),
                    s + 1
                );
            }
            Block::Paragraph(vi, en, link) => {
                let ids = if lang == Lang::Vi { vi } else { en };
                let text: Vec<&str> = ids.iter().map(|&k| lang.of(&SENTENCES[k])).collect();
                out.push_str(&text.join(" "));
                if let Some((target, words)) = link {
                    let _ = write!(
                        out,
                        " {} [{}]({}{}/).",
                        lang.of(&("Xem thêm", "See also")),
                        lang.of(&LINK_TEXTS[*words]),
                        lang.prefix(),
                        slug(*target)
                    );
                }
                out.push('\n');
            }
            Block::List(ordered, items) => {
                for (n, &k) in items.iter().enumerate() {
                    let bullet = if *ordered {
                        format!("{}.", n + 1)
                    } else {
                        "-".into()
                    };
                    let _ = writeln!(out, "{bullet} {}", lang.of(&ITEMS[k]));
                }
            }
            Block::Table(rows) => {
                let head = lang.of(&(
                    "| Định dạng | Số byte | Thời gian (µs) |",
                    "| Format | Bytes | Time (µs) |",
                ));
                let _ = writeln!(out, "{head}\n|---|---:|---:|");
                for [f, b, t] in rows {
                    let _ = writeln!(out, "| {} | {b} | {t} |", FORMATS[*f as usize]);
                }
            }
            Block::Code(token, _, vi, en) => {
                let code = match (lang, en) {
                    (Lang::En, Some(en)) => en,
                    _ => vi,
                };
                let _ = writeln!(out, "```{token}\n{code}```");
            }
            Block::Values => values(out, lang, flavor),
            Block::Experiment => experiment(out, lang, flavor),
        }
    }
}

/// Gives each code block of a translated article an English version of its own: the same
/// language and length, other names and numbers, drawn from a generator of its own so that the
/// rest of the article (and the Vietnamese code) is what [`CodeVariant::Shared`] writes.
fn english_code(blocks: &mut [(Which, Block)], seed: u64, index: usize) {
    let mut rng = Rng::new(seed ^ 0x656e_636f_6465 ^ (index as u64).wrapping_mul(0x3000_0005));
    for (_, block) in blocks {
        if let Block::Code(token, lines, _, en) = block {
            *en = Some(code(&mut rng, token, *lines));
        }
    }
}

fn shown(which: Which, lang: Lang) -> bool {
    match which {
        Which::Both => true,
        Which::Only(l) => l == lang,
    }
}

fn pick_length(rng: &mut Rng) -> (Span, Span) {
    let mut roll = rng.range(0, 99) as u64;
    for (share, sections, paragraphs) in LENGTHS {
        if roll < share {
            return (sections, paragraphs);
        }
        roll -= share;
    }
    (LENGTHS[0].1, LENGTHS[0].2)
}

/// A third of the articles are prose only, some have a block here and there, a fifth are
/// mostly code; each has a main language (seven blocks in ten), as a real post has.
fn code_style(rng: &mut Rng) -> CodeStyle {
    let main = *rng.pick(LANGUAGES);
    match rng.range(0, 99) {
        0..30 => CodeStyle {
            chance: 0,
            lines: (0, 0),
            per_section: 0,
            main,
        },
        30..80 => CodeStyle {
            chance: 45,
            lines: (2, 12),
            per_section: 1,
            main,
        },
        _ => CodeStyle {
            chance: 95,
            lines: (6, 40),
            per_section: 3,
            main,
        },
    }
}

/// What the blocks of a section are drawn from.
struct Section<'a> {
    both: bool,
    paragraphs: (usize, usize),
    style: &'a CodeStyle,
    seed: u64,
    articles: usize,
}

fn section(rng: &mut Rng, ctx: &Section, blocks: &mut Vec<(Which, Block)>) {
    for _ in 0..rng.range(ctx.paragraphs.0, ctx.paragraphs.1) {
        let which = translated_only(rng, ctx.both, 8, 4);
        let p = paragraph(rng, ctx.both, (2, 6), ctx.seed, ctx.articles, true);
        blocks.push((which, p));
    }
    if rng.chance(40) {
        let items = (0..rng.range(3, 6))
            .map(|_| rng.range(0, ITEMS.len() - 1))
            .collect();
        let which = translated_only(rng, ctx.both, 10, 0);
        blocks.push((which, Block::List(rng.chance(40), items)));
    }
    if rng.chance(25) {
        let rows = (0..rng.range(3, 7))
            .map(|_| {
                [
                    rng.range(0, 4) as u32,
                    rng.range(10, 99_999) as u32,
                    rng.range(1, 999) as u32,
                ]
            })
            .collect();
        blocks.push((Which::Both, Block::Table(rows)));
    }
    let style = ctx.style;
    if style.per_section > 0 && rng.chance(style.chance) {
        for _ in 0..rng.range(1, style.per_section) {
            let lang = if rng.chance(70) {
                style.main
            } else {
                *rng.pick(LANGUAGES)
            };
            let lines = rng.range(style.lines.0, style.lines.1);
            blocks.push((
                Which::Both,
                Block::Code(lang, lines, code(rng, lang, lines), None),
            ));
        }
    }
}

/// For a translated article, a block now and then written in one language only.
fn translated_only(rng: &mut Rng, both: bool, vi_percent: u64, en_percent: u64) -> Which {
    let roll = rng.next_u64() % 100;
    if !both {
        Which::Both
    } else if roll < vi_percent {
        Which::Only(Lang::Vi)
    } else if roll < vi_percent + en_percent {
        Which::Only(Lang::En)
    } else {
        Which::Both
    }
}

/// A paragraph: its Vietnamese sentences, the English ones (a translation leaves some out and
/// says some things twice), and maybe a link to a published article in both languages.
fn paragraph(
    rng: &mut Rng,
    both: bool,
    (lo, hi): (usize, usize),
    seed: u64,
    articles: usize,
    linked: bool,
) -> Block {
    let vi: Vec<usize> = (0..rng.range(lo, hi))
        .map(|_| rng.range(0, SENTENCES.len() - 1))
        .collect();
    let mut en = Vec::with_capacity(vi.len() + 1);
    for &k in &vi {
        if !both || !rng.chance(12) {
            en.push(k);
        }
        if both && rng.chance(10) {
            en.push(rng.range(0, SENTENCES.len() - 1));
        }
    }
    if en.is_empty() {
        en.push(vi[0]);
    }
    let link = (linked && rng.chance(35))
        .then(|| {
            (0..8).map(|_| rng.range(0, articles - 1)).find(|&t| {
                let p = presence(seed, t);
                p.vi && p.en && !p.draft
            })
        })
        .flatten()
        .map(|target| (target, rng.range(0, LINK_TEXTS.len() - 1)));
    Block::Paragraph(vi, en, link)
}

/// An article's front matter, written as YAML (measured, Hugo) or TOML (Zola).
struct FrontMatter<'a> {
    title: String,
    date: &'a str,
    updated: Option<&'a str>,
    description: Option<String>,
    /// Quoted and joined by ", ".
    tags: String,
    series: Option<(String, usize)>,
    draft: bool,
}

impl FrontMatter<'_> {
    fn yaml(&self, out: &mut String, flavor: Flavor) {
        let _ = writeln!(out, "---\ntitle: \"{}\"\ndate: {}", self.title, self.date);
        if let Some(updated) = self.updated {
            let key = if flavor == Flavor::Hugo {
                "lastmod"
            } else {
                "updated"
            };
            let _ = writeln!(out, "{key}: {updated}");
        }
        if let Some(d) = &self.description {
            let _ = writeln!(out, "description: \"{d}\"");
        }
        if !self.tags.is_empty() {
            let _ = writeln!(out, "tags: [{}]", self.tags);
        }
        if let Some((name, part)) = &self.series {
            if flavor == Flavor::Hugo {
                let _ = writeln!(out, "series: [\"{name}\"]\npart: {part}");
            } else {
                let _ = writeln!(out, "series: \"{name}\"\npart: {part}");
            }
        }
        if self.draft {
            out.push_str("draft: true\n");
        }
        out.push_str("---\n");
    }

    fn toml(&self, out: &mut String) {
        let _ = writeln!(out, "+++\ntitle = \"{}\"\ndate = {}", self.title, self.date);
        if let Some(updated) = self.updated {
            let _ = writeln!(out, "updated = {updated}");
        }
        if let Some(d) = &self.description {
            let _ = writeln!(out, "description = \"{d}\"");
        }
        if self.draft {
            out.push_str("draft = true\n");
        }
        out.push_str("\n[taxonomies]\n");
        if !self.tags.is_empty() {
            let _ = writeln!(out, "tags = [{}]", self.tags);
        }
        if let Some((name, part)) = &self.series {
            let _ = writeln!(out, "series = [\"{name}\"]\n\n[extra]\npart = {part}");
        }
        out.push_str("+++\n");
    }
}

/// A paragraph with four inline values: references for `measured`, plain text for the others.
fn values(out: &mut String, lang: Lang, flavor: Flavor) {
    let [ops, size, speedup, latency] = match (flavor, lang) {
        (Flavor::Measured, _) => [
            "{{ bench.throughput | int }}",
            "{{ bench.size | bytes }}",
            "{{ bench.speedup | ratio }}",
            "{{ bench.latency }}",
        ],
        (_, Lang::Vi) => ["48.213", "1,21 KB", "2,4×", "391 µs"],
        (_, Lang::En) => ["48,213", "1.21 KB", "2.4×", "391 µs"],
    };
    let text = match lang {
        Lang::Vi => format!(
            "Trên máy đo, chương trình xử lý {ops} thao tác mỗi giây; mỗi bản ghi chiếm {size}, nhanh gấp {speedup} so với cách làm cũ, và độ trễ trung vị là {latency}."
        ),
        Lang::En => format!(
            "On the test machine the program handles {ops} operations per second; each record takes {size}, {speedup} faster than the old way, and the median latency is {latency}."
        ),
    };
    out.push_str(&text);
    out.push('\n');
}

/// The experiment block: a table from the frozen results (`measured`), a plain table (others).
fn experiment(out: &mut String, lang: Lang, flavor: Flavor) {
    let (caption, name, bytes, time) = match lang {
        Lang::Vi => (
            "Kích thước và thời gian theo định dạng",
            "Định dạng",
            "Kích thước",
            "Mã hóa",
        ),
        Lang::En => ("Size and time by format", "Format", "Size", "Encode"),
    };
    if flavor == Flavor::Measured {
        let _ = writeln!(
            out,
            "```experiment bench\ntable: rows\ncaption: {caption}\ncolumn: name | {name}\ncolumn: bytes | {bytes} | bytes\ncolumn: time | {time} | duration\n```"
        );
        return;
    }
    let _ = writeln!(out, "| {name} | {bytes} | {time} |\n|---|---:|---:|");
    for (f, b, t) in ROWS {
        let _ = writeln!(out, "| {f} | {b} B | {} µs |", t / 1000);
    }
    let _ = writeln!(out, "\n*{caption}*");
}
