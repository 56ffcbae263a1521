//! A byte buffer kept per thread, for what is written often and used at
//! once (an update frame's JSON; the protocol's hash keeps its own): a fresh `Vec`
//! grows from nothing through half a dozen reallocations and copies.

use std::cell::RefCell;

/// Run `f` on this thread's buffer, emptied first. A buffer grown past
/// 1 MiB by one huge value is not kept.
pub fn with_buffer<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    thread_local! {
        static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        let r = f(&mut buf);
        if buf.capacity() > 1 << 20 {
            *buf = Vec::new();
        }
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_use_starts_empty_and_a_huge_buffer_is_let_go() {
        with_buffer(|b| b.extend_from_slice(b"abc"));
        assert!(with_buffer(|b| b.is_empty()));
        with_buffer(|b| b.resize(2 << 20, 0));
        assert!(with_buffer(|b| b.capacity()) <= 1 << 20);
    }
}
