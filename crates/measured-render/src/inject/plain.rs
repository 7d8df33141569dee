//! A value as plain text, for what is not HTML (a social card's headline): formatted for the
//! page's language exactly as `{{ … }}` formats it in the article's prose, with no markup.

use serde_json::Value;

use crate::markdown::HookError;
use measured_core::lang::Lang;
use measured_measure::values;

use super::{Injector, split_filter};

impl Injector<'_> {
    /// The text `{{ expr }}` shows in `lang` (`dns.cold_over_cached` → `7,3×` on a Vietnamese
    /// page), or why `expr` names nothing to show.
    pub fn plain(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
        let (reference, filter) = split_filter(expr)?;
        let (_, v) = values::resolve(self.measurements, reference)?;
        match (values::number(v), v) {
            (Some(n), _) => Ok(n.show(filter.unwrap_or(n.kind.default_filter()), lang)),
            (None, Value::String(s)) if filter.is_none() => {
                Ok(measured_core::html::terminal_text(s).into_owned())
            }
            (None, other) => Err(HookError::new(format!(
                "`{reference}` is a {}, not a number to show",
                values::type_name(other)
            ))
            .hint("point at a number (or a string, without a filter)")),
        }
    }
}
