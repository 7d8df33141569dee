//! What an import did and what is left to do by hand, printed by `main` at the end.

use std::fmt;
use std::path::{Path, PathBuf};

/// Something to tell the author about one place of the source: `file:line` and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub place: String,
    pub text: String,
}

impl Note {
    pub fn at(file: &Path, line: usize, text: impl Into<String>) -> Note {
        Note {
            place: format!("{}:{line}", file.display()),
            text: text.into(),
        }
    }

    pub fn file(file: impl AsRef<Path>, text: impl Into<String>) -> Note {
        Note {
            place: file.as_ref().display().to_string(),
            text: text.into(),
        }
    }
}

/// The summary of an import.
#[derive(Debug, Default)]
pub struct Report {
    pub articles: usize,
    /// Standalone pages written into `pages/`.
    pub pages: usize,
    pub images: usize,
    pub aliases: usize,
    /// Old URLs of lists and pages kept in `site.toml`'s `[redirects]`.
    pub redirects: usize,
    pub links_rewritten: usize,
    /// Highlight shortcodes and tags made fenced code blocks.
    pub highlights: usize,
    /// Files written (new or changed), relative to the root.
    pub written: Vec<PathBuf>,
    /// Files already as the import would write them.
    pub unchanged: usize,
    pub dropped: Vec<Note>,
    pub to_fix: Vec<Note>,
    /// Files of the source skipped or moved elsewhere, and why.
    pub notes: Vec<Note>,
    /// How many posts are drafts and what the live site did with them.
    pub drafts: Option<String>,
    pub default_lang: String,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for file in &self.written {
            writeln!(f, "wrote {}", file.display())?;
        }
        let sections = [
            ("skipped or moved", &self.notes),
            ("front matter and configuration keys dropped", &self.dropped),
            ("to fix by hand", &self.to_fix),
        ];
        for (title, notes) in sections {
            if !notes.is_empty() {
                writeln!(f, "{title} ({}):", notes.len())?;
            }
            for n in notes {
                writeln!(f, "  {}: {}", n.place, n.text)?;
            }
        }
        if let Some(drafts) = &self.drafts {
            writeln!(f, "drafts: {drafts}")?;
        }
        writeln!(
            f,
            "imported {} articles and {} pages ({} files written, {} unchanged), {} static and bundled files copied, {} aliases, {} redirects in site.toml, {} links rewritten, {} highlight blocks made fenced code, {} keys dropped, {} things to fix by hand",
            self.articles,
            self.pages,
            self.written.len(),
            self.unchanged,
            self.images,
            self.aliases,
            self.redirects,
            self.links_rewritten,
            self.highlights,
            self.dropped.len(),
            self.to_fix.len()
        )
    }
}
