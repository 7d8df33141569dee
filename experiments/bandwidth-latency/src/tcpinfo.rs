//! What the kernel says about a TCP connection (`getsockopt(TCP_INFO)`, Linux): the
//! receiver's advertised window as the sender sees it, the congestion window, and how
//! long sending was held back by the receive window.
//!
//! The struct is the prefix of Linux's `struct tcp_info` (include/uapi/linux/tcp.h) up
//! to `tcpi_rcv_wnd`; the kernel copies what fits and fills in the rest of ours with
//! nothing, so on a kernel older than a field that field reads 0.

use std::net::TcpStream;
use std::os::fd::AsRawFd;

/// `IPPROTO_TCP` and `TCP_INFO` on Linux.
const IPPROTO_TCP: i32 = 6;
const TCP_INFO: i32 = 11;

unsafe extern "C" {
    fn getsockopt(
        fd: i32,
        level: i32,
        name: i32,
        value: *mut std::ffi::c_void,
        len: *mut u32,
    ) -> i32;
}

/// The fields of `struct tcp_info` in their order, up to `tcpi_rcv_wnd`. Most are never
/// read here, but each must be present for the ones that are to sit at their offsets.
#[allow(dead_code)]
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct TcpInfo {
    head: [u8; 8], // state, ca_state, retransmits, probes, backoff, options, wscale, flags
    rto: u32,
    ato: u32,
    pub snd_mss: u32,
    rcv_mss: u32,
    unacked: u32,
    sacked: u32,
    lost: u32,
    retrans: u32,
    fackets: u32,
    last_data_sent: u32,
    last_ack_sent: u32,
    last_data_recv: u32,
    last_ack_recv: u32,
    pmtu: u32,
    rcv_ssthresh: u32,
    /// Smoothed RTT, µs.
    pub rtt_us: u32,
    rttvar: u32,
    snd_ssthresh: u32,
    /// Congestion window, in segments of `snd_mss`.
    pub snd_cwnd: u32,
    advmss: u32,
    reordering: u32,
    rcv_rtt: u32,
    rcv_space: u32,
    total_retrans: u32,
    pacing_rate: u64,
    max_pacing_rate: u64,
    bytes_acked: u64,
    bytes_received: u64,
    segs_out: u32,
    segs_in: u32,
    notsent_bytes: u32,
    min_rtt: u32,
    data_segs_in: u32,
    data_segs_out: u32,
    delivery_rate: u64,
    /// Time spent sending (µs), all reasons together...
    pub busy_time: u64,
    /// ...of which limited by the receiver's window...
    pub rwnd_limited: u64,
    /// ...and by the send buffer.
    pub sndbuf_limited: u64,
    delivered: u32,
    delivered_ce: u32,
    bytes_sent: u64,
    bytes_retrans: u64,
    dsack_dups: u32,
    reord_seen: u32,
    rcv_ooopack: u32,
    /// The window the receiver advertised, as the sender last saw it (bytes).
    pub snd_wnd: u32,
    rcv_wnd: u32,
}

impl TcpInfo {
    /// The congestion window in bytes.
    pub fn cwnd_bytes(&self) -> f64 {
        self.snd_cwnd as f64 * self.snd_mss as f64
    }

    /// The share of the sending time that the receive window held back (0 when the
    /// kernel counted no sending time).
    pub fn rwnd_limited_share(&self) -> f64 {
        if self.busy_time == 0 {
            0.0
        } else {
            self.rwnd_limited as f64 / self.busy_time as f64
        }
    }
}

/// `TCP_INFO` of `stream`; panics if the kernel refuses it (not Linux, not TCP).
pub fn get(stream: &TcpStream) -> TcpInfo {
    let mut info = TcpInfo::default();
    let mut len = std::mem::size_of::<TcpInfo>() as u32;
    // SAFETY: `info` is a plain-integer repr(C) struct of `len` bytes that lives across
    // the call; the kernel writes at most `len` bytes into it and updates `len`.
    let r = unsafe {
        getsockopt(
            stream.as_raw_fd(),
            IPPROTO_TCP,
            TCP_INFO,
            (&mut info as *mut TcpInfo).cast(),
            &mut len,
        )
    };
    assert_eq!(
        r,
        0,
        "getsockopt(TCP_INFO): {}",
        std::io::Error::last_os_error()
    );
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sit_where_linux_puts_them() {
        // Offsets from include/uapi/linux/tcp.h: tcpi_rto at 8, tcpi_snd_cwnd at 80,
        // tcpi_busy_time at 168, tcpi_snd_wnd at 228.
        assert_eq!(std::mem::offset_of!(TcpInfo, rto), 8);
        assert_eq!(std::mem::offset_of!(TcpInfo, snd_cwnd), 80);
        assert_eq!(std::mem::offset_of!(TcpInfo, busy_time), 168);
        assert_eq!(std::mem::offset_of!(TcpInfo, snd_wnd), 228);
    }

    #[test]
    fn a_connection_reports_its_windows() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let _s = l.accept().unwrap();
        let i = get(&c);
        assert!(i.snd_mss > 0 && i.snd_cwnd > 0, "{i:?}");
        assert!(i.snd_wnd > 0, "the peer's advertised window: {i:?}");
    }
}
