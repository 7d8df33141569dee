//! Drafts made visible: what the source's live build did with its drafts, read from its
//! configuration (Hugo's `buildDrafts = true`) and from the files that deploy it (`hugo -D`
//! in a GitHub workflow, `zola build --drafts` in `netlify.toml`), and the sentence the
//! summary says about them.

use std::path::{Path, PathBuf};

use super::srcconfig::SourceConfig;
use super::{Generator, Note};

/// What the source's live build does with drafts, as far as its files say.
#[derive(Debug)]
pub struct LiveBuild {
    /// Where the live build is told to publish drafts, if anywhere.
    pub publishes: Option<Note>,
    /// The deploy files read (relative to the source).
    pub read: Vec<PathBuf>,
}

/// The files that may build the site for its host.
fn deploy_files(src: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "netlify.toml",
        "vercel.json",
        ".gitlab-ci.yml",
        ".travis.yml",
        "Makefile",
        "package.json",
        "wrangler.toml",
        "amplify.yml",
        "render.yaml",
        "Dockerfile",
    ]
    .iter()
    .map(|f| src.join(f))
    .filter(|p| p.is_file())
    .collect();
    for dir in [src.join(".github/workflows"), src.to_path_buf()] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let ext = p.extension().and_then(|e| e.to_str()).unwrap_or_default();
                let in_workflows = dir.ends_with("workflows");
                p.is_file() && ((in_workflows && (ext == "yml" || ext == "yaml")) || ext == "sh")
            })
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Whether the command line `line` runs the generator with drafts published.
fn builds_drafts(generator: Generator, line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ';' | '&' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .collect();
    let (command, flags): (&str, &[&str]) = match generator {
        Generator::Hugo => (
            "hugo",
            &["-D", "--buildDrafts", "--buildDrafts=true", "--builddrafts"],
        ),
        Generator::Zola => ("zola", &["--drafts"]),
        Generator::Jekyll => ("jekyll", &["--drafts", "--unpublished"]),
    };
    let env = generator == Generator::Hugo
        && words
            .iter()
            .any(|w| w.eq_ignore_ascii_case("HUGO_BUILDDRAFTS=true"));
    env || (words.contains(&command)
        && words.iter().any(|w| {
            flags.contains(w)
                || (generator == Generator::Hugo
                    && w.starts_with('-')
                    && !w.starts_with("--")
                    && w.contains('D'))
        }))
}

/// What the live build of the site at `src` does with drafts.
pub fn live_build(generator: Generator, src: &Path, config: &SourceConfig) -> LiveBuild {
    let mut live = LiveBuild {
        publishes: config.build_drafts.clone(),
        read: Vec::new(),
    };
    for file in deploy_files(src) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if live.publishes.is_none() {
            if let Some(i) = text.lines().position(|l| builds_drafts(generator, l)) {
                let line = text.lines().nth(i).unwrap_or_default().trim();
                live.publishes = Some(Note::at(&file, i + 1, format!("`{line}`")));
            }
        }
        live.read
            .push(file.strip_prefix(src).unwrap_or(&file).to_path_buf());
    }
    live
}

/// The summary's sentence on `drafts` drafts of `posts` posts, or none when there is none.
pub fn sentence(
    generator: Generator,
    drafts: usize,
    posts: usize,
    live: &LiveBuild,
    published: bool,
) -> Option<String> {
    if drafts == 0 {
        return None;
    }
    let what = match &live.publishes {
        Some(n) => format!("the live site published them ({} at {})", n.text, n.place),
        None => {
            let read: Vec<String> = std::iter::once("its configuration".to_string())
                .chain(live.read.iter().map(|p| p.display().to_string()))
                .collect();
            format!(
                "the live site left them out as far as its files say (no {} in {})",
                match generator {
                    Generator::Hugo => "`buildDrafts = true` or `hugo -D`",
                    Generator::Zola => "`zola build --drafts`",
                    Generator::Jekyll => "`jekyll build --drafts` or `--unpublished`",
                },
                read.join(", ")
            )
        }
    };
    let done = if published {
        format!(
            "they are published, as --drafts-as-published asks ({} articles)",
            posts
        )
    } else {
        format!(
            "they are imported as drafts, so `measured build` publishes {} of the {posts} articles; import again with --drafts-as-published to publish them{}",
            posts - drafts,
            if live.publishes.is_some() {
                " as the live site did"
            } else {
                ""
            }
        )
    };
    Some(format!(
        "{drafts} of {posts} posts are drafts: {what}; {done}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_flags_are_found_in_command_lines() {
        for line in [
            "        run: hugo -D --minify",
            "  command = \"hugo --buildDrafts --gc\"",
            "hugo -DF",
            "HUGO_BUILDDRAFTS=true hugo",
        ] {
            assert!(builds_drafts(Generator::Hugo, line), "{line}");
        }
        for line in [
            "run: hugo --minify",
            "- uses: peaceiris/actions-hugo@v2",
            "echo -D",
        ] {
            assert!(!builds_drafts(Generator::Hugo, line), "{line}");
        }
        assert!(builds_drafts(Generator::Zola, "zola build --drafts"));
    }
}
