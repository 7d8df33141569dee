//! The experiments' sources as the site shows them: excerpts of a marked region
//! (`// ANCHOR: name` … `// ANCHOR_END: name`) and each experiment's published source page.

use crate::markdown::HookError;
use measured_core::html::escape;
use measured_core::lang::Lang;
use measured_measure::experiments::CrateInfo;

use super::Injector;

/// A page the experiment stage adds (an experiment's source page), rendered with `page.html`.
#[derive(Debug, Clone)]
pub struct ExtraPage {
    pub url: String,
    pub lang: Lang,
    pub title: String,
    pub description: String,
    pub body_html: String,
}

impl Injector<'_> {
    /// The HTML of a ```` ```source <experiment> <region> ```` block: the region, highlighted,
    /// linked to the experiment's source page.
    pub(super) fn excerpt(&self, args: &str, lang: &Lang) -> Result<String, HookError> {
        let mut words = args.split_whitespace();
        let (Some(name), Some(region), None) = (words.next(), words.next(), words.next()) else {
            return Err(HookError::new(format!(
                "`source {args}` needs an experiment and a region"
            ))
            .hint("write ```source <experiment> <region>"));
        };
        let m = self.measurements;
        let info = m
            .crates
            .get(name)
            .or_else(|| m.libraries.get(name))
            .ok_or_else(|| {
                let names = m
                    .crates
                    .keys()
                    .chain(m.libraries.keys())
                    .map(String::as_str);
                let hint = measured_core::diag::closest(name, names).map_or_else(
                    || "the experiments and libraries are the folders of experiments/".to_string(),
                    |c| format!("did you mean `{c}`?"),
                );
                HookError::new(format!("unknown experiment `{name}`")).hint(hint)
            })?;
        let (file, code) = find_region(info, region)?;
        let t = &self.strings[lang];
        let html = self.highlighter.highlight("rust", &code);
        let anchor = file_anchor(&file);
        Ok(format!(
            "<figure class=\"source\"><pre class=\"code\" tabindex=\"0\" data-lang=\"rust\"><code class=\"language-rust\">{html}</code></pre><figcaption><a href=\"{}#{anchor}\">{}</a></figcaption></figure>\n",
            self.source_url(name, lang),
            escape(&t.fill("excerpt_from", &[("file", &file), ("experiment", name)]))
        ))
    }
}

/// The code between `// ANCHOR: region` and `// ANCHOR_END: region`, dedented, other anchors dropped.
pub fn find_region(info: &CrateInfo, region: &str) -> Result<(String, String), HookError> {
    let mut found: Vec<(String, String)> = Vec::new();
    for rel in info
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(info.dir.join(rel)).unwrap_or_default();
        if let Some(code) = region_of(&text, region) {
            found.push((rel.to_string_lossy().replace('\\', "/"), code));
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(HookError::new(format!(
            "experiment `{}` has no region `{region}`",
            info.name
        ))
        .hint(format!(
            "mark it in the source with `// ANCHOR: {region}` and `// ANCHOR_END: {region}`"
        ))),
        _ => Err(HookError::new(format!(
            "region `{region}` is in several files of `{}`: {}",
            info.name,
            found
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn anchor_name<'l>(line: &'l str, tag: &str) -> Option<&'l str> {
    let t = line.trim();
    let rest = t.strip_prefix("//")?.trim_start();
    rest.strip_prefix(tag)?.strip_prefix(':').map(str::trim)
}

fn region_of(text: &str, region: &str) -> Option<String> {
    let mut lines = text.lines();
    lines
        .by_ref()
        .find(|l| anchor_name(l, "ANCHOR") == Some(region))?;
    let mut body: Vec<&str> = Vec::new();
    for l in lines {
        if anchor_name(l, "ANCHOR_END") == Some(region) {
            return Some(dedent(&body));
        }
        if anchor_name(l, "ANCHOR").is_none() && anchor_name(l, "ANCHOR_END").is_none() {
            body.push(l);
        }
    }
    None
}

fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: String = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}

fn file_anchor(file: &str) -> String {
    format!("file-{}", file.replace(['/', '.'], "-"))
}

/// The published source page of every experiment the site uses, in every language.
///
/// Each file is highlighted once for all languages, the files on all cores (on the real blog
/// the experiments' sources are most of the code a cold build highlights).
pub fn source_pages(inj: &Injector<'_>) -> Vec<ExtraPage> {
    use rayon::prelude::*;
    let m = inj.measurements;
    let used = m.by_name.keys().filter_map(|n| m.crates.get(n));
    let libraries = if m.by_name.is_empty() {
        None
    } else {
        Some(m.libraries.values())
    };
    let crates: Vec<&CrateInfo> = used.chain(libraries.into_iter().flatten()).collect();
    let files: Vec<(&CrateInfo, &std::path::PathBuf)> = crates
        .iter()
        .flat_map(|info| info.files.iter().map(move |rel| (*info, rel)))
        .collect();
    let highlighted: Vec<String> = files
        .par_iter()
        .map_init(crate::highlight::Lines::default, |lines, (info, rel)| {
            let text = std::fs::read_to_string(info.dir.join(rel)).unwrap_or_default();
            let token = match rel.extension().and_then(|e| e.to_str()) {
                Some("rs") => "rust",
                Some("toml") => "toml",
                Some("sql") => "sql",
                Some("proto") => "proto",
                Some(other) => other,
                None => "",
            };
            let html = inj.highlighter.highlight_in(token, &text, lines);
            let file = rel.to_string_lossy().replace('\\', "/");
            format!(
                "<h2 id=\"{}\"><code>{}</code></h2>\n<pre class=\"code\" tabindex=\"0\" data-lang=\"{token}\"><code>{html}</code></pre>\n",
                file_anchor(&file),
                escape(&file),
            )
        })
        .collect();
    let mut pages = Vec::new();
    let mut next = 0;
    for info in crates {
        let name = &info.name;
        let sections = &highlighted[next..next + info.files.len()];
        next += info.files.len();
        for lang in inj.config.langs() {
            let t = &inj.strings[lang];
            let title = t.fill("source_page_title", &[("experiment", name)]);
            let mut body = if m.libraries.contains_key(name) {
                format!(
                    "<h1>{}</h1>\n<p>{}</p>\n",
                    escape(&title),
                    escape(&t.fill("library_page_intro", &[("library", name)]))
                )
            } else {
                format!(
                    "<h1>{}</h1>\n<p>{}</p>\n<pre class=\"code\"><code>{}</code></pre>\n",
                    escape(&title),
                    escape(&t.fill("source_page_intro", &[("experiment", name)])),
                    escape(&measured_measure::experiments::reproduce_command(
                        name, false
                    ))
                )
            };
            sections.iter().for_each(|s| body.push_str(s));
            pages.push(ExtraPage {
                url: inj.source_url(name, lang),
                lang: lang.clone(),
                description: title.clone(),
                title,
                body_html: body,
            });
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_found_dedented_without_other_anchors() {
        let text = "fn main() {\n    // ANCHOR: outer\n    let a = 1;\n    // ANCHOR: inner\n    let b = 2;\n    // ANCHOR_END: inner\n    // ANCHOR_END: outer\n}\n";
        assert_eq!(
            region_of(text, "outer").unwrap(),
            "let a = 1;\nlet b = 2;\n"
        );
        assert_eq!(region_of(text, "inner").unwrap(), "let b = 2;\n");
        assert!(region_of(text, "nope").is_none());
    }
}
