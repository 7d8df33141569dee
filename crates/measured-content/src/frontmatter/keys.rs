//! The keys front matter may have, what type each holds (with an example for the error), and
//! what measured calls the keys of other generators (Hugo, Zola, Jekyll). Checking a parsed
//! front matter key by key reports every unknown key and every wrong type of a file at once,
//! each at its own line, instead of the first serde meets.

use serde_yaml::{Mapping, Value};

use super::claims::RawClaims;
use super::node::Node;

/// A key measured reads: its name, the type it holds as the error says it, and an example.
pub struct Key {
    pub name: &'static str,
    pub kind: Kind,
    pub example: &'static str,
}

/// The shape of a key's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// `date:` and `updated:`, read as text and checked by the content stage.
    Date,
    TextList,
    Number,
    Bool,
    Claims,
}

impl Kind {
    fn described(self) -> &'static str {
        match self {
            Kind::Text => "a text",
            Kind::Date => "a date",
            Kind::TextList => "a list",
            Kind::Number => "a whole number",
            Kind::Bool => "true or false",
            Kind::Claims => "a map of claim ids to expressions",
        }
    }
}

const fn key(name: &'static str, kind: Kind, example: &'static str) -> Key {
    Key {
        name,
        kind,
        example,
    }
}

/// Every key of [`super::RawFrontMatter`], in the order docs/authoring.md lists them.
pub const KEYS: [Key; 14] = [
    key("title", Kind::Text, "title: \"Kết nối TCP\""),
    key("date", Kind::Date, "date: 2026-11-29"),
    key("description", Kind::Text, "description: \"One sentence.\""),
    key("tags", Kind::TextList, "tags: [python]"),
    key("series", Kind::Text, "series: \"Networking\""),
    key("part", Kind::Number, "part: 2"),
    key("draft", Kind::Bool, "draft: true"),
    key("updated", Kind::Date, "updated: 2026-12-01"),
    key("slug", Kind::Text, "slug: tcp-handshake"),
    key("aliases", Kind::TextList, "aliases: [/posts/old-url/]"),
    key("claims", Kind::Claims, "claims: { faster: a.b > 1 }"),
    key(
        "translated_from",
        Kind::Text,
        "translated_from: 3f2a9c1b7d4e",
    ),
    key("card", Kind::Text, "card: dns.cold_over_cached"),
    key(
        "card_label",
        Kind::Text,
        "card_label: \"cold lookup over cached\"",
    ),
];

/// Keys of other generators, with what measured has instead.
const FOREIGN: [(&str, &str); 22] = [
    ("lastmod", "measured calls this `updated`"),
    ("last_modified_at", "measured calls this `updated`"),
    ("modified", "measured calls this `updated`"),
    ("publishdate", "measured calls this `date`"),
    ("pubdate", "measured calls this `date`"),
    ("summary", "measured calls this `description`"),
    ("excerpt", "measured calls this `description`"),
    (
        "categories",
        "measured has tags only: add the categories to `tags: [...]`",
    ),
    (
        "category",
        "measured has tags only: add the category to `tags: [...]`",
    ),
    (
        "keywords",
        "measured has tags only: add the keywords to `tags: [...]`",
    ),
    ("taxonomies", "measured has tags only: write `tags: [...]`"),
    ("alias", "measured calls this `aliases` (a list)"),
    ("redirect_from", "measured calls this `aliases` (a list)"),
    (
        "url",
        "an article's URL is /<slug>/: set `slug:`, and keep the old URL in `aliases: [...]`",
    ),
    (
        "permalink",
        "an article's URL is /<slug>/: set `slug:`, and keep the old URL in `aliases: [...]`",
    ),
    (
        "path",
        "an article's URL is /<slug>/: set `slug:`, and keep the old URL in `aliases: [...]`",
    ),
    (
        "weight",
        "measured lists articles newest first; to order a series, give `series:` and `part:`",
    ),
    (
        "cover",
        "measured has no cover key: put the image in the article's folder and show it in the body, ![what it shows](cover.jpg)",
    ),
    (
        "image",
        "measured has no image key: put the image in the article's folder and show it in the body, ![what it shows](image.jpg)",
    ),
    (
        "author",
        "the author is the site's: `author = \"...\"` in site.toml",
    ),
    (
        "layout",
        "every article uses templates/article.html: remove the key",
    ),
    (
        "published",
        "measured calls the opposite `draft: true`: remove the key, or write `draft: true` for an unpublished article",
    ),
];

/// The keys every article has.
pub const REQUIRED: [&str; 2] = ["title", "date"];

