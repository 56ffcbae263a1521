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
}
