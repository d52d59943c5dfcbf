//! A counting global allocator for the tests that bound memory: it forwards
//! every call to the system allocator and counts live, peak and total heap
//! bytes, either over the whole process ([`ProcessCounts`]: the helper
//! threads of a run count too) or for the calling thread alone
//! ([`ThreadCounts`]: other tests running at the same time do not count).
//!
//! A test binary installs one and measures with it:
//!
//! ```ignore
//! use dxcopy_harness::alloc::{Counting, ThreadCounts};
//!
//! #[global_allocator]
//! static ALLOCATOR: Counting<ThreadCounts> = Counting(ThreadCounts);
//!
//! let used = ThreadCounts::measure(|| { /* … */ });
//! assert!(used.peak <= 2 << 20);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a [`Counting`] allocator keeps its counts. The methods run inside
/// the allocator, so they must not allocate.
pub trait Counts: Sync {
    /// `size` bytes were allocated.
    fn on_alloc(&self, size: usize);
    /// `size` bytes were freed.
    fn on_free(&self, size: usize);
}

/// The system allocator, counting into `C`.
pub struct Counting<C>(pub C);

#[allow(unsafe_code)]
// SAFETY: forwards every call to the system allocator unchanged; the counts
// are atomics or thread-local cells with const initialisers, which never
// allocate.
unsafe impl<C: Counts> GlobalAlloc for Counting<C> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.0.on_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.on_free(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.0.on_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        self.0.on_free(layout.size());
        self.0.on_alloc(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What a measured closure used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Used {
    /// The peak of live heap bytes above what was live when it started.
    pub peak: usize,
    /// All bytes it allocated (a reallocation counts its new size).
    pub total: usize,
}

/// Counts over the whole process.
pub struct ProcessCounts;

static PROCESS_LIVE: AtomicUsize = AtomicUsize::new(0);
static PROCESS_PEAK: AtomicUsize = AtomicUsize::new(0);
static PROCESS_TOTAL: AtomicUsize = AtomicUsize::new(0);

impl Counts for ProcessCounts {
    fn on_alloc(&self, size: usize) {
        let live = PROCESS_LIVE.fetch_add(size, Ordering::Relaxed) + size;
        PROCESS_PEAK.fetch_max(live, Ordering::Relaxed);
        PROCESS_TOTAL.fetch_add(size, Ordering::Relaxed);
    }

    fn on_free(&self, size: usize) {
        PROCESS_LIVE.fetch_sub(size, Ordering::Relaxed);
    }
}

impl ProcessCounts {
    /// What every thread of the process used while `f` ran (meaningful
    /// only with `Counting<ProcessCounts>` installed).
    pub fn measure(f: impl FnOnce()) -> Used {
        let base = PROCESS_LIVE.load(Ordering::Relaxed);
        PROCESS_PEAK.store(base, Ordering::Relaxed);
        let total_before = PROCESS_TOTAL.load(Ordering::Relaxed);
        f();
        Used {
            peak: PROCESS_PEAK.load(Ordering::Relaxed).saturating_sub(base),
            total: PROCESS_TOTAL
                .load(Ordering::Relaxed)
                .wrapping_sub(total_before),
        }
    }
}

/// Counts per thread.
pub struct ThreadCounts;

thread_local! {
    static THREAD_LIVE: Cell<usize> = const { Cell::new(0) };
    static THREAD_PEAK: Cell<usize> = const { Cell::new(0) };
    static THREAD_TOTAL: Cell<usize> = const { Cell::new(0) };
}

impl Counts for ThreadCounts {
    fn on_alloc(&self, size: usize) {
        let _ = THREAD_LIVE.try_with(|l| {
            let live = l.get() + size;
            l.set(live);
            let _ = THREAD_PEAK.try_with(|p| p.set(p.get().max(live)));
        });
        let _ = THREAD_TOTAL.try_with(|t| t.set(t.get() + size));
    }

    fn on_free(&self, size: usize) {
        let _ = THREAD_LIVE.try_with(|l| l.set(l.get().saturating_sub(size)));
    }
}

impl ThreadCounts {
    /// What the calling thread used while `f` ran (meaningful only with
    /// `Counting<ThreadCounts>` installed).
    pub fn measure(f: impl FnOnce()) -> Used {
        let base = THREAD_LIVE.with(Cell::get);
        THREAD_PEAK.with(|p| p.set(base));
        let total_before = THREAD_TOTAL.with(Cell::get);
        f();
        Used {
            peak: THREAD_PEAK.with(Cell::get) - base,
            total: THREAD_TOTAL.with(Cell::get) - total_before,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_without_an_installed_allocator() {
        // The counters are driven by hand here: this test binary keeps the
        // system allocator.
        let used = ThreadCounts::measure(|| {
            ThreadCounts.on_alloc(100);
            ThreadCounts.on_alloc(50);
            ThreadCounts.on_free(100);
            ThreadCounts.on_alloc(20);
        });
        assert_eq!(
            used,
            Used {
                peak: 150,
                total: 170
            }
        );
        let used = ProcessCounts::measure(|| {
            ProcessCounts.on_alloc(64);
            ProcessCounts.on_free(64);
            ProcessCounts.on_alloc(8);
        });
        assert_eq!(
            used,
            Used {
                peak: 64,
                total: 72
            }
        );
        ProcessCounts.on_free(8);
    }
}
