//! The benchmark's corpus: N articles × 2 languages (vi, en) written, from one seed, both as a
//! `measured` site and as the same site for Hugo, so the two generators build the same text.
//!
//! Every article is planned once from its own seeded generator and written in both languages
//! and both formats from that plan: prose from aligned Vietnamese/English sentences, headings,
//! lists, tables, links to other articles (all of which exist), tags, series, distinct code
//! blocks in five languages, inline values and one experiment table. `measured` reads the
//! values from a hand-made `frozen/bench.json`; Hugo gets them as plain text.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

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

/// Where a written corpus lives and what it holds.
pub struct Corpus {
    /// The `measured` site root (holds `site.toml`).
    pub measured: PathBuf,
    /// The Hugo site root (holds `hugo.toml`).
    pub hugo: PathBuf,
    pub articles: usize,
    /// Markdown files written per site (articles × 2).
    pub files: usize,
    /// Bytes of Markdown in the `measured` site.
    pub markdown_bytes: usize,
    /// Fenced code blocks in the `measured` site (both languages).
    pub code_blocks: usize,
}

impl Corpus {
    /// Path of the Vietnamese Markdown file of article `i` in the `measured` site.
    pub fn article_path(&self, i: usize) -> PathBuf {
        self.measured
            .join("content")
            .join(slug(i))
            .join("index.vi.md")
    }
}

/// Writes `articles` articles × 2 languages under `dir/measured` and `dir/hugo`.
pub fn write(dir: &Path, articles: usize, seed: u64) -> io::Result<Corpus> {
    let measured = dir.join("measured");
    let hugo = dir.join("hugo");
    write_measured_scaffold(&measured)?;
    write_hugo_scaffold(&hugo)?;
    let mut markdown_bytes = 0;
    let mut code_blocks = 0;
    for i in 0..articles {
        let plan = Plan::new(i, articles, seed);
        code_blocks += 2 * plan.code_count();
        let folder = measured.join("content").join(slug(i));
        let hugo_folder = hugo.join("content").join(slug(i));
        std::fs::create_dir_all(&folder)?;
        std::fs::create_dir_all(&hugo_folder)?;
        for lang in [Lang::Vi, Lang::En] {
            let ours = plan.render(lang, Flavor::Measured);
            markdown_bytes += ours.len();
            std::fs::write(folder.join(format!("index.{}.md", lang.code())), ours)?;
            std::fs::write(
                hugo_folder.join(format!("index.{}.md", lang.code())),
                plan.render(lang, Flavor::Hugo),
            )?;
        }
    }
    Ok(Corpus {
        measured,
        hugo,
        articles,
        files: 2 * articles,
        markdown_bytes,
        code_blocks,
    })
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Measured,
    Hugo,
}

fn slug(i: usize) -> String {
    format!("a{i:05}")
}

/// One block of an article's body, the same in both languages.
enum Block {
    Heading(usize),
    Paragraph(Vec<usize>, Option<(usize, usize)>),
    List(bool, Vec<usize>),
    Table(Vec<[u32; 3]>),
    Code(&'static str, String),
    Values,
    Experiment,
}

/// Everything about one article, decided once, rendered in both languages and flavours.
struct Plan {
    index: usize,
    topic: usize,
    date: String,
    tags: Vec<usize>,
    series: usize,
    part: usize,
    blocks: Vec<Block>,
}

impl Plan {
    fn new(index: usize, articles: usize, seed: u64) -> Plan {
        let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x1000_0001));
        let topic = rng.range(0, TOPICS.len() - 1);
        let (y, m, d) = (2000 + index / 336, index / 28 % 12 + 1, index % 28 + 1);
        let mut tags = Vec::new();
        for _ in 0..rng.range(2, 4) {
            let t = rng.range(0, TAGS.len() - 1);
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        let mut blocks = vec![
            Block::Paragraph(sentences(&mut rng, 2, 4), None),
            Block::Values,
        ];
        let sections = rng.range(2, 7);
        let experiment_at = rng.range(0, sections - 1);
        for s in 0..sections {
            blocks.push(Block::Heading(s));
            for _ in 0..rng.range(1, 4) {
                let link = rng.chance(35).then(|| {
                    (
                        rng.range(0, articles - 1),
                        rng.range(0, LINK_TEXTS.len() - 1),
                    )
                });
                blocks.push(Block::Paragraph(sentences(&mut rng, 2, 6), link));
            }
            if rng.chance(40) {
                let items = (0..rng.range(3, 6))
                    .map(|_| rng.range(0, ITEMS.len() - 1))
                    .collect();
                blocks.push(Block::List(rng.chance(40), items));
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
                blocks.push(Block::Table(rows));
            }
            if rng.chance(55) {
                let lang = *rng.pick(&["rust", "go", "sql", "json", "bash"]);
                blocks.push(Block::Code(lang, code(&mut rng, lang)));
            }
            if s == experiment_at {
                blocks.push(Block::Experiment);
            }
        }
        Plan {
            index,
            topic,
            date: format!("{y:04}-{m:02}-{d:02}"),
            tags,
            series: index / 5,
            part: index % 5 + 1,
            blocks,
        }
    }

