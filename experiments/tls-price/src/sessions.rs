//! The server's session store, counted: rustls' in-memory cache wrapped so that the
//! experiment knows how many sessions (TLS 1.3 tickets, TLS 1.2 session IDs) the server
//! stored during each connection, instead of assuming it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rustls::server::{ServerSessionMemoryCache, StoresServerSessions};

/// rustls' `ServerSessionMemoryCache` with a count of the sessions it was asked to store.
pub struct CountingStore {
    inner: Arc<ServerSessionMemoryCache>,
    stored: AtomicU64,
}

impl CountingStore {
    pub fn new(size: usize) -> Arc<CountingStore> {
        Arc::new(CountingStore {
            inner: ServerSessionMemoryCache::new(size),
            stored: AtomicU64::new(0),
        })
    }

    /// Sessions stored since the start.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::SeqCst)
    }
}

impl fmt::Debug for CountingStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountingStore")
            .field("stored", &self.stored())
            .finish()
    }
}

impl StoresServerSessions for CountingStore {
    fn put(&self, key: Vec<u8>, value: Vec<u8>) -> bool {
        let ok = self.inner.put(key, value);
        if ok {
            self.stored.fetch_add(1, Ordering::SeqCst);
        }
        ok
    }

    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.inner.get(key)
    }

    fn take(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.inner.take(key)
    }

    fn can_cache(&self) -> bool {
        self.inner.can_cache()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_the_sessions_it_stored() {
        let store = CountingStore::new(4);
        assert!(store.put(b"a".to_vec(), b"1".to_vec()));
        assert!(store.put(b"b".to_vec(), b"2".to_vec()));
        assert_eq!(store.take(b"a"), Some(b"1".to_vec()));
        assert_eq!(store.get(b"a"), None);
        assert_eq!(store.stored(), 2, "a lookup or a take stores nothing");
    }
}
