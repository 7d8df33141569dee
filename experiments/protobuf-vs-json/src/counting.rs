//! Allocation counting that stays out of the timings: the harness's
//! `CountingAlloc` updates several atomic counters on every allocation and
//! free, which adds tens of nanoseconds to each and would inflate the timed
//! runs of allocation-heavy code. This global allocator delegates to it only
//! while `counted` runs, and to `System` otherwise (both end in `System`, so
//! memory can be freed by either path).

use harness::alloc::{AllocStats, CountingAlloc, measure};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static COUNTING: AtomicBool = AtomicBool::new(false);

pub struct Switch;

unsafe impl GlobalAlloc for Switch {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            unsafe { CountingAlloc.alloc(layout) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            unsafe { CountingAlloc.alloc_zeroed(layout) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            unsafe { CountingAlloc.realloc(ptr, layout, new_size) }
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Relaxed) {
            unsafe { CountingAlloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }
}

/// `harness::alloc::measure(f)` with counting switched on for its duration.
pub fn counted<R>(f: impl FnOnce() -> R) -> (R, AllocStats) {
    COUNTING.store(true, Relaxed);
    let r = measure(f);
    COUNTING.store(false, Relaxed);
    r
}
