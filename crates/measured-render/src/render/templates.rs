//! The theme's templates compiled once by Tera, and Tera's errors turned into diagnostics that
//! name the template file, its line and column.

use std::collections::BTreeMap;

use tera::{Context, Tera};

use measured_content::theme::Theme;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// The site's templates, compiled once.
pub struct Templates {
    tera: Tera,
    origins: BTreeMap<String, std::path::PathBuf>,
}

/// Compiles the theme's templates (every `.html`, `.xml` and `.txt` file).
pub fn compile(theme: &Theme) -> Result<Templates, Diagnostics> {
    let mut tera = Tera::default();
    tera.autoescape_on([".html", ".xml"]);
    let sources: Vec<(&str, &str)> = theme
        .templates
        .iter()
        .filter(|(name, _)| [".html", ".xml", ".txt"].iter().any(|s| name.ends_with(s)))
        .map(|(name, t)| (name.as_str(), t.text.as_str()))
        .collect();
    let origins = theme
        .templates
        .iter()
        .map(|(n, t)| (n.clone(), t.origin.clone()))
        .collect();
    let templates = Templates {
        tera: Tera::default(),
        origins,
    };
    match tera.add_raw_templates(sources) {
        Ok(()) => Ok(Templates { tera, ..templates }),
        Err(e) => Err(templates.diagnostic(&e).into()),
    }
}

impl Templates {
    /// A diagnostic naming the template file, its line and column.
    fn diagnostic(&self, e: &tera::Error) -> Diagnostic {
        use tera::ErrorKind;
        let report = match e.kind() {
            ErrorKind::SyntaxError(r) | ErrorKind::RenderingError(r) => Some(r),
            _ => None,
        };
        match report {
            Some(r) => {
                let origin = self
                    .origins
                    .get(r.filename())
                    .cloned()
                    .unwrap_or_else(|| r.filename().into());
                let span = r.span();
                let mut message = r.message().to_string();
                let mut source = std::error::Error::source(e);
                while let Some(s) = source {
                    message.push_str(&format!(": {s}"));
                    source = s.source();
                }
                let snippet = self
                    .origins
                    .get(r.filename())
                    .and_then(|p| std::fs::read_to_string(p).ok())
                    .and_then(|t| {
                        t.lines()
                            .nth(span.start_line.saturating_sub(1))
                            .map(str::to_string)
                    });
                let mut d = Diagnostic::new(
                    Place::at(origin, span.start_line, span.start_col + 1),
                    format!("template: {message}"),
                );
                d.snippet = snippet;
                d
            }
            None => {
                let mut message = e.to_string();
                let mut source = std::error::Error::source(e);
                while let Some(s) = source {
                    message.push_str(&format!(": {s}"));
                    source = s.source();
                }
                self.parse_report(&message).unwrap_or_else(|| {
                    Diagnostic::new(Place::file("templates"), format!("template: {message}"))
                })
            }
        }
    }

    /// Tera reports template checks as text (`error: …` then ` --> name:line:col`): the first
    /// report becomes a diagnostic naming the template file.
    fn parse_report(&self, report: &str) -> Option<Diagnostic> {
        let mut lines = report.lines();
        let message = lines
            .next()?
            .trim()
            .trim_start_matches("error: ")
            .to_string();
        let location = lines.find_map(|l| l.trim_start().strip_prefix("--> "))?;
        let mut parts = location.rsplitn(3, ':');
        let col: usize = parts.next()?.trim().parse().ok()?;
        let line: usize = parts.next()?.trim().parse().ok()?;
        let name = parts.next()?.trim();
        let origin = self
            .origins
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.into());
        let snippet = report.lines().find_map(|l| {
            l.trim_start()
                .strip_prefix(&format!("{line} |"))
                .map(|s| s.trim_start_matches(' ').to_string())
        });
        let mut d = Diagnostic::new(Place::at(origin, line, col), format!("template: {message}"));
        d.snippet = snippet;
        Some(d)
    }

    pub(super) fn render(&self, name: &str, ctx: &Context) -> Result<String, Diagnostic> {
        self.tera.render(name, ctx).map_err(|e| self.diagnostic(&e))
    }
}
