//! The one pass over a body's events. One loop, for speed; it rewrites what the page shows
//! (headings, code blocks, tables, values) and hands each event to the collector of each
//! concern: the summary and the searchable text ([`super::collect`]), the headings' ids and
//! footnotes ([`super::headings`]), the links to check and the word count.

use super::footnotes::Footnotes;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Tag, TagEnd};

use crate::math::Display;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::html::strip_tags;
use measured_measure::claims::Mark;

use super::code::{self, Block};
use super::collect::{SearchText, Summary};
use super::figures::{self, Figures};
use super::headings::{self, Headings, Taken};
use super::inline::{self, Values};
use super::{Ev, HookError, Input, Link, Rendered};
use super::{diagrams, formula};

/// The table wrapper: a wide table scrolls in it, not the page.
const TABLE_OPEN: &str = "<div class=\"table-wrap\">";
const TABLE_CLOSE: &str = "</div>";

/// Where code is written: a span (backticks) or a block.
#[derive(Clone, Copy)]
enum Code {
    Span,
    Block,
}

/// The pass's state: the input and every collector.
pub(super) struct Pass<'a, 'i> {
    input: &'a Input<'i>,
    diags: Diagnostics,
    headings: Headings<'i>,
    summary: Summary,
    text: SearchText,
    values: Values,
    /// Links and image sources, for the link check.
    links: Vec<Link>,
    /// Words of prose, for the reading time.
    words: usize,
    /// The numbered figures and tables, known before the pass.
    figures: Figures,
    /// How many diagrams the page has drawn (their SVG ids' numbers).
    diagrams: usize,
    /// Whether the body writes `{#` anywhere, so a paragraph may be a figure or a caption.
    attributes: bool,
    /// Where in `out` the last table's wrapper opened and where the table ended, for the
    /// caption line that may follow it.
    last_table: Option<(usize, usize)>,
    /// Code blocks whose language the highlighter does not know.
    warnings: Vec<Diagnostic>,
    footnotes: Footnotes,
    /// The labels of the footnote definitions the pass is inside, innermost last.
    in_footnote: Vec<String>,
}

impl<'a, 'i> Pass<'a, 'i> {
    pub(super) fn new(input: &'a Input<'i>) -> Self {
        Pass {
            input,
            diags: Diagnostics::default(),
            headings: Headings::new(input.theme_ids),
            summary: Summary::default(),
            text: SearchText::default(),
            values: Values::default(),
            links: Vec::new(),
            words: 0,
            figures: Figures::scan(input.body, super::options()),
            diagrams: 0,
            attributes: input.body.contains("{#"),
            last_table: None,
            warnings: Vec::new(),
            footnotes: Footnotes::default(),
            in_footnote: Vec::new(),
        }
    }

