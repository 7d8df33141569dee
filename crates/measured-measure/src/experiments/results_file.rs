//! The results file: one experiment's runs on one machine with their provenance, as `measured
//! measure` writes it and `measured results import` reads it back. Its reader trusts nothing
//! (the file may come from a stranger): every field is checked, and named by its JSON path,
//! before anything is kept. Separate from the cache's `Record`, whose files only measured writes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{CrateInfo, Provenance, Record, Run};
use measured_core::diag::{Diagnostic, Place};

/// The format tag and version a results file starts with.
pub const FORMAT: &str = "measured-results/1";
const FORMAT_PREFIX: &str = "measured-results/";
/// The largest results file read (bytes).
pub const MAX_BYTES: usize = 4 << 20;
const MAX_RUNS: usize = 100;
/// The longest provenance string (characters).
const MAX_FIELD: usize = 512;
/// The longest string inside the results.
const MAX_RESULT_STRING: usize = 64 << 10;
/// The longest output of one run.
pub const MAX_OUTPUT: usize = 256 << 10;
/// How deep the results may nest.
const MAX_DEPTH: usize = 32;

/// One experiment's runs on one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// [`FORMAT`].
    pub format: String,
    pub experiment: String,
    /// The source hash of the experiment that ran, as the site publishes it (16 hex digits).
    pub source_hash: String,
    /// Every run, oldest first, each with its provenance.
    pub runs: Vec<Run>,
}

impl ResultsFile {
    /// The file of `runs` (at least one) of `experiment`.
    pub fn new(experiment: &str, runs: Vec<Run>) -> ResultsFile {
        ResultsFile {
            format: FORMAT.to_string(),
            experiment: experiment.to_string(),
            source_hash: runs
                .first()
                .map(|r| r.provenance.source_hash.clone())
                .unwrap_or_default(),
            runs,
        }
    }

