//! What a process costs, as a server's `/metrics` exposes it and a load
//! generator reads it back: the standard Prometheus names of CPU seconds,
//! resident memory and open files, and reading one series out of the text.
//! Wire vocabulary like the envelopes; measuring a process (`/proc`) is the
//! server's own (`athlas_server::process`).
//!
//! CPU time is what makes a load figure independent of the machine's
//! neighbours: wall-clock throughput on two shared cores measures the load
//! generator as much as the server.

/// Counter: user + system CPU seconds of the process.
pub const CPU_SECONDS: &str = "process_cpu_seconds_total";
/// Gauge: resident set size in bytes.
pub const RESIDENT_BYTES: &str = "process_resident_memory_bytes";
/// Gauge: open file descriptors (sockets, the database, logs).
pub const OPEN_FDS: &str = "process_open_fds";

/// The value of an unlabelled series `name` in a Prometheus text exposition.
pub fn scrape(text: &str, name: &str) -> Option<f64> {
    text.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let (series, value) = l.split_once(' ')?;
        (series == name).then(|| value.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrapes_unlabelled_series_only() {
        let text = "# HELP process_cpu_seconds_total x\nprocess_cpu_seconds_total 12.5\n\
                    athlas_matches{game=\"duel\",status=\"open\"} 3\nathlas_rooms 7\n";
        assert_eq!(scrape(text, CPU_SECONDS), Some(12.5));
        assert_eq!(scrape(text, "athlas_rooms"), Some(7.0));
        assert_eq!(scrape(text, "athlas_matches"), None);
        assert_eq!(scrape(text, RESIDENT_BYTES), None);
    }
}
