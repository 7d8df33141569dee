//! Allocation counting: a global allocator wrapping `System` that counts
//! calls and bytes, and `measure` to read what a closure allocated.
//!
//! Install it in the experiment's `main.rs`:
//!
//! ```
//! #[global_allocator]
//! static A: harness::alloc::CountingAlloc = harness::alloc::CountingAlloc;
//!
//! fn main() {
//!     let (v, stats) = harness::alloc::measure(|| vec![0u8; 64]);
//!     assert_eq!(v.len(), 64);
//!     assert_eq!(stats.allocs, 1);
//! }
//! ```
//!
//! The counters are process-wide: allocations made by *any* thread while a
//! `measure` runs are counted. Measure on a quiet process (no background
//! threads doing work) for exact per-call figures.
//!
//! Counting is switched on only while `measure` (or `counting`) runs: the
//! rest of the time an allocation costs `System`'s price plus one relaxed
//! load, so timings taken outside `measure` are not inflated by the
//! counters' atomic updates (the `json-alloc` experiment measures what they
//! cost when on).

use serde::Serialize;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering::Relaxed};

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static DEALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Whether allocations are counted now (inside `measure` or `counting`).
static COUNTING: AtomicBool = AtomicBool::new(false);

/// The counting allocator (zero-sized; delegates to `System`).
pub struct CountingAlloc;

#[inline]
fn grow_live(by: isize) {
    let live = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(live, Relaxed);
}

#[inline]
fn count_alloc(size: usize) {
    if !INSTALLED.load(Relaxed) {
        INSTALLED.store(true, Relaxed);
    }
    if COUNTING.load(Relaxed) {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(size as u64, Relaxed);
        grow_live(size as isize);
    }
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count_alloc(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            REALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(new_size as u64, Relaxed);
            grow_live(new_size as isize - layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Relaxed) {
            DEALLOCS.fetch_add(1, Relaxed);
            LIVE.fetch_sub(layout.size() as isize, Relaxed);
        }
    }
}

/// Runs `f` with counting switched on (as inside `measure`), restoring the
/// previous state after: what a timing of `f` costs with the counters live.
pub fn counting<R>(f: impl FnOnce() -> R) -> R {
    let was = COUNTING.swap(true, Relaxed);
    let r = f();
    COUNTING.store(was, Relaxed);
    r
}

/// What a closure allocated (deltas over the call; process-wide).
///
/// Serializes as `{"allocs","reallocs","deallocs","bytes","peak","net"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct AllocStats {
    /// Calls to `alloc` / `alloc_zeroed`.
    pub allocs: u64,
    /// Calls to `realloc` (a growing `Vec` or `String`).
    pub reallocs: u64,
    /// Calls to `dealloc`.
    pub deallocs: u64,
    /// Bytes requested: sizes passed to `alloc` plus new sizes passed to
    /// `realloc` (a realloc may move the block, so its full size counts).
    pub bytes: u64,
    /// Highest live heap above the level at the start (bytes).
    pub peak: u64,
    /// Live heap at the end minus at the start: what the closure kept
    /// (its result included); negative if it freed older memory.
    pub net: i64,
}

impl AllocStats {
    /// `allocs + reallocs`: calls into the allocator that hand out memory.
    pub fn calls(&self) -> u64 {
        self.allocs + self.reallocs
    }
}

/// A snapshot of the raw counters: what was counted since process start
/// (only while counting was on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counters {
    pub allocs: u64,
    pub reallocs: u64,
    pub deallocs: u64,
    pub bytes: u64,
    pub live: i64,
}

/// The raw counters now.
pub fn counters() -> Counters {
    Counters {
        allocs: ALLOCS.load(Relaxed),
        reallocs: REALLOCS.load(Relaxed),
        deallocs: DEALLOCS.load(Relaxed),
        bytes: BYTES.load(Relaxed),
        live: LIVE.load(Relaxed) as i64,
    }
}

/// True once `CountingAlloc` has served an allocation, i.e. it is the
/// global allocator.
pub fn installed() -> bool {
    if !INSTALLED.load(Relaxed) {
        std::hint::black_box(Box::new(0u64));
    }
    INSTALLED.load(Relaxed)
}

/// Runs `f` and returns its result with what it allocated. Resets the peak
/// tracking first, so `peak` is the highest live heap above the start level
/// while `f` ran. Panics if `CountingAlloc` is not the global allocator.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, AllocStats) {
    assert!(
        installed(),
        "harness::alloc::measure: CountingAlloc is not the #[global_allocator]"
    );
    let was = COUNTING.swap(true, Relaxed);
    let start = counters();
    PEAK.store(start.live as isize, Relaxed);
    let r = f();
    let end = counters();
    COUNTING.store(was, Relaxed);
    let peak = PEAK.load(Relaxed) as i64 - start.live;
    let stats = AllocStats {
        allocs: end.allocs - start.allocs,
        reallocs: end.reallocs - start.reallocs,
        deallocs: end.deallocs - start.deallocs,
        bytes: end.bytes - start.bytes,
        peak: peak.max(0) as u64,
        net: end.live - start.live,
    };
    (r, stats)
}
