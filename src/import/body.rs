//! A post's Markdown made safe for measured: template syntax it cannot convert (Hugo's
//! `{{< >}}` and `{{% %}}`, Zola's and Jekyll's `{{ }}` and `{% %}`) left in place as a code
//! span, so that measured does not read it as a value, and reported at its line; links to a
//! bundle's files by their old absolute URL made relative.

use std::path::{Path, PathBuf};

use super::{Generator, Note};

/// `body` with every line holding template syntax (outside fenced code) wrapped in a code
/// span, and a note for each, at its line in `file` (the body starts at `first_line`).
pub fn inert(generator: Generator, file: &Path, first_line: usize, body: &str) -> Inert {
    let mut out = String::with_capacity(body.len());
    let mut notes = Vec::new();
    let mut highlights = 0;
    let mut fence: Option<String> = None;
    // Open `{{`/`{%` not yet closed: the lines of a shortcode written over several lines.
    let mut open = 0usize;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        let ending = &line[content.len()..];
        let trimmed = content.trim_start();
        if let Some(open) = fence.take() {
            if !trimmed.starts_with(open.as_str()) {
                out.push_str(line);
                fence = Some(open);
            } else if open.starts_with('{') {
                out.push_str(&format!("```{ending}"));
            } else {
                out.push_str(line);
            }
            continue;
        }
        if let Some((lang, end)) = highlight_open(generator, trimmed) {
            fence = Some(end.to_string());
            highlights += 1;
            out.push_str(&format!("```{lang}{ending}"));
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_string());
            out.push_str(line);
            continue;
        }
        let was_open = open > 0;
        open = (open + opened(content)).saturating_sub(closed(content));
        if was_open {
            out.push_str(&code_span(content, ending));
            continue;
        }
        if !(content.contains("{{") || content.contains("{%")) {
            out.push_str(line);
            continue;
        }
        let what = match generator {
            Generator::Hugo if content.contains("{{<") || content.contains("{{%") => {
                "Hugo shortcode"
            }
            Generator::Jekyll if content.contains("{%") => "Liquid tag",
            _ => "template syntax",
        };
        notes.push(Note::at(
            file,
            first_line + i,
            format!(
                "{what} `{}` left as code: convert it by hand",
                trimmed.trim_end()
            ),
        ));
        out.push_str(&code_span(content, ending));
    }
    Inert {
        text: out,
        notes,
        highlights,
    }
}

/// A body made inert: its text, a note for each line left as code, and the number of
/// highlight blocks (`{% highlight go %}`, `{{< highlight go >}}`) made fenced code.
pub struct Inert {
    pub text: String,
    pub notes: Vec<Note>,
    pub highlights: usize,
}

/// The language and the closing line of a highlight block that `line` opens.
fn highlight_open(generator: Generator, line: &str) -> Option<(String, &'static str)> {
    let (inner, end) = match generator {
        Generator::Jekyll => (
            line.strip_prefix("{% highlight ")?.strip_suffix("%}")?,
            "{% endhighlight %}",
        ),
        Generator::Hugo => (
            line.strip_prefix("{{< highlight ")?.strip_suffix(">}}")?,
            "{{< /highlight >}}",
        ),
        Generator::Zola => return None,
    };
    let lang = inner.split_whitespace().next()?;
    lang.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '#' | '_'))
        .then(|| (lang.to_string(), end))
}

fn opened(line: &str) -> usize {
    line.matches("{{").count() + line.matches("{%").count()
}

fn closed(line: &str) -> usize {
    line.matches("}}").count() + line.matches("%}").count()
}

/// The line as one code span, its indentation kept (an empty line stays empty).
fn code_span(content: &str, ending: &str) -> String {
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return format!("{content}{ending}");
    }
    let indent = &content[..content.len() - content.trim_start().len()];
    let ticks = "`".repeat(longest_run(trimmed, '`') + 1);
    format!("{indent}{ticks} {trimmed} {ticks}{ending}")
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in s.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// `body` with links and images to `old_dir + file` of the bundle (`/posts/x/cover.png`)
/// written relative (`cover.png`), and how many were rewritten.
pub fn rewrite_links(body: &str, old_dirs: &[String], files: &[PathBuf]) -> (String, usize) {
    let mut text = body.to_string();
    let mut count = 0;
    for dir in old_dirs.iter().filter(|d| d.len() > 1) {
        for file in files {
            let rel = file.to_string_lossy().replace('\\', "/");
            let old = format!("{dir}{rel}");
            for (before, after) in [
                ("](", ")"),
                ("](", " "),
                ("src=\"", "\""),
                ("href=\"", "\""),
            ] {
                let from = format!("{before}{old}{after}");
                let n = text.matches(&from).count();
                if n > 0 {
                    text = text.replace(&from, &format!("{before}{rel}{after}"));
                    count += n;
                }
            }
        }
    }
    (text, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_syntax_becomes_code_outside_fences_only() {
        let body = "A {{< youtube x >}} b\n```\n{{ x }}\n```\n`{{% y %}}`\n{{< figure\n  src=\"a.png\"\n>}}\nText.\n";
        let Inert { text, notes, .. } = inert(Generator::Hugo, Path::new("p.md"), 5, body);
        assert_eq!(
            text,
            "` A {{< youtube x >}} b `\n```\n{{ x }}\n```\n`` `{{% y %}}` ``\n` {{< figure `\n  ` src=\"a.png\" `\n` >}} `\nText.\n"
        );
        let lines: Vec<String> = notes.iter().map(|n| n.place.clone()).collect();
        assert_eq!(lines, ["p.md:5", "p.md:9", "p.md:10"]);
    }

    #[test]
    fn highlight_blocks_become_fenced_code() {
        let body = "{% highlight ruby linenos %}\nputs \"{{ x }}\"\n{% endhighlight %}\n";
        let done = inert(Generator::Jekyll, Path::new("p.md"), 1, body);
        assert_eq!(done.text, "```ruby\nputs \"{{ x }}\"\n```\n");
        assert_eq!((done.notes.len(), done.highlights), (0, 1));
        let body = "{{< highlight go \"linenos=table\" >}}\nx := 1\n{{< /highlight >}}\n";
        let done = inert(Generator::Hugo, Path::new("p.md"), 1, body);
        assert_eq!(done.text, "```go\nx := 1\n```\n");
    }

    #[test]
    fn bundle_links_by_old_url_become_relative() {
        let (text, n) = rewrite_links(
            "![a](/posts/x/a.png) ![b](b.png) <img src=\"/posts/x/a.png\">",
            &["/posts/x/".into()],
            &[PathBuf::from("a.png")],
        );
        assert_eq!(text, "![a](a.png) ![b](b.png) <img src=\"a.png\">");
        assert_eq!(n, 2);
    }
}
