//! Counters and histograms for `/metrics`, in the Prometheus text format.
//!
//! Hand-rolled on atomics: a handful of series does not need a metrics
//! crate, and recording stays lock-free on the hot path (the only lock is the
//! map of rejection codes, touched once per refused action).

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Mutex,
    },
    time::Duration,
};

use athlas_protocol::process;

use crate::store::MatchStatus;

/// Bucket upper bounds, in seconds: 0.5 ms … 5 s.
const BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];

/// A cumulative histogram of durations.
#[derive(Default)]
pub struct Histogram {
    /// Observations per bucket (not cumulative; summed when rendered).
    counts: [AtomicU64; BUCKETS.len()],
    /// Observations above the last bucket.
    over: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        match BUCKETS.iter().position(|b| secs <= *b) {
            Some(i) => self.counts[i].fetch_add(1, Relaxed),
            None => self.over.fetch_add(1, Relaxed),
        };
        self.sum_micros.fetch_add(u64::try_from(d.as_micros()).unwrap_or(u64::MAX), Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut total = 0;
        for (b, c) in BUCKETS.iter().zip(&self.counts) {
            total += c.load(Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{b}\"}} {total}");
        }
        total += self.over.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_micros.load(Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {total}");
    }
}

/// What the server counts while it runs. Gauges that can be read off the
/// server's own state (connections, rooms, matches) are passed to
/// [`Metrics::render`] instead of being kept twice.
#[derive(Default)]
pub struct Metrics {
    accepted: AtomicU64,
    rejected: Mutex<BTreeMap<&'static str, u64>>,
    reconnects: AtomicU64,
    /// Connections the server dropped, by why (`lagged`, `write_timeout`, `hello_timeout`).
    dropped: Mutex<BTreeMap<&'static str, u64>>,
    /// From the room receiving an action to its ack (engine + durable write).
    pub ack_latency: Histogram,
    /// One group-commit transaction of the writer.
    pub store_write: Histogram,
    /// Cluster mode: room leases claimed, and lost to another node.
    leases_claimed: AtomicU64,
    leases_lost: AtomicU64,
    /// Appends refused by the fence (the lease was another node's by then):
    /// expected when a node loses a lease, so counted, not logged as errors.
    appends_fenced: AtomicU64,
    /// Greetings answered `room_elsewhere` (the match is another node's).
    redirects: AtomicU64,
    /// Sockets relayed to the node playing their match.
    relays: AtomicU64,
}

/// Gauges read at scrape time.
pub struct Gauges {
    pub connections: usize,
    pub rooms: usize,
    /// (game, status, count)
    pub matches: Vec<(String, MatchStatus, u64)>,
}

impl Metrics {
    pub fn action_accepted(&self) {
        self.accepted.fetch_add(1, Relaxed);
    }

    /// An `act` was refused with this stable error code.
    pub fn action_rejected(&self, code: &'static str) {
        *self.rejected.lock().expect("metrics map").entry(code).or_default() += 1;
    }

    /// A player came back with `last_seq`: a reconnect.
    pub fn reconnected(&self) {
        self.reconnects.fetch_add(1, Relaxed);
    }

    /// This node claimed a room's lease (cluster mode).
    pub fn lease_claimed(&self) {
        self.leases_claimed.fetch_add(1, Relaxed);
    }

    /// A room found its lease taken over by another node (cluster mode).
    pub fn lease_lost(&self) {
        self.leases_lost.fetch_add(1, Relaxed);
    }

    /// An append was refused by the fence (cluster mode).
    pub fn append_fenced(&self) {
        self.appends_fenced.fetch_add(1, Relaxed);
    }

    /// A greeting was answered `room_elsewhere` (cluster mode).
    pub fn redirected(&self) {
        self.redirects.fetch_add(1, Relaxed);
    }

    /// A socket was relayed to the node playing its match (cluster mode).
    pub fn relayed(&self) {
        self.relays.fetch_add(1, Relaxed);
    }

    /// The server dropped a connection, for `reason`.
    pub fn connection_dropped(&self, reason: &'static str) {
        *self.dropped.lock().expect("metrics map").entry(reason).or_default() += 1;
    }

    /// Connections dropped so far for `reason`.
    pub fn dropped(&self, reason: &str) -> u64 {
        self.dropped.lock().expect("metrics map").get(reason).copied().unwrap_or(0)
    }

