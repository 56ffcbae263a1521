//! A random player that picks from the legal actions the server lists.
//! Deterministic from its seed.
//!
//! The duel: from `view.legal`, weighted like the engine's [`RandomBot`]
//! (doing things is likelier than ending things; draws and discards are
//! rare); in the Creation Phase it picks a preset or drafts random valid
//! Alphas from the catalogue. Divinity: the engine's party bot
//! (`athlas_engine::divinity::bot`) picks from the frame's `legal` list by
//! reading the last view this receiver was sent, for its own seat first,
//! then any handed to it; it plays a campaign through to its end. Should a
//! view not read as Divinity's, a seat and an action are chosen uniformly,
//! the way the engine's tests show random parties finish every location.
//! The clan battle: from `view.legal`, a kind of action first (by
//! [`clans_weight`]: attacks and abilities likelier than moves, ending the
//! turn or passing rarer), then one of that kind uniformly, so the many
//! listed moves and summon tiles do not drown the few attacks.

use athlas_engine::divinity::{self, DivinityAction, DivinityView};
use athlas_engine::duel::{bot::RandomBot, card::CardKind, card::Catalogue, DuelAction};
use serde_json::{value::RawValue, Value};

use crate::player::{kind_of, legal_value, Legal, Player};

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

/// Pick one of `legal` by weight, with `below(n)` a uniform draw in `0..n`.
pub fn weighted_pick(legal: &[Legal], below: impl FnOnce(u32) -> u32) -> Option<&Legal> {
    let weights: Vec<u32> = legal.iter().map(|a| weight(&kind_of(a))).collect();
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut x = below(total);
    for (a, w) in legal.iter().zip(weights) {
        if x < w {
            return Some(a);
        }
        x -= w;
    }
    legal.last()
}

/// How likely a clan battle action of this `type` is, relative to the
/// other kinds listed (each kind counted once, however many it lists).
pub fn clans_weight(kind: &str) -> u32 {
    match kind {
        "attack" | "respond" => 40,
        "ability" | "runic_art" => 25,
        "summon" | "item" | "equip" => 15,
        "move" => 20,
        "terrain" | "pass" => 8,
        "end_turn" => 6,
        "assimilate" => 3,
        _ => 10,
    }
}

/// What a bot sends: a listed action as the server wrote it (sent back as
/// is: the duel's bot picks one at each turn, and building it into a
/// `Value` and writing it again was a tenth of its pick), or one it built.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum Choice {
    Listed(Legal),
    Built(Value),
}

impl Choice {
    /// As a JSON value.
    pub fn into_value(self) -> Value {
        match self {
            Choice::Listed(a) => legal_value(&a),
            Choice::Built(v) => v,
        }
    }
}

/// The game a bot plays, with what it needs to play it.
#[derive(Clone, Copy)]
enum Plays {
    Duel {
        cat: &'static Catalogue,
    },
    /// Everything comes from the server's `legal` lists.
    Divinity,
    /// A game whose frames' `legal` lists are all a bot needs (Nim): a
    /// seat and an action chosen uniformly, as for Divinity without its
    /// party bot.
    Listed,
    /// The clan battle: from `view.legal`, by kind ([`clans_weight`]).
    Clans,
}

/// A random legal player for one seat (and the seats handed to it).
pub struct Bot {
    rng: RandomBot,
    game: Plays,
    /// Alphas to create: 3, or 4 after the engine said this is a campaign.
    alphas: usize,
    /// The duel: resign after this many of its own actions (keeps random
    /// games bounded). Divinity, which has no resignation: stop acting.
    pub max_actions: u64,
    pub actions: u64,
    /// Refusals since the last accepted action: a bot the server keeps
    /// refusing (say, a catalogue that differs from the server's) is stuck.
    refusals: u32,
    /// Divinity: the last welcome or update, read when it is time to act.
    last_frame: Option<String>,
}

/// Refusals in a row after which a bot gives up.
pub const MAX_REFUSALS: u32 = 20;

impl Bot {
    /// A duel bot.
    pub fn new(seed: u64, cat: &'static Catalogue) -> Bot {
        Bot {
            rng: RandomBot::new(seed),
            game: Plays::Duel { cat },
            alphas: 3,
            max_actions: u64::MAX,
            actions: 0,
            refusals: 0,
            last_frame: None,
        }
    }

    /// A Divinity bot.
    pub fn divinity(seed: u64) -> Bot {
        Bot { game: Plays::Divinity, ..Bot::new(seed, Catalogue::standard()) }
    }