/// The entry of `name` in [`KEYS`].
pub fn known(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

/// What to say about the unknown key `name`: what measured calls it, or the key it is a typo of.
pub fn unknown_hint(name: &str) -> String {
    let lower = name.to_lowercase();
    let base = lower.trim_end_matches('s');
    let foreign = FOREIGN
        .iter()
        .find(|(k, _)| *k == lower || k.trim_end_matches('s') == base);
    match foreign {
        Some((_, says)) => (*says).to_string(),
        None => match measured_core::diag::closest(&lower, KEYS.iter().map(|k| k.name)) {
            Some(near) => format!("did you mean `{near}`?"),
            None => "remove the key; the keys are listed in docs/authoring.md".into(),
        },
    }
}

/// The value of `key` made into its kind where that is lossless (a number or true/false where
/// text is expected: `title: 1984`), or `Err` with the message of a wrong type.
pub fn conform(key: &Key, value: Value) -> Result<Value, (String, String)> {
    let as_text = |v: Value| match v {
        Value::Number(n) => Value::String(n.to_string()),
        Value::Bool(b) => Value::String(b.to_string()),
        v => v,
    };
    let value = match key.kind {
        Kind::Text | Kind::Date => as_text(value),
        Kind::TextList => match value {
            Value::Sequence(items) => Value::Sequence(items.into_iter().map(as_text).collect()),
            v => v,
        },
        _ => value,
    };
    let fits = match key.kind {
        Kind::Text | Kind::Date => value.is_string(),
        Kind::TextList => value
            .as_sequence()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        Kind::Number => serde_yaml::from_value::<u32>(value.clone()).is_ok(),
        Kind::Bool => value.is_bool(),
        // Read from the tree by [`check`], which keeps repeated ids.
        Kind::Claims => true,
    };
    if fits {
        if let (Kind::Date, Value::String(text)) = (key.kind, &value) {
            super::Moment::parse(text)
                .map_err(|m| (format!("`{}`: {m}", key.name), super::DATE_HINT.to_string()))?;
        }
        return Ok(value);
    }
    let null_entry = value
        .as_sequence()
        .is_some_and(|items| items.iter().any(Value::is_null));
    let quote = "to write the word null itself, quote it: \"null\"";
    Err(if value.is_null() {
        (
            format!("`{}` is null, not {}", key.name, key.kind.described()),
            format!("write a value, e.g. {}; {quote}", key.example),
        )
    } else if null_entry {
        (
            format!("`{}` has a null entry", key.name),
            format!("remove the empty entry; {quote}"),
        )
    } else if let Some((i, entry)) = key
        .kind
        .eq(&Kind::TextList)
        .then(|| value.as_sequence())
        .flatten()
        .and_then(|items| items.iter().enumerate().find(|(_, v)| !v.is_string()))
    {
        (
            format!(
                "`{}` is a list of texts, and its entry {} is {}",
                key.name,
                i + 1,
                what(entry)
            ),
            format!("write each entry as a text, e.g. {}", key.example),
        )
    } else if key.kind == Kind::Number && is_number(&value) {
        (
            format!(
                "`{}` is a whole number from 0 to {}, not {}",
                key.name,
                u32::MAX,
                shown(&value)
            ),
            format!("write it as {}", key.example),
        )
    } else {
        (
            format!(
                "`{}` is {}, not {}",
                key.name,
                key.kind.described(),
                what(&value)
            ),
            format!("write it as {}", key.example),
        )
    })
}

/// Whether `value` is a number, or the digits of one too large for YAML's (kept as text).
fn is_number(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::String(s) => {
            let digits = s.strip_prefix('-').unwrap_or(s);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

/// A number as written.
fn shown(value: &Value) -> String {
    match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => what(other),
    }
}

/// The YAML type of `value`, as the error says it.
fn what(value: &Value) -> String {
    match value {
        Value::Null => "empty".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the text `{s}`"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a map".into(),
        Value::Tagged(_) => "a tagged value".into(),
    }
}

/// What [`check`] found: the known keys' values (conformed), the claims, and what is wrong
/// with the others: (key, message, hint) for each unknown, repeated or wrongly typed key.
pub struct Checked {
    pub values: Mapping,
    pub claims: Option<RawClaims>,
    /// Every key the front matter names, known or not.
    pub names: Vec<String>,
    pub problems: Vec<(String, String, String)>,
}

/// Checks every entry of a front matter, in file order.
pub fn check(entries: Vec<(String, Node)>) -> Checked {
    let mut out = Checked {
        values: Mapping::new(),
        claims: None,
        names: Vec::new(),
        problems: Vec::new(),
    };
    for (name, node) in entries {
        if out.names.contains(&name) {
            out.problems.push((
                name.clone(),
                format!("`{name}` is given twice"),
                "keep one of them".into(),
            ));
            continue;
        }
        out.names.push(name.clone());
        let Some(key) = known(&name) else {
            let hint = unknown_hint(&name);
            out.problems
                .push((name.clone(), format!("unknown key `{name}`"), hint));
            continue;
        };
        // An optional key left empty (`description:`) is as if it were not there.
        if node == Node::Scalar(Value::Null) && !REQUIRED.contains(&key.name) {
            continue;
        }
        let conformed = match key.kind {
            Kind::Claims => claims(&node).map(|c| out.claims = Some(c)),
            _ => conform(key, node.into_value()).map(|v| {
                out.values.insert(Value::String(name.clone()), v);
            }),
        };
        if conformed.is_err() {
            let (message, hint) = conformed.err().unwrap_or_default();
            out.problems.push((name, message, hint));
        }
    }
    out
}

/// `claims:` read from its tree: a map of ids to expressions, or the old list form.
fn claims(node: &Node) -> Result<RawClaims, (String, String)> {
    let scalars = |items: Vec<Option<String>>| items.into_iter().collect::<Option<Vec<String>>>();
    let read = match node {
        Node::Map(entries) => {
            scalars(entries.iter().map(|(_, v)| v.scalar_text()).collect()).map(|texts| {
                RawClaims::Map(entries.iter().map(|(k, _)| k.clone()).zip(texts).collect())
            })
        }
        Node::Seq(items) => {
            scalars(items.iter().map(Node::scalar_text).collect()).map(RawClaims::List)
        }
        Node::Scalar(_) => None,
    };
    read.ok_or_else(|| {
        (
            "`claims` is a map of claim ids to expressions".to_string(),
            "write one claim a line under `claims:`, e.g. `  faster: a.ratio > 2`".to_string(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_the_fields_of_the_front_matter() {
        // serde names every field it expects when it meets one it does not: the struct's
        // fields, which KEYS (the errors' list and hints) must name, no more, no fewer.
        let e = serde_yaml::from_str::<crate::frontmatter::RawFrontMatter>("zzz: 1")
            .unwrap_err()
            .to_string();
        let expected = e.split("expected one of ").nth(1).expect(&e);
        let mut fields: Vec<&str> = expected
            .split(", ")
            .map(|f| f.trim_matches(|c: char| c == '`' || c.is_whitespace()))
            .map(|f| f.split('`').next().unwrap_or(f))
            .collect();
        fields.sort();
        let mut keys: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        keys.sort();
        assert_eq!(keys, fields);
    }

    #[test]
    fn keys_of_other_generators_say_what_measured_calls_them() {
        assert_eq!(unknown_hint("lastmod"), "measured calls this `updated`");
        assert_eq!(unknown_hint("Summary"), "measured calls this `description`");
        assert!(unknown_hint("categories").contains("tags"));
        assert!(unknown_hint("weight").contains("part"));
        assert!(unknown_hint("cover").contains("article's folder"));
        assert_eq!(unknown_hint("tgas"), "did you mean `tags`?");
        assert!(unknown_hint("zzzzzz").contains("docs/authoring.md"));
    }

    #[test]
    fn a_wrong_type_says_the_type_expected() {
        let tags = known("tags").unwrap();
        let (e, hint) = conform(tags, Value::String("python".into())).unwrap_err();
        assert_eq!(e, "`tags` is a list, not the text `python`");
        assert_eq!(hint, "write it as tags: [python]");
        let draft = known("draft").unwrap();
        assert!(conform(draft, Value::String("yes".into())).is_err());
        let part = known("part").unwrap();
        let (e, _) = conform(part, Value::Number((-1).into())).unwrap_err();
        assert_eq!(e, "`part` is a whole number from 0 to 4294967295, not -1");
        let nested = Value::Sequence(vec![
            Value::String("a".into()),
            Value::Sequence(vec![Value::String("b".into())]),
        ]);
        let (e, hint) = conform(tags, nested).unwrap_err();
        assert_eq!(e, "`tags` is a list of texts, and its entry 2 is a list");
        assert_eq!(hint, "write each entry as a text, e.g. tags: [python]");
        let title = known("title").unwrap();
        assert_eq!(
            conform(title, Value::Number(1984.into())).unwrap(),
            Value::String("1984".into())
        );
    }
}