    /// The file as written: pretty JSON ending in a newline.
    pub fn to_json(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// The runs combined, as a build uses them; `key` names where they came from.
    pub fn record(&self, key: &str) -> Record {
        Record::of_runs(&self.experiment, key, self.runs.clone())
    }

    /// The machine the runs were measured on (the first run's: [`parse`] checks they agree).
    pub fn provenance(&self) -> &Provenance {
        &self.runs[0].provenance
    }
}

/// Whether `head`, the first bytes of a file, starts as a results file `measured measure`
/// writes (`{"format": "measured-results/…`): such a file may be measured over again.
pub fn starts_like_one(head: &[u8]) -> bool {
    let rest = |s: &[u8], token: &[u8]| -> Option<usize> {
        let skip = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
        s[skip..].starts_with(token).then_some(skip + token.len())
    };
    let mut at = 0;
    for token in [
        &b"{"[..],
        b"\"format\"",
        b":",
        b"\"",
        FORMAT_PREFIX.as_bytes(),
    ] {
        match rest(&head[at..], token) {
            Some(n) => at += n,
            None => return false,
        }
    }
    true
}

/// The source hash the site publishes for an experiment (the provenance shows it).
pub fn published_hash(info: &CrateInfo) -> &str {
    info.source_hash.get(..16).unwrap_or(&info.source_hash)
}

/// An error about the field at JSON path `field` of the file at `path`.
fn at(path: &Path, field: &str, message: impl std::fmt::Display, hint: &str) -> Diagnostic {
    Diagnostic::new(Place::file(path), format!("{field}: {message}")).with_hint(hint)
}

const REMEASURE: &str = "measure again with `measured measure NAME --out FILE` from a clone of the blog, and send that file unchanged";

/// Reads and checks a results file: its size, JSON, format version, fields and their types,
/// that it is of a known experiment, and that its strings hold no markup or control
/// characters. Whether its source is the current one is [`check_current`]'s.
pub fn parse(
    path: &Path,
    bytes: &[u8],
    crates: &BTreeMap<String, CrateInfo>,
) -> Result<ResultsFile, Diagnostic> {
    if bytes.len() > MAX_BYTES {
        return Err(Diagnostic::new(
            Place::file(path),
            format!(
                "the file has {} bytes, more than a results file may ({MAX_BYTES})",
                bytes.len()
            ),
        )
        .with_hint("a results file holds one experiment's runs: measure that experiment alone"));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| json_error(path, &e))?;
    let top = object(path, "$", &value)?;
    only_keys(
        path,
        "$",
        top,
        &["format", "experiment", "source_hash", "runs"],
    )?;
    check_format(path, top.get("format"))?;
    let experiment = string(path, "$.experiment", top.get("experiment"))?;
    if !crates.contains_key(experiment) {
        let hint = measured_core::diag::closest(experiment, crates.keys().map(String::as_str))
            .map_or_else(
                || "import results of an experiment of this blog's experiments/".to_string(),
                |c| format!("did you mean `{c}`?"),
            );
        return Err(at(
            path,
            "$.experiment",
            format!("`{experiment}` is not an experiment of this site"),
            &hint,
        ));
    }
    let source_hash = string(path, "$.source_hash", top.get("source_hash"))?;
    let runs = match top.get("runs") {
        Some(Value::Array(runs)) if !runs.is_empty() && runs.len() <= MAX_RUNS => runs,
        Some(Value::Array(runs)) => {
            return Err(at(
                path,
                "$.runs",
                format!(
                    "holds {} runs; a results file holds 1 to {MAX_RUNS}",
                    runs.len()
                ),
                REMEASURE,
            ));
        }
        other => return Err(missing_or(path, "$.runs", other, "an array of runs")),
    };
    let mut out = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let run = check_run(path, &format!("$.runs[{i}]"), run)?;
        let p = &run.provenance;
        for (field, got, want) in [
            ("experiment", &p.experiment, experiment),
            ("source_hash", &p.source_hash, source_hash),
        ] {
            if got != want {
                return Err(at(
                    path,
                    &format!("$.runs[{i}].provenance.{field}"),
                    format!("is `{got}`, and the file's {field} is `{want}`"),
                    REMEASURE,
                ));
            }
        }
        if let Some(first) = out.first().map(|r: &Run| &r.provenance) {
            if machine_of(first) != machine_of(p) {
                return Err(at(
                    path,
                    &format!("$.runs[{i}].provenance"),
                    "was measured on another machine than run 0 (CPU, cores, kernel or rustc differ)",
                    "a results file holds one machine's runs: write one file per machine",
                ));
            }
        }
        out.push(run);
    }
    Ok(ResultsFile {
        format: FORMAT.to_string(),
        experiment: experiment.to_string(),
        source_hash: source_hash.to_string(),
        runs: out,
    })
}

/// Whether the file measured the experiment's current source (the one the site publishes).
pub fn check_current(
    path: &Path,
    file: &ResultsFile,
    crates: &BTreeMap<String, CrateInfo>,
) -> Result<(), Diagnostic> {
    let info = &crates[&file.experiment];
    let published = published_hash(info);
    if file.source_hash == published {
        return Ok(());
    }
    Err(at(
        path,
        "$.source_hash",
        format!(
            "the runs measured source `{}` of experiment `{}`, and its source is now `{published}`",
            file.source_hash, file.experiment
        ),
        &format!(
            "measure the current source again on that machine (`measured measure {} --out FILE` from an up-to-date clone) and import the new file",
            file.experiment
        ),
    ))
}

/// What tells machines apart in a file's runs.
fn machine_of(p: &Provenance) -> (&str, usize, &str, &str) {
    (&p.cpu, p.cores, &p.kernel, &p.rustc)
}

fn json_error(path: &Path, e: &serde_json::Error) -> Diagnostic {
    let text = e.to_string();
    let message = text.split(" at line ").next().unwrap_or(&text);
    let why = if message.starts_with("number out of range") {
        " (a number too large to be finite: results hold finite numbers only)"
    } else {
        ""
    };
    let place = if e.line() > 0 {
        Place::at(path, e.line(), e.column())
    } else {
        Place::file(path)
    };
    Diagnostic::new(place, format!("not valid JSON: {message}{why}"))
        .with_hint("a results file is the JSON `measured measure` wrote: send it unchanged")
}

