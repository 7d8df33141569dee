//! Numbered figures and tables, and references to them. A block carries an id (`{#fig-…}` for
//! a figure, `{#tbl-…}` for a table): an experiment or Mermaid block in its info string, an
//! image alone in its paragraph right after it (`![…](a.png){#fig-a}`), a Markdown table in a
//! caption line under it (`: Caption {#tbl-a}`). Each kind is numbered in the order of the
//! article, and `@fig-a` in prose becomes a link reading "Hình 2" / "Figure 2". Numbers are
//! known before the pass, so a reference may come before its figure.

use std::collections::{BTreeMap, BTreeSet};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use measured_core::html::escape;

use super::{HookError, Labels};

/// What a numbered id names, by its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Figure,
    Table,
}

impl Kind {
    /// The kind an id's prefix says.
    pub(super) fn of(id: &str) -> Option<Kind> {
        if id.starts_with("fig-") {
            Some(Kind::Figure)
        } else if id.starts_with("tbl-") {
            Some(Kind::Table)
        } else {
            None
        }
    }
}

/// The article's numbered ids, and which the pass has met.
#[derive(Default)]
pub(super) struct Figures {
    numbers: BTreeMap<String, (Kind, usize)>,
    defined: BTreeSet<String>,
}

/// `{#id}` in an info string's words: the id, and the words without it.
pub(super) fn split_id(args: &str) -> (Option<&str>, String) {
    let Some(open) = args.find("{#") else {
        return (None, args.trim().to_string());
    };
    let Some(len) = args[open..].find('}') else {
        return (None, args.trim().to_string());
    };
    let id = args[open + 2..open + len].trim();
    let rest = format!("{} {}", &args[..open], &args[open + len + 1..]);
    (
        Some(id),
        rest.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

/// The id of a caption text `{#id}` (after an image, or ending a table's `: caption` line),
/// and the caption before it.
pub(super) fn trailing_id(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_end();
    let body = text.strip_suffix('}')?;
    let open = body.rfind("{#")?;
    let id = body[open + 2..].trim();
    (!id.is_empty() && !id.contains(char::is_whitespace)).then(|| (id, body[..open].trim()))
}

/// A table's caption line: `: Caption {#tbl-id}`.
pub(super) fn table_caption(text: &str) -> Option<(&str, &str)> {
    trailing_id(text.strip_prefix(": ")?)
}

impl Figures {
    /// The numbered ids of `body`, in order; `options` are the body's parser options.
    pub(super) fn scan(body: &str, options: pulldown_cmark::Options) -> Figures {
        let mut figures = Figures::default();
        if !body.contains("{#fig-") && !body.contains("{#tbl-") {
            return figures;
        }
        let mut counts = [0usize; 2];
        let mut previous: Option<Event<'_>> = None;
        let mut in_code = false;
        for (event, _) in super::merge_text(Parser::new_ext(body, options).into_offset_iter()) {
            let id = match &event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                    in_code = true;
                    let word = info.split_whitespace().next().unwrap_or_default();
                    matches!(word, "experiment" | "machines" | "mermaid")
                        .then(|| split_id(info).0.map(str::to_string))
                        .flatten()
                }
                Event::End(TagEnd::CodeBlock) => {
                    in_code = false;
                    None
                }
                Event::Text(t) if !in_code => match &previous {
                    Some(Event::End(TagEnd::Image)) => trailing_id(t).map(|(id, _)| id.into()),
                    Some(Event::Start(Tag::Paragraph)) => {
                        table_caption(t).map(|(id, _)| id.to_string())
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some((id, kind)) = id.and_then(|id| Kind::of(&id).map(|k| (id, k))) {
                if let std::collections::btree_map::Entry::Vacant(slot) = figures.numbers.entry(id)
                {
                    let n = &mut counts[kind as usize];
                    *n += 1;
                    slot.insert((kind, *n));
                }
            }
            previous = Some(event);
        }
        figures
    }

    /// The label of a definition of `id` ("Hình 2"), or why it cannot be one.
    pub(super) fn define(&mut self, id: &str, labels: &Labels) -> Result<String, HookError> {
        let Some(&(kind, n)) = self.numbers.get(id) else {
            return Err(HookError::new(format!(
                "`{{#{id}}}` is not an id a figure or a table can carry"
            ))
            .hint("start it with fig- for a figure (a chart, an image, a diagram) or tbl- for a table, e.g. {#fig-handshake}"));
        };
        if !self.defined.insert(id.to_string()) {
            return Err(
                HookError::new(format!("two figures or tables have the id `{id}`"))
                    .hint("give one of them another id"),
            );
        }
        Ok(label(labels, kind, n))
    }

    /// The link a reference `@id` becomes, or the error naming the closest id.
    pub(super) fn reference(&self, id: &str, labels: &Labels) -> Result<String, HookError> {
        match self.numbers.get(id) {
            Some(&(kind, n)) => Ok(format!(
                "<a class=\"xref\" href=\"#{}\">{}</a>",
                escape(id),
                escape(&label(labels, kind, n))
            )),
            None => {
                let hint =
                    measured_core::diag::closest(id, self.numbers.keys().map(String::as_str))
                        .map(|c| format!("did you mean `@{c}`?"));
                let hint = hint.unwrap_or_else(|| match self.numbers.keys().next() {
                    None => format!("give the figure or table `{{#{id}}}` where it is drawn"),
                    Some(_) => {
                        let ids: Vec<&str> = self.numbers.keys().map(String::as_str).collect();
                        format!("this article's ids: {}", ids.join(", "))
                    }
                });
                Err(HookError::new(format!(
                    "`@{id}` refers to no figure or table of this article"
                ))
                .hint(hint))
            }
        }
    }

    /// Every numbered id, for the link check.
    pub(super) fn ids(&self) -> impl Iterator<Item = &String> {
        self.defined.iter()
    }
}

/// "Hình 2" / "Table 3".
fn label(labels: &Labels, kind: Kind, n: usize) -> String {
    let template = match kind {
        Kind::Figure => &labels.figure,
        Kind::Table => &labels.table,
    };
    template.replace("{n}", &n.to_string())
}

/// The references (`@fig-…`, `@tbl-…`) in `text`: their byte ranges and ids. An `@` after a
/// letter or digit (an e-mail address) is not one.
pub(super) fn references(text: &str) -> Vec<(usize, usize, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find('@').map(|i| from + i) {
        from = at + 1;
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '`') {
            continue;
        }
        let rest = &text[at + 1..];
        if !rest.starts_with("fig-") && !rest.starts_with("tbl-") {
            continue;
        }
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        let id = rest[..len].trim_end_matches(['-', '_']);
        if id.len() > 4 {
            found.push((at, at + 1 + id.len(), id));
            from = at + 1 + id.len();
        }
    }
    found
}

/// An experiment block's figure (the hooks' HTML) given its id and label.
pub(super) fn label_figure(html: &str, id: &str, label: &str) -> String {
    let html = html.replacen("<figure", &format!("<figure id=\"{}\"", escape(id)), 1);
    let mark = format!("<span class=\"label\">{}.</span> ", escape(label));
    if html.contains("<span class=\"caption\">") {
        html.replacen(
            "<span class=\"caption\">",
            &format!("<span class=\"caption\">{mark}"),
            1,
        )
    } else {
        html.replacen("<figcaption>", &format!("<figcaption>{mark}"), 1)
    }
}

/// The caption of a numbered figure or table: its label, then its text (escaped HTML).
pub(super) fn caption(label: &str, text_html: &str) -> String {
    format!(
        "<figcaption><span class=\"label\">{}.</span> {text_html}</figcaption>",
        escape(label)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Labels {
        Labels {
            figure: "Hình {n}".into(),
            table: "Bảng {n}".into(),
            ..Labels::default()
        }
    }

    #[test]
    fn ids_are_numbered_per_kind_in_the_order_of_the_article() {
        let body = "Xem @fig-b.\n\n```experiment x {#tbl-a}\n```\n\n![ảnh](a.png){#fig-a}\n\n```mermaid {#fig-b} Bắt tay\nsequenceDiagram\n```\n\n| a |\n|---|\n| 1 |\n\n: Bảng hai {#tbl-b}\n\n```rust {#fig-no}\n```\n";
        let mut f = Figures::scan(body, super::super::options());
        let l = labels();
        assert_eq!(f.define("fig-a", &l).unwrap(), "Hình 1");
        assert_eq!(f.define("fig-b", &l).unwrap(), "Hình 2");
        assert_eq!(f.define("tbl-a", &l).unwrap(), "Bảng 1");
        assert_eq!(f.define("tbl-b", &l).unwrap(), "Bảng 2");
        assert!(f.define("fig-no", &l).is_err(), "a Rust block is no figure");
        assert!(f.define("fig-a", &l).unwrap_err().message.contains("two"));
        assert_eq!(
            f.reference("fig-b", &l).unwrap(),
            "<a class=\"xref\" href=\"#fig-b\">Hình 2</a>"
        );
        let e = f.reference("fig-c", &l).unwrap_err();
        assert_eq!(e.hint.as_deref(), Some("did you mean `@fig-a`?"));
    }

    #[test]
    fn references_are_not_e_mail_addresses_or_mentions() {
        let text = "Xem @fig-rtt, @tbl-a. và a@fig-x.com, @fig-, @someone";
        let ids: Vec<&str> = references(text).into_iter().map(|r| r.2).collect();
        assert_eq!(ids, ["fig-rtt", "tbl-a"]);
    }

    #[test]
    fn an_info_string_id_is_taken_out_of_its_words() {
        assert_eq!(
            split_id("sizes {#tbl-sizes}"),
            (Some("tbl-sizes"), "sizes".to_string())
        );
        assert_eq!(
            split_id("{#fig-h} Bắt tay ba bước"),
            (Some("fig-h"), "Bắt tay ba bước".to_string())
        );
        assert_eq!(split_id("sizes"), (None, "sizes".to_string()));
        assert_eq!(
            table_caption(": Kích thước {#tbl-k}"),
            Some(("tbl-k", "Kích thước"))
        );
    }
}
