//! Markdown → HTML: pulldown-cmark's events through a few rewriting passes (heading ids and
//! anchors, highlighted code, experiment blocks and inline values through `Hooks`, table
//! wrappers), collecting what later stages need: the table of contents, the ids on the page,
//! the links to check, a plain-text summary and a word count.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::highlight::Highlighter;
use crate::html::{escape, escape_body, strip_tags};
use crate::lang::Lang;

/// An entry of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TocEntry {
    pub level: u8,
    pub id: String,
    pub text: String,
}

/// A link or image source written in the article, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub dest: String,
    pub place: Place,
}

/// A rendered article body and what was learnt while rendering it.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    pub html: String,
    pub toc: Vec<TocEntry>,
    pub ids: BTreeSet<String>,
    pub links: Vec<Link>,
    /// The first paragraph as plain text.
    pub summary: String,
    pub words: usize,
    /// The body's text for the search index: prose, code and what hooks injected, as a
    /// reader reads them (an image's alt text aside), with heading levels.
    pub text: crate::search_text::Text,
}

/// The kinds of fenced block the generator handles itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// ```` ```experiment <name> ````: an experiment's output, table or chart.
    Experiment,
    /// ```` ```source <experiment> <region> ````: an excerpt of an experiment's source.
    Source,
}

/// What went wrong in a hook, without a place (the Markdown stage adds it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookError {
    pub message: String,
    pub hint: Option<String>,
}

impl HookError {
    pub fn new(message: impl Into<String>) -> Self {
        HookError {
            message: message.into(),
            hint: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// The experiment stage's entry points into the Markdown stage.
pub trait Hooks: Sync {
    /// HTML for `{{ expr }}` in prose.
    fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError>;
    /// HTML for a fenced block of a kind the generator handles; `args` follows the kind word.
    fn block(
        &self,
        kind: BlockKind,
        args: &str,
        body: &str,
        lang: &Lang,
    ) -> Result<String, HookError>;
}

/// Hooks for a site without experiments: every reference is an error.
pub struct NoExperiments;

impl Hooks for NoExperiments {
    fn inline(&self, expr: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!(
            "`{{{{ {expr} }}}}` refers to an experiment, and this build has none"
        )))
    }

    fn block(&self, _: BlockKind, args: &str, _: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!(
            "block `{args}` refers to an experiment, and this build has none"
        )))
    }
}

/// Labels the Markdown stage writes into the page, from the UI strings.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    /// `aria-label` of a heading's anchor link.
    pub anchor: String,
}

/// What to render.
pub struct Input<'a> {
    pub path: &'a Path,
    pub body: &'a str,
    /// 1-based line of the file where `body` starts.
    pub body_line: usize,
    pub lang: &'a Lang,
    pub highlighter: &'a Highlighter,
    pub hooks: &'a dyn Hooks,
    pub labels: &'a Labels,
}

/// The pulldown-cmark extensions every body is parsed with (the benchmark's floor uses them too).
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_GFM
}

/// Renders an article body, reporting every error in it.
pub fn render(input: &Input<'_>) -> Result<Rendered, Diagnostics> {
    let mut r = Renderer {
        input,
        out: Rendered::default(),
        diags: Diagnostics::default(),
        cursor: 0,
        in_image: 0,
    };
    let events = merge_text(Parser::new_ext(input.body, options()).into_offset_iter());
    let events = r.rewrite(events);
    pulldown_cmark::html::push_html(&mut r.out.html, events.into_iter());
    r.out.ids.extend(r.out.toc.iter().map(|t| t.id.clone()));
    let Renderer { out, diags, .. } = r;
    diags.into_result(out)
}

