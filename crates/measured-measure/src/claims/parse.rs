//! The grammar of a claim: `LHS OP RHS` with OP one of `< <= > >= == !=`, or the equivalence
//! `LHS ~= RHS ± TOL` (`+-` for `±`), TOL a percentage (relative) or a number (absolute). An
//! operand is an experiment path (`tcp-handshake.kernel.ratio`) or a finite number literal.

use super::interval::Exact;

/// A parsed claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub lhs: Operand,
    pub cmp: Cmp,
    pub rhs: Operand,
}

/// The comparison a claim makes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// `~=`: equal within a tolerance.
    Approx(Tolerance),
}

impl Cmp {
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Approx(_) => "~=",
        }
    }
}

/// How far apart the two sides of `~=` may be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// `N%`: LHS / RHS within [1 − N/100, 1 + N/100] (holds N).
    Relative(f64),
    /// `N`: |LHS − RHS| ≤ N.
    Absolute(f64),
}

/// One side of a claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// As written.
    pub text: String,
    /// Character offset in the claim's text.
    pub at: usize,
    pub value: Value,
}

/// What an operand stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `<experiment>.<json.path>`.
    Path {
        experiment: String,
    },
    Number(Exact),
}

/// Why a claim does not parse.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub message: String,
    pub hint: Option<String>,
    /// Character offset in the claim's text.
    pub at: usize,
}

impl ParseError {
    fn new(at: usize, message: impl Into<String>, hint: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            hint: Some(hint.into()),
            at,
        }
    }
}

const OPERATOR_CHARS: &[char] = &['<', '>', '=', '!', '~'];
const FORMS: &str = "`a.b > 2`, `a.b < c.d`, `a.b ~= c.d ± 10%` or `a.b ~= 1 ± 0.05`";

/// Parses a claim's text.
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let chars = |byte: usize| text[..byte].chars().count();
    let Some(op_at) = text.find(OPERATOR_CHARS) else {
        return Err(ParseError::new(
            0,
            format!("`{text}` compares nothing"),
            format!("a claim is a comparison: {FORMS}"),
        ));
    };
    let (cmp_text, op_len) = operator(text, op_at).map_err(|(m, h)| ParseError {
        message: m,
        hint: Some(h),
        at: chars(op_at),
    })?;
    let rest_at = op_at + op_len;
    let rest = &text[rest_at..];
    if let Some(i) = rest.find(OPERATOR_CHARS) {
        return Err(ParseError::new(
            chars(rest_at + i),
            "a claim makes one comparison",
            "split it into two claims with their own ids",
        ));
    }
    let tol_at = rest.find('±').or_else(|| rest.find("+-"));
    let (rhs_text, tolerance) = match (cmp_text, tol_at) {
        ("~=", Some(i)) => {
            // `±` and `+-` are both two bytes long.
            let tol_start = rest_at + i + 2;
            let tol = tolerance(&text[tol_start..], chars(tol_start))?;
            (&rest[..i], Some(tol))
        }
        ("~=", None) => {
            return Err(ParseError::new(
                chars(op_at),
                "`~=` needs a tolerance",
                "write `a ~= b ± 10%` (relative) or `a ~= b ± 0.05` (absolute)",
            ));
        }
        (_, Some(i)) => {
            return Err(ParseError::new(
                chars(rest_at + i),
                format!("a tolerance only goes with `~=`, not `{cmp_text}`"),
                "write `a ~= b ± 10%` to say the two are about equal",
            ));
        }
        (_, None) => (rest, None),
    };
    let lhs = operand(&text[..op_at], 0, "left")?;
    let rhs = operand(rhs_text, chars(rest_at), "right")?;
    let cmp = match (cmp_text, tolerance) {
        ("<", _) => Cmp::Lt,
        ("<=", _) => Cmp::Le,
        (">", _) => Cmp::Gt,
        (">=", _) => Cmp::Ge,
        ("==", _) => Cmp::Eq,
        ("!=", _) => Cmp::Ne,
        (_, Some(t)) => Cmp::Approx(t),
        (_, None) => unreachable!("`~=` has its tolerance"),
    };
    Ok(Expr { lhs, cmp, rhs })
}