    /// A bot for any game whose frames list each seat's legal actions: it
    /// picks one uniformly.
    pub fn from_legal(seed: u64) -> Bot {
        Bot { game: Plays::Listed, ..Bot::new(seed, Catalogue::standard()) }
    }

    /// A clan battle bot.
    pub fn clans(seed: u64) -> Bot {
        Bot { game: Plays::Clans, ..Bot::new(seed, Catalogue::standard()) }
    }

    /// Whether it plays a game whose view lists what a seat may do and
    /// that always lists something while it waits for the seat (the duel,
    /// the clan battle; a Divinity seat may wait with nothing listed).
    pub fn acts_whenever_waited_for(&self) -> bool {
        matches!(self.game, Plays::Duel { .. } | Plays::Clans)
    }

    /// A Divinity bot that has taken its `max_actions`: it stops, since the
    /// game has no resignation.
    pub fn spent(&self) -> bool {
        matches!(self.game, Plays::Divinity | Plays::Listed) && self.actions >= self.max_actions
    }

    /// See a server frame (after [`Player::observe`]): a Divinity bot keeps
    /// the last view it was sent.
    pub fn observe(&mut self, text: &str) {
        // Welcomes and updates carry a view; acks and errors do not.
        if matches!(self.game, Plays::Divinity) && text.contains(r#""view":"#) {
            self.last_frame = Some(text.to_owned());
        }
    }

    /// [`Bot::observe`] for a frame the caller is done with: a Divinity
    /// bot keeps it without a copy (its frames run to tens of kilobytes).
    pub fn observe_owned(&mut self, text: String) {
        if matches!(self.game, Plays::Divinity) && text.contains(r#""view":"#) {
            self.last_frame = Some(text);
        }
    }

    /// The party bot's pick for the first seat it finds something legal
    /// for, from the last view; `None` when that view does not read.
    fn party_pick(&self, choices: &[(athlas_protocol::Seat, &[Legal])]) -> Option<(athlas_protocol::Seat, Value)> {
        #[derive(serde::Deserialize)]
        struct Framed {
            view: DivinityView,
        }
        let frame = self.last_frame.as_deref()?;
        // The view's text alone when it is found (the frame's legal lists,
        // a thousand actions and their words, are not parsed to be skipped).
        let view = crate::skim::view_text(frame)
            .and_then(|v| serde_json::from_str::<DivinityView>(v).ok())
            .or_else(|| Some(serde_json::from_str::<Framed>(frame).ok()?.view))?;
        let cat = divinity::content::Catalogue::standard();
        for (seat, actions) in choices {
            let legal: Vec<DivinityAction> =
                actions.iter().filter_map(|a| serde_json::from_str(a.get()).ok()).collect();
            if let Some(a) = divinity::bot::choose(cat, &view, *seat, &legal) {
                return Some((*seat, serde_json::to_value(a).expect("actions serialize")));
            }
        }
        None
    }

    /// The next `act` frame, if the player should act now (recorded in
    /// `p` as in flight), for its own seat or one handed to it.
    pub fn act(&mut self, p: &mut Player) -> Option<String> {
        self.act_as(p, None)
    }

    /// As [`Bot::act`], for seat `only` alone when given (Divinity: a
    /// decision several seats may answer is left to one of them).
    pub fn act_as(&mut self, p: &mut Player, only: Option<athlas_protocol::Seat>) -> Option<String> {
        let (seat, action) = self.pick_among(p, only)?;
        Some(p.act_for(seat, &action))
    }

    /// The seat to act for (`None`: its own) and the action, if the player
    /// should act now.
    pub fn pick_for(&mut self, p: &Player) -> Option<(Option<athlas_protocol::Seat>, Value)> {
        self.pick_among(p, None).map(|(seat, a)| (seat, a.into_value()))
    }

