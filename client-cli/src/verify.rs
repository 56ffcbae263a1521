//! `athlas verify MATCH`: check a finished match without trusting the
//! server. Its published log (`GET /api/matches/{id}/log`: options, seed,
//! every record, the commitments with their salts) is replayed here with
//! this build's engine: every record must be legal, every state must hash
//! to what the server stored, each commitment must open to the secret the
//! seat had locked at that point, and the end must be the stored outcome.

use std::fmt;

use athlas_engine::{Ruleset, Status};

use athlas_protocol::hash::hash_like;
use athlas_protocol::{LogRecord, MatchLog};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// What was checked, line by line, or the first thing that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub lines: Vec<String>,
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lines.join("\n"))
    }
}

/// JSON with object keys sorted at every depth and no whitespace: the bytes
/// the server hashed (`server/src/secret.rs`).
pub fn canonical_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.into_iter().map(|k| format!("{}:{}", Value::String(k.clone()), canonical_json(&map[k]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical_json).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// Whether `hash` is hex SHA-256(salt bytes ‖ canonical JSON of `secret`).
pub fn sealed(salt_hex: &str, secret: &Value, hash: &str) -> bool {
    let Ok(salt) = hex::decode(salt_hex) else { return false };
    let mut h = Sha256::new();
    h.update(&salt);
    h.update(canonical_json(secret).as_bytes());
    hex::encode(h.finalize()).eq_ignore_ascii_case(hash)
}

/// Replay `log` as a match of `R` and check it (each game's
/// [`crate::games::ClientGame::verify`]).
///
/// # Errors
/// As [`verify`].
pub fn replay<R: Ruleset>(log: &MatchLog) -> Result<Verified, String> {
    if log.rules_version != R::RULES_VERSION {
        return Err(format!(
            "the match was played under {} rules version {}; this build plays version {}",
            R::GAME,
            log.rules_version,
            R::RULES_VERSION
        ));
    }
    let options: R::Options =
        serde_json::from_value(log.options.clone()).map_err(|e| format!("the options do not read: {e}"))?;
    let mut state = R::start(&options, log.seed).map_err(|e| format!("the game does not start: {e}"))?;
    // The state before each action still standing, for take-backs (a seat
    // takes back its own last action, with nothing after it but hand-overs).
    let mut before: Vec<(u64, R::State)> = Vec::new();
    let mut hashed = 0;
    let mut lines = Vec::new();
    for (i, r) in log.records.iter().enumerate() {
        if r.seq != i as u64 + 1 {
            return Err(format!("record {} is numbered {}: the log has a gap", i + 1, r.seq));
        }
        apply::<R>(&mut state, &mut before, r)?;
        if let Some(stored) = &r.state_hash {
            let here = hash_like(stored, &state, &R::hashed(&state));
            if &here != stored {
                return Err(format!("seq {}: the state hashes to {here}, the server stored {stored}", r.seq));
            }
            hashed += 1;
        }
        for c in log.commitments.iter().filter(|c| c.seq == r.seq) {
            let secret = R::locked_secret(&state, c.seat)
                .ok_or_else(|| format!("seq {}: seat {} has no locked secret to open its commitment", r.seq, c.seat))?;
            if !sealed(&c.salt, &secret, &c.hash) {
                return Err(format!(
                    "seat {}'s commitment {} does not open to what it locked at seq {}",
                    c.seat, c.hash, r.seq
                ));
            }
            lines.push(format!(
                "seat {}: commitment {}… opens to the secret locked at seq {}",
                c.seat,
                &c.hash[..12],
                r.seq
            ));
        }
    }
    if let Some(c) = log.commitments.iter().find(|c| c.seq == 0 || c.seq > log.records.len() as u64) {
        return Err(format!("seat {}'s commitment is at seq {}, outside the log", c.seat, c.seq));
    }
    let outcome = match R::status(&state) {
        Status::Finished(o) => serde_json::to_value(&o).expect("outcomes serialize"),
        Status::Waiting { .. } => return Err("the replayed match has not ended".into()),
    };
    if log.outcome.as_ref() != Some(&outcome) {
        return Err(format!(
            "the replay ends in {outcome}, the server stored {}",
            log.outcome.as_ref().map_or("no outcome".to_owned(), |o| o.to_string())
        ));
    }
    lines.insert(
        0,
        format!(
            "{} {}: {} records replayed from seed {} under rules version {}, {hashed} state hashes equal",
            log.game,
            log.match_id,
            log.records.len(),
            log.seed,
            log.rules_version
        ),
    );
    lines.push(format!("outcome {outcome}: as stored"));
    Ok(Verified { lines })
}

fn apply<R: Ruleset>(state: &mut R::State, before: &mut Vec<(u64, R::State)>, r: &LogRecord) -> Result<(), String> {
    match r.kind.as_str() {
        "action" => {
            let action: R::Action = serde_json::from_value(r.action.clone())
                .map_err(|e| format!("seq {}: the action does not read: {e}", r.seq))?;
            let kept = state.clone();
            R::apply(state, r.seat, action).map_err(|e| format!("seq {}: the rules refuse the action: {e}", r.seq))?;
            before.push((r.seq, kept));
            Ok(())
        }
        "take_back" => {
            let n = r.action["seq"].as_u64().ok_or_else(|| format!("seq {}: a take-back names no seq", r.seq))?;
            match before.pop() {
                Some((seq, s)) if seq == n => {
                    *state = s;
                    Ok(())
                }
                _ => Err(format!("seq {}: take-back of {n}, which is not the last action standing", r.seq)),
            }
        }
        // Who controls a seat: nothing in the game's state changes.
        "hand" => Ok(()),
        other => Err(format!("seq {}: unknown record kind {other:?}", r.seq)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::verify;
    use athlas_engine::duel::{bot::RandomBot, card::Catalogue, Duel, DuelAction, DuelOptions};
    use athlas_protocol::hash::{blake3_hash, compact_hash, part_hash, state_hash};
    use athlas_protocol::LogCommitment;
    use serde_json::json;
    use sha2::{Digest, Sha256};

    /// A whole duel played by two random bots (the one to act resigns
    /// after 300 actions), as the server would log it, with commitments.
    fn logged_duel() -> MatchLog {
        let options = DuelOptions::default();
        let seed = 5;
        let cat = Catalogue::standard();
        let mut s = Duel::start(&options, seed).unwrap();
        let mut bot = RandomBot::new(1);
        let (mut records, mut commitments) = (Vec::new(), Vec::new());
        while let Some(seat) = bot.seat_to_act(&s) {
            let a = if records.len() >= 300 {
                DuelAction::Resign
            } else {
                bot.pick(&s, cat, seat).expect("a legal action")
            };
            let value = serde_json::to_value(&a).unwrap();
            Duel::apply(&mut s, seat, a).unwrap();
            let seq = records.len() as u64 + 1;
            records.push(LogRecord {
                seq,
                seat,
                kind: "action".into(),
                action: value,
                sender: None,
                // Every form: the whole state's (logs stored before form
                // 2), form 2 (before form 3), form 3 (before form 4) and 4.
                state_hash: Some(match seq % 4 {
                    0 => state_hash(&s),
                    1 => part_hash(&Duel::hashed(&s)),
                    2 => compact_hash(&Duel::hashed(&s)),
                    _ => blake3_hash(&Duel::hashed(&s)),
                }),
            });
            if let Some(secret) =
                Duel::locked_secret(&s, seat).filter(|_| !commitments.iter().any(|c: &LogCommitment| c.seat == seat))
            {
                let salt = format!("{:02x}", seat).repeat(32);
                let mut h = Sha256::new();
                h.update(hex::decode(&salt).unwrap());
                h.update(canonical_json(&secret).as_bytes());
                commitments.push(LogCommitment { seat, hash: hex::encode(h.finalize()), salt, seq });
            }
        }
        let Status::Finished(o) = Duel::status(&s) else { panic!("the game ends") };
        MatchLog {
            match_id: "m".into(),
            game: "duel".into(),
            rules_version: Duel::RULES_VERSION,
            options: serde_json::to_value(&options).unwrap(),
            seed,
            seats: 2,
            outcome: Some(serde_json::to_value(&o).unwrap()),
            records,
            commitments,
        }
    }

    #[test]
    fn a_true_log_verifies_and_each_kind_of_tampering_is_named() {
        let log = logged_duel();
        let ok = verify(&log).unwrap();
        assert!(ok.lines[0].contains("state hashes equal"), "{ok}");
        assert_eq!(log.commitments.len(), 2);
        assert_eq!(ok.lines.iter().filter(|l| l.contains("opens to the secret")).count(), 2, "{ok}");

        let mut salt = log.clone();
        salt.commitments[1].salt = "ee".repeat(32);
        let seat = salt.commitments[1].seat;
        assert!(verify(&salt).unwrap_err().contains(&format!("seat {seat}'s commitment")));

        let mut action = log.clone();
        action.records[10].action = json!({"type": "fly"});
        assert!(verify(&action).unwrap_err().starts_with("seq 11: the action does not read"));

        let mut hash = log.clone();
        hash.records[3].state_hash = Some("0".repeat(64));
        assert!(verify(&hash).unwrap_err().starts_with("seq 4: the state hashes to"));
        // A form-4 hash (seq 3) is checked in its own form.
        let mut fast = log.clone();
        assert!(fast.records[2].state_hash.as_deref().unwrap().starts_with("4:"));
        fast.records[2].state_hash = Some(format!("4:{}", "0".repeat(64)));
        assert!(verify(&fast).unwrap_err().starts_with("seq 3: the state hashes to"));

        let mut outcome = log.clone();
        outcome.outcome = Some(json!({"winner": 9}));
        assert!(verify(&outcome).unwrap_err().contains("the server stored"));

        let mut gap = log.clone();
        gap.records.remove(2);
        assert!(verify(&gap).unwrap_err().contains("gap"));

        let mut rules = log.clone();
        rules.rules_version += 1;
        assert!(verify(&rules).unwrap_err().contains("rules version"));
    }
}
