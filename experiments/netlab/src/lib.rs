//! Shared loopback networking helpers for the "Networking" experiments.
//!
//! - [`tcp`]: parse `/proc/net/tcp` and `/proc/net/tcp6`, name the states, count
//!   the sockets that belong to *our* ports only (other traffic on the machine
//!   never enters the counts).
//! - [`fds`]: count this process's open file descriptors (`/proc/self/fd`).
//! - [`http`]: a tiny HTTP/1.1 keep-alive server on 127.0.0.1 that counts the
//!   connections it accepted and the requests it answered.

pub mod fds;
pub mod http;
pub mod tcp;
