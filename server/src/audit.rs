//! The replay audit: every stored record carries the hash of the engine
//! state after it ([`record_hash`], computed by the room as it stores the
//! record); `athlas-server audit` folds each match's log from its seed, as
//! a room would with no snapshot, and names the first record whose replay
//! is refused or whose state hash differs from the stored one. A build
//! whose rules would play an old log differently is caught here, before a
//! player meets it.

use std::{fmt, future::Future, pin::Pin};

use uuid::Uuid;

use crate::{
    store::{MatchRecord, Store, StoreError},
    table::{ReplayError, Table},
};

/// The hashes stored records carry (one definition, shared with the
/// clients that verify a published log).
pub use athlas_protocol::hash::{blake3_hash, compact_hash, hash_like, part_hash, state_hash};

/// The hash a record is stored with now: form 4, BLAKE3 over what the
/// ruleset hashes (the duel's state less its rewind checkpoints) in the
/// compact encoding.
pub fn record_hash<R: athlas_engine::Ruleset>(state: &R::State) -> String {
    blake3_hash(&R::hashed(state))
}

/// What the audit found for one match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every record replayed; `hashed` of them carried a hash that matched
    /// (the rest were written before hashes were kept).
    Ok { records: u64, hashed: u64 },
    /// The first record that does not replay to what was stored.
    Diverged { seq: u64, why: String },
    /// Played under rules this build does not play: not replayed.
    UnsupportedRules { stored: u32, current: u32 },
    /// A game this build does not host.
    UnknownGame,
}

/// One match's line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchAudit {
    pub match_id: Uuid,
    pub game: String,
    pub verdict: Verdict,
}

impl fmt::Display for MatchAudit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:<9} ", self.match_id, self.game)?;
        match &self.verdict {
            Verdict::Ok { records, hashed } => write!(f, "ok        {records} records, {hashed} hashes checked"),
            Verdict::Diverged { seq, why } => write!(f, "DIVERGED  at seq {seq}: {why}"),
            Verdict::UnsupportedRules { stored, current } => {
                write!(f, "skipped   rules version {stored}, this build plays {current}")
            }
            Verdict::UnknownGame => write!(f, "skipped   a game this build does not host"),
        }
    }
}

/// A boxed future of a type-erased game's audit.
pub type AuditFuture<'a> = Pin<Box<dyn Future<Output = Result<Verdict, StoreError>> + Send + 'a>>;

/// Fold `record`'s whole log from its seed under `R`, checking each stored
/// hash.
///
/// # Errors
/// The store failing (a log that does not replay is a [`Verdict`], not an error).
pub async fn audit_match<R: crate::hosted::Hosted>(store: &Store, record: &MatchRecord) -> Result<Verdict, StoreError> {
    if record.rules_version != R::RULES_VERSION {
        return Ok(Verdict::UnsupportedRules { stored: record.rules_version, current: R::RULES_VERSION });
    }
    let diverged = |seq, why: String| Ok(Verdict::Diverged { seq, why });
    let options: R::Options = match serde_json::from_value(record.options.clone()) {
        Ok(o) => o,
        Err(e) => return diverged(0, format!("stored options do not read: {e}")),
    };
    let state = match R::start(&options, record.seed) {
        Ok(s) => s,
        Err(e) => return diverged(0, format!("the game does not start: {e}")),
    };
    let mut table = Table::<R>::new(state, record.seats as usize);
    // Beside a running server the log may have grown since the match row
    // was read: the audit covers the records up to that row's seq.
    let mut log = store.actions_after(record.id, 0).await?;
    log.retain(|a| a.seq <= record.seq);
    let hashes = store.state_hashes(record.id).await?;
    let (mut records, mut hashed) = (0, 0);
    for (a, (seq, stored)) in log.iter().zip(&hashes) {
        debug_assert_eq!(a.seq, *seq);
        match table.replay(a) {
            Ok(_) => {}
            Err(ReplayError::Corrupt(m)) => return diverged(a.seq, m),
            Err(ReplayError::NeedsFullLog) => return diverged(a.seq, "a take-back of no action of its seat".into()),
        }
        records += 1;
        if let Some(stored) = stored {
            let now = hash_like(stored, &table.state, &R::hashed(&table.state));
            if &now != stored {
                return diverged(a.seq, format!("state hash {} stored, {} replayed", short(stored), short(&now)));
            }
            hashed += 1;
        }
    }
    if records != record.seq {
        return diverged(
            records + 1,
            format!("the match is at seq {} but its log holds only {records} records", record.seq),
        );
    }
    Ok(Verdict::Ok { records, hashed })
}

fn short(h: &str) -> &str {
    &h[..h.len().min(12)]
}

/// Which matches to audit.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    One(Uuid),
    All,
}

/// The most matches `--all` reads.
const ALL_LIMIT: u32 = 1_000_000;