fn check_format(path: &Path, v: Option<&Value>) -> Result<(), Diagnostic> {
    let format = string(path, "$.format", v).map_err(|_| {
        at(
            path,
            "$.format",
            format!("missing: this is not a measured results file (`\"format\": \"{FORMAT}\"`)"),
            "write it with `measured measure NAME --out FILE`",
        )
    })?;
    if format == FORMAT {
        return Ok(());
    }
    if format.starts_with(FORMAT_PREFIX) {
        return Err(at(
            path,
            "$.format",
            format!("version `{format}` is not one this measured reads ({FORMAT})"),
            "import it with the measured that wrote it, or measure again with this one",
        ));
    }
    Err(at(
        path,
        "$.format",
        format!("`{format}` is not a measured results file ({FORMAT})"),
        "write it with `measured measure NAME --out FILE`",
    ))
}

/// One run: its results, output and provenance, each checked.
fn check_run(path: &Path, field: &str, v: &Value) -> Result<Run, Diagnostic> {
    let run = object(path, field, v)?;
    only_keys(path, field, run, &["results", "output", "provenance"])?;
    let results = run
        .get("results")
        .ok_or_else(|| missing_or(path, &format!("{field}.results"), None, "an object"))?;
    object(path, &format!("{field}.results"), results)?;
    check_results(path, &format!("{field}.results"), results, 0)?;
    // The output is shown as text in a `<pre>`, escaped: it may hold any character.
    let output = match run.get("output") {
        Some(Value::String(s)) => s.as_str(),
        other => {
            return Err(missing_or(
                path,
                &format!("{field}.output"),
                other,
                "a string",
            ));
        }
    };
    if output.len() > MAX_OUTPUT {
        return Err(at(
            path,
            &format!("{field}.output"),
            format!("is longer than {MAX_OUTPUT} bytes"),
            REMEASURE,
        ));
    }
    let provenance = check_provenance(path, &format!("{field}.provenance"), run.get("provenance"))?;
    Ok(Run {
        results: results.clone(),
        output: output.to_string(),
        provenance,
    })
}

/// The provenance's fields and their JSON types.
const PROVENANCE: [(&str, Kind); 16] = [
    ("experiment", Kind::Text),
    ("source_hash", Kind::Text),
    ("lock_hash", Kind::Text),
    ("rustc", Kind::Text),
    ("cpu", Kind::Text),
    ("cores", Kind::Count),
    ("kernel", Kind::Text),
    ("memory", Kind::Count),
    ("measured_at", Kind::Text),
    ("load_before", Kind::Loads),
    ("load_after", Kind::Loads),
    ("duration_secs", Kind::Number),
    ("quick", Kind::Flag),
    ("command", Kind::Text),
    ("online_cores", Kind::Count),
    ("affinity", Kind::Text),
];

/// Fields a results file may lack: recorded by later versions.
const OPTIONAL: [&str; 3] = ["memory", "online_cores", "affinity"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Count,
    Number,
    Loads,
    Flag,
}

