//! A room builds each record's views from the record before's
//! (`Ruleset::views`' `before`) and keeps that one view for as long as it is
//! loaded, stripped by `Ruleset::keep_as_before`: the views built from the
//! stripped view equal, JSON byte for byte, the views built from nothing.

use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::{Duel, DuelOptions};
use athlas_engine::{Ruleset, Status, Viewer};

#[test]
fn views_from_the_kept_view_before_equal_views_built_alone() {
    let cat = Catalogue::standard();
    let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
    for seed in 0..6u64 {
        let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut kept = None;
        for step in 0..400 {
            let board = step % 7 == 0;
            let together = Duel::views(&s, &viewers, board, kept.as_ref());
            let alone = Duel::views(&s, &viewers, board, None);
            for (t, a) in together.iter().zip(&alone) {
                assert_eq!(
                    serde_json::to_string(t).unwrap(),
                    serde_json::to_string(a).unwrap(),
                    "seed {seed} step {step}"
                );
            }
            let k = Duel::keep_as_before(together.into_iter().next().unwrap());
            assert!(k.legal.is_empty(), "the kept view holds no legal list");
            kept = Some(k);
            let Status::Waiting { .. } = Duel::status(&s) else { break };
            let Some(seat) = bot.seat_to_act(&s) else { break };
            let Some(a) = bot.pick(&s, cat, seat) else { break };
            Duel::apply(&mut s, seat, a).expect("the bot picks a legal action");
        }
    }
}