/// The experiments a body refers to, and where: `{{ name.… }}`, `experiment name`, `source name …`.
pub fn experiment_refs(body: &str) -> Vec<(String, Range<usize>)> {
    let mut refs = Vec::new();
    let mut in_code = false;
    for (event, range) in merge_text(Parser::new_ext(body, options()).into_offset_iter()) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code = true;
                if let CodeBlockKind::Fenced(info) = kind {
                    let mut words = info.split_whitespace();
                    if let (Some("experiment" | "source"), Some(name)) =
                        (words.next(), words.next())
                    {
                        refs.push((name.to_string(), range.clone()));
                    }
                }
            }
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(text) if !in_code => {
                for piece in split_values(&text) {
                    if let Piece::Value(expr) = piece {
                        let name = expr.split(['.', '|', ' ']).next().unwrap_or_default();
                        refs.push((name.to_string(), range.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    refs
}

struct Renderer<'a, 'i> {
    input: &'a Input<'i>,
    out: Rendered,
    diags: Diagnostics,
    /// Where in the body the search for the next `{{` starts, for error places.
    cursor: usize,
    /// How many images the current event is inside (their text is alt text, not read).
    in_image: usize,
}

type Ev<'e> = (Event<'e>, Range<usize>);

impl<'e> Renderer<'_, '_> {
    fn place(&self, offset: usize) -> Place {
        Place::of_offset(
            self.input.path,
            self.input.body,
            offset,
            self.input.body_line,
        )
    }

    fn error(&mut self, offset: usize, e: HookError) {
        let place = self.place(offset);
        let line_in_body = crate::diag::line_col(self.input.body, offset).0;
        let mut d = Diagnostic::new(place, e.message).with_line_of(self.input.body, line_in_body);
        d.hint = e.hint;
        self.diags.push(d);
    }

    fn rewrite(&mut self, events: Vec<Ev<'e>>) -> Vec<Event<'e>> {
        let mut out = Vec::with_capacity(events.len());
        let mut iter = events.into_iter();
        let mut first_paragraph: Option<String> = None;
        let mut depth = 0usize;
        while let Some((event, range)) = iter.next() {
            self.boundary(&event);
            match event {
                Event::Start(Tag::Heading {
                    level,
                    id,
                    classes,
                    attrs,
                }) => {
                    let inner =
                        collect_until(&mut iter, |e| matches!(e, Event::End(TagEnd::Heading(_))));
                    self.heading(level, id, &inner, range, &mut out);
                    let _ = (classes, attrs);
                }
                Event::Start(Tag::CodeBlock(kind)) => {
                    let inner =
                        collect_until(&mut iter, |e| matches!(e, Event::End(TagEnd::CodeBlock)));
                    let code: String = inner
                        .iter()
                        .filter_map(|(e, _)| {
                            if let Event::Text(t) = e {
                                Some(t.as_ref())
                            } else {
                                None
                            }
                        })
                        .collect();
                    let html = self.code_block(&kind, &code, range.start);
                    out.push(Event::Html(CowStr::from(html)));
                }
                Event::Start(Tag::Table(_)) => {
                    out.push(Event::Html(CowStr::from("<div class=\"table-wrap\">")));
                    out.push(event);
                }
                Event::End(TagEnd::Table) => {
                    out.push(event);
                    out.push(Event::Html(CowStr::from("</div>")));
                }
                Event::Start(Tag::FootnoteDefinition(ref label)) => {
                    self.out.ids.insert(label.to_string());
                    depth += 1;
                    out.push(event);
                }
                Event::Start(Tag::Paragraph) => {
                    if depth == 0 && first_paragraph.is_none() {
                        let inner = collect_until(&mut iter, |e| {
                            matches!(e, Event::End(TagEnd::Paragraph))
                        });
                        let start = out.len();
                        out.push(event);
                        for (e, r) in inner {
                            self.inline(e, r, &mut out);
                        }
                        out.push(Event::End(TagEnd::Paragraph));
                        let mut html = String::new();
                        pulldown_cmark::html::push_html(&mut html, out[start..].iter().cloned());
                        first_paragraph = Some(strip_tags(&html).trim().to_string());
                    } else {
                        out.push(event);
                    }
                }
                Event::Start(Tag::BlockQuote(_) | Tag::List(_)) => {
                    depth += 1;
                    out.push(event);
                }
                Event::End(
                    TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::FootnoteDefinition,
                ) => {
                    depth = depth.saturating_sub(1);
                    out.push(event);
                }
                other => self.inline(other, range, &mut out),
            }
        }
        self.out.summary = first_paragraph.unwrap_or_default();
        out
    }

    /// A word boundary in the searchable text where `event` starts or ends a block.
    fn boundary(&mut self, event: &Event<'_>) {
        let block = match event {
            Event::Start(tag) => !matches!(
                tag,
                Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
                    | Tag::Superscript
                    | Tag::Subscript
                    | Tag::Link { .. }
                    | Tag::Image { .. }
            ),
            Event::End(tag) => !matches!(
                tag,
                TagEnd::Emphasis
                    | TagEnd::Strong
                    | TagEnd::Strikethrough
                    | TagEnd::Superscript
                    | TagEnd::Subscript
                    | TagEnd::Link
                    | TagEnd::Image
            ),
            Event::SoftBreak | Event::HardBreak | Event::Rule => true,
            _ => false,
        };
        if block {
            self.out.text.space();
        }
    }

    /// Inline events: values in text become HTML, everything else passes through; what a
    /// reader reads goes into the searchable text.
    fn inline(&mut self, event: Event<'e>, range: Range<usize>, out: &mut Vec<Event<'e>>) {
        self.boundary(&event);
        match event {
            Event::Text(text) => {
                self.out.words += text.split_whitespace().count();
                if text.contains("{{") {
                    let html = self.values_html(&text, range.start);
                    if self.in_image == 0 {
                        self.out.text.push_html(&html);
                    }
                    out.push(Event::InlineHtml(CowStr::from(html)));
                } else {
                    if self.in_image == 0 {
                        self.out.text.push(&text);
                    }
                    out.push(Event::Text(text));
                }
            }
            Event::Code(ref code) => {
                self.out.text.push(code);
                out.push(event);
            }
            Event::Html(ref html) | Event::InlineHtml(ref html) => {
                self.out.text.push_html(html);
                out.push(event);
            }
            Event::Start(Tag::Image { .. }) => {
                self.in_image += 1;
                self.inline_link(event, range, out);
            }
            Event::End(TagEnd::Image) => {
                self.in_image = self.in_image.saturating_sub(1);
                out.push(event);
            }
            other => self.inline_link(other, range, out),
        }
    }

    /// Links and images are collected for checking; other events pass through.
    fn inline_link(&mut self, event: Event<'e>, range: Range<usize>, out: &mut Vec<Event<'e>>) {
        match event {
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. }) => {
                self.out.links.push(Link {
                    dest: dest_url.to_string(),
                    place: self.place(range.start),
                });
                out.push(event);
            }
            other => out.push(other),
        }
    }

    /// HTML for a text holding `{{ … }}` values.
    fn values_html(&mut self, text: &str, start: usize) -> String {
        let mut html = String::new();
        self.cursor = self.cursor.max(start);
        for piece in split_values(text) {
            match piece {
                Piece::Text(t) => html.push_str(&escape(t)),
                Piece::Value(expr) => {
                    let at = self.input.body[self.cursor..]
                        .find("{{")
                        .map_or(start, |i| self.cursor + i);
                    self.cursor = at + 2;
                    match self.input.hooks.inline(expr, self.input.lang) {
                        Ok(v) => html.push_str(&v),
                        Err(e) => self.error(at, e),
                    }
                }
                Piece::Unclosed => {
                    let at = self.input.body[self.cursor..]
                        .find("{{")
                        .map_or(start, |i| self.cursor + i);
                    self.error(at, HookError::new("`{{` is never closed by `}}`").hint(
                        "write an injected value as {{ experiment.path }}, or put literal braces in a code span",
                    ));
                }
            }
        }
        html
    }

    fn heading(
        &mut self,
        level: HeadingLevel,
        id: Option<CowStr<'e>>,
        inner: &[Ev<'e>],
        range: Range<usize>,
        out: &mut Vec<Event<'e>>,
    ) {
        let n = level as u8;
        self.out.text.heading(n);
        let mut inner_events = Vec::new();
        for (e, r) in inner.iter().cloned() {
            self.inline(e, r, &mut inner_events);
        }
        self.out.text.heading(0);
        self.out.text.space();
        let mut inner_html = String::new();
        pulldown_cmark::html::push_html(&mut inner_html, inner_events.into_iter());
        let text = strip_tags(&inner_html).trim().to_string();
        let id = match id {
            Some(id) => id.to_string(),
            None => unique_id(&slug_id(&text), &self.out.ids, &self.out.toc),
        };
        if self.out.toc.iter().any(|t| t.id == id) || self.out.ids.contains(&id) {
            self.error(
                range.start,
                HookError::new(format!("two headings have the id `{id}`"))
                    .hint("give one of them another id with {#other-id}"),
            );
        }
        if (2..=3).contains(&n) {
            self.out.toc.push(TocEntry {
                level: n,
                id: id.clone(),
                text: text.clone(),
            });
        } else {
            self.out.ids.insert(id.clone());
        }
        let label = escape(&self.input.labels.anchor.replace("{heading}", &text));
        let id = escape(&id);
        out.push(Event::Html(CowStr::from(format!(
            "<h{n} id=\"{id}\">{inner_html} <a class=\"anchor\" href=\"#{id}\" aria-label=\"{label}\">#</a></h{n}>\n"
        ))));
    }

    fn code_block(&mut self, kind: &CodeBlockKind<'_>, code: &str, offset: usize) -> String {
        let info = match kind {
            CodeBlockKind::Fenced(info) => info.trim(),
            CodeBlockKind::Indented => "",
        };
        let (word, args) = info
            .split_once(char::is_whitespace)
            .map_or((info, ""), |(w, a)| (w, a.trim()));
        let block = match word {
            "experiment" => Some(BlockKind::Experiment),
            "source" => Some(BlockKind::Source),
            _ => None,
        };
        if let Some(kind) = block {
            return match self.input.hooks.block(kind, args, code, self.input.lang) {
                Ok(html) => {
                    self.out.text.push_html(&html);
                    html
                }
                Err(e) => {
                    self.error(offset, e);
                    String::new()
                }
            };
        }
        self.out.text.push(code);
        self.out.text.space();
        let lang_token = word.split(',').next().unwrap_or_default();
        let body = if lang_token.is_empty() {
            escape_body(code)
        } else {
            self.input.highlighter.highlight(lang_token, code)
        };
        if lang_token.is_empty() {
            format!("<pre class=\"code\" tabindex=\"0\"><code>{body}</code></pre>\n")
        } else {
            let l = escape(lang_token);
            format!(
                "<pre class=\"code\" tabindex=\"0\" data-lang=\"{l}\"><code class=\"language-{l}\">{body}</code></pre>\n"
            )
        }
    }
}

/// Merges adjacent text events (pulldown-cmark splits text at some characters).
fn merge_text<'e>(events: impl Iterator<Item = Ev<'e>>) -> Vec<Ev<'e>> {
    let mut out: Vec<Ev<'e>> = Vec::new();
    for (event, range) in events {
        if let (Event::Text(t), Some((Event::Text(prev), prev_range))) = (&event, out.last_mut()) {
            let mut s = prev.to_string();
            s.push_str(t);
            *prev = CowStr::from(s);
            prev_range.end = range.end;
            continue;
        }
        out.push((event, range));
    }
    out
}

