//! A random player that picks from `view.legal`, weighted like the engine's
//! [`RandomBot`] (doing things is likelier than ending things; draws and
//! discards are rare). Deterministic from its seed. In the Creation Phase it
//! picks a preset or drafts random valid Alphas from the catalogue.

use athlas_engine::duel::{bot::RandomBot, card::CardKind, card::Catalogue, DuelAction};
use serde_json::Value;

use crate::player::Player;

/// How likely an action of this `type` is, relative to the others.
pub fn weight(kind: &str) -> u32 {
    match kind {
        "offer_draw" | "accept_draw" => 1,
        "discard_di" | "decline_draw" => 2,
        "end_turn" | "end_activations" => 4,
        "end_activation" | "pass" => 10,
        "use_power" | "cast_di" => 20,
        _ => 12,
    }
}

fn kind(a: &Value) -> &str {
    a.get("type").and_then(Value::as_str).unwrap_or("")
}

/// Pick one of `legal` by weight, with `below(n)` a uniform draw in `0..n`.
pub fn weighted_pick(legal: &[Value], below: impl FnOnce(u32) -> u32) -> Option<&Value> {
    let total: u32 = legal.iter().map(|a| weight(kind(a))).sum();
    if total == 0 {
        return None;
    }
    let mut x = below(total);
    for a in legal {
        let w = weight(kind(a));
        if x < w {
            return Some(a);
        }
        x -= w;
    }
    legal.last()
}

/// A random legal player for one seat.
pub struct Bot {
    rng: RandomBot,
    cat: &'static Catalogue,
    /// Alphas to create: 3, or 4 after the engine said this is a campaign.
    alphas: usize,
    /// Resign after this many of its own actions (keeps random games bounded).
    pub max_actions: u64,
    pub actions: u64,
    /// Refusals since the last accepted action: a bot the server keeps
    /// refusing (say, a catalogue that differs from the server's) is stuck.
    refusals: u32,
}

/// Refusals in a row after which a bot gives up.
pub const MAX_REFUSALS: u32 = 20;

impl Bot {
    pub fn new(seed: u64, cat: &'static Catalogue) -> Bot {
        Bot { rng: RandomBot::new(seed), cat, alphas: 3, max_actions: u64::MAX, actions: 0, refusals: 0 }
    }

    /// Learn from a refusal: `alpha_count` means this game wants 4 Alphas.
    pub fn refused(&mut self, code: &str) {
        self.refusals += 1;
        if code == "alpha_count" {
            self.alphas = if self.alphas == 3 { 4 } else { 3 };
        }
    }

    /// An action of this bot was accepted.
    pub fn accepted(&mut self) {
        self.refusals = 0;
    }

    /// The server refused this bot's last [`MAX_REFUSALS`] actions.
    pub fn stuck(&self) -> bool {
        self.refusals >= MAX_REFUSALS
    }

    /// The next action, if the player should act now.
    pub fn pick(&mut self, p: &Player) -> Option<Value> {
        if !p.my_turn() {
            return None;
        }
        self.actions += 1;
        if self.actions > self.max_actions && p.phase != "creation" {
            return Some(serde_json::json!({"type": "resign"}));
        }
        if p.phase == "creation" {
            return self.creation(&p.legal);
        }
        weighted_pick(&p.legal, |n| self.rng.below(n as usize) as u32).cloned()
    }

    /// A preset (from `legal`) or random valid Alphas and a DI stack.
    fn creation(&mut self, legal: &[Value]) -> Option<Value> {
        let presets: Vec<&Value> = legal.iter().filter(|a| kind(a) == "use_preset").collect();
        let genus = self.cat.count(CardKind::Genus);
        let use_preset = !presets.is_empty() && (genus < self.alphas || self.refusals > 0 || self.rng.below(3) == 0);
        if use_preset {
            return Some(presets[self.rng.below(presets.len())].clone());
        }
        if genus < self.alphas {
            return None; // this catalogue cannot make enough Alphas
        }
        let mut used = Vec::new();
        let alphas = (0..self.alphas).map(|_| self.rng.random_alpha(self.cat, &mut used)).collect();
        let ids: Vec<&athlas_engine::duel::card::CardId> = self.cat.di.keys().collect();
        let mut di_stack = Vec::new();
        let mut points = 0;
        for _ in 0..4 {
            if ids.is_empty() {
                break;
            }
            let id = ids[self.rng.below(ids.len())];
            let dp = self.cat.di[id].divine_points;
            if !di_stack.contains(id) && points + dp <= 8 {
                points += dp;
                di_stack.push(id.clone());
            }
        }
        Some(serde_json::to_value(DuelAction::Create { alphas, di_stack }).expect("actions serialize"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn weights_follow_the_engine_bot() {
        let legal = vec![json!({"type":"end_turn"}), json!({"type":"use_power"})];
        // total 24: 0..4 ends the turn, 4..24 uses the power.
        assert_eq!(weighted_pick(&legal, |_| 3).unwrap()["type"], "end_turn");
        assert_eq!(weighted_pick(&legal, |_| 4).unwrap()["type"], "use_power");
        assert_eq!(weighted_pick(&legal, |n| n - 1).unwrap()["type"], "use_power");
        assert!(weighted_pick(&[], |_| 0).is_none());
    }

    #[test]
    fn picks_only_on_its_turn_and_the_same_way_for_the_same_seed() {
        let cat = Catalogue::standard();
        let frame = json!({"type":"welcome","seat":0,"seq":1,"status":{"status":"waiting","seats":[0]},
            "view":{"phase":{"phase":"command"},"waiting_for":[0],
                    "legal":[{"type":"pass"},{"type":"end_turn"},{"type":"move","to":[0,1]},{"type":"move","to":[1,0]}]}})
        .to_string();
        let mut p = Player::new();
        p.observe(&frame);
        let run = |seed| {
            let mut b = Bot::new(seed, cat);
            (0..20).map(|_| b.pick(&p).unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert!(run(7).iter().all(|a| p.legal.contains(a)));
        let mut b = Bot::new(1, cat);
        b.max_actions = 1;
        assert!(b.pick(&p).is_some());
        assert_eq!(b.pick(&p).unwrap()["type"], "resign");
        let mut other = Player::new();
        other.observe(&frame.replace("\"seat\":0", "\"seat\":1"));
        assert!(Bot::new(1, cat).pick(&other).is_none(), "not seat 1's turn");
        let mut b = Bot::new(1, cat);
        (0..MAX_REFUSALS).for_each(|_| b.refused("invalid_alpha"));
        assert!(b.stuck());
        b.accepted();
        assert!(!b.stuck());
    }
}