    /// Rewrites `events` into the page's; collects the rest of what [`Rendered`] holds.
    pub(super) fn run<'e>(&mut self, events: Vec<Ev<'e>>) -> Vec<Event<'e>> {
        let mut out = Vec::with_capacity(events.len());
        let mut iter = events.into_iter();
        while let Some((event, range)) = iter.next() {
            self.text.boundary(&event);
            match event {
                Event::Start(Tag::Heading { level, id, .. }) => {
                    let inner = until(&mut iter, |e| matches!(e, Event::End(TagEnd::Heading(_))));
                    let html = self.heading(level, id.as_deref(), inner, range.start);
                    out.push(Event::Html(CowStr::from(html)));
                }
                Event::Start(Tag::CodeBlock(kind)) => {
                    let inner = until(&mut iter, |e| matches!(e, Event::End(TagEnd::CodeBlock)));
                    let html = self.code_block(&kind, &code_of(&inner), range);
                    out.push(Event::Html(CowStr::from(html)));
                }
                Event::Start(Tag::Table(_)) => {
                    self.last_table = Some((out.len(), 0));
                    out.push(Event::Html(CowStr::from(TABLE_OPEN)));
                    out.push(event);
                }
                Event::End(TagEnd::Table) => {
                    out.push(event);
                    out.push(Event::Html(CowStr::from(TABLE_CLOSE)));
                    if let Some(t) = &mut self.last_table {
                        t.1 = out.len();
                    }
                }
                Event::Start(Tag::FootnoteDefinition(ref label)) => {
                    let (html, id) = self.footnotes.open(label);
                    self.headings.footnote(&id);
                    self.in_footnote.push(label.to_string());
                    self.summary.enter();
                    out.push(Event::Html(CowStr::from(html)));
                }
                Event::End(TagEnd::FootnoteDefinition) => {
                    let label = self.in_footnote.pop().unwrap_or_default();
                    let back = &self.input.labels.footnote_back;
                    self.summary.leave();
                    out.push(Event::Html(CowStr::from(
                        self.footnotes.close(&label, back),
                    )));
                }
                // Most paragraphs stream through: only the summary's, and any on a page that
                // writes `{#…}` (a figure's image or a table's caption), are read whole.
                Event::Start(Tag::Paragraph)
                    if !self.attributes && !self.summary.wants_paragraph() =>
                {
                    out.push(event);
                }
                Event::Start(Tag::Paragraph) => {
                    let inner = until(&mut iter, |e| matches!(e, Event::End(TagEnd::Paragraph)));
                    self.paragraph(inner, range, &mut out);
                }
                Event::Start(Tag::BlockQuote(_) | Tag::List(_)) => {
                    self.summary.enter();
                    out.push(event);
                }
                Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_)) => {
                    self.summary.leave();
                    out.push(event);
                }
                other => self.inline(other, range, &mut out),
            }
        }
        out
    }

    /// What the pass collected, with the page's HTML.
    pub(super) fn finish(self, mut html: String) -> Result<Rendered, Diagnostics> {
        // A site's bodies are held until its pages are rendered: without the slack of a grown
        // string (a third of the HTML's bytes on the benchmark corpus).
        html.shrink_to_fit();
        let claim_marks = self
            .values
            .marks
            .iter()
            .map(|(id, at)| Mark {
                id: id.clone(),
                place: self.place(*at),
            })
            .collect();
        let mut headings = self.headings;
        for id in self.footnotes.reference_ids() {
            headings.footnote(&id);
        }
        let (mut ids, toc) = headings.finish();
        ids.extend(self.figures.ids().cloned());
        let mut text = self.text.text;
        text.shrink_to_fit();
        let rendered = Rendered {
            html,
            toc,
            ids,
            links: self.links,
            summary: self.summary.finish(),
            words: self.words,
            text,
            where_vars: String::new(),
            claim_marks,
            injected: self.values.injected,
            warnings: self.warnings,
        };
        self.diags.into_result(rendered)
    }

    /// Inline events: values in text become HTML, links are collected, everything else
    /// passes through; what a reader reads goes into the searchable text.
    fn inline<'e>(&mut self, event: Event<'e>, range: Range<usize>, out: &mut Vec<Event<'e>>) {
        self.text.boundary(&event);
        match event {
            Event::Text(text) => {
                self.words += text.split_whitespace().count();
                let refs = if text.contains('@') {
                    figures::references(&text)
                } else {
                    Vec::new()
                };
                if text.contains("{{") || !refs.is_empty() {
                    let html = self.text_html(&text, &refs, range);
                    self.text.prose_html(&html);
                    out.push(Event::InlineHtml(CowStr::from(html)));
                } else {
                    self.text.prose(&text);
                    out.push(Event::Text(text));
                }
            }
            Event::InlineMath(tex) => self.math(&tex, range, Display::Inline, out),
            Event::DisplayMath(tex) => self.math(&tex, range, Display::Block, out),
            Event::Code(ref code) => {
                self.check_code(code, range, Code::Span);
                self.text.code(code);
                out.push(event);
            }
            Event::Html(ref html) | Event::InlineHtml(ref html) => {
                self.text.html(html);
                for (at, dest) in super::collect::html_links(html) {
                    self.links.push(Link {
                        dest,
                        place: self.place(range.start + at),
                    });
                }
                out.push(event);
            }
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. }) => {
                if matches!(event, Event::Start(Tag::Image { .. })) {
                    self.text.enter_image();
                }
                self.links.push(Link {
                    dest: dest_url.to_string(),
                    place: self.place(range.start),
                });
                out.push(event);
            }
            Event::End(TagEnd::Image) => {
                self.text.leave_image();
                out.push(event);
            }
            Event::FootnoteReference(label) => {
                let html = self.footnotes.reference(&label);
                out.push(Event::InlineHtml(CowStr::from(html)));
            }
            other => out.push(other),
        }
    }

    /// A paragraph: an image with an id becomes a numbered figure, a caption line under a
    /// table numbers the table; the first plain paragraph at the top level is the summary.
    fn paragraph<'e>(&mut self, inner: Vec<Ev<'e>>, range: Range<usize>, out: &mut Vec<Event<'e>>) {
        if let [(Event::Text(t), _)] = inner.as_slice()
            && let Some((id, caption)) = figures::table_caption(t)
        {
            let (id, caption) = (id.to_string(), caption.to_string());
            return self.table_caption(&id, &caption, range.start, out);
        }
        if let [
            (Event::Start(Tag::Image { .. }), _),
            ..,
            (Event::End(TagEnd::Image), _),
            (Event::Text(t), _),
        ] = inner.as_slice()
            && let Some((id, _)) = figures::trailing_id(t)
        {
            let id = id.to_string();
            return self.image_figure(inner, &id, range.start, out);
        }
        let wants = self.summary.wants_paragraph();
        let start = out.len();
        out.push(Event::Start(Tag::Paragraph));
        for (e, r) in inner {
            self.inline(e, r, out);
        }
        out.push(Event::End(TagEnd::Paragraph));
        self.text.boundary(&Event::End(TagEnd::Paragraph));
        if wants {
            self.summary.paragraph(out[start..].iter().cloned());
        }
    }

    /// `![caption](src){#fig-id}` alone in its paragraph: a numbered figure.
    fn image_figure<'e>(
        &mut self,
        mut inner: Vec<Ev<'e>>,
        id: &str,
        offset: usize,
        out: &mut Vec<Event<'e>>,
    ) {
        inner.pop();
        let label = match self.figures.define(id, self.input.labels) {
            Ok(label) => label,
            Err(e) => return self.error(offset, e),
        };
        let alt: String = inner
            .iter()
            .filter_map(|(e, _)| match e {
                Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                _ => None,
            })
            .collect();
        let mut image = Vec::new();
        for (e, r) in inner {
            self.inline(e, r, &mut image);
        }
        let mut img = String::new();
        pulldown_cmark::html::push_html(&mut img, image.into_iter());
        let html = format!(
            "<figure class=\"image\" id=\"{}\">{img}{}</figure>\n",
            measured_core::html::escape(id),
            figures::caption(&label, &measured_core::html::escape(&alt))
        );
        self.text.html(&html);
        out.push(Event::Html(CowStr::from(html)));
    }

    /// `: Caption {#tbl-id}` under a table: the table and its caption in a numbered figure.
    fn table_caption<'e>(
        &mut self,
        id: &str,
        caption: &str,
        offset: usize,
        out: &mut Vec<Event<'e>>,
    ) {
        let Some((open, _)) = self.last_table.take().filter(|&(_, end)| end == out.len()) else {
            return self.error(
                offset,
                HookError::new(format!("the caption `{{#{id}}}` follows no table"))
                    .hint("write `: Caption {#tbl-id}` on the line after the table, with one blank line between"),
            );
        };
        let label = match self.figures.define(id, self.input.labels) {
            Ok(label) => label,
            Err(e) => return self.error(offset, e),
        };
        let head = format!(
            "<figure class=\"table\" id=\"{}\">{}",
            measured_core::html::escape(id),
            figures::caption(&label, &measured_core::html::escape(caption))
        );
        self.text.html(&head);
        out.insert(open, Event::Html(CowStr::from(head)));
        out.push(Event::Html(CowStr::from("</figure>\n")));
    }

    /// A text holding values or references: its HTML, errors reported at their places.
    fn text_html(
        &mut self,
        text: &str,
        refs: &[(usize, usize, &str)],
        range: Range<usize>,
    ) -> String {
        let mut html = String::new();
        let mut errors = Vec::new();
        let mut done = 0;
        let written = &self.input.body[range.clone()];
        for &(start, end, id) in refs {
            html.push_str(&self.values_html(&text[done..start], range.start, &mut errors));
            match self.figures.reference(id, self.input.labels) {
                Ok(link) => html.push_str(&link),
                Err(e) => {
                    let at = written
                        .find(&format!("@{id}"))
                        .map_or(range.start, |i| range.start + i);
                    errors.push((at, e));
                }
            }
            done = end;
        }
        html.push_str(&self.values_html(&text[done..], range.start, &mut errors));
        errors.into_iter().for_each(|(at, e)| self.error(at, e));
        html
    }

    /// A piece of text, escaped, its values injected.
    fn values_html(
        &mut self,
        text: &str,
        start: usize,
        errors: &mut Vec<(usize, HookError)>,
    ) -> String {
        if text.contains("{{") {
            self.values.html(self.input, text, start, errors)
        } else {
            measured_core::html::escape(text)
        }
    }

    /// An experiment or source block through the hooks; an experiment block's `{#id}` numbers
    /// its figure.
    fn hook_block(
        &mut self,
        kind: super::BlockKind,
        args: &str,
        code: &str,
    ) -> Result<String, HookError> {
        let input = self.input;
        let (id, args) = figures::split_id(args);
        let label = match id {
            Some(id) if kind != super::BlockKind::Source => {
                Some((id, self.figures.define(id, input.labels)?))
            }
            Some(id) => {
                return Err(HookError::new(format!(
                    "a source excerpt is not numbered, so it cannot carry `{{#{id}}}`"
                ))
                .hint("remove the id: figures are experiment blocks, diagrams and images, tables are experiment tables and Markdown tables"));
            }
            None => None,
        };
        let html = input.hooks.block(kind, &args, code, input.lang)?;
        Ok(match label {
            Some((id, label)) => figures::label_figure(&html, id, &label),
            None => html,
        })
    }

    /// A Mermaid block: its figure, or its error at the line inside the block.
    fn diagram(&mut self, args: &str, code: &str, offset: usize) -> String {
        let (id, caption) = figures::split_id(args);
        let label = match id.map(|id| self.figures.define(id, self.input.labels)) {
            Some(Err(e)) => {
                self.error(offset, e);
                return String::new();
            }
            Some(Ok(label)) => Some(label),
            None => None,
        };
        self.diagrams += 1;
        let placed = diagrams::Placed {
            n: self.diagrams,
            numbered: id.zip(label.as_deref()),
            caption: &caption,
        };
        match diagrams::html(code, &placed, self.input.labels) {
            Ok((html, links)) => {
                // Checked like the body's links, at the line of the block that draws each.
                for link in links {
                    let at = link.line.map_or(offset, |line| {
                        diagrams::line_offset(self.input.body, offset, line)
                    });
                    self.links.push(Link {
                        dest: link.dest,
                        place: self.place(at),
                    });
                }
                // The index skips SVG: the diagram's text alternative is what it reads.
                if let Some(desc) = html.split("<desc").nth(1).and_then(|d| d.split_once('>')) {
                    self.text
                        .html(desc.1.split("</desc>").next().unwrap_or_default());
                    self.text.boundary(&Event::Rule);
                }
                self.text.html(&html);
                html
            }
            Err(e) => {
                let at = e.line.map_or(offset, |line| {
                    diagrams::line_offset(self.input.body, offset, line)
                });
                self.error(
                    at,
                    HookError::new(format!("this Mermaid diagram cannot be drawn: {}", e.message))
                        .hint(e.hint.unwrap_or("Mermaid's syntax: `sequenceDiagram` then `A->>B: message` lines, or `flowchart LR` then `A[Box] --> B[Box]` lines")),
                );
                String::new()
            }
        }
    }

    /// A formula: MathML in the page, its plain text in the searchable text.
    fn math<'e>(
        &mut self,
        tex: &str,
        range: Range<usize>,
        display: Display,
        out: &mut Vec<Event<'e>>,
    ) {
        let written = &self.input.body[range.clone()];
        let start = range.start + written.bytes().take_while(|&b| b == b'$').count();
        match formula::convert(self.input, tex, start, display, &mut self.values.injected) {
            Ok(f) => {
                self.words += f.text.split_whitespace().count();
                self.text.prose(&f.text);
                out.push(Event::InlineHtml(CowStr::from(f.mathml)));
            }
            Err((at, e)) => self.error(at, e),
        }
    }

    /// A heading: its inner events rendered inline, an id and an anchor link.
    fn heading(
        &mut self,
        level: HeadingLevel,
        explicit: Option<&str>,
        inner: Vec<Ev<'_>>,
        offset: usize,
    ) -> String {
        let n = level as u8;
        self.text.enter_heading(n);
        let mut inner_events = Vec::new();
        for (e, r) in inner {
            self.inline(e, r, &mut inner_events);
        }
        self.text.leave_heading();
        let mut inner_html = String::new();
        pulldown_cmark::html::push_html(&mut inner_html, inner_events.into_iter());
        let text = strip_tags(&formula::readable(&inner_html))
            .trim()
            .to_string();
        let (id, taken) = self.headings.add(n, explicit, &text);
        let error = match taken {
            Taken::Free => None,
            Taken::OnPage => Some(
                HookError::new(format!("two headings have the id `{id}`"))
                    .hint("give one of them another id with {#other-id}"),
            ),
            Taken::ByTheme => Some(
                HookError::new(format!(
                    "the theme's templates give the id `{id}` to an element of the page"
                ))
                .hint("give the heading another id with {#other-id}, or none: its text's slug leaves the theme's ids alone"),
            ),
        };
        if let Some(e) = error {
            self.error(offset, e);
        }
        headings::html(n, &id, &inner_html, &text, &self.input.labels.anchor)
    }

    /// A code block: the hooks' HTML for an experiment or source block, else highlighted code.
    fn code_block(&mut self, kind: &CodeBlockKind<'_>, code: &str, range: Range<usize>) -> String {
        let input = self.input;
        let offset = range.start;
        match code::block(kind) {
            Block::Mermaid(args) => {
                // A diagram's text is drawn as written: a value named in it would not be shown.
                self.check_code(code, range.clone(), Code::Block);
                self.diagram(args, code, offset)
            }
            Block::Hook(kind, args) => match self.hook_block(kind, args, code) {
                Ok(html) if kind != super::BlockKind::Source => {
                    // A figure is an injected value too, for the languages' parity.
                    let name = args.split_whitespace().next().unwrap_or_default();
                    let word = match kind {
                        super::BlockKind::Machines => "machines",
                        _ => "experiment",
                    };
                    self.values.injected.insert(format!("```{word} {name}"));
                    self.text.html(&html);
                    html
                }
                Ok(html) => {
                    self.text.html(&html);
                    html
                }
                Err(e) => {
                    self.error(offset, e);
                    String::new()
                }
            },
            Block::Code(token) => {
                if !token.is_empty() && !crate::highlight::knows(token) {
                    self.unknown_language(token, offset);
                }
                self.check_code(code, range, Code::Block);
                self.text.code_block(code);
                code::html(input.highlighter, input.lines, token, code)
            }
        }
    }

    /// `{{ experiment.path }}` written in code (a span or a block, the `what`) naming an
    /// experiment is an error: the page would show the template text, not the value. Other
    /// `{{ }}` in code (Helm, Jinja, Tera examples) stays literal.
    fn check_code(&mut self, code: &str, range: Range<usize>, what: Code) {
        let hooks = self.input.hooks;
        let (what, outside) = match what {
            Code::Span => ("span", "backticks"),
            Code::Block => ("block", "code block"),
        };
        // The code as written in the body (a block's indentation aside), where errors point.
        let written = &self.input.body[range.clone()];
        let mut from = 0;
        for expr in inline::in_code(code, |name| hooks.names_experiment(name)) {
            let at = written[from..]
                .find(expr)
                .and_then(|i| written[..from + i].rfind("{{"))
                .unwrap_or(from);
            from = at + 2;
            let at = range.start + at;
            let reference = measured_core::reference::Reference::parse(expr).text;
            let hint = if measured_measure::claims::marked_id(expr).is_some() {
                format!("write {{{{ {reference} }}}} after the sentence, outside the {outside}")
            } else {
                format!(
                    "write {{{{ {reference} | code }}}} outside the {outside} to show the value \
                     as code, or {{{{ {reference} }}}} to show it as prose"
                )
            };
            self.error(
                at,
                HookError::new(format!(
                    "`{{{{ {expr} }}}}` is inside a code {what}, so the page would show it as \
                     written, not the value it names"
                ))
                .hint(hint),
            );
        }
    }

    /// A warning for a fenced block in the language `token`, which the highlighter does not
    /// know: the block is shown as plain text.
    fn unknown_language(&mut self, token: &str, offset: usize) {
        let body = self.input.body;
        let line_in_body = measured_core::diag::line_col(body, offset).0;
        let message = format!(
            "the code block's language `{token}` is not one the highlighter knows, so the block \
             is shown as plain text"
        );
        let hint = match crate::highlight::closest_language(token) {
            Some(close) => format!("did you mean `{close}`? Write it after the backticks"),
            None => "write a language bat knows (`ts`, `tsx`, `dockerfile`, `powershell`, `toml`, \
                     `kotlin`…), or `text` for plain text; docs/authoring.md lists them"
                .to_string(),
        };
        let d = Diagnostic::new(self.place(offset), message)
            .with_line_of(body, line_in_body)
            .with_hint(hint);
        self.warnings.push(d);
    }

    fn place(&self, offset: usize) -> Place {
        let input = self.input;
        Place::of_offset(input.path, input.body, offset, input.body_line)
    }

    pub(super) fn error(&mut self, offset: usize, e: HookError) {
        let body = self.input.body;
        let line_in_body = measured_core::diag::line_col(body, offset).0;
        let mut d = Diagnostic::new(self.place(offset), e.message).with_line_of(body, line_in_body);
        d.hint = e.hint;
        self.diags.push(d);
    }
}

/// The events up to the first that `end` matches (which is dropped).
fn until<'e>(
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

/// The code of a code block's events.
fn code_of(inner: &[Ev<'_>]) -> String {
    inner
        .iter()
        .filter_map(|(e, _)| match e {
            Event::Text(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect()
}