    /// The Prometheus text exposition of everything.
    pub fn render(&self, g: &Gauges) -> String {
        let mut out = String::new();
        let mut gauge = |name: &str, help: &str, value: usize| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        };
        gauge("athlas_connections", "Open WebSocket connections.", g.connections);
        gauge("athlas_rooms", "Matches loaded in memory (live rooms).", g.rooms);
        let _ = writeln!(out, "# HELP athlas_matches Stored matches by game and status.\n# TYPE athlas_matches gauge");
        for (game, status, n) in &g.matches {
            let _ = writeln!(out, "athlas_matches{{game=\"{}\",status=\"{}\"}} {n}", escape(game), status);
        }
        let _ = writeln!(
            out,
            "# HELP athlas_actions_accepted_total Actions accepted and stored.\n# TYPE athlas_actions_accepted_total counter\nathlas_actions_accepted_total {}",
            self.accepted.load(Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP athlas_actions_rejected_total Actions refused, by error code.\n# TYPE athlas_actions_rejected_total counter"
        );
        for (code, n) in self.rejected.lock().expect("metrics map").iter() {
            let _ = writeln!(out, "athlas_actions_rejected_total{{code=\"{}\"}} {n}", escape(code));
        }
        let _ = writeln!(
            out,
            "# HELP athlas_reconnects_total Players who came back with last_seq.\n# TYPE athlas_reconnects_total counter\nathlas_reconnects_total {}",
            self.reconnects.load(Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP athlas_connections_dropped_total Connections the server dropped, by reason.\n# TYPE athlas_connections_dropped_total counter"
        );
        for (reason, n) in self.dropped.lock().expect("metrics map").iter() {
            let _ = writeln!(out, "athlas_connections_dropped_total{{reason=\"{}\"}} {n}", escape(reason));
        }
        for (name, help, n) in [
            ("athlas_leases_claimed_total", "Room leases this node claimed (cluster mode).", &self.leases_claimed),
            (
                "athlas_leases_lost_total",
                "Room leases this node lost to another node (cluster mode).",
                &self.leases_lost,
            ),
            (
                "athlas_appends_fenced_total",
                "Appends refused because another node holds the room's lease by then (cluster mode).",
                &self.appends_fenced,
            ),
            (
                "athlas_redirects_total",
                "hello/watch answered room_elsewhere: another node plays the match (cluster mode).",
                &self.redirects,
            ),
            ("athlas_relays_total", "Sockets relayed to the node that plays their match (cluster mode).", &self.relays),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}", n.load(Relaxed));
        }
        self.ack_latency.render(
            &mut out,
            "athlas_ack_latency_seconds",
            "From an action reaching its room to its ack, durable write included.",
        );
        self.store_write.render(&mut out, "athlas_store_write_seconds", "One group-commit write of the action log.");
        // The standard process series, so a load run can divide the
        // server's own CPU by the actions it acknowledged.
        if let Some(cpu) = crate::process::cpu_seconds() {
            let name = process::CPU_SECONDS;
            let _ = writeln!(
                out,
                "# HELP {name} Total user and system CPU time spent in seconds.\n# TYPE {name} counter\n{name} {cpu}"
            );
        }
        if let Some(rss) = crate::process::resident_bytes() {
            let name = process::RESIDENT_BYTES;
            let _ = writeln!(out, "# HELP {name} Resident memory size in bytes.\n# TYPE {name} gauge\n{name} {rss}");
        }
        if let Some(fds) = crate::process::open_fds() {
            let name = process::OPEN_FDS;
            let _ = writeln!(out, "# HELP {name} Number of open file descriptors.\n# TYPE {name} gauge\n{name} {fds}");
        }
        out
    }
}

/// Label values: backslash, quote and newline escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_by_code_and_cumulative_buckets() {
        let m = Metrics::default();
        m.action_accepted();
        m.action_rejected("not_your_turn");
        m.action_rejected("not_your_turn");
        m.action_rejected("bad_json");
        m.ack_latency.observe(Duration::from_micros(300));
        m.ack_latency.observe(Duration::from_millis(20));
        m.ack_latency.observe(Duration::from_secs(9));
        let g = Gauges { connections: 3, rooms: 1, matches: vec![("duel".into(), MatchStatus::Open, 2)] };
        let text = m.render(&g);
        for line in [
            "athlas_connections 3",
            "athlas_rooms 1",
            "athlas_matches{game=\"duel\",status=\"open\"} 2",
            "athlas_actions_accepted_total 1",
            "athlas_actions_rejected_total{code=\"not_your_turn\"} 2",
            "athlas_actions_rejected_total{code=\"bad_json\"} 1",
            "athlas_ack_latency_seconds_bucket{le=\"0.0005\"} 1",
            "athlas_ack_latency_seconds_bucket{le=\"0.025\"} 2",
            "athlas_ack_latency_seconds_bucket{le=\"5\"} 2",
            "athlas_ack_latency_seconds_bucket{le=\"+Inf\"} 3",
            "athlas_ack_latency_seconds_count 3",
            "athlas_store_write_seconds_count 0",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
        if cfg!(target_os = "linux") {
            assert!(process::scrape(&text, process::CPU_SECONDS).is_some(), "{text}");
            assert!(process::scrape(&text, process::RESIDENT_BYTES).unwrap() > 1e6, "{text}");
            assert!(process::scrape(&text, process::OPEN_FDS).unwrap() >= 3.0, "{text}");
        }
    }
}
