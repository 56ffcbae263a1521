//! Saved seats: one small JSON file per seat, per match, per server, under
//! `./.athlas/` (or `$ATHLAS_STATE_DIR`), so `athlas resume MATCH` can say
//! hello again with the seat token and the last `seq` seen.
//!
//! Why one file per seat: the README has both players run the client from
//! the same directory. With one file per match the second player's `join`
//! overwrote the first player's token, and `resume` then reconnected player
//! one as seat 1 — with seat 1's hidden stacks on screen. A seat's file is
//! written only with that seat's token, so no command can overwrite another
//! seat's, and `resume` asks which seat when several are saved here.
//!
//! Layout: `DIR/<server>/<match>.seat<N>.json` for a seat,
//! `DIR/<server>/<match>.watch.json` for a match only watched, where
//! `<server>` is the server's `HOST:PORT` made safe for a file name. `DIR`
//! holds a `.gitignore` of `*`, so tokens never end up in a repository.
//!
//! A campaign seat ([`SavedCampaign`]) is saved the same way, one file per
//! seat: `DIR/<server>/campaign-<id>.seat<N>.json`. Its token is valid for
//! every match of the campaign, so the file keeps the campaign, not a match.

use std::path::{Path, PathBuf};

use athlas_protocol::Seat;
use serde::{Deserialize, Serialize};

/// What the client remembers about one seat (or one watched match).
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
    /// The code the match was created with, or joined with.
    #[serde(default)]
    pub join_code: Option<String>,
    #[serde(default)]
    pub last_seq: Option<u64>,
}

/// Why no single saved seat answers a `resume`.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    #[error("no saved seat for match {match_id} in {dir}")]
    None { match_id: String, dir: String },
    #[error(
        "several seats of match {match_id} are saved in {dir}; say which one is yours:\n{}",
        choices.iter().map(|s| format!("  {}", s.resume_command())).collect::<Vec<_>>().join("\n")
    )]
    Several { match_id: String, dir: String, choices: Vec<Saved> },
    #[error("reading {dir}: {source}")]
    Io { dir: String, source: std::io::Error },
}

/// A campaign seat's file, never read as a match seat.
fn is_campaign_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(CAMPAIGN_PREFIX))
}

const CAMPAIGN_PREFIX: &str = "campaign-";

/// A seat file the terminal UI keeps up to date while it plays, so that a
/// later `resume` says `hello` with the last seq it saw.
pub trait SeatFile {
    /// Remember the last seq seen and write the file.
    ///
    /// # Errors
    /// When the file cannot be written.
    fn save_last_seq(&mut self, seq: Option<u64>) -> std::io::Result<()>;
    /// The command that comes back to this seat.
    fn resume_command(&self) -> String;
}

impl SeatFile for Saved {
    fn save_last_seq(&mut self, seq: Option<u64>) -> std::io::Result<()> {
        self.last_seq = seq;
        self.save().map(drop)
    }
    fn resume_command(&self) -> String {
        Saved::resume_command(self)
    }
}

/// A campaign seat's file in its folder, playing match `match_id`.
pub struct CampaignSeatFile {
    pub seat: SavedCampaign,
    pub dir: PathBuf,
    pub match_id: String,
}

impl SeatFile for CampaignSeatFile {
    fn save_last_seq(&mut self, seq: Option<u64>) -> std::io::Result<()> {
        self.seat.current_match = Some(self.match_id.clone());
        self.seat.last_seq = seq;
        self.seat.save_in(&self.dir).map(drop)
    }
    fn resume_command(&self) -> String {
        self.seat.resume_command()
    }
}

/// What the client remembers about one seat of a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedCampaign {
    pub server: String,
    pub campaign_id: String,
    pub seat: Seat,
    /// The secret seat token, valid for every match of the campaign.
    pub token: String,
    /// The code friends join with (kept by the host's seat).
    #[serde(default)]
    pub join_code: Option<String>,
    /// The match `last_seq` belongs to: a `hello` into another match of the
    /// campaign starts from nothing.
    #[serde(default)]
    pub current_match: Option<String>,
    #[serde(default)]
    pub last_seq: Option<u64>,
}