/// The comparison at byte `at` of `text` and its length in bytes.
fn operator(text: &str, at: usize) -> Result<(&'static str, usize), (String, String)> {
    let two = text.get(at..at + 2).unwrap_or("");
    for op in ["<=", ">=", "==", "!=", "~="] {
        if two == op {
            return Ok((op, 2));
        }
    }
    let one = &text[at..at + 1];
    match (one, two) {
        ("<", _) => Ok(("<", 1)),
        (">", _) => Ok((">", 1)),
        (_, "=>") => Err((
            "unknown comparison `=>`".into(),
            "did you mean `>=`?".into(),
        )),
        (_, "=<") => Err((
            "unknown comparison `=<`".into(),
            "did you mean `<=`?".into(),
        )),
        ("=", _) => Err((
            "`=` is not a comparison".into(),
            "write `==` for exact equality, or `~=` with a tolerance for measured values".into(),
        )),
        ("~", _) => Err(("unknown comparison `~`".into(), "write `~=`".into())),
        _ => Err((
            format!("unknown comparison `{one}`"),
            "the comparisons are < <= > >= == != ~=".into(),
        )),
    }
}

/// An operand written in `raw`, which starts at character `at` of the claim.
fn operand(raw: &str, at: usize, side: &str) -> Result<Operand, ParseError> {
    let lead = raw.len() - raw.trim_start().len();
    let at = at + raw[..lead].chars().count();
    let text = raw.trim();
    if text.is_empty() {
        return Err(ParseError::new(
            at,
            format!("the {side} side of the comparison is missing"),
            format!("a claim compares two values: {FORMS}"),
        ));
    }
    let value = if text.starts_with(|c: char| c.is_ascii_alphabetic()) && !is_non_finite(text) {
        path(text).map_err(|(m, h)| ParseError::new(at, m, h))?
    } else {
        Value::Number(number(text).map_err(|(m, h)| ParseError::new(at, m, h))?)
    };
    Ok(Operand {
        text: text.to_string(),
        at,
        value,
    })
}

fn is_non_finite(text: &str) -> bool {
    let unsigned = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
    ["inf", "infinity", "nan"].contains(&unsigned.as_str())
}

/// A number literal: finite, in decimal notation.
pub fn number(text: &str) -> Result<Exact, (String, String)> {
    let refuse = |why: &str| {
        (
            format!("`{text}` {why}"),
            "claims compare finite numbers: write the bound as a decimal number".to_string(),
        )
    };
    if is_non_finite(text) {
        return Err(refuse("is not a finite number"));
    }
    let valid = text.chars().any(|c| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    if !valid {
        return Err((
            format!("`{text}` is neither a number nor an experiment path"),
            "an operand is a number (`2.5`) or `<experiment>.<path>` (`tcp-handshake.kernel.ratio`)".into(),
        ));
    }
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(i) = text.parse::<i128>() {
            return Ok(Exact::Int(i));
        }
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Exact::Float(x)),
        Ok(_) => Err(refuse("is too large to be a finite number")),
        Err(_) => Err((
            format!("`{text}` is not a number"),
            "write numbers like `2.5`, `-1` or `1e6`".into(),
        )),
    }
}

fn path(text: &str) -> Result<Value, (String, String)> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if let Some(bad) = text.chars().find(|&c| !ok_char(c) && c != '.') {
        return Err((
            format!("`{text}`: `{bad}` cannot be part of an experiment path"),
            "an operand is a number (`2.5`) or `<experiment>.<path>` (`tcp-handshake.kernel.ratio`)".into(),
        ));
    }
    let (experiment, rest) = text.split_once('.').unwrap_or((text, ""));
    if rest.is_empty() {
        return Err((
            format!("`{text}` names no value"),
            format!("name a value in the experiment's results: `{experiment}.<path>`"),
        ));
    }
    if rest.split('.').any(str::is_empty) {
        return Err((
            format!("`{text}` has an empty step in its path"),
            "separate the keys with single dots".into(),
        ));
    }
    Ok(Value::Path {
        experiment: experiment.to_string(),
    })
}

/// A tolerance after `±`, written from character `at`.
fn tolerance(raw: &str, at: usize) -> Result<Tolerance, ParseError> {
    let lead = raw.len() - raw.trim_start().len();
    let at = at + raw[..lead].chars().count();
    let text = raw.trim();
    let (digits, relative) = match text.strip_suffix('%') {
        Some(d) => (d.trim_end(), true),
        None => (text, false),
    };
    let hint = "write the tolerance as `10%` (relative) or a positive number such as `0.05`";
    let n = match number(digits) {
        Ok(n) => n.as_f64(),
        Err(_) if digits.is_empty() => {
            return Err(ParseError::new(at, "the tolerance is missing", hint));
        }
        Err((m, _)) => return Err(ParseError::new(at, m, hint)),
    };
    if n <= 0.0 {
        return Err(ParseError::new(
            at,
            format!("a tolerance of `{text}` is not positive"),
            "for exact equality write `==`; for measured values give a positive tolerance",
        ));
    }
    if relative && n >= 100.0 {
        return Err(ParseError::new(
            at,
            format!("a relative tolerance of `{text}` allows any ratio down to zero"),
            "a relative tolerance is below 100%; for a factor, write two claims with `>` and `<`",
        ));
    }
    Ok(if relative {
        Tolerance::Relative(n)
    } else {
        Tolerance::Absolute(n)
    })
}