fn check_provenance(path: &Path, field: &str, v: Option<&Value>) -> Result<Provenance, Diagnostic> {
    let v = v.ok_or_else(|| missing_or(path, field, None, "an object"))?;
    let map = object(path, field, v)?;
    let keys: Vec<&str> = PROVENANCE.iter().map(|(k, _)| *k).collect();
    only_keys(path, field, map, &keys)?;
    for (key, kind) in PROVENANCE {
        let here = format!("{field}.{key}");
        let got = map.get(key);
        if got.is_none() && OPTIONAL.contains(&key) {
            continue;
        }
        let ok = match (kind, got) {
            (Kind::Text, Some(Value::String(s))) => {
                text_field(path, &here, s)?;
                true
            }
            (Kind::Count, Some(n)) => n.as_u64().is_some(),
            (Kind::Number, Some(n)) => n.as_f64().is_some_and(|x| x >= 0.0),
            (Kind::Loads, Some(Value::Array(a))) => {
                a.len() == 3 && a.iter().all(|x| x.as_f64().is_some_and(|x| x >= 0.0))
            }
            (Kind::Flag, Some(b)) => b.is_boolean(),
            _ => false,
        };
        if !ok {
            let want = match kind {
                Kind::Text => "a string",
                Kind::Count => "a whole number",
                Kind::Number => "a number of seconds",
                Kind::Loads => "three load averages",
                Kind::Flag => "true or false",
            };
            return Err(missing_or(path, &here, got, want));
        }
    }
    let p: Provenance = serde_json::from_value(v.clone())
        .map_err(|e| at(path, field, format!("invalid provenance: {e}"), REMEASURE))?;
    if p.quick {
        return Err(at(
            path,
            &format!("{field}.quick"),
            "the runs were measured in quick mode",
            "quick results are for tests, never for publishing: measure again without MEASURED_QUICK",
        ));
    }
    if p.cores == 0 {
        return Err(at(path, &format!("{field}.cores"), "is 0", REMEASURE));
    }
    if p.measured_at.parse::<jiff::Timestamp>().is_err() {
        return Err(at(
            path,
            &format!("{field}.measured_at"),
            format!("`{}` is not an RFC 3339 time", p.measured_at),
            REMEASURE,
        ));
    }
    let command = super::measure_command(&p.experiment);
    if p.command != command {
        return Err(at(
            path,
            &format!("{field}.command"),
            format!("is not the command measured runs (`{command}`)"),
            "a results file carries no command of its own: measure with `measured measure`, and send the file unchanged",
        ));
    }
    Ok(p)
}

/// A provenance string: shown on the site as text, and refused if it holds markup or control
/// characters (it names a machine, never formats one).
fn text_field(path: &Path, field: &str, s: &str) -> Result<(), Diagnostic> {
    let hint = "provenance fields are what measured read from the machine: measure again, and send the file unchanged";
    if s.chars().count() > MAX_FIELD {
        return Err(at(
            path,
            field,
            format!("is longer than {MAX_FIELD} characters"),
            hint,
        ));
    }
    if let Some(c) = s.chars().find(|c| matches!(c, '<' | '>') || c.is_control()) {
        return Err(at(
            path,
            field,
            format!("holds {c:?}: markup and control characters are refused in provenance"),
            hint,
        ));
    }
    Ok(())
}

/// The results: nested objects, arrays, finite numbers, booleans and strings of bounded size.
fn check_results(path: &Path, field: &str, v: &Value, depth: usize) -> Result<(), Diagnostic> {
    if depth > MAX_DEPTH {
        return Err(at(
            path,
            field,
            format!("nests deeper than {MAX_DEPTH} levels"),
            REMEASURE,
        ));
    }
    match v {
        Value::Object(map) => {
            for (k, item) in map {
                if k.len() > MAX_FIELD || k.chars().any(char::is_control) {
                    return Err(at(
                        path,
                        field,
                        "has a key that is too long or holds control characters",
                        REMEASURE,
                    ));
                }
                check_results(path, &format!("{field}.{k}"), item, depth + 1)?;
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check_results(path, &format!("{field}[{i}]"), item, depth + 1)?;
            }
        }
        Value::String(s) if s.len() > MAX_RESULT_STRING => {
            return Err(at(
                path,
                field,
                format!("is longer than {MAX_RESULT_STRING} bytes"),
                REMEASURE,
            ));
        }
        Value::Number(n) if !n.as_f64().is_some_and(f64::is_finite) => {
            return Err(at(path, field, "is not a finite number", REMEASURE));
        }
        _ => {}
    }
    Ok(())
}

