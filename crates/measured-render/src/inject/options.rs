//! The options of experiment and machines blocks: `key: value` lines, read by one reader, so
//! both kinds of block take the same comments and give the same errors.

use crate::markdown::HookError;
use measured_core::format::Filter;

use super::{BlockOptions, Column};

/// The `key: value` lines of a block's body, trimmed: blank lines and `#` lines are left out,
/// as is a value's trailing ` # comment`.
pub(super) fn lines(body: &str) -> impl Iterator<Item = Result<(&str, &str), HookError>> {
    body.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| HookError::new(format!("`{line}` is not a `key: value` line")))?;
            let value = value.split(" #").next().unwrap_or_default().trim();
            Ok((key.trim(), value))
        })
}

/// The error for an option `key` the `kind` block does not take, with the closest of `keys`.
pub(super) fn unknown(kind: &str, key: &str, keys: &[&str]) -> HookError {
    let hint = measured_core::diag::did_you_mean(key, keys.iter().copied(), "the options are");
    HookError::new(format!("unknown {kind} block option `{key}`")).hint(hint)
}

impl Column {
    /// `field | label | filter`: the label defaults to the field, the filter to none.
    pub(super) fn parse(s: &str) -> Result<Column, HookError> {
        let parts: Vec<&str> = s.split('|').map(str::trim).collect();
        let field = parts[0].to_string();
        if field.is_empty() {
            return Err(HookError::new(format!("`{s}` names no field"))
                .hint("write field | label | filter"));
        }
        let label = parts
            .get(1)
            .map_or_else(|| field.clone(), |l| l.to_string());
        let filter = match parts.get(2) {
            Some(f) => Some(Filter::parse(f).map_err(HookError::new)?),
            None => None,
        };
        Ok(Column {
            field,
            label,
            filter,
        })
    }
}

impl BlockOptions {
    /// The body of an experiment block.
    pub(super) fn parse(body: &str) -> Result<BlockOptions, HookError> {
        const KEYS: [&str; 10] = [
            "table", "chart", "data", "x", "y", "column", "caption", "scale", "y_label", "log_y",
        ];
        let mut o = BlockOptions::default();
        for line in lines(body) {
            let (key, value) = line?;
            let value = value.to_string();
            match key {
                "table" => o.table = Some(value),
                "chart" => o.chart = Some(value),
                "data" => o.data = Some(value),
                "x" => o.x = Some(Column::parse(&value)?),
                "y" => o.y.push(Column::parse(&value)?),
                "column" => o.columns.push(Column::parse(&value)?),
                "caption" => o.caption = Some(value),
                "scale" => {
                    // `log` (the x axis, as before), `log-x`, `log-y`, `log-log` (both axes).
                    let (x, y) = match value.as_str() {
                        "linear" => (false, false),
                        "log" | "log-x" => (true, false),
                        "log-y" => (false, true),
                        "log-log" => (true, true),
                        _ => {
                            return Err(HookError::new(format!("`scale: {value}` is not a scale"))
                                .hint("write `scale: log` (a log x axis), `log-y`, `log-log` (both axes) or `linear`"));
                        }
                    };
                    o.log_y |= y;
                    o.scale = x.then(|| "log".to_string());
                }
                "y_label" => o.y_label = Some(value),
                "log_y" => {
                    o.log_y = value.parse().map_err(|_| {
                        HookError::new(format!("`log_y: {value}` is neither true nor false"))
                            .hint("write `log_y: true` for a log y axis")
                    })?;
                }
                other => return Err(unknown("experiment", other, &KEYS)),
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_options_parse_and_reject_unknown_keys() {
        let o = BlockOptions::parse(
            "table: rows\ncolumn: name | Tên\ncolumn: bytes | Kích thước | bytes\n",
        )
        .unwrap();
        assert_eq!(o.table.as_deref(), Some("rows"));
        assert_eq!(o.columns.len(), 2);
        assert_eq!(o.columns[1].filter, Some(Filter::Bytes));
        let e = BlockOptions::parse("tabel: rows").unwrap_err();
        assert_eq!(e.hint.as_deref(), Some("did you mean `table`?"));
    }

    #[test]
    fn lines_leave_out_comments_and_name_a_line_without_a_colon() {
        let read: Vec<_> = lines("# a comment\n\n  table: rows   # the rows\ncaption: a: b\n")
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read, [("table", "rows"), ("caption", "a: b")]);
        let e = lines("table rows").next().unwrap().unwrap_err();
        assert_eq!(e.message, "`table rows` is not a `key: value` line");
    }
}