impl SavedCampaign {
    /// This seat's file (see the module doc).
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        dir.join(safe(&self.server)).join(format!(
            "{CAMPAIGN_PREFIX}{}.seat{}.json",
            safe(&self.campaign_id),
            self.seat
        ))
    }

    /// The command that comes back to this seat, for the player to copy
    /// (the token stays in the file).
    pub fn resume_command(&self) -> String {
        format!("athlas campaign resume {} --seat {} --server {}", self.campaign_id, self.seat, self.server)
    }

    /// The `last_seq` to say `hello` with, when the match is still `match_id`.
    pub fn last_seq_in(&self, match_id: &str) -> Option<u64> {
        self.last_seq.filter(|_| self.current_match.as_deref() == Some(match_id))
    }

    /// Write this seat's file (atomically, readable by its owner only).
    ///
    /// # Errors
    /// When the folder or the file cannot be written, or the file holds
    /// another token for this seat (a different campaign seat must never be
    /// written over; delete the file by hand if it is truly stale).
    pub fn save_in(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let path = self.path_in(dir);
        if let Ok(bytes) = std::fs::read(&path) {
            if let Ok(old) = serde_json::from_slice::<SavedCampaign>(&bytes) {
                if old.token != self.token {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        format!("{} holds another token for this seat; not writing over it", path.display()),
                    ));
                }
            }
        }
        write_private(dir, &path, &serde_json::to_vec_pretty(self).expect("serializes"))?;
        Ok(path)
    }

    /// # Errors
    /// See [`SavedCampaign::save_in`].
    pub fn save(&self) -> std::io::Result<PathBuf> {
        self.save_in(&dir())
    }

    /// Every campaign seat saved in `dir`, by server, campaign and seat.
    ///
    /// # Errors
    /// The folder exists but cannot be read.
    pub fn all_in(dir: &Path) -> std::io::Result<Vec<SavedCampaign>> {
        let mut found = Vec::new();
        let servers = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
            Err(e) => return Err(e),
        };
        for server in servers {
            let server = server?.path();
            if !server.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&server)? {
                let file = file?.path();
                if is_campaign_file(&file) && file.extension().is_some_and(|e| e == "json") {
                    if let Ok(saved) = serde_json::from_slice::<SavedCampaign>(&std::fs::read(&file)?) {
                        found.push(saved);
                    }
                }
            }
        }
        found.sort_by(|a, b| (&a.server, &a.campaign_id, a.seat).cmp(&(&b.server, &b.campaign_id, b.seat)));
        Ok(found)
    }

    /// The one saved seat of `campaign_id` that fits `server` and `seat`.
    ///
    /// # Errors
    /// None fits, or several do and the caller must say which.
    pub fn find_in(
        dir: &Path,
        campaign_id: &str,
        server: Option<&str>,
        seat: Option<Seat>,
    ) -> Result<SavedCampaign, String> {
        let mut fits: Vec<SavedCampaign> = SavedCampaign::all_in(dir)
            .map_err(|e| format!("reading {}: {e}", dir.display()))?
            .into_iter()
            .filter(|s| s.campaign_id == campaign_id)
            .filter(|s| server.is_none_or(|srv| s.server == srv))
            .filter(|s| seat.is_none_or(|seat| s.seat == seat))
            .collect();
        match fits.len() {
            0 => Err(format!("no saved seat of campaign {campaign_id} in {}", dir.display())),
            1 => Ok(fits.remove(0)),
            _ => Err(format!(
                "several seats of campaign {campaign_id} are saved in {}; say which one is yours:\n{}",
                dir.display(),
                fits.iter().map(|s| format!("  {}", s.resume_command())).collect::<Vec<_>>().join("\n")
            )),
        }
    }
}

/// Write `bytes` to `path` under `dir` atomically, readable by the owner
/// only, with the folder's `.gitignore` in place.
fn write_private(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(path.parent().expect("a seat file has a folder"))?;
    // Tokens are secrets: keep the whole folder out of git.
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "# athlas seat tokens: never commit them\n*\n")?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600));
    }
    std::fs::rename(&tmp, path)
}

