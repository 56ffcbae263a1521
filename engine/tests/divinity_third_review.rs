//! Issue 45: the third review of the rulebook against the engine. Each test
//! quotes the lines it relies on (L-numbers of
//! ../shared/rules/divinity-original-sin-board-game.txt as the facts file
//! counts them); where the text reads two ways, the test pins the choice
//! written in `content/divinity/ASSUMPTIONS.md`.

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::cooldown::CardRef;
use athlas_engine::divinity::status::Status as St;

use crate::divinity_support;
use divinity_support::*;

// ---- 4. One Rest turn a round ----

/// L352-353 "Each Origin takes 1 turn [...] a. Start of Turn: Resolve any
/// 'start of turn' effects"; L682 they "trigger at the start of the affected
/// Origin's [...] turn, before they do anything else"; L757 "If an Origin is
/// revived before they take their turn, they may take a normal turn."
/// Sebille, downed by her own BLEEDING as her Rest turn starts, has begun her
/// turn: downed, it only slides (L757, as a Combat turn ended by a downing
/// start of turn, R40). Ifan reviving her gives her no second start (no
/// second BLEEDING) and no second turn; the same for Ifan, downed in his own
/// turn by giving her his last HP.
#[test]
fn l757_a_rest_turn_begun_is_not_begun_again_by_a_revive() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    s.origins[1].hp = 1;
    s.origins[1].track.apply_status(St::Bleeding, 2);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert!(s.origins[1].downed, "BLEEDING downed her as her turn began");
    assert_eq!(s.origins[1].track.find(&CardRef::Status(St::Bleeding)), Some(1), "her turn slid");
    ok(&mut s, 0, A::Revive { to: 1, hp: 3 });
    assert_eq!(s.origins[1].hp, 3, "BLEEDING did not strike a second time");
    assert_eq!(waiting(&s), vec![0], "her one Rest turn is over");
    rejected(&mut s, 1, A::Recover { status: None }, "turn_taken");

    // Ifan gives Sebille, downed before the round, his last HP: downed in
    // his own turn, it is over; she takes hers and revives him, which gives
    // him no second one.
    let mut s = start("tutorial", &["ifan", "sebille"]);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    s.origins[0].hp = 4;
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Revive { to: 1, hp: 4 });
    assert!(s.origins[0].downed);
    assert_eq!(waiting(&s), vec![1], "her turn is still to come, his is over");
    ok(&mut s, 1, A::Revive { to: 0, hp: 1 });
    assert_eq!(waiting(&s), vec![1], "revived, he has had his turn");
    let round = s.round;
    ok(&mut s, 1, A::EndTurn);
    assert_eq!(s.round, round + 1, "the Rest round is over");
}

// ---- 5. A rune on a sold item ----

/// L1062 runes are traded or discarded "as you would items, but you can't
/// sell them to the Merchant"; L1063 an equipped item with a rune leaving
/// its slot: "you must either store or discard the rune"; L1053 "Each
/// discarded item is returned to the bottom of the appropriate deck";
/// L1357 "When an item is sold, place it on the bottom of the appropriate
/// deck". Selling a runed item keeps the rune out of the sale: stored when
/// the backpack has room, else to the bottom of the rune deck, as when the
/// item is unequipped. It never leaves the game.
#[test]
fn l1062_a_sold_items_rune_is_stored_or_discarded_never_lost() {
    use athlas_engine::divinity::state::AttachedRune;
    let (c, mut s) = crate::divinity_audit_location::interlude(&["red_prince"], 5);
    ok_with(&c, &mut s, 0, A::VisitMerchant { level: 1, consumables: None });
    let rune = AttachedRune { rune: "flame_rune".into(), item: "long_sword".into(), side: 1 };
    s.origins[0].runes.push(rune);
    let mut full = s.clone();
    // Room in the backpack: the rune is stored.
    ok_with(&c, &mut s, 0, A::Sell { item: "long_sword".into() });
    assert!(s.origins[0].runes.is_empty());
    assert!(s.origins[0].backpack.contains(&"flame_rune".to_string()), "{:?}", s.origins[0].backpack);
    // A full backpack: the rune goes to the bottom of the rune deck.
    full.origins[0].backpack = vec!["leather_cap".into(), "copper_band".into(), "short_bow".into()];
    let runes = full.item_decks.get("runes").map_or(0, Vec::len);
    ok_with(&c, &mut full, 0, A::Sell { item: "long_sword".into() });
    assert!(full.origins[0].runes.is_empty());
    let deck = &full.item_decks["runes"];
    assert_eq!((deck.len(), deck.last().map(String::as_str)), (runes + 1, Some("flame_rune")));
}

// ---- 6. The interlude's steps in order ----

/// L1341 "2 Revive & Recover: Each downed Origin is revived, and then every
/// Origin in the party heals ♥ up to the max ♥ value [...] clears all cards
/// from their cooldown track"; L1342 "3 Restore Source"; L1343 "4 Restore
/// Talents"; L1344 "5 Equip & Trade Items: Each Origin may [...] trade items
/// with any other Origins in the party". Sebille, downed when the party
/// leaves, is revived at step 2, before the trading of step 5: Ifan trades
/// with her.
#[test]
fn l1341_the_interlude_revives_before_equip_and_trade() {
    let (c, mut s) = crate::divinity_audit_location::before_exit(&["ifan", "sebille"]);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    s.origins[1].source = 0;
    s.origins[1].track.apply_status(St::Bleeding, 2);
    ok_with(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert!(matches!(s.phase, athlas_engine::divinity::state::Phase::Interlude(_)));
    let sebille = &s.origins[1];
    let card = c.origins[&sebille.origin].at(sebille.level).unwrap();
    assert!(!sebille.downed, "revived at step 2");
    assert_eq!((sebille.hp, sebille.source), (card.hp, card.source), "healed and refilled");
    assert!(sebille.track.is_empty(), "her track cleared");
    let item = sebille.equipped[0].clone();
    ok_with(&c, &mut s, 0, A::Take { item: item.clone(), from: 1, equip: false });
    assert!(s.origins[0].backpack.contains(&item));
    ok_with(&c, &mut s, 0, A::Give { item: item.clone(), to: 1, equip: true });
    assert!(s.origins[1].equipped.contains(&item));
}

// ---- 7. BLEEDING on a skill's movement ----

/// L674 BLEEDING: the bearer "must take additional damage each time he
/// moves"; L905-907 "If a skill allows you to move to a new space, ignore
/// the ● cost of all spaces on your path": a skill's move is a move along a
/// path, with only its AP waived (the book's own example, L1202, has Ifan
/// play Phoenix Dive). So BLEEDING hurts on a skill's move as on a walk, once
/// per space of the path (content/divinity/ASSUMPTIONS.md, movement skills).
/// Ifan dives from the Galley over the difficult terrain to the Hold: 2
/// spaces, 2 damage.
#[test]
fn l674_bleeding_hurts_on_a_skills_move_per_space() {
    use athlas_engine::divinity::action::{Aim, CardUse};
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].hand.push("phoenix_dive".into());
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].track.apply_status(St::Bleeding, 2);
    let hp = s.origins[0].hp;
    ok(&mut s, 0, use_card(CardUse::Skill("phoenix_dive".into()), Aim::Space("3".into())));
    assert_eq!(s.origins[0].space, ix(&s, "3"));
    assert_eq!(s.origins[0].hp, hp - 2, "1 direct damage for each of the 2 spaces moved");
}
