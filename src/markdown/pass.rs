//! The one pass over a body's events. One loop, for speed; it rewrites what the page shows
//! (headings, code blocks, tables, values) and hands each event to the collector of each
//! concern: the summary and the searchable text ([`super::collect`]), the headings' ids and
//! footnotes ([`super::headings`]), the links to check and the word count.

use super::footnotes::Footnotes;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Tag, TagEnd};

use crate::claims::Mark;
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::html::strip_tags;

use super::code::{self, Block};
use super::collect::{SearchText, Summary};
use super::headings::{self, Headings, Taken};
use super::values::{self, Values};
use super::{Ev, HookError, Input, Link, Rendered};

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
                    out.push(Event::Html(CowStr::from(TABLE_OPEN)));
                    out.push(event);
                }
                Event::End(TagEnd::Table) => {
                    out.push(event);
                    out.push(Event::Html(CowStr::from(TABLE_CLOSE)));
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
                Event::Start(Tag::Paragraph) if self.summary.wants_paragraph() => {
                    let inner = until(&mut iter, |e| matches!(e, Event::End(TagEnd::Paragraph)));
                    let start = out.len();
                    out.push(event);
                    for (e, r) in inner {
                        self.inline(e, r, &mut out);
                    }
                    out.push(Event::End(TagEnd::Paragraph));
                    self.summary.paragraph(out[start..].iter().cloned());
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
    pub(super) fn finish(self, html: String) -> Result<Rendered, Diagnostics> {
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
        let (ids, toc) = headings.finish();
        let rendered = Rendered {
            html,
            toc,
            ids,
            links: self.links,
            summary: self.summary.finish(),
            words: self.words,
            text: self.text.text,
            where_vars: String::new(),
            claim_marks,
            injected: self.values.injected,
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
                if text.contains("{{") {
                    let mut errors = Vec::new();
                    let html = self
                        .values
                        .html(self.input, &text, range.start, &mut errors);
                    errors.into_iter().for_each(|(at, e)| self.error(at, e));
                    self.text.prose_html(&html);
                    out.push(Event::InlineHtml(CowStr::from(html)));
                } else {
                    self.text.prose(&text);
                    out.push(Event::Text(text));
                }
            }
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
        let text = strip_tags(&inner_html).trim().to_string();
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
            Block::Hook(kind, args) => match input.hooks.block(kind, args, code, input.lang) {
                Ok(html) if kind == super::BlockKind::Experiment => {
                    // A figure is an injected value too, for the languages' parity.
                    let name = args.split_whitespace().next().unwrap_or_default();
                    self.values.injected.insert(format!("```experiment {name}"));
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
                self.check_code(code, range, Code::Block);
                self.text.code_block(code);
                code::html(input.highlighter, token, code)
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
        for expr in values::in_code(code, |name| hooks.names_experiment(name)) {
            let at = written[from..]
                .find(expr)
                .and_then(|i| written[..from + i].rfind("{{"))
                .unwrap_or(from);
            from = at + 2;
            let at = range.start + at;
            let reference = expr.split('|').next().unwrap_or_default().trim();
            let hint = if crate::claims::marked_id(expr).is_some() {
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

    fn place(&self, offset: usize) -> Place {
        let input = self.input;
        Place::of_offset(input.path, input.body, offset, input.body_line)
    }

    fn error(&mut self, offset: usize, e: HookError) {
        let body = self.input.body;
        let line_in_body = crate::diag::line_col(body, offset).0;
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