/// The experiments a claim's text names, read leniently (for a claim that does not parse too).
pub fn experiments_of(text: &str) -> Vec<String> {
    text.split(|c: char| OPERATOR_CHARS.contains(&c) || c == '±' || c.is_whitespace())
        .flat_map(|t| t.split("+-"))
        .filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()) && t.contains('.'))
        .filter_map(|t| t.split('.').next().map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (String, usize) {
        let e = parse(text).unwrap_err();
        (e.message, e.at)
    }

    #[test]
    fn comparisons_and_equivalences_parse() {
        let e = parse("tcp.kernel.ratio > 2.5").unwrap();
        assert_eq!(e.cmp, Cmp::Gt);
        assert_eq!(
            e.lhs.value,
            Value::Path {
                experiment: "tcp".into()
            }
        );
        assert_eq!(e.rhs.value, Value::Number(Exact::Float(2.5)));
        assert_eq!((e.rhs.text.as_str(), e.rhs.at), ("2.5", 19));
        let e = parse("a.x~=b.y±10%").unwrap();
        assert_eq!(e.cmp, Cmp::Approx(Tolerance::Relative(10.0)));
        assert_eq!(e.rhs.text, "b.y");
        let e = parse("a.x ~= 1 +- 0.05").unwrap();
        assert_eq!(e.cmp, Cmp::Approx(Tolerance::Absolute(0.05)));
        assert_eq!(e.rhs.value, Value::Number(Exact::Int(1)));
        assert_eq!(
            parse("a.n == -3").unwrap().rhs.value,
            Value::Number(Exact::Int(-3))
        );
        assert_eq!(parse("a.n != 1e3").unwrap().cmp, Cmp::Ne);
        assert_eq!(parse("a.n <= b.m").unwrap().cmp, Cmp::Le);
    }

    #[test]
    fn non_finite_literals_are_refused() {
        for (text, message) in [
            ("a.x < inf", "`inf` is not a finite number"),
            ("a.x > -Infinity", "`-Infinity` is not a finite number"),
            ("NaN == a.x", "`NaN` is not a finite number"),
            ("a.x < 1e400", "`1e400` is too large to be a finite number"),
            (
                "a.x ~= 1 ± 1e999",
                "`1e999` is too large to be a finite number",
            ),
        ] {
            assert_eq!(err(text).0, message, "{text}");
        }
    }

    #[test]
    fn malformed_claims_say_what_is_wrong_and_where() {
        assert_eq!(err("a.x"), ("`a.x` compares nothing".into(), 0));
        assert_eq!(err("a.x => 2"), ("unknown comparison `=>`".into(), 4));
        assert_eq!(err("a.x = 2"), ("`=` is not a comparison".into(), 4));
        assert_eq!(
            err("a.x < 2 < 3"),
            ("a claim makes one comparison".into(), 8)
        );
        assert_eq!(err("a.x ~= 2"), ("`~=` needs a tolerance".into(), 4));
        assert_eq!(
            err("a.x < 2 ± 1"),
            ("a tolerance only goes with `~=`, not `<`".into(), 8)
        );
        assert_eq!(
            err("a.x ~= 2 ± 0%"),
            ("a tolerance of `0%` is not positive".into(), 11)
        );
        assert_eq!(
            err("a.x ~= 2 ± 150%").0,
            "a relative tolerance of `150%` allows any ratio down to zero"
        );
        assert_eq!(
            err(" > 2"),
            ("the left side of the comparison is missing".into(), 1)
        );
        assert_eq!(
            err("a.x >"),
            ("the right side of the comparison is missing".into(), 5)
        );
        assert_eq!(err("tcp > 2"), ("`tcp` names no value".into(), 0));
        assert_eq!(err("a..x > 2").0, "`a..x` has an empty step in its path");
        assert_eq!(
            err("a.x > 2x").0,
            "`2x` is neither a number nor an experiment path"
        );
        assert_eq!(
            err("a.x$ > 2").0,
            "`a.x$`: `$` cannot be part of an experiment path"
        );
    }

    #[test]
    fn experiments_are_found_in_any_claim() {
        assert_eq!(experiments_of("a.b > c.d"), ["a", "c"]);
        assert_eq!(experiments_of("a.b>2"), ["a"]);
        assert_eq!(experiments_of("a.b ~= c-d.e±10%"), ["a", "c-d"]);
        assert_eq!(experiments_of("a.b ~= c.e+-0.1"), ["a", "c"]);
    }
}
