//! A post's Markdown made safe for measured: template syntax it cannot convert (Hugo's
//! `{{< >}}` and `{{% %}}`, Zola's and Jekyll's `{{ }}` and `{% %}`) left in place as a code
//! span, so that measured does not read it as a value, and reported at its line; links to a
//! bundle's files by their old absolute URL made relative.

use std::path::{Path, PathBuf};

use super::{Generator, Note};

/// `body` with every line holding template syntax (outside fenced code) wrapped in a code
/// span, and a note for each, at its line in `file` (the body starts at `first_line`).
pub fn inert(
    generator: Generator,
    file: &Path,
    first_line: usize,
    body: &str,
) -> (String, Vec<Note>) {
    let mut out = String::with_capacity(body.len());
    let mut notes = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        let ending = &line[content.len()..];
        let trimmed = content.trim_start();
        if let Some(open) = &fence {
            if trimmed.starts_with(open.as_str()) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_string());
            out.push_str(line);
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
        let indent = &content[..content.len() - trimmed.len()];
        let ticks = "`".repeat(longest_run(trimmed, '`') + 1);
        out.push_str(&format!(
            "{indent}{ticks} {} {ticks}{ending}",
            trimmed.trim_end()
        ));
    }
    (out, notes)
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

/// A note for each image linked at an absolute path of the old site (`/images/x.png`), which
/// the import does not copy.
pub fn absolute_images(file: &Path, first_line: usize, body: &str) -> Vec<Note> {
    let mut notes = Vec::new();
    for (i, line) in body.lines().enumerate() {
        for opener in ["](/", "src=\"/"] {
            for (at, _) in line.match_indices(opener) {
                let target: String = line[at + opener.len() - 1..]
                    .chars()
                    .take_while(|c| !matches!(c, ')' | '"' | ' '))
                    .collect();
                let image = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"]
                    .iter()
                    .any(|e| target.to_lowercase().ends_with(e));
                if image && !target.starts_with("//") {
                    notes.push(Note::at(
                        file,
                        first_line + i,
                        format!("the image `{target}` is a file of the old site: copy it into static/ (same path) or next to the article"),
                    ));
                }
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_syntax_becomes_code_outside_fences_only() {
        let body = "A {{< youtube x >}} b\n```\n{{ x }}\n```\n`{{% y %}}`\n";
        let (text, notes) = inert(Generator::Hugo, Path::new("p.md"), 5, body);
        assert_eq!(
            text,
            "` A {{< youtube x >}} b `\n```\n{{ x }}\n```\n`` `{{% y %}}` ``\n"
        );
        let lines: Vec<String> = notes.iter().map(|n| n.place.clone()).collect();
        assert_eq!(lines, ["p.md:5", "p.md:9"]);
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