/// Where saved seats live.
pub fn dir() -> PathBuf {
    std::env::var_os("ATHLAS_STATE_DIR").map_or_else(|| PathBuf::from(".athlas"), PathBuf::from)
}

/// Keep a name from escaping its folder: match ids are UUIDs and servers
/// `HOST:PORT`; anything else becomes `_`.
fn safe(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect()
}

impl Saved {
    /// This seat's file (see the module doc for the layout).
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        let who = match self.seat {
            Some(seat) => format!("seat{seat}"),
            None => "watch".to_owned(),
        };
        // A match id never starts with '.', so `safe` cannot make `..`.
        dir.join(safe(&self.server)).join(format!("{}.{who}.json", safe(&self.match_id)))
    }

    /// The command that comes back to this seat, for the player to copy.
    pub fn resume_command(&self) -> String {
        let seat = self.seat.map(|s| format!(" --seat {s}")).unwrap_or_default();
        format!("athlas resume {}{seat} --server {}", self.match_id, self.server)
    }

    /// Write this seat's file (atomically, readable by its owner only).
    ///
    /// # Errors
    /// When the folder or the file cannot be written.
    pub fn save_in(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let path = self.path_in(dir);
        write_private(dir, &path, &serde_json::to_vec_pretty(self).expect("serializes"))?;
        Ok(path)
    }

    /// Every seat saved in `dir`, in a stable order (by server, match, seat).
    /// Files that are not saved seats are skipped; so is a missing folder.
    ///
    /// # Errors
    /// The folder exists but cannot be read.
    pub fn all_in(dir: &Path) -> std::io::Result<Vec<Saved>> {
        let mut found = Vec::new();
        let servers = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
            Err(e) => return Err(e),
        };
        for server in servers {
            let server = server?.path();
            let files: Vec<PathBuf> = if server.is_dir() {
                std::fs::read_dir(&server)?.filter_map(|e| e.ok().map(|e| e.path())).collect()
            } else {
                // A file right in DIR: the one-file-per-match layout of
                // earlier versions, still readable.
                vec![server]
            };
            for file in files {
                if is_campaign_file(&file) {
                    continue;
                }
                if file.extension().is_some_and(|e| e == "json") {
                    if let Ok(saved) = serde_json::from_slice::<Saved>(&std::fs::read(&file)?) {
                        found.push(saved);
                    }
                }
            }
        }
        found.sort_by(|a, b| (&a.server, &a.match_id, a.seat).cmp(&(&b.server, &b.match_id, b.seat)));
        found.dedup();
        Ok(found)
    }

    /// The one saved seat of `match_id` that fits: on `server` and as
    /// `seat` when given.
    ///
    /// # Errors
    /// None fits, or several do and the caller must choose.
    pub fn find_in(dir: &Path, match_id: &str, server: Option<&str>, seat: Option<Seat>) -> Result<Saved, FindError> {
        let io = |source| FindError::Io { dir: dir.display().to_string(), source };
        let mut fits: Vec<Saved> = Saved::all_in(dir)
            .map_err(io)?
            .into_iter()
            .filter(|s| s.match_id == match_id)
            .filter(|s| server.is_none_or(|srv| s.server == srv))
            .filter(|s| seat.is_none_or(|seat| s.seat == Some(seat)))
            .collect();
        // A seat outranks watching the same match.
        if fits.iter().any(|s| s.seat.is_some()) {
            fits.retain(|s| s.seat.is_some());
        }
        match fits.len() {
            0 => Err(FindError::None { match_id: match_id.to_owned(), dir: dir.display().to_string() }),
            1 => Ok(fits.remove(0)),
            _ => {
                Err(FindError::Several { match_id: match_id.to_owned(), dir: dir.display().to_string(), choices: fits })
            }
        }
    }

    /// The seats saved in `dir` for the match of this join code on `server`.
    ///
    /// # Errors
    /// The folder exists but cannot be read.
    pub fn by_join_code_in(dir: &Path, server: &str, code: &str) -> std::io::Result<Vec<Saved>> {
        let code = code.trim();
        let matched: Vec<Saved> = Saved::all_in(dir)?
            .into_iter()
            .filter(|s| s.server == server && s.join_code.as_deref().is_some_and(|c| c.eq_ignore_ascii_case(code)))
            .collect();
        // Every seat of those matches, not only the ones that kept the code.
        let ids: Vec<&String> = matched.iter().map(|s| &s.match_id).collect();
        Ok(Saved::all_in(dir)?
            .into_iter()
            .filter(|s| s.server == server && s.seat.is_some() && ids.contains(&&s.match_id))
            .collect())
    }

    /// # Errors
    /// See [`Saved::save_in`].
    pub fn save(&self) -> std::io::Result<PathBuf> {
        self.save_in(&dir())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("athlas-session-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn seat(server: &str, match_id: &str, seat: Seat, token: &str) -> Saved {
        Saved {
            server: server.into(),
            match_id: match_id.into(),
            seat: Some(seat),
            token: Some(token.into()),
            join_code: Some("ABCD".into()),
            last_seq: None,
        }
    }

    #[test]
    fn saves_and_loads_back() {
        let dir = temp("roundtrip");
        let s = Saved { last_seq: Some(7), ..seat("127.0.0.1:8080", "0b6e-11", 1, "secret") };
        s.save_in(&dir).unwrap();
        assert_eq!(Saved::find_in(&dir, "0b6e-11", None, None).unwrap(), s);
        assert!(matches!(Saved::find_in(&dir, "../etc", None, None), Err(FindError::None { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_seats_of_one_match_in_one_folder_keep_both_tokens() {
        // The README's flow: both players run the client from one directory.
        let dir = temp("two-seats");
        let creator = seat("127.0.0.1:8080", "m1", 0, "token-zero");
        let joiner = seat("127.0.0.1:8080", "m1", 1, "token-one");
        creator.save_in(&dir).unwrap();
        joiner.save_in(&dir).unwrap();
        assert_ne!(creator.path_in(&dir), joiner.path_in(&dir));
        assert_eq!(Saved::find_in(&dir, "m1", None, Some(0)).unwrap().token.as_deref(), Some("token-zero"));
        assert_eq!(Saved::find_in(&dir, "m1", None, Some(1)).unwrap().token.as_deref(), Some("token-one"));
        // Without --seat, resume must ask rather than pick one.
        match Saved::find_in(&dir, "m1", None, None) {
            Err(e @ FindError::Several { .. }) => {
                let text = e.to_string();
                assert!(text.contains("athlas resume m1 --seat 0 --server 127.0.0.1:8080"), "{text}");
                assert!(text.contains("athlas resume m1 --seat 1 --server 127.0.0.1:8080"), "{text}");
            }
            other => panic!("expected a choice, got {other:?}"),
        }
        // Both seats are found by the join code.
        assert_eq!(Saved::by_join_code_in(&dir, "127.0.0.1:8080", "abcd").unwrap().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_same_match_id_on_two_servers_is_two_files() {
        let dir = temp("two-servers");
        seat("a:1", "m", 0, "a").save_in(&dir).unwrap();
        seat("b:2", "m", 0, "b").save_in(&dir).unwrap();
        assert_eq!(Saved::find_in(&dir, "m", Some("b:2"), None).unwrap().token.as_deref(), Some("b"));
        assert!(matches!(Saved::find_in(&dir, "m", None, None), Err(FindError::Several { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_folder_keeps_itself_out_of_git() {
        let dir = temp("gitignore");
        seat("a:1", "m", 0, "t").save_in(&dir).unwrap();
        let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
        assert!(ignore.lines().any(|l| l.trim() == "*"), "{ignore}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_the_old_layout_is_still_found() {
        let dir = temp("legacy");
        std::fs::create_dir_all(&dir).unwrap();
        let old = seat("a:1", "m-old", 0, "t");
        std::fs::write(dir.join("m-old.json"), serde_json::to_vec(&old).unwrap()).unwrap();
        assert_eq!(Saved::find_in(&dir, "m-old", None, None).unwrap(), old);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn campaign_seat(seat: Seat, token: &str) -> SavedCampaign {
        SavedCampaign {
            server: "http://127.0.0.1:8080".into(),
            campaign_id: "c-1".into(),
            seat,
            token: token.into(),
            join_code: None,
            current_match: None,
            last_seq: None,
        }
    }

    #[test]
    fn three_campaign_seats_in_one_folder_keep_their_own_files() {
        let dir = temp("campaign-seats");
        let seats: Vec<SavedCampaign> = (0..3).map(|s| campaign_seat(s, &format!("token-{s}"))).collect();
        for s in &seats {
            s.save_in(&dir).unwrap();
        }
        let files: Vec<String> =
            seats.iter().map(|s| s.path_in(&dir).file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(files, ["campaign-c-1.seat0.json", "campaign-c-1.seat1.json", "campaign-c-1.seat2.json"]);
        assert_eq!(SavedCampaign::all_in(&dir).unwrap(), seats);
        for s in 0..3 {
            let found = SavedCampaign::find_in(&dir, "c-1", None, Some(s)).unwrap();
            assert_eq!(found.token, format!("token-{s}"));
        }
        // Without --seat it asks, naming each seat's command and no token.
        let ask = SavedCampaign::find_in(&dir, "c-1", None, None).unwrap_err();
        assert!(ask.contains("athlas campaign resume c-1 --seat 2 --server http://127.0.0.1:8080"), "{ask}");
        assert!(!ask.contains("token-"), "a token printed: {ask}");
        // Another token for a seat already saved is refused, the file untouched.
        let other = campaign_seat(1, "someone-else");
        assert_eq!(other.save_in(&dir).unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(SavedCampaign::find_in(&dir, "c-1", None, Some(1)).unwrap().token, "token-1");
        // The same seat saved again (a newer last_seq) is fine.
        let later = SavedCampaign { current_match: Some("m".into()), last_seq: Some(9), ..seats[1].clone() };
        later.save_in(&dir).unwrap();
        assert_eq!(later.last_seq_in("m"), Some(9));
        assert_eq!(later.last_seq_in("another-match"), None, "a seq of another match is not resumed from");
        // Campaign files are not match seats, and match seats are not campaigns.
        assert!(Saved::all_in(&dir).unwrap().is_empty());
        seat("http://127.0.0.1:8080", "m1", 0, "t").save_in(&dir).unwrap();
        assert_eq!(SavedCampaign::all_in(&dir).unwrap().len(), 3);
        assert!(campaign_seat(0, "x").resume_command().split_whitespace().all(|w| !w.contains("token")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_ui_keeps_a_campaign_seats_last_seq_for_its_match() {
        let dir = temp("campaign-ui-seq");
        let old = SavedCampaign { current_match: Some("m-1".into()), last_seq: Some(40), ..campaign_seat(2, "t2") };
        old.save_in(&dir).unwrap();
        let mut file = CampaignSeatFile { seat: old, dir: dir.clone(), match_id: "m-2".into() };
        let as_ui_sees_it: &mut dyn SeatFile = &mut file;
        as_ui_sees_it.save_last_seq(Some(3)).unwrap();
        let back = SavedCampaign::find_in(&dir, "c-1", None, Some(2)).unwrap();
        assert_eq!((back.last_seq_in("m-2"), back.last_seq_in("m-1")), (Some(3), None));
        assert_eq!(
            as_ui_sees_it.resume_command(),
            "athlas campaign resume c-1 --seat 2 --server http://127.0.0.1:8080"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn watching_does_not_shadow_a_seat() {
        let dir = temp("watch");
        let watched = Saved { seat: None, token: None, ..seat("a:1", "m", 0, "") };
        watched.save_in(&dir).unwrap();
        seat("a:1", "m", 1, "t1").save_in(&dir).unwrap();
        assert_eq!(Saved::find_in(&dir, "m", None, None).unwrap().seat, Some(1));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
