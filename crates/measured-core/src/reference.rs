//! The reference language of `{{ name.path | filter }}`, read in one place: every stage that
//! reads a reference (prose values, formulas, claim marks, social cards, machines blocks,
//! claims) splits it here, and the names no experiment may take are listed here.

/// The first name of `{{ machine.cores }}` and the other values of the measuring machine.
pub const MACHINE: &str = "machine";
/// The first name of a claim's mark (`{{ claim.id }}`).
pub const CLAIM: &str = "claim";
/// The first names no experiment may take.
pub const RESERVED: [&str; 2] = [MACHINE, CLAIM];

/// A reference as written between `{{ }}`: `name.path | filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference<'a> {
    /// The reference without its filter: `tcp-handshake.kernel.ratio`.
    pub text: &'a str,
    /// Its first segment: an experiment, `machine` or `claim`.
    pub name: &'a str,
    /// The rest of the path (empty when there is none): `kernel.ratio`.
    pub path: &'a str,
    /// The filter after `|`, when there is one: `fixed(2)`, `code`.
    pub filter: Option<&'a str>,
}

impl<'a> Reference<'a> {
    /// Splits `expr`, an expression written between `{{ }}` (spaces around each part allowed).
    pub fn parse(expr: &'a str) -> Reference<'a> {
        let (text, filter) = match expr.split_once('|') {
            Some((r, f)) => (r.trim(), Some(f.trim())),
            None => (expr.trim(), None),
        };
        let (name, path) = text.split_once('.').unwrap_or((text, ""));
        Reference {
            text,
            name: name.trim(),
            path: path.trim(),
            filter,
        }
    }

    /// The claim a mark names: `claim.handshake-cost` → `handshake-cost`.
    pub fn claim_id(&self) -> Option<&'a str> {
        (self.name == CLAIM).then_some(self.path)
    }
}

/// What went wrong in reading or showing a reference, without a place (the Markdown stage,
/// which knows where it is written, adds it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookError {
    pub message: String,
    pub hint: Option<String>,
}

impl HookError {
    pub fn new(message: impl Into<String>) -> Self {
        HookError {
            message: message.into(),
            hint: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// What a JSON value of the results is, as messages name it: `list`, `number`…
pub fn type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "list",
        serde_json::Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_splits_into_name_path_and_filter() {
        let r = Reference::parse(" tcp-handshake.kernel.ratio | fixed(2) ");
        assert_eq!(r.text, "tcp-handshake.kernel.ratio");
        assert_eq!(
            (r.name, r.path, r.filter),
            ("tcp-handshake", "kernel.ratio", Some("fixed(2)"))
        );
        let r = Reference::parse("dns");
        assert_eq!((r.name, r.path, r.filter), ("dns", "", None));
        assert_eq!(Reference::parse("claim.fast").claim_id(), Some("fast"));
        assert_eq!(Reference::parse("claims.fast").claim_id(), None);
        assert_eq!(Reference::parse("machine . cores").path, "cores");
    }
}