fn object<'v>(
    path: &Path,
    field: &str,
    v: &'v Value,
) -> Result<&'v serde_json::Map<String, Value>, Diagnostic> {
    v.as_object()
        .ok_or_else(|| missing_or(path, field, Some(v), "an object"))
}

fn string<'v>(path: &Path, field: &str, v: Option<&'v Value>) -> Result<&'v str, Diagnostic> {
    match v {
        Some(Value::String(s)) => {
            text_field(path, field, s)?;
            Ok(s)
        }
        other => Err(missing_or(path, field, other, "a string")),
    }
}

fn missing_or(path: &Path, field: &str, got: Option<&Value>, want: &str) -> Diagnostic {
    let message = match got {
        None => format!("missing (expected {want})"),
        Some(Value::Null) => format!("is null, expected {want}"),
        Some(v) => {
            let name = measured_core::reference::type_name(v);
            let a = if name.starts_with('o') { "an" } else { "a" };
            format!("is {a} {name}, expected {want}")
        }
    };
    at(path, field, message, REMEASURE)
}

fn only_keys(
    path: &Path,
    field: &str,
    map: &serde_json::Map<String, Value>,
    known: &[&str],
) -> Result<(), Diagnostic> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(at(
            path,
            &format!("{field}.{k}"),
            "is not a field of a results file",
            &format!("the fields here are: {}", known.join(", ")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crates() -> BTreeMap<String, CrateInfo> {
        let info = CrateInfo {
            name: "e".into(),
            dir: "experiments/e".into(),
            files: Vec::new(),
            source_hash: "0123456789abcdef0123".into(),
        };
        BTreeMap::from([("e".to_string(), info)])
    }

    /// A valid file of experiment `e` whose first run's results are `results`.
    fn file(results: &str) -> String {
        let provenance = r#"{"experiment": "e", "source_hash": "0123456789abcdef", "lock_hash": "l", "rustc": "rustc 1.0", "cpu": "cpu", "cores": 2, "kernel": "6.1", "measured_at": "2026-01-01T00:00:00Z", "load_before": [0, 0, 0], "load_after": [0, 0, 0], "duration_secs": 1, "quick": false, "command": "cargo run --release -- measure e --out e.results.json"}"#;
        format!(
            r#"{{"format": "measured-results/1", "experiment": "e", "source_hash": "0123456789abcdef", "runs": [{{"results": {results}, "output": "<b>printed</b>\n", "provenance": {provenance}}}]}}"#
        )
    }

    fn error(text: &str) -> String {
        parse(Path::new("r.json"), text.as_bytes(), &crates())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_valid_file_round_trips_and_its_output_may_hold_any_text() {
        let r = parse(
            Path::new("r.json"),
            file(r#"{"x": 1.5}"#).as_bytes(),
            &crates(),
        )
        .unwrap();
        assert_eq!(r.runs[0].output, "<b>printed</b>\n");
        let again = parse(Path::new("r.json"), &r.to_json(), &crates()).unwrap();
        assert_eq!(again, r);
        check_current(Path::new("r.json"), &r, &crates()).unwrap();
        assert_eq!(r.record("k").results["x"], 1.5);
    }

    #[test]
    fn numbers_beyond_f64_deep_nesting_and_unknown_fields_are_refused() {
        let e = error(&file(r#"{"x": 1e400}"#));
        assert!(e.starts_with("r.json:1:"), "{e}");
        assert!(
            e.contains("not finite") || e.contains("finite numbers only"),
            "{e}"
        );
        let deep = format!("{}1{}", "{\"a\": ".repeat(40), "}".repeat(40));
        let e = error(&file(&deep));
        assert!(e.contains("nests deeper than 32 levels"), "{e}");
        let e = error(&file(r#"{"x": 1}"#).replacen("\"runs\"", "\"extra\": 1, \"runs\"", 1));
        assert!(
            e.contains("$.extra: is not a field of a results file"),
            "{e}"
        );
        let e = error(&file(r#"[1]"#));
        assert!(
            e.contains("$.runs[0].results: is a list, expected an object"),
            "{e}"
        );
    }
}
