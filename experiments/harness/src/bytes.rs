//! Byte counting and hex formatting: `CountingWriter` wraps any `Write`,
//! `CountingSink` discards and counts, `hex` and `hexdump` show bytes.

use std::fmt::Write as _;
use std::io::{self, Write};

/// A `Write` adapter that counts the bytes written through it.
#[derive(Debug, Default)]
pub struct CountingWriter<W: Write> {
    inner: W,
    count: u64,
}

impl<W: Write> CountingWriter<W> {
    pub fn new(inner: W) -> CountingWriter<W> {
        CountingWriter { inner, count: 0 }
    }

    /// Bytes accepted by the inner writer so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Like `io::sink()`, but counts what it swallows.
#[derive(Debug, Default, Clone)]
pub struct CountingSink {
    count: u64,
}

impl CountingSink {
    pub fn new() -> CountingSink {
        CountingSink::default()
    }

    /// Bytes written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn reset(&mut self) {
        self.count = 0;
    }
}

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.count += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Lower-case hex, bytes separated by single spaces: `"0a 03 66 6f"`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        write!(s, "{b:02x}").unwrap();
    }
    s
}

/// An `xxd`-like dump, 16 bytes a line: offset, hex, printable ASCII.
///
/// ```text
/// 00000000  0a 03 66 6f 6f                                    |..foo|
/// ```
pub fn hexdump(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (line, chunk) in bytes.chunks(16).enumerate() {
        let ascii: String = chunk
            .iter()
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        writeln!(s, "{:08x}  {:<47}  |{ascii}|", line * 16, hex(chunk)).unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_hex() {
        let mut w = CountingWriter::new(Vec::new());
        w.write_all(b"abc").unwrap();
        w.write_all(&[0x0a, 0xff]).unwrap();
        assert_eq!(w.count(), 5);
        assert_eq!(w.into_inner(), b"abc\n\xff");
        let mut s = CountingSink::new();
        write!(s, "hello {}", 42).unwrap();
        assert_eq!(s.count(), 8);
        assert_eq!(hex(&[0x0a, 0x03, 0x66, 0x6f]), "0a 03 66 6f");
        assert_eq!(hex(&[]), "");
        let d = hexdump(b"\x0a\x03foo");
        assert_eq!(d, format!("00000000  {:<47}  |..foo|\n", "0a 03 66 6f 6f"));
        assert_eq!(hexdump(&[0u8; 17]).lines().count(), 2);
    }
}
