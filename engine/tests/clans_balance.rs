//! Bot-against-bot balance: the greedy bot plays both sides. With
//! `CLANS_BALANCE_GAMES=1000 cargo test -p athlas-engine --test clans clans_balance:: -- --nocapture`
//! it plays that many seeded games per pairing and prints each clan's win
//! rate in 1v1 and 2v2 and the first player's; by default a few games, to
//! keep the measurement working. No figure is asserted (not a timed test).

use crate::clans_support::cat;
use athlas_engine::clans::bot::{seat_to_act, GreedyBot};
use athlas_engine::clans::{Clans, ClansOptions};
use athlas_engine::{Outcome, Ruleset, Status};

pub struct Tally {
    pub games: u32,
    pub sacred: u32,
    pub crimson: u32,
    pub draws: u32,
    pub first_team_wins: u32,
    pub turns: u64,
}

/// `games` games; in game i the Sacred Cross sits on team i % 2.
pub fn measure(four: bool, games: u32) -> Tally {
    let mut t = Tally { games, sacred: 0, crimson: 0, draws: 0, first_team_wins: 0, turns: 0 };
    for i in 0..games {
        let seed = u64::from(i) * 7919 + 1;
        let sacred_team = (i % 2) as u8;
        let clan = |seat: u8| if seat % 2 == sacred_team { "sacred_cross" } else { "crimson_nobles" };
        let n = if four { 4 } else { 2 };
        let options = ClansOptions {
            clans: (0..n).map(|s| clan(s).to_string()).collect(),
            battlefield: if i % 4 < 2 { "river_valley" } else { "highland_pass" }.into(),
            max_turns: Some(if four { 120 } else { 80 }),
            ..ClansOptions::default()
        };
        let mut s = Clans::start(&options, seed).unwrap();
        let mut bots: Vec<GreedyBot> = (0..n).map(|k| GreedyBot::new(seed ^ ((k as u64 + 1) * 0x9e37))).collect();
        let mut first = None;
        for _ in 0..20_000 {
            let Some(seat) = seat_to_act(&s) else { break };
            if first.is_none() && s.turn > 0 {
                first = Some(s.active);
            }
            let a = bots[seat as usize].pick(&s, cat(), seat).expect("an action");
            Clans::apply(&mut s, seat, a).expect("legal");
        }
        t.turns += u64::from(s.turn);
        match Clans::status(&s) {
            Status::Finished(Outcome::Win { .. }) => {
                let team = s.winner_team.expect("a win names its team");
                if team == sacred_team {
                    t.sacred += 1;
                } else {
                    t.crimson += 1;
                }
                if first.is_some_and(|f| f % 2 == team) {
                    t.first_team_wins += 1;
                }
            }
            _ => t.draws += 1,
        }
    }
    t
}

fn pct(a: u32, b: u32) -> f64 {
    100.0 * f64::from(a) / f64::from(b.max(1))
}

#[test]
fn bots_play_1v1_and_2v2_to_the_end_and_the_figures_print() {
    let games: u32 = std::env::var("CLANS_BALANCE_GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(12);
    for four in [false, true] {
        let t = measure(four, games);
        let decided = t.games - t.draws;
        eprintln!(
            "clans balance {}: {} games, Sacred Cross {:.1}% / Crimson Nobles {:.1}% of decided ({} draws or turn-limit ties), first player's team won {:.1}% of decided, {:.1} turns a game",
            if four { "2v2" } else { "1v1" },
            t.games,
            pct(t.sacred, decided),
            pct(t.crimson, decided),
            t.draws,
            pct(t.first_team_wins, decided),
            t.turns as f64 / f64::from(t.games),
        );
        assert!(decided * 2 >= t.games, "most games end with a winner");
    }
}
