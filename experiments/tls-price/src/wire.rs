//! Socket bookkeeping for the TLS experiment: a stream wrapper that counts bytes and
//! round trips, and the thread CPU clock.

use std::io::{self, Read, Write};

// ANCHOR: counted
/// Wraps a socket and counts how often the client must wait for the peer:
/// every read that follows a write is one round trip.
pub struct Counted<S> {
    inner: S,
    wrote: bool,
    waits: u32,
    bytes: u64,
}

impl<S> Counted<S> {
    pub fn new(inner: S) -> Self {
        Counted {
            inner,
            wrote: false,
            waits: 0,
            bytes: 0,
        }
    }
    pub fn waits(&self) -> u32 {
        self.waits
    }
    pub fn byte_count(&self) -> u64 {
        self.bytes
    }
}

impl<S: Read> Read for Counted<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.wrote {
            self.waits += 1;
            self.wrote = false;
        }
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

impl<S: Write> Write for Counted<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.wrote |= n > 0;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
// ANCHOR_END: counted

// ANCHOR: cpu
/// CPU time (user + system) consumed so far by the calling thread, in ns.
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}
// ANCHOR_END: cpu