fn collect_until<'e>(
    iter: &mut impl Iterator<Item = Ev<'e>>,
    end: impl Fn(&Event<'e>) -> bool,
) -> Vec<Ev<'e>> {
    let mut inner = Vec::new();
    for (e, r) in iter.by_ref() {
        if end(&e) {
            break;
        }
        inner.push((e, r));
    }
    inner
}

/// A piece of text around `{{ … }}` values.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'t> {
    Text(&'t str),
    Value(&'t str),
    Unclosed,
}

fn split_values(text: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            pieces.push(Piece::Text(&rest[..open]));
        }
        match rest[open + 2..].find("}}") {
            Some(close) => {
                pieces.push(Piece::Value(rest[open + 2..open + 2 + close].trim()));
                rest = &rest[open + 2 + close + 2..];
            }
            None => {
                pieces.push(Piece::Unclosed);
                pieces.push(Piece::Text(&rest[open + 2..]));
                rest = "";
            }
        }
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    pieces
}

/// A heading id from its text: lowercase, diacritics removed, words joined by `-`.
pub fn slug_id(text: &str) -> String {
    let s = slug::slugify(text);
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

fn unique_id(base: &str, ids: &BTreeSet<String>, toc: &[TocEntry]) -> String {
    let taken = |id: &str| ids.contains(id) || toc.iter().any(|t| t.id == id);
    if !taken(base) {
        return base.to_string();
    }
    (1..)
        .map(|i| format!("{base}-{i}"))
        .find(|id| !taken(id))
        .expect("an unused id")
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;
    impl Hooks for Echo {
        fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
            if expr.starts_with("bad") {
                return Err(HookError::new(format!("unknown `{expr}`")));
            }
            Ok(format!(
                "<data value=\"1\">{}:{}</data>",
                lang,
                escape(expr)
            ))
        }
        fn block(
            &self,
            kind: BlockKind,
            args: &str,
            body: &str,
            _: &Lang,
        ) -> Result<String, HookError> {
            Ok(format!(
                "<figure>{kind:?} {args} [{}]</figure>",
                body.trim()
            ))
        }
    }

    fn render_str(body: &str) -> Result<Rendered, Diagnostics> {
        let h = Highlighter::default();
        let lang = Lang::parse("vi").unwrap();
        let labels = Labels {
            anchor: "Liên kết tới mục {heading}".into(),
        };
        render(&Input {
            path: Path::new("content/a/index.vi.md"),
            body,
            body_line: 5,
            lang: &lang,
            highlighter: &h,
            hooks: &Echo,
            labels: &labels,
        })
    }

    #[test]
    fn headings_get_ids_anchors_and_toc() {
        let r = render_str("## Bắt tay TCP\n\n### Kết nối\n\n## Bắt tay TCP\n").unwrap();
        assert_eq!(
            r.toc.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["bat-tay-tcp", "ket-noi", "bat-tay-tcp-1"]
        );
        assert!(r.html.contains("<h2 id=\"bat-tay-tcp\">Bắt tay TCP <a class=\"anchor\" href=\"#bat-tay-tcp\" aria-label=\"Liên kết tới mục Bắt tay TCP\">#</a></h2>"), "{}", r.html);
    }

    #[test]
    fn values_are_injected_in_prose_but_not_in_code() {
        let r = render_str("Đo được {{ x.y | fixed(2) }} ở đây, `{{ x.y }}` không.\n\n```rust\nlet s = \"{{ x.y }}\";\n```\n").unwrap();
        assert!(
            r.html
                .contains("<data value=\"1\">vi:x.y | fixed(2)</data>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("<code>{{ x.y }}</code>"), "{}", r.html);
        assert!(r.html.contains("{{ x.y }}"), "{}", r.html);
        assert_eq!(
            r.summary,
            "Đo được vi:x.y | fixed(2) ở đây, {{ x.y }} không."
        );
    }

    #[test]
    fn hook_errors_name_the_file_line_and_column() {
        let e = render_str("Dòng một.\n\nDòng hai có {{ bad.path }}.\n").unwrap_err();
        let d = &e.0[0];
        assert_eq!(d.place.to_string(), "content/a/index.vi.md:7:13");
        assert_eq!(d.message, "unknown `bad.path`");
        assert_eq!(d.snippet.as_deref(), Some("Dòng hai có {{ bad.path }}."));
    }

    #[test]
    fn unclosed_value_is_an_error() {
        let e = render_str("Text {{ x.y\n").unwrap_err();
        assert!(e.0[0].message.contains("never closed"));
    }

    #[test]
    fn experiment_and_source_blocks_go_to_hooks() {
        let r = render_str("```experiment sizes\ntable: rows\n```\n\n```source tcp connect\n```\n")
            .unwrap();
        assert!(
            r.html
                .contains("<figure>Experiment sizes [table: rows]</figure>"),
            "{}",
            r.html
        );
        assert!(
            r.html.contains("<figure>Source tcp connect []</figure>"),
            "{}",
            r.html
        );
    }

    #[test]
    fn code_is_highlighted_and_tables_wrapped_and_links_collected() {
        let r = render_str("```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](/other/#h) ![i](img.png)\n").unwrap();
        assert!(r.html.contains("<pre class=\"code\" tabindex=\"0\" data-lang=\"rust\"><code class=\"language-rust\"><span class=\""), "{}", r.html);
        assert!(
            r.html.contains("<div class=\"table-wrap\"><table>"),
            "{}",
            r.html
        );
        let links: Vec<_> = r
            .links
            .iter()
            .map(|l| (l.dest.as_str(), l.place.line))
            .collect();
        assert_eq!(links, [("/other/#h", Some(13)), ("img.png", Some(13))]);
    }

    #[test]
    fn the_searchable_text_is_what_a_reader_reads() {
        let r = render_str(
            "Đo được {{ x.y }} ở *đây*.\n\n## Bắt tay\n\n```rust\nlet tcp_nodelay = 1;\n```\n\n![ảnh chụp](a.png) `mã`<br>x\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```experiment sizes\ntable: rows\n```\n",
        )
        .unwrap();
        let text = r.text.as_str();
        assert_eq!(
            text,
            "Đo được vi:x.y ở đây. Bắt tay let tcp_nodelay = 1; mã x a b 1 2 Experiment sizes [table: rows] "
        );
        let heading = text.find("Bắt").unwrap();
        assert_eq!(
            r.text.runs(),
            [(heading, 2), (heading + "Bắt tay".len(), 0)],
            "only the heading weighs more"
        );
    }

    #[test]
    fn refs_find_experiments_outside_code() {
        let refs: Vec<String> = experiment_refs(
            "A {{ tcp.x }} `{{ no.x }}`\n\n```experiment sizes\n```\n\n```source varint zz\n```\n",
        )
        .into_iter()
        .map(|(n, _)| n)
        .collect();
        assert_eq!(refs, ["tcp", "sizes", "varint"]);
    }
}
