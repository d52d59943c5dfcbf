//! Surviving a mapped input that shrinks while it is read.
//!
//! When another process truncates a file that is memory-mapped here, a read
//! of a page past its new end raises SIGBUS, which kills the process by
//! default (and leaves its temp files behind). Mapped inputs are therefore
//! registered in a small lock-free table, and a SIGBUS handler (Linux,
//! installed on the first registration) checks whether the faulting address
//! lies in a registered map. If it does, the handler maps a page of zeros over
//! the faulting page, marks that map as faulted and returns, so the read
//! completes (with zeros) and the run goes on to its end, where the caller
//! asks [`MappedFile::changed`](crate::MappedFile::changed) before it commits
//! anything and reports the truncated input as an error. A fault anywhere
//! else goes to the handler that was installed before, or to the default
//! action.
//!
//! This module and the one `mmap` call in `mapped.rs` are the only unsafe
//! code of the reader; the decoders never see anything but a `&[u8]`. The
//! handler only loads and stores atomics and calls `mmap`/`sigaction`, both
//! plain system calls that are safe in a signal handler.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many maps can be guarded at once (dxstrip maps one per worker).
/// [`register`] returns `None` when all are taken; the caller then reads the
/// file instead of mapping it.
pub(crate) const SLOTS: usize = 256;

struct Slot {
    start: AtomicUsize,
    len: AtomicUsize,
    faulted: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    faulted: AtomicBool::new(false),
};

static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];

/// A registered map: its slot is freed when this is dropped.
#[derive(Debug)]
pub(crate) struct Registration {
    index: usize,
}

impl Registration {
    /// Whether a read of this map faulted (the file shrank under it).
    pub(crate) fn faulted(&self) -> bool {
        TABLE[self.index].faulted.load(Ordering::SeqCst)
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let slot = &TABLE[self.index];
        slot.len.store(0, Ordering::SeqCst);
        slot.faulted.store(false, Ordering::SeqCst);
        slot.start.store(0, Ordering::SeqCst);
    }
}

/// Registers the map `start .. start + len`; `None` when the guard is not
/// available (not Linux, the handler could not be installed, or every slot
/// is taken).
pub(crate) fn register(start: usize, len: usize) -> Option<Registration> {
    if start == 0 || len == 0 || !sys::install() {
        return None;
    }
    for (index, slot) in TABLE.iter().enumerate() {
        // A slot is claimed by moving `start` from 0; `len` is set after, so
        // the handler never sees a half-written range as larger than it is.
        if slot
            .start
            .compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            slot.faulted.store(false, Ordering::SeqCst);
            slot.len.store(len, Ordering::SeqCst);
            return Some(Registration { index });
        }
    }
    None
}

/// The slot whose map holds `addr`, if any (used by the signal handler).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn slot_of(addr: usize) -> Option<&'static Slot> {
    TABLE.iter().find(|slot| {
        let start = slot.start.load(Ordering::SeqCst);
        let len = slot.len.load(Ordering::SeqCst);
        start != 0 && addr >= start && addr - start < len
    })
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod sys {
    use super::slot_of;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;

    type Handler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    /// The SIGBUS action before ours, to hand foreign faults to.
    static PREVIOUS: OnceLock<Option<libc::sigaction>> = OnceLock::new();

    /// Installs the handler once; whether it is in place.
    pub(super) fn install() -> bool {
        PREVIOUS
            .get_or_init(|| {
                // SAFETY: sysconf has no preconditions.
                let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
                if page > 0 {
                    PAGE.store(page as usize, Ordering::SeqCst);
                }
                // SAFETY: a zeroed sigaction is a valid value (empty mask,
                // no flags); `on_sigbus` has the SA_SIGINFO signature.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_sigbus as Handler as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
                    libc::sigemptyset(&mut action.sa_mask);
                    let mut previous: libc::sigaction = std::mem::zeroed();
                    (libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0).then_some(previous)
                }
            })
            .is_some()
    }

    extern "C" fn on_sigbus(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        if let Some(slot) = slot_of(addr) {
            let page_size = PAGE.load(Ordering::SeqCst);
            let page = addr & !(page_size - 1);
            // SAFETY: the page lies in a registered read-only file map that
            // is alive (a registration is dropped before its map); replacing
            // it with a private page of zeros changes what the map reads,
            // which a truncated file already did.
            let mapped = unsafe {
                libc::mmap(
                    page as *mut libc::c_void,
                    page_size,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if mapped != libc::MAP_FAILED {
                slot.faulted.store(true, Ordering::SeqCst);
                return;
            }
        }
        match PREVIOUS.get() {
            Some(Some(previous))
                if previous.sa_flags & libc::SA_SIGINFO != 0
                    && previous.sa_sigaction > libc::SIG_IGN =>
            {
                // SAFETY: the previous handler was installed with
                // SA_SIGINFO, so it has this signature.
                let handler: Handler = unsafe { std::mem::transmute(previous.sa_sigaction) };
                handler(signal, info, context);
            }
            _ => {
                // The default action: returning re-runs the faulting access,
                // which now terminates the process as SIGBUS does.
                // SAFETY: resetting a signal to its default has no preconditions.
                unsafe {
                    libc::signal(libc::SIGBUS, libc::SIG_DFL);
                }
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    pub(super) fn install() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_claimed_and_freed() {
        let a = register(0x10_0000, 0x2000);
        if !cfg!(target_os = "linux") {
            assert!(a.is_none(), "no guard off Linux");
            return;
        }
        let a = a.expect("the guard is available on Linux");
        assert!(slot_of(0x10_0000).is_some());
        assert!(slot_of(0x10_1fff).is_some());
        assert!(slot_of(0x10_2000).is_none());
        assert!(slot_of(0x0f_ffff).is_none());
        assert!(!a.faulted());
        drop(a);
        assert!(slot_of(0x10_0000).is_none());
        assert!(register(0, 10).is_none());
        assert!(register(10, 0).is_none());
    }
}