/// The games an audit replays under: the server's
/// [`crate::games::Registry`], which knows each game's [`audit_match`]. A
/// trait here, so that the audit does not import the registry that imports
/// it.
pub trait Auditors {
    /// The audit of `record` under its game; `None`: a game this build does
    /// not host.
    fn audit_of<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> Option<AuditFuture<'a>>;
}

/// Audit the matches `which` of `store` under the games of `registry`.
///
/// # Errors
/// The store failing, or an unknown match id.
pub async fn audit(store: &Store, registry: &impl Auditors, which: Which) -> Result<Vec<MatchAudit>, StoreError> {
    let records = match which {
        Which::One(id) => {
            vec![store
                .get_match(id)
                .await?
                .ok_or_else(|| StoreError::Corrupt(format!("no match {id} in this store")))?]
        }
        Which::All => store.all_matches(ALL_LIMIT).await?,
    };
    let mut out = Vec::with_capacity(records.len());
    for r in &records {
        let verdict = match registry.audit_of(store, r) {
            Some(audited) => audited.await?,
            None => Verdict::UnknownGame,
        };
        out.push(MatchAudit { match_id: r.id, game: r.game.clone(), verdict });
    }
    Ok(out)
}

/// The totals line, and whether anything diverged.
pub fn summary(report: &[MatchAudit]) -> (String, bool) {
    let count = |f: fn(&Verdict) -> bool| report.iter().filter(|m| f(&m.verdict)).count();
    let ok = count(|v| matches!(v, Verdict::Ok { .. }));
    let diverged = count(|v| matches!(v, Verdict::Diverged { .. }));
    let skipped = report.len() - ok - diverged;
    let records: u64 =
        report.iter().map(|m| if let Verdict::Ok { records, .. } = m.verdict { records } else { 0 }).sum();
    (
        format!(
            "{} matches audited: {ok} ok ({records} records), {diverged} divergences, {skipped} skipped",
            report.len()
        ),
        diverged > 0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::{
        duel::{Duel, DuelOptions},
        Ruleset,
    };

    #[test]
    fn equal_states_hash_equal_and_a_change_shows() {
        let a = Duel::start(&DuelOptions::default(), 7).unwrap();
        let b = Duel::start(&DuelOptions::default(), 7).unwrap();
        let c = Duel::start(&DuelOptions::default(), 8).unwrap();
        assert_eq!(state_hash(&a), state_hash(&b));
        assert_ne!(state_hash(&a), state_hash(&c));
        assert_eq!(state_hash(&a).len(), 64);
        // The hash is of the JSON the store would hold: stable across a round trip.
        let back: <Duel as Ruleset>::State = serde_json::from_value(serde_json::to_value(&a).unwrap()).unwrap();
        assert_eq!(state_hash(&back), state_hash(&a));
    }

    #[test]
    fn a_record_hash_leaves_out_the_duels_rewind_checkpoints_but_counts_them() {
        let a = Duel::start(&DuelOptions::default(), 7).unwrap();
        assert!(record_hash::<Duel>(&a).starts_with("4:"));
        assert_ne!(record_hash::<Duel>(&a)[2..], state_hash(&a));
        let mut b = a.clone();
        b.checkpoints.push(std::sync::Arc::new(a.game.clone()));
        let mut c = a.clone();
        let mut other = a.game.clone();
        other.turn += 1;
        c.checkpoints.push(std::sync::Arc::new(other));
        // What a checkpoint holds was hashed when it was current; how many there are shows.
        assert_eq!(record_hash::<Duel>(&b), record_hash::<Duel>(&c));
        assert_ne!(record_hash::<Duel>(&a), record_hash::<Duel>(&b));
        assert_ne!(state_hash(&b), state_hash(&c));
        // The game itself is covered.
        let mut d = b.clone();
        d.game.turn += 1;
        assert_ne!(record_hash::<Duel>(&b), record_hash::<Duel>(&d));
        // A stored hash is recomputed in its own form.
        for stored in
            [record_hash::<Duel>(&b), compact_hash(&Duel::hashed(&b)), part_hash(&Duel::hashed(&b)), state_hash(&b)]
        {
            assert_eq!(hash_like(&stored, &b, &Duel::hashed(&b)), stored);
        }
        assert!(part_hash(&Duel::hashed(&b)).starts_with("2:"));
        assert!(compact_hash(&Duel::hashed(&b)).starts_with("3:"));
    }

    #[test]
    fn the_summary_counts_divergences() {
        let id = Uuid::nil();
        let m = |verdict| MatchAudit { match_id: id, game: "duel".into(), verdict };
        let report = vec![
            m(Verdict::Ok { records: 10, hashed: 10 }),
            m(Verdict::Diverged { seq: 4, why: "x".into() }),
            m(Verdict::UnsupportedRules { stored: 1, current: 2 }),
        ];
        let (line, bad) = summary(&report);
        assert!(bad);
        assert_eq!(line, "3 matches audited: 1 ok (10 records), 1 divergences, 1 skipped");
        assert!(report[1].to_string().contains("DIVERGED  at seq 4: x"));
        assert!(!summary(&report[..1]).1);
    }
}
