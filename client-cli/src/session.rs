//! Saved seats: a small JSON file per match under `./.athlas/` (or
//! `$ATHLAS_STATE_DIR`), so `athlas resume MATCH` can say hello again with
//! the seat token and the last `seq` seen.

use std::path::{Path, PathBuf};

use athlas_protocol::Seat;
use serde::{Deserialize, Serialize};

/// What the client remembers about one match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    pub server: String,
    pub match_id: String,
    /// `None` for a match only watched.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The secret seat token: the file is as secret as the seat.
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub join_code: Option<String>,
    #[serde(default)]
    pub last_seq: Option<u64>,
}

/// Where saved seats live.
pub fn dir() -> PathBuf {
    std::env::var_os("ATHLAS_STATE_DIR").map_or_else(|| PathBuf::from(".athlas"), PathBuf::from)
}

fn file(dir: &Path, match_id: &str) -> PathBuf {
    // Match ids are UUIDs; keep anything else from escaping the folder.
    let safe: String = match_id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    dir.join(format!("{safe}.json"))
}

impl Saved {
    /// # Errors
    /// When the folder or the file cannot be written.
    pub fn save_in(&self, dir: &Path) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let path = file(dir, &self.match_id);
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(self).expect("serializes"))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600));
        }
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }

    /// # Errors
    /// No saved file for this match, or it is not readable JSON.
    pub fn load_from(dir: &Path, match_id: &str) -> std::io::Result<Saved> {
        let bytes = std::fs::read(file(dir, match_id))?;
        serde_json::from_slice(&bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// # Errors
    /// See [`Saved::save_in`].
    pub fn save(&self) -> std::io::Result<PathBuf> {
        self.save_in(&dir())
    }

    /// # Errors
    /// See [`Saved::load_from`].
    pub fn load(match_id: &str) -> std::io::Result<Saved> {
        Saved::load_from(&dir(), match_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("athlas-session-test-{}", std::process::id()));
        let s = Saved {
            server: "127.0.0.1:8080".into(),
            match_id: "0b6e-11".into(),
            seat: Some(1),
            token: Some("secret".into()),
            join_code: None,
            last_seq: Some(7),
        };
        s.save_in(&dir).unwrap();
        assert_eq!(Saved::load_from(&dir, "0b6e-11").unwrap(), s);
        assert!(Saved::load_from(&dir, "../etc").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
