//! Integration test of the counting allocator (needs its own binary to
//! install it as the global allocator).

use harness::alloc::{CountingAlloc, counters, counting, measure};

#[global_allocator]
static A: CountingAlloc = CountingAlloc;

#[test]
fn counts_allocations() {
    // Tests run on several threads; serialize the measurements in one test.
    let (v, s) = measure(|| vec![0u8; 1000]);
    assert_eq!(v.len(), 1000);
    assert!(s.allocs >= 1, "{s:?}");
    assert!(s.bytes >= 1000, "{s:?}");
    assert!(s.peak >= 1000, "{s:?}");
    assert!(s.net >= 1000, "{s:?}");

    let (_, s) = measure(|| {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..1000 {
            v.push(i);
        }
        v.len()
    });
    assert!(s.reallocs >= 5, "{s:?}");
    assert!(s.peak >= 8000, "{s:?}");
    assert!(s.deallocs >= 1, "{s:?}");

    let ((), s) = measure(|| {
        let x = std::hint::black_box(12u64) * 3;
        std::hint::black_box(x);
    });
    assert_eq!(s.calls(), 0, "{s:?}");
    assert_eq!(s.peak, 0);
    let j = serde_json::to_value(s).unwrap();
    for k in ["allocs", "reallocs", "deallocs", "bytes", "peak", "net"] {
        assert!(j.get(k).is_some(), "missing {k}");
    }

    // Outside `measure` nothing is counted, so timings there pay no counter updates;
    // `counting` switches it on for a closure.
    let before = counters();
    std::hint::black_box(vec![0u8; 4096]);
    assert_eq!(counters().allocs, before.allocs);
    counting(|| drop(std::hint::black_box(vec![0u8; 4096])));
    assert_eq!(counters().allocs, before.allocs + 1);
    assert_eq!(counters().deallocs, before.deallocs + 1);
}
