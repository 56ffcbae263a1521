//! A Divinity seat over a real WebSocket, played by the engine's party
//! bot from what the server sends it (its view and legal actions): what
//! the campaign end-to-end test and the browser interlude test share.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{bot, DivinityAction, DivinityView};
use athlas_engine::Seat;
use serde_json::{json, Value};

use super::Client;

/// The party: a fighter, a healer and a mage, the three the bot plays
/// best (in the engine, it finishes the campaign on 99 of 100 table seeds
/// within eight locations, forced restarts included).
pub const BEST_PARTY: [&str; 3] = ["cassian", "lohse", "red_prince"];

/// One player's connection to the current match, with what it received.
pub struct Player {
    pub client: Client,
    pub match_id: String,
    /// The latest welcome or update.
    pub frame: Value,
    /// Every update seq received on this connection, in order.
    pub seqs: Vec<u64>,
}

impl Player {
    pub async fn connect(addr: &str, token: &str, last_seq: Option<u64>) -> Player {
        let mut hello = json!({"type": "hello", "token": token});
        if let Some(s) = last_seq {
            hello["last_seq"] = json!(s);
        }
        Player::open(addr, hello).await
    }

    /// A connection opened with `first` (a hello or a watch), up to its welcome.
    pub async fn open(addr: &str, first: Value) -> Player {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let mut client = Client { ws, raw: Vec::new(), next_id: 1, seq: 0, view: Value::Null };
        client.send(first).await;
        let frame = client.until(|m| m["type"] == "welcome" || m["type"] == "error").await;
        assert_eq!(frame["type"], "welcome", "{frame}");
        let match_id = frame["match_id"].as_str().unwrap().to_owned();
        Player { seqs: vec![frame["seq"].as_u64().unwrap()], client, match_id, frame }
    }

    /// Read until update `seq`, checking each update follows the last.
    pub async fn catch_up(&mut self, seq: u64) {
        while *self.seqs.last().unwrap() < seq {
            let m = self.client.until(|m| m["type"] == "update").await;
            let s = m["seq"].as_u64().unwrap();
            assert_eq!(s, self.seqs.last().unwrap() + 1, "contiguous seqs");
            self.seqs.push(s);
            self.frame = m;
        }
    }

    pub fn legal(&self, seat: Seat) -> Vec<DivinityAction> {
        let list = self.frame["legal"].as_array().into_iter().flatten().find(|l| l["seat"] == seat);
        list.map(|l| serde_json::from_value(l["actions"].clone()).expect("legal actions parse")).unwrap_or_default()
    }

    /// What the party bot does for `seat`, from this connection's view
    /// and the legal actions it was sent for that seat.
    pub fn choose(&self, seat: Seat) -> Option<DivinityAction> {
        let view: DivinityView = serde_json::from_value(self.frame["view"].clone()).expect("a Divinity view");
        bot::choose(Catalogue::standard(), &view, seat, &self.legal(seat))
    }

    /// Send `action` (for `seat` when it is not this connection's own) and
    /// wait for its acknowledgement: the acknowledged seq.
    pub async fn act(&mut self, action: &DivinityAction, seat: Option<Seat>) -> u64 {
        let id = self.client.next_id;
        self.client.next_id += 1;
        let mut act = json!({"type": "act", "id": id, "action": action});
        if let Some(seat) = seat {
            act["seat"] = json!(seat);
        }
        self.client.send(act).await;
        let answer = self.client.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id)).await;
        assert_eq!(answer["type"], "ack", "a legal action is accepted: {answer}");
        answer["seq"].as_u64().unwrap()
    }
}
