//! What this process costs, read from `/proc` on Linux (the machines
//! Athlas is measured on) and exposed by `/metrics` under the names of
//! [`athlas_protocol::process`]; `None` elsewhere, so nothing is made up.

/// Clock ticks per second of `/proc/<pid>/stat` times (Linux's `USER_HZ`,
/// 100 on every architecture Linux exposes to user space).
const TICKS_PER_SEC: f64 = 100.0;

/// CPU seconds (user + system) this process has used so far.
pub fn cpu_seconds() -> Option<f64> {
    cpu_seconds_of(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// This process's resident memory in bytes.
pub fn resident_bytes() -> Option<u64> {
    resident_bytes_of(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// File descriptors this process holds open: a soak run watches that a
/// server's sockets and files do not pile up.
pub fn open_fds() -> Option<u64> {
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count() as u64)
}

/// `utime + stime` of a `/proc/<pid>/stat` line, in seconds. The command
/// name (field 2) is in parentheses and may hold spaces: fields are counted
/// after its closing parenthesis.
pub fn cpu_seconds_of(stat: &str) -> Option<f64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, so utime (14) and stime (15) are at 11, 12.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SEC)
}

/// `VmRSS` of a `/proc/<pid>/status` text, in bytes.
pub fn resident_bytes_of(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Raise this process's soft limit of open files to its hard limit: each
/// connection is a file, and a service manager's default soft limit (1,024
/// under systemd) would refuse sockets long before `--max-connections`
/// while the hard limit allows far more. Returns the soft limit before and
/// after; `None` where it cannot be read.
pub fn raise_open_files() -> Option<(u64, u64)> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    let before = limit.rlim_cur;
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max;
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
            return Some((before, before));
        }
    }
    Some((before, limit.rlim_cur))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_from_a_stat_line_whose_name_has_spaces() {
        let stat = "4242 (athlas server) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 9 0 100 1000 200";
        assert_eq!(cpu_seconds_of(stat), Some(3.25));
        assert_eq!(cpu_seconds_of("4242 (x) S 1"), None, "a short line is not read as zero");
    }

    #[test]
    fn reads_rss_from_status() {
        let status = "Name:\tathlas-server\nVmPeak:\t  90000 kB\nVmRSS:\t   40960 kB\nThreads:\t9\n";
        assert_eq!(resident_bytes_of(status), Some(40960 * 1024));
        assert_eq!(resident_bytes_of("Name:\tx\n"), None);
    }

    #[test]
    fn this_process_is_measured_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(cpu_seconds().is_some());
            assert!(resident_bytes().unwrap() > 1024 * 1024, "a running test binary holds more than 1 MiB");
            // stdin, stdout, stderr at least (exact counts race with other tests).
            assert!(open_fds().unwrap() >= 3);
        }
    }

    #[test]
    fn the_open_files_limit_is_raised_to_the_hard_one() {
        let (before, after) = raise_open_files().expect("Linux reads its limits");
        assert!(after >= before);
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) }, 0);
        assert_eq!(limit.rlim_cur, limit.rlim_max, "soft is hard now");
        assert_eq!(after, limit.rlim_cur);
    }
}