    fn pick_among(
        &mut self,
        p: &Player,
        only: Option<athlas_protocol::Seat>,
    ) -> Option<(Option<athlas_protocol::Seat>, Choice)> {
        match self.game {
            Plays::Duel { .. } | Plays::Clans => self.pick_own(p).map(|a| (None, a)),
            Plays::Divinity | Plays::Listed => {
                if self.spent() {
                    return None;
                }
                let mut choices: Vec<(athlas_protocol::Seat, &[Legal])> = p
                    .actionable()
                    .into_iter()
                    .filter(|(seat, actions)| !actions.is_empty() && only.is_none_or(|o| o == *seat))
                    .collect();
                if choices.is_empty() {
                    return None;
                }
                // Its own seat first, then those handed to it.
                choices.sort_by_key(|(seat, _)| Some(*seat) != p.seat);
                self.actions += 1;
                if let Plays::Divinity = self.game {
                    if let Some((seat, action)) = self.party_pick(&choices) {
                        return Some((Some(seat), Choice::Built(action)));
                    }
                }
                let (seat, actions) = choices[self.rng.below(choices.len())];
                Some((Some(seat), Choice::Listed(actions[self.rng.below(actions.len())].clone())))
            }
        }
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

    /// The next action of its own seat, if the player should act now.
    pub fn pick(&mut self, p: &Player) -> Option<Value> {
        if let Plays::Divinity | Plays::Listed = self.game {
            return self.pick_for(p).map(|(_, a)| a);
        }
        self.pick_own(p).map(Choice::into_value)
    }

    /// [`Bot::pick`] of the duel and the clan battle.
    fn pick_own(&mut self, p: &Player) -> Option<Choice> {
        if !p.my_turn() {
            return None;
        }
        self.actions += 1;
        if self.actions > self.max_actions && p.phase != "creation" {
            return Some(Choice::Built(serde_json::json!({"type": "resign"})));
        }
        if let Plays::Clans = self.game {
            return self.clans_pick(p.legal());
        }
        if p.phase == "creation" {
            return self.creation(p.legal()).map(Choice::Built);
        }
        let listed = weighted_pick(p.legal(), |n| self.rng.below(n as usize) as u32)?;
        Some(self.as_sent(listed))
    }

    /// A kind of listed action by [`clans_weight`], then one of that kind.
    fn clans_pick(&mut self, legal: &[Legal]) -> Option<Choice> {
        let mut kinds: Vec<String> = Vec::new();
        for a in legal {
            let k = kind_of(a);
            if !kinds.iter().any(|x| *x == k) {
                kinds.push(k.into_owned());
            }
        }
        let total: u32 = kinds.iter().map(|k| clans_weight(k)).sum();
        if total == 0 {
            return None;
        }
        let mut x = self.rng.below(total as usize) as u32;
        let mut kind = kinds.last()?;
        for k in &kinds {
            if x < clans_weight(k) {
                kind = k;
                break;
            }
            x -= clans_weight(k);
        }
        let of_kind: Vec<&Legal> = legal.iter().filter(|a| kind_of(a) == kind.as_str()).collect();
        Some(Choice::Listed(of_kind[self.rng.below(of_kind.len())].clone()))
    }

    /// A listed entry as sent: one that offers a choice of hexes (Flood,
    /// Tsunami: `target.choose`) becomes a random choice it allows; any
    /// other goes back as the server wrote it.
    fn as_sent(&mut self, listed: &Legal) -> Choice {
        // Without `"choose"` nor an escape in its text, no key is `choose`.
        let text = listed.get();
        if !text.contains(r#""choose""#) && !text.contains('\\') {
            return Choice::Listed(listed.clone());
        }
        let value = legal_value(listed);
        if value.pointer("/target/choose").is_none() {
            return Choice::Listed(listed.clone());
        }
        match serde_json::from_value::<DuelAction>(value) {
            Ok(a) => Choice::Built(serde_json::to_value(self.rng.chosen(&a)).expect("actions serialize")),
            Err(_) => Choice::Listed(listed.clone()),
        }
    }

    /// A preset (from `legal`) or random valid Alphas and a DI stack.
    fn creation(&mut self, legal: &[Legal]) -> Option<Value> {
        let Plays::Duel { cat } = self.game else { return None };
        let presets: Vec<&RawValue> = legal.iter().filter(|a| kind_of(a) == "use_preset").map(|a| &**a).collect();
        let genus = cat.count(CardKind::Genus);
        let use_preset = !presets.is_empty() && (genus < self.alphas || self.refusals > 0 || self.rng.below(3) == 0);
        if use_preset {
            return Some(legal_value(presets[self.rng.below(presets.len())]));
        }
        if genus < self.alphas {
            return None; // this catalogue cannot make enough Alphas
        }
        let mut used = Vec::new();
        let alphas = (0..self.alphas).map(|_| self.rng.random_alpha(cat, &mut used)).collect();
        let ids: Vec<&athlas_engine::duel::card::CardId> = cat.di.keys().collect();
        let mut di_stack = Vec::new();
        let mut points = 0;
        for _ in 0..4 {
            if ids.is_empty() {
                break;
            }
            let id = ids[self.rng.below(ids.len())];
            let dp = cat.di[id].divine_points;
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
        let legal: Vec<Legal> = [json!({"type":"end_turn"}), json!({"type":"use_power","card":"gale"})]
            .iter()
            .map(|a| RawValue::from_string(a.to_string()).unwrap())
            .collect();
        let kind = |a: Option<&Legal>| kind_of(a.unwrap()).into_owned();
        // total 24: 0..4 ends the turn, 4..24 uses the power.
        assert_eq!(kind(weighted_pick(&legal, |_| 3)), "end_turn");
        assert_eq!(kind(weighted_pick(&legal, |_| 4)), "use_power");
        assert_eq!(kind(weighted_pick(&legal, |n| n - 1)), "use_power");
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
        let listed: Vec<Value> = p.legal().iter().map(|a| legal_value(a)).collect();
        assert!(run(7).iter().all(|a| listed.contains(a)));
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

    /// A listed action goes back as the server wrote it, byte for byte.
    #[test]
    fn a_listed_action_is_sent_as_written() {
        let listed = r#"{"type":"move","unit":3,"to":[0,1],"path":[[0,0],[0,1]],"note":"\"choose\" here"}"#;
        let frame = format!(
            r#"{{"type":"welcome","seat":0,"seq":1,"status":{{"status":"waiting","seats":[0]}},
               "view":{{"phase":{{"phase":"command"}},"waiting_for":[0],"legal":[{listed}]}}}}"#
        );
        let mut p = Player::new();
        p.observe(&frame);
        let sent = Bot::new(1, Catalogue::standard()).act(&mut p).unwrap();
        assert_eq!(sent, format!(r#"{{"type":"act","id":1,"action":{listed}}}"#));
        assert_eq!(p.in_flight.unwrap().frame, sent);
    }

    #[test]
    fn a_listed_choice_of_hexes_is_sent_as_a_choice_it_allows() {
        let cat = Catalogue::standard();
        let from = json!([[0, 0], [1, 0], [2, 0], [0, 1], [3, -1], [-2, 2]]);
        let frame = json!({"type":"welcome","seat":0,"seq":1,"status":{"status":"waiting","seats":[0]},
            "view":{"phase":{"phase":"command"},"waiting_for":[0],
                    "legal":[{"type":"cast_di","target":{"choose":{"from":from,"up_to":4,"at_least":1}}}]}})
        .to_string();
        let mut p = Player::new();
        p.observe(&frame);
        let mut b = Bot::new(3, cat);
        let mut sizes = std::collections::BTreeSet::new();
        for _ in 0..40 {
            let a = b.pick(&p).unwrap();
            assert!(a["target"].get("choose").is_none(), "{a}");
            let hexes = a["target"]["hexes"].as_array().unwrap();
            assert!(hexes.iter().all(|h| from.as_array().unwrap().contains(h)), "{a}");
            assert!(hexes.iter().enumerate().all(|(i, h)| !hexes[..i].contains(h)), "each hex once: {a}");
            sizes.insert(hexes.len());
        }
        assert_eq!(sizes.into_iter().collect::<Vec<_>>(), vec![1, 2, 3, 4], "sizes 1 to 4");
    }

    /// A tutorial hosted by the engine right here, with frames built the way
    /// the server builds them (each seat's `legal` list, its own view), so
    /// the bot is tested on what it reads: three bots finish the location,
    /// only ever sending listed actions (`apply` would refuse anything else).
    /// With `hand_two_to_zero`, seat 2's list goes to seat 0's player, who
    /// must act for it with `"seat": 2`.
    fn play_tutorial(seed: u64, hand_two_to_zero: bool) -> (usize, usize) {
        use athlas_engine::divinity::{legal::legal_standard, Divinity, DivinityOptions, DivinityState};
        use athlas_engine::{Ruleset, Status, Viewer};
        let opts = DivinityOptions {
            party: ["ifan", "sebille", "red_prince"].map(String::from).to_vec(),
            ..DivinityOptions::default()
        };
        let mut state = Divinity::start(&opts, seed).unwrap();
        let frame = |state: &DivinityState, kind: &str, receiver: u8, seq: u64, actor: u8, sender: Option<u8>| {
            let status = match Divinity::status(state) {
                Status::Waiting { seats } => json!({"status":"waiting","seats":seats}),
                Status::Finished(_) => json!({"status":"finished","result":"party_won"}),
            };
            let mut seats = vec![receiver];
            if hand_two_to_zero && receiver == 0 {
                seats.push(2);
            }
            let legal: Vec<Value> = seats
                .iter()
                .filter(|&&s| !(hand_two_to_zero && receiver == 2 && s == 2))
                .map(|&s| json!({"seat": s, "actions": legal_standard(state, s)}))
                .collect();
            let view = serde_json::to_value(Divinity::view(state, Viewer::Seat(receiver))).unwrap();
            let mut f =
                json!({"type":kind,"seq":seq,"seat":actor,"status":status,"view":view,"legal":legal,"events":[]});
            if kind == "welcome" {
                f["seat"] = receiver.into();
            }
            if let Some(s) = sender {
                f["sender"] = s.into();
            }
            f.to_string()
        };
        let mut players: Vec<Player> = (0..3).map(|_| Player::new()).collect();
        let mut bots: Vec<Bot> = (0..3).map(|s| Bot::divinity(seed * 10 + s)).collect();
        for (s, p) in players.iter_mut().enumerate() {
            let text = frame(&state, "welcome", s as u8, 0, 0, None);
            bots[s].observe(&text);
            p.observe(&text);
        }
        let (mut seq, mut handed) = (0u64, 0usize);
        while !players[0].finished {
            assert!(seq < 20_000, "the tutorial did not end");
            let listed = |p: &Player| p.actionable().iter().any(|(_, actions)| !actions.is_empty());
            let who = (0..3).map(|k| (seq as usize + k) % 3).find(|&k| listed(&players[k]));
            let who = who.expect("a waiting seat always has a listed action");
            let text = bots[who].act(&mut players[who]).expect("the bot acts on a listed action");
            let sent: Value = serde_json::from_str(&text).unwrap();
            let seat = sent.get("seat").and_then(Value::as_u64).map_or(who as u8, |s| s as u8);
            handed += usize::from(seat != who as u8);
            assert!(!(hand_two_to_zero && who == 2), "seat 2 was handed away and has nothing to do");
            let action: athlas_engine::divinity::DivinityAction =
                serde_json::from_value(sent["action"].clone()).unwrap();
            // The engine's party bot chose it, from the seat's view.
            let view = Divinity::view(&state, Viewer::Seat(who as u8));
            let party = divinity::bot::choose(
                divinity::content::Catalogue::standard(),
                &view,
                seat,
                &legal_standard(&state, seat),
            );
            assert_eq!(party.as_ref(), Some(&action), "the party bot's pick");
            Divinity::apply(&mut state, seat, action).unwrap_or_else(|e| panic!("refused {sent}: {e:?}"));
            seq += 1;
            players[who].observe(&json!({"type":"ack","id":sent["id"],"seq":seq}).to_string());
            let sender = (seat != who as u8).then_some(who as u8);
            for (s, p) in players.iter_mut().enumerate() {
                let text = frame(&state, "update", s as u8, seq, seat, sender);
                bots[s].observe(&text);
                p.observe(&text);
            }
        }
        (seq as usize, handed)
    }

    #[test]
    fn three_divinity_bots_finish_the_tutorial_from_the_legal_lists() {
        let (actions, handed) = play_tutorial(3, false);
        assert!(actions > 10 && handed == 0, "{actions} actions, {handed} handed");
        assert_eq!(play_tutorial(3, false).0, actions, "the same seeds play the same game");
    }

    #[test]
    fn a_divinity_bot_acts_for_a_seat_handed_to_it() {
        let (_, handed) = play_tutorial(5, true);
        assert!(handed > 0, "seat 0 never acted for seat 2");
    }

    #[test]
    fn a_frame_kept_owned_is_the_frame_observed() {
        let frame = json!({"type":"update","seq":2,"view":{"phase":{"phase":"travel"}},"legal":[]}).to_string();
        let (mut by_ref, mut owned) = (Bot::divinity(1), Bot::divinity(1));
        by_ref.observe(&frame);
        owned.observe_owned(frame.clone());
        let ack = r#"{"type":"ack","id":1,"seq":3}"#;
        by_ref.observe(ack);
        owned.observe_owned(ack.to_owned());
        assert_eq!(owned.last_frame.as_deref(), Some(frame.as_str()), "an ack has no view to keep");
        assert_eq!(by_ref.last_frame, owned.last_frame);
        let mut duel = Bot::new(1, Catalogue::standard());
        duel.observe_owned(frame);
        assert!(duel.last_frame.is_none(), "a duel bot keeps no frame");
    }

    #[test]
    fn a_divinity_bot_stops_after_its_max_actions() {
        let mut p = Player::new();
        p.observe(
            &json!({"type":"welcome","seat":0,"seq":0,"status":{"status":"waiting","seats":[0]},"view":{},
            "legal":[{"seat":0,"actions":[{"type":"choose_round","explore":true}]}]})
            .to_string(),
        );
        let mut b = Bot::divinity(1);
        b.max_actions = 1;
        assert_eq!(b.pick_for(&p), Some((Some(0), json!({"type":"choose_round","explore":true}))));
        assert!(b.spent());
        assert_eq!(b.pick_for(&p), None, "no resignation in Divinity: it stops");
    }
}
