//! `date:` and `updated:` as people write them: a day (`2026-11-29`) or an RFC 3339 date-time
//! with its offset (`2025-06-04T17:04:06+07:00`), which Hugo, Zola and Jekyll all accept.
//! Pages show the day as written; listings sort by the instant; feeds carry the full time.

use std::cmp::Ordering;
use std::fmt;

use jiff::Timestamp;
use jiff::civil::{Date, Time};
use jiff::fmt::temporal::Pieces;
use jiff::tz::Offset;

/// What to do about a date that cannot be read.
pub const DATE_HINT: &str = "write the date as YYYY-MM-DD (2026-11-29) or with its time and offset (2026-11-29T17:04:06+07:00)";

/// A day, or a day and a time at an offset from UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Moment {
    date: Date,
    time: Option<(Time, Offset)>,
}

impl Moment {
    /// A plain day.
    pub fn day(date: Date) -> Moment {
        Moment { date, time: None }
    }

    /// The day as written (in the writer's offset): what pages show.
    pub fn date(&self) -> Date {
        self.date
    }

    /// The instant: a plain day counts from its midnight in UTC, as feeds have always said.
    pub fn timestamp(&self) -> Timestamp {
        let (time, offset) = self.time.unwrap_or((Time::midnight(), Offset::UTC));
        offset
            .to_timestamp(self.date.to_datetime(time))
            .unwrap_or(Timestamp::UNIX_EPOCH)
    }

    /// RFC 3339, as Atom and the sitemap want it: `2025-06-04T17:04:06+07:00`, or
    /// `2026-11-29T00:00:00Z` for a plain day.
    pub fn rfc3339(&self) -> String {
        match self.time {
            None => format!("{}T00:00:00Z", self.date),
            Some((time, offset)) => {
                let time = time.strftime("%H:%M:%S");
                if offset == Offset::UTC {
                    format!("{}T{time}Z", self.date)
                } else {
                    format!("{}T{time}{}", self.date, offset_text(offset))
                }
            }
        }
    }

    /// Reads `s`; the error says what is wrong with it.
    pub fn parse(s: &str) -> Result<Moment, String> {
        let s = s.trim();
        if s.len() == 10 {
            let ok_shape = s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-';
            if !ok_shape {
                return Err(format!("`{s}` is not a date of the form YYYY-MM-DD"));
            }
            return s
                .parse::<Date>()
                .map(Moment::day)
                .map_err(|e| format!("`{s}` is not a valid date ({e})"));
        }
        let pieces = Pieces::parse(s).map_err(|_| {
            format!("`{s}` is neither a date YYYY-MM-DD nor a date-time YYYY-MM-DDTHH:MM:SS+07:00")
        })?;
        if pieces.time_zone_annotation().is_some() {
            return Err(format!("`{s}` names a time zone; write its offset instead"));
        }
        let time = pieces.time().unwrap_or_else(Time::midnight);
        // A time without an offset (Jekyll's `2016-01-08 12:00:00`) is read as UTC.
        let offset = pieces
            .offset()
            .map(|o| o.to_numeric_offset())
            .unwrap_or(Offset::UTC);
        Ok(Moment {
            date: pieces.date(),
            time: Some((time, offset)),
        })
    }
}

/// `+07:00`, `-05:30`.
fn offset_text(offset: Offset) -> String {
    let secs = offset.seconds();
    let sign = if secs < 0 { '-' } else { '+' };
    let abs = secs.unsigned_abs();
    format!("{sign}{:02}:{:02}", abs / 3600, abs % 3600 / 60)
}

impl Ord for Moment {
    fn cmp(&self, other: &Self) -> Ordering {
        let key = |m: &Moment| (m.timestamp(), m.date, m.time.map(|(t, o)| (t, o.seconds())));
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Moment {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Moment {
    /// The day for a plain day, else the RFC 3339 date-time (for `<time datetime>`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.time {
            None => write!(f, "{}", self.date),
            Some(_) => f.write_str(&self.rfc3339()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_time_keeps_its_day_and_its_offset() {
        let m = Moment::parse("2025-06-04T17:04:06+07:00").unwrap();
        assert_eq!(m.date(), jiff::civil::date(2025, 6, 4));
        assert_eq!(m.rfc3339(), "2025-06-04T17:04:06+07:00");
        assert_eq!(m.timestamp().to_string(), "2025-06-04T10:04:06Z");
        // Late in the evening west of UTC: the day as written, not the UTC day.
        let m = Moment::parse("2025-06-04T23:30:00-05:30").unwrap();
        assert_eq!(m.date(), jiff::civil::date(2025, 6, 4));
        assert_eq!(m.rfc3339(), "2025-06-04T23:30:00-05:30");
        assert_eq!(
            Moment::parse("2025-06-04T01:02:03Z").unwrap().rfc3339(),
            "2025-06-04T01:02:03Z"
        );
        assert_eq!(
            Moment::parse("2016-01-08 12:00:00").unwrap().rfc3339(),
            "2016-01-08T12:00:00Z"
        );
    }

    #[test]
    fn a_plain_day_is_midnight_utc_in_feeds() {
        let m = Moment::parse("2026-11-29").unwrap();
        assert_eq!(m.rfc3339(), "2026-11-29T00:00:00Z");
        assert_eq!(m.to_string(), "2026-11-29");
    }

    #[test]
    fn order_is_by_the_instant() {
        let tokyo = Moment::parse("2025-06-04T08:00:00+09:00").unwrap(); // 23:00Z the day before
        let london = Moment::parse("2025-06-03T23:30:00+00:00").unwrap();
        let day = Moment::parse("2025-06-03").unwrap();
        assert!(
            tokyo < london,
            "the later day as written is the earlier instant"
        );
        assert!(day < tokyo);
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        for (s, says) in [
            ("2026-13-01", "is not a valid date"),
            ("29/11/2026", "is not a date of the form YYYY-MM-DD"),
            ("next tuesday", "is neither a date"),
            (
                "2025-06-04T17:04:06+07:00[Asia/Ho_Chi_Minh]",
                "names a time zone",
            ),
        ] {
            let e = Moment::parse(s).unwrap_err();
            assert!(e.contains(says), "{s}: {e}");
        }
    }
}