    fn code_count(&self) -> usize {
        self.blocks
            .iter()
            .filter(|b| matches!(b, Block::Code(..)))
            .count()
    }

    fn render(&self, lang: Lang, flavor: Flavor) -> String {
        let mut out = String::with_capacity(6000);
        self.front_matter(&mut out, lang, flavor);
        for block in &self.blocks {
            out.push('\n');
            self.block(&mut out, block, lang, flavor);
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
        let tags: Vec<&str> = self.tags.iter().map(|&t| lang.of(&TAGS[t])).collect();
        let series = match lang {
            Lang::Vi => format!("Loạt bài số {}", self.series + 1),
            Lang::En => format!("Series {}", self.series + 1),
        };
        let description = match lang {
            Lang::Vi => format!(
                "Chúng tôi đo {} trên máy hai nhân và ghi lại mọi con số, kèm điều kiện đo.",
                lang.of(&TOPICS[self.topic])
            ),
            Lang::En => format!(
                "We measure {} on a two-core machine and record every number with how it was measured.",
                lang.of(&TOPICS[self.topic])
            ),
        };
        let _ = writeln!(
            out,
            "---\ntitle: \"{}\"\ndate: {}",
            self.title(lang),
            self.date
        );
        let _ = writeln!(out, "description: \"{description}\"");
        let _ = writeln!(out, "tags: [{}]", tags.join(", "));
        match flavor {
            Flavor::Measured => {
                let _ = writeln!(out, "series: \"{series}\"\npart: {}", self.part);
            }
            Flavor::Hugo => {
                let _ = writeln!(out, "series: [\"{series}\"]\npart: {}", self.part);
            }
        }
        out.push_str("---\n");
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
            Block::Paragraph(ids, link) => {
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
            Block::Code(token, code) => {
                let _ = writeln!(out, "```{token}\n{code}```");
            }
            Block::Values => values(out, lang, flavor),
            Block::Experiment => experiment(out, lang, flavor),
        }
    }
}

fn sentences(rng: &mut Rng, lo: usize, hi: usize) -> Vec<usize> {
    (0..rng.range(lo, hi))
        .map(|_| rng.range(0, SENTENCES.len() - 1))
        .collect()
}

/// A paragraph with four inline values: references for `measured`, plain text for Hugo.
fn values(out: &mut String, lang: Lang, flavor: Flavor) {
    let [ops, size, speedup, latency] = match (flavor, lang) {
        (Flavor::Measured, _) => [
            "{{ bench.throughput | int }}",
            "{{ bench.size | bytes }}",
            "{{ bench.speedup | ratio }}",
            "{{ bench.latency }}",
        ],
        (Flavor::Hugo, Lang::Vi) => ["48.213", "1,21 KB", "2,4×", "391 µs"],
        (Flavor::Hugo, Lang::En) => ["48,213", "1.21 KB", "2.4×", "391 µs"],
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

/// The experiment block: a table from the frozen results (`measured`), a plain table (Hugo).
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
    match flavor {
        Flavor::Measured => {
            let _ = writeln!(
                out,
                "```experiment bench\ntable: rows\ncaption: {caption}\ncolumn: name | {name}\ncolumn: bytes | {bytes} | bytes\ncolumn: time | {time} | duration\n```"
            );
        }
        Flavor::Hugo => {
            let _ = writeln!(out, "| {name} | {bytes} | {time} |\n|---|---:|---:|");
            for (f, b, t) in ROWS {
                let _ = writeln!(out, "| {f} | {b} B | {} µs |", t / 1000);
            }
            let _ = writeln!(out, "\n*{caption}*");
        }
    }
}

/// The rows of the fake experiment's table: format, bytes, encode time in nanoseconds.
const ROWS: [(&str, u32, u32); 5] = [
    ("JSON", 412, 2_150_000),
    ("MessagePack", 301, 1_320_000),
    ("CBOR", 305, 1_870_000),
    ("Protobuf", 188, 640_000),
    ("Bincode", 176, 410_000),
];

/// A distinct code block in `lang`: shapes from real code, names and numbers from the rng.
fn code(rng: &mut Rng, lang: &str) -> String {
    let mut c = String::new();
    let a = *rng.pick(IDENTS);
    let b = *rng.pick(IDENTS);
    let n = rng.range(2, 9_999);
    let lines = rng.range(2, 10);
    match lang {
        "rust" => {
            let _ = writeln!(
                c,
                "/// Đo {a} theo {b}.\n#[derive(Debug, Clone)]\npub struct {}{} {{",
                cap(a),
                cap(b)
            );
            for k in 0..lines {
                let _ = writeln!(
                    c,
                    "    pub {}_{k}: u{},",
                    rng.pick(IDENTS),
                    8 << rng.range(0, 3)
                );
            }
            let _ = writeln!(
                c,
                "}}\n\nfn {a}_{b}(input: &[u8]) -> Result<usize, std::io::Error> {{\n    let mut total = 0usize;\n    for chunk in input.chunks({n}) {{\n        total += chunk.iter().filter(|&&x| x > {}).count();\n    }}\n    Ok(total * {})\n}}",
                n % 256,
                lines
            );
        }
        "go" => {
            let _ = writeln!(
                c,
                "package {a}\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc {}{}(items []string) map[string]int {{\n\tcounts := make(map[string]int, {n})\n\tstart := time.Now()",
                cap(a),
                cap(b)
            );
            for k in 0..lines {
                let _ = writeln!(
                    c,
                    "\tcounts[\"{}_{k}\"] += len(items) * {}",
                    rng.pick(IDENTS),
                    rng.range(1, 99)
                );
            }
            let _ = writeln!(
                c,
                "\tfmt.Println(\"{b}\", time.Since(start))\n\treturn counts\n}}"
            );
        }
        "sql" => {
            let _ = writeln!(
                c,
                "CREATE TABLE {a}_{b} (\n    id BIGINT PRIMARY KEY,\n    {a} TEXT NOT NULL,\n    created_at TIMESTAMPTZ DEFAULT now()\n);\n\nSELECT {a},\n       sum({b}) OVER (PARTITION BY {a} ORDER BY created_at ROWS BETWEEN {lines} PRECEDING AND CURRENT ROW) AS running"
            );
            for k in 0..lines / 2 {
                let _ = writeln!(c, "     , avg({}_{k}) AS avg_{k}", rng.pick(IDENTS));
            }
            let _ = writeln!(
                c,
                "FROM {a}_{b}\nWHERE id > {n} AND {a} LIKE '%{b}%'\nORDER BY running DESC\nLIMIT {};",
                rng.range(5, 500)
            );
        }
        "json" => {
            let _ = writeln!(
                c,
                "{{\n  \"{a}\": {n},\n  \"{b}\": \"đo lần {lines}\",\n  \"samples\": ["
            );
            for k in 0..lines {
                let comma = if k + 1 < lines { "," } else { "" };
                let _ = writeln!(
                    c,
                    "    {{ \"name\": \"{}\", \"median_ns\": {}, \"ok\": {} }}{comma}",
                    rng.pick(IDENTS),
                    rng.range(100, 999_999),
                    rng.chance(80)
                );
            }
            let _ = writeln!(c, "  ]\n}}");
        }
        _ => {
            let _ = writeln!(
                c,
                "#!/usr/bin/env bash\nset -euo pipefail\n# đo {a} với {b}\nN={n}"
            );
            for k in 0..lines {
                let _ = writeln!(
                    c,
                    "for i in $(seq 1 \"$N\"); do curl -s \"http://127.0.0.1:{}/{}/$i\" | jq '.{}' >> out_{k}.txt; done",
                    rng.range(1024, 65535),
                    rng.pick(IDENTS),
                    rng.pick(IDENTS)
                );
            }
            let _ = writeln!(
                c,
                "sort -n out_*.txt | awk '{{ s += $1 }} END {{ print s / NR }}'"
            );
        }
    }
    c
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn write_measured_scaffold(root: &Path) -> io::Result<()> {
    std::fs::create_dir_all(root.join("content"))?;
    std::fs::write(
        root.join("site.toml"),
        "# The benchmark corpus (written by benches/corpus.rs).\nbase_url = \"https://bench.example.org\"\ndefault_language = \"vi\"\n\n[languages.vi]\ntitle = \"Đo thật\"\ndescription = \"Bộ bài để đo tốc độ dựng trang.\"\n\n[languages.en]\ntitle = \"Measured\"\ndescription = \"A corpus to measure build speed.\"\n",
    )?;
    let crate_dir = root.join("experiments/bench");
    std::fs::create_dir_all(crate_dir.join("src"))?;
    std::fs::write(
        root.join("experiments/Cargo.toml"),
        "# The benchmark's fake experiment workspace: never compiled (builds use --frozen).\n[workspace]\nmembers = [\"bench\"]\nresolver = \"2\"\n",
    )?;
    std::fs::write(
        crate_dir.join("Cargo.toml"),
        "# A fake experiment: its results are frozen/bench.json, written by the corpus generator.\n[package]\nname = \"bench\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )?;
    std::fs::write(
        crate_dir.join("src/main.rs"),
        "//! A fake experiment for the benchmark corpus: never compiled or run.\nfn main() {}\n",
    )?;
    std::fs::create_dir_all(root.join("frozen"))?;
    std::fs::write(root.join("frozen/bench.json"), frozen_record())
}

/// `frozen/bench.json`: a `Record` as `measured freeze` would write it.
fn frozen_record() -> String {
    let rows: Vec<serde_json::Value> = ROWS
        .iter()
        .map(|(name, bytes, ns)| serde_json::json!({ "name": name, "bytes": bytes, "time": ns }))
        .collect();
    let record = serde_json::json!({
        "experiment": "bench",
        "key": "bench-corpus",
        "results": {
            "throughput": 48213.4,
            "size": 1210,
            "speedup": { "type": "ratio", "value": 2.4 },
            "latency": { "type": "timing", "median": 391_000.0, "p5": 380_000.0, "p95": 402_000.0, "n": 200 },
            "rows": rows,
        },
        "output": "format       bytes   encode\nJSON           412   2.15 ms\n",
        "provenance": {
            "experiment": "bench", "source_hash": "0000000000000000", "lock_hash": "0000000000000000",
            "rustc": "rustc 1.85.0", "cpu": "benchmark", "cores": 2, "kernel": "6.1",
            "measured_at": "2026-01-01T00:00:00Z", "load_before": [0.0, 0.0, 0.0],
            "load_after": [0.0, 0.0, 0.0], "duration_secs": 1.0, "quick": false,
            "command": "none: a fake experiment of the benchmark corpus"
        }
    });
    serde_json::to_string_pretty(&record).expect("a JSON value serializes")
}

fn write_hugo_scaffold(root: &Path) -> io::Result<()> {
    let layouts = root.join("layouts/_default");
    std::fs::create_dir_all(&layouts)?;
    std::fs::create_dir_all(root.join("content"))?;
    std::fs::write(root.join("hugo.toml"), HUGO_CONFIG)?;
    std::fs::write(layouts.join("baseof.html"), HUGO_BASEOF)?;
    std::fs::write(layouts.join("single.html"), HUGO_SINGLE)?;
    std::fs::write(layouts.join("list.html"), HUGO_LIST)?;
    Ok(())
}

const HUGO_CONFIG: &str = r#"# The benchmark corpus as a Hugo site (written by benches/corpus.rs).
baseURL = "https://bench.example.org/"
defaultContentLanguage = "vi"
defaultContentLanguageInSubdir = false
disableKinds = ["robotsTXT"]

[taxonomies]
tag = "tags"
series = "series"

[languages.vi]
languageName = "Tiếng Việt"
title = "Đo thật"
weight = 1
[languages.en]
languageName = "English"
title = "Measured"
weight = 2

[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
"#;

const HUGO_BASEOF: &str = r#"<!DOCTYPE html>
<html lang="{{ .Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}{{ if ne .Title .Site.Title }} · {{ .Site.Title }}{{ end }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
<link rel="canonical" href="{{ .Permalink }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{ end }}<link rel="stylesheet" href="/style.css">
<link rel="stylesheet" href="/highlight.css">
<meta property="og:title" content="{{ .Title }}">
<meta property="og:url" content="{{ .Permalink }}">
<meta property="og:site_name" content="{{ .Site.Title }}">
{{ with .Description }}<meta property="og:description" content="{{ . }}">{{ end }}
</head>
<body>
<header class="site-header">
  <nav class="site-nav">
    <a class="site-title" href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a>
    <a href="{{ "tags/" | relLangURL }}">Tags</a>
    <ul class="lang-switch">{{ range .AllTranslations }}<li><a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}">{{ .Language.LanguageName }}</a></li>{{ end }}</ul>
  </nav>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<footer class="site-footer"><p>{{ .Site.Title }}</p></footer>
</body>
</html>
"#;

const HUGO_SINGLE: &str = r#"{{ define "main" }}
<article class="article">
  <header class="article-header">
    <h1>{{ .Title }}</h1>
    <p class="article-meta"><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "02/01/2006" }}</time> <span>{{ .ReadingTime }} min</span></p>
    {{ with .GetTerms "tags" }}<ul class="tags">{{ range . }}<li><a href="{{ .RelPermalink }}" rel="tag">{{ .LinkTitle }}</a></li>{{ end }}</ul>{{ end }}
  </header>
  <nav class="toc">{{ .TableOfContents }}</nav>
  <div class="content">
{{ .Content }}
  </div>
  {{ $page := . }}
  {{ range .GetTerms "series" }}
  <nav class="series" id="series">
    <h2>{{ .LinkTitle }}</h2>
    <ol>{{ range .Pages.ByParam "part" }}<li>{{ if eq . $page }}<span aria-current="page">{{ .Title }}</span>{{ else }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</li>{{ end }}</ol>
  </nav>
  {{ end }}
  {{ with .Site.RegularPages.Related . | first 3 }}
  <section class="related"><h2>Related</h2>
    <ul>{{ range . }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a><p>{{ .Description }}</p></li>{{ end }}</ul>
  </section>
  {{ end }}
</article>
{{ end }}
"#;

const HUGO_LIST: &str = r#"{{ define "main" }}
<h1 class="list-title">{{ .Title }}</h1>
{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = .Site.RegularPages }}{{ end }}
<ol class="article-list">
{{ range $pages }}
  <li>
    <h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
    <p class="article-meta"><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "02/01/2006" }}</time></p>
    <p>{{ .Description }}</p>
  </li>
{{ end }}
</ol>
{{ end }}
"#;

const TOPICS: &[(&str, &str)] = &[
    ("bắt tay TCP", "the TCP handshake"),
    ("giá của TLS", "the price of TLS"),
    ("JSON so với MessagePack", "JSON against MessagePack"),
    ("hàm cửa sổ trong SQL", "SQL window functions"),
    ("bộ nhớ đệm DNS", "the DNS cache"),
    ("nén dữ liệu", "data compression"),
    ("kết nối giữ sống", "keep-alive connections"),
    ("HTTP/2 và HTTP/1.1", "HTTP/2 and HTTP/1.1"),
    ("mã hóa varint", "varint encoding"),
    ("sao chép không tốn bộ nhớ", "zero-copy parsing"),
    ("độ trễ của ổ đĩa", "disk latency"),
    ("chỉ mục cơ sở dữ liệu", "database indexes"),
];

const TAGS: &[(&str, &str)] = &[
    ("mạng", "networking"),
    ("hiệu năng", "performance"),
    ("tuần tự hóa", "serialization"),
    ("cơ sở dữ liệu", "databases"),
    ("bảo mật", "security"),
    ("độ trễ", "latency"),
    ("bộ nhớ", "memory"),
    ("đo đạc", "measurement"),
    ("rust", "rust"),
    ("go", "go"),
    ("sql", "sql"),
    ("giao thức", "protocols"),
    ("nén", "compression"),
    ("đĩa", "storage"),
    ("hệ điều hành", "operating systems"),
    ("đồng thời", "concurrency"),
    ("bộ đệm", "caching"),
    ("trình biên dịch", "compilers"),
    ("kiểm thử", "testing"),
    ("mã hóa", "encoding"),
];

const HEADINGS: &[(&str, &str)] = &[
    ("Thí nghiệm", "The experiment"),
    ("Cách đo", "How we measured"),
    ("Kết quả", "Results"),
    ("Vì sao lại chậm hơn", "Why it is slower"),
    ("Những điều bất ngờ", "Surprises"),
    ("Đọc mã nguồn", "Reading the source"),
    ("Giới hạn của phép đo", "Limits of the measurement"),
    ("Kết luận", "Conclusion"),
    ("Bối cảnh", "Background"),
    ("Thử lại với dữ liệu lớn hơn", "Again with more data"),
];

const LINK_TEXTS: &[(&str, &str)] = &[
    ("phần trước của loạt bài", "the previous part of the series"),
    ("bài đo độ trễ", "the latency article"),
    ("cách chúng tôi đo", "how we measure"),
    ("kết quả trên máy khác", "results on another machine"),
    ("phân tích chi tiết", "the detailed analysis"),
];

const ITEMS: &[(&str, &str)] = &[
    (
        "mỗi phép đo được khởi động trước khi lấy mẫu",
        "every timing is warmed up before sampling",
    ),
    (
        "dữ liệu đầu vào sinh từ một hạt giống cố định",
        "inputs are generated from a fixed seed",
    ),
    (
        "máy có hai nhân, dùng chung với việc biên dịch",
        "the machine has two cores shared with compile jobs",
    ),
    (
        "kết quả là trung vị của hàng trăm mẫu",
        "results are the median of hundreds of samples",
    ),
    (
        "khoảng tin cậy hiện khi rê chuột lên con số",
        "the confidence interval shows on hover",
    ),
    (
        "không có con số nào được gõ tay",
        "no number is typed by hand",
    ),
    (
        "mã nguồn của thí nghiệm nằm ngay trong kho",
        "the experiment's source lives in the repository",
    ),
    (
        "đường truyền được giả lập bằng tc netem",
        "the link is emulated with tc netem",
    ),
    (
        "bộ nhớ được đếm bằng một bộ cấp phát riêng",
        "memory is counted by a custom allocator",
    ),
];

const FORMATS: [&str; 5] = ["JSON", "MessagePack", "CBOR", "Protobuf", "Bincode"];

const IDENTS: &[&str] = &[
    "order", "item", "price", "buffer", "socket", "latency", "sample", "record", "cursor",
    "payload", "header", "window", "packet", "stream", "encoder", "decoder", "cache", "index",
    "tenant", "invoice", "session", "retry", "deadline", "shard", "offset", "checksum",
];

/// Aligned sentence pairs: the same paragraph in both languages.
const SENTENCES: &[(&str, &str)] = &[
    (
        "Câu hỏi nghe thì đơn giản, nhưng câu trả lời phụ thuộc vào rất nhiều thứ mà ta thường bỏ qua.",
        "The question sounds simple, but the answer depends on many things we usually ignore.",
    ),
    (
        "Chúng tôi không tin vào những con số chép lại từ bài viết khác, nên đã tự đo trên máy của mình.",
        "We do not trust numbers copied from other articles, so we measured on our own machine.",
    ),
    (
        "Mỗi lần chạy, chương trình đọc **một triệu bản ghi** rồi ghi lại thời gian của từng bước.",
        "On every run the program reads **one million records** and logs the time of every step.",
    ),
    (
        "Kết quả cho thấy phần lớn thời gian không nằm ở chỗ ta đoán, mà ở việc cấp phát bộ nhớ.",
        "The results show that most of the time is not where we guessed, but in memory allocation.",
    ),
    (
        "Hãy để ý rằng hàm `parse` được gọi nhiều hơn ta tưởng, vì mỗi trường lại được đọc hai lần.",
        "Notice that `parse` is called more often than we thought, because every field is read twice.",
    ),
    (
        "Trên mạng nội bộ, độ trễ khứ hồi chỉ khoảng vài chục micro giây, nên chi phí bắt tay gần như biến mất.",
        "On a local network the round trip is a few tens of microseconds, so the handshake cost almost vanishes.",
    ),
    (
        "Nhưng khi thêm năm mươi mili giây độ trễ giả lập, bức tranh thay đổi hoàn toàn.",
        "But once we add fifty milliseconds of emulated latency, the picture changes completely.",
    ),
    (
        "Điều này khớp với lý thuyết: mỗi vòng khứ hồi tiết kiệm được là một khoảng chờ người dùng không phải chịu.",
        "This matches the theory: every round trip saved is a wait the user does not have to sit through.",
    ),
    (
        "Chúng tôi chạy lại thí nghiệm năm lần vào các thời điểm khác nhau trong ngày để loại trừ nhiễu.",
        "We ran the experiment five times at different times of day to rule out noise.",
    ),
    (
        "Độ lệch giữa các lần chạy nhỏ hơn hai phần trăm, đủ nhỏ để tin vào kết luận bên dưới.",
        "The spread between runs is under two percent, small enough to trust the conclusion below.",
    ),
    (
        "*Một chi tiết dễ bị bỏ sót*: trình biên dịch đã tự động vector hóa vòng lặp bên trong.",
        "*An easy detail to miss*: the compiler vectorised the inner loop on its own.",
    ),
    (
        "Nếu tắt tối ưu hóa đó, thời gian tăng gần gấp ba, và thứ hạng giữa các định dạng đảo ngược.",
        "With that optimisation off, the time almost triples and the ranking of the formats flips.",
    ),
    (
        "Đọc kỹ mã nguồn của thư viện, ta thấy nó sao chép chuỗi mỗi khi gặp ký tự thoát.",
        "Reading the library's source closely, we see it copies the string whenever it meets an escape.",
    ),
    (
        "Với dữ liệu tiếng Việt có dấu, điều đó xảy ra thường xuyên hơn nhiều so với tiếng Anh.",
        "With accented Vietnamese text that happens far more often than with English.",
    ),
    (
        "Bảng dưới đây tóm tắt số byte và thời gian mã hóa của từng định dạng trên cùng một đơn hàng.",
        "The table below sums up the bytes and the encode time of each format on the same order.",
    ),
    (
        "Không có định dạng nào thắng ở mọi tiêu chí; lựa chọn phụ thuộc vào thứ bạn cần tối ưu.",
        "No format wins on every count; the choice depends on what you need to optimise.",
    ),
    (
        "Ở quy mô nhỏ, sự khác biệt chỉ là vài micro giây và không đáng để thay đổi kiến trúc.",
        "At small scale the difference is a few microseconds and not worth changing the architecture.",
    ),
    (
        "Ở quy mô lớn, cùng sự khác biệt ấy có thể là hàng chục máy chủ mỗi tháng.",
        "At large scale the same difference can be dozens of servers every month.",
    ),
    (
        "Chúng tôi cũng đo mức dùng bộ nhớ đỉnh, vì tốc độ chỉ là một nửa câu chuyện.",
        "We also measured peak memory, because speed is only half the story.",
    ),
    (
        "Bộ cấp phát mặc định của hệ thống xử lý tốt các khối nhỏ, nhưng phân mảnh khi kích thước thay đổi liên tục.",
        "The system's default allocator handles small blocks well but fragments when sizes keep changing.",
    ),
    (
        "Để kiểm chứng, hãy tự chạy lại thí nghiệm: lệnh đầy đủ nằm ở cuối bài.",
        "To check, rerun the experiment yourself: the full command is at the end of the article.",
    ),
    (
        "Mọi con số trong bài đều được chèn tự động từ kết quả đo, không con số nào được gõ tay.",
        "Every number in this article is injected from the measured results; none is typed by hand.",
    ),
    (
        "Cơ sở dữ liệu trả lời truy vấn cửa sổ nhanh hơn ta nghĩ, miễn là có chỉ mục đúng cột.",
        "The database answers the window query faster than we thought, as long as the right column is indexed.",
    ),
    (
        "Điều đáng ngạc nhiên nhất là phiên bản đơn giản nhất lại nhanh nhất trong đa số trường hợp.",
        "The most surprising part is that the simplest version was the fastest in most cases.",
    ),
];
