//! Reactions (R85, L864): "If a skill allows you to make one or more attacks
//! with an equipped item ... You do not have to pay the AP cost of the item
//! ... This includes when a skill allows you to make an attack as a reaction
//! outside of your turn. If an item ... can only make a limited number of
//! attacks each round, you must respect this when using any skill."
//!
//! Steel Vigil (duelist 2, ongoing): while face up, when an enemy ends its
//! move in your space on its turn, one attack on it with your equipped
//! one-hand melee weapon, ★ added, at no AP.

use crate::divinity_support;
use divinity_support::*;

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::CardRef;
use athlas_engine::divinity::dice::Colour;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{Phase, Who};
use athlas_engine::divinity::DivinityState;

const VIGIL: &str = "steel_vigil";

/// Sebille (two Rusty Daggers: 2 white dice, melee, physical; ★ 1) in the
/// Galley (#2), a crocodile (melee, 2 physical armor, moves 2) with `hp` HP
/// in the Marsh next door (#1). Her turn is under way with 8 AP; with
/// `vigil`, she has played Steel Vigil and it lies face up on her track.
fn vigil_duel(c: &Catalogue, hp: u32, fast: bool, vigil: bool) -> DivinityState {
    let mut s = duel_with(c, &["sebille"], "crocodile", hp);
    s.enemies[0].space = ix(&s, "1");
    s.enemies[0].fast = fast;
    s.origins[0].hand.push(VIGIL.into());
    ok_with(c, &mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    if vigil {
        ok_with(c, &mut s, 0, use_card(CardUse::Skill(VIGIL.into()), Aim::Origin(0)));
        assert!(face_up(&s), "an ongoing skill goes face up (L873)");
    }
    s
}

fn face_up(s: &DivinityState) -> bool {
    s.origins[0].track.active().any(|c| *c == CardRef::Skill(VIGIL.into()))
}

fn reacted(ev: &[Ev]) -> bool {
    ev.iter().any(|e| matches!(e, Ev::Reacted { seat: 0, .. }))
}

/// Every die of the pending roll shows one hit and no special.
fn one_hit_each(s: &mut DivinityState) {
    let n = s.pending_roll().expect("a roll waits").roll.dice.len();
    set_dice(s, vec![die(Colour::White, 1, false); n]);
}

/// L864: the crocodile walks into Sebille's space on its turn; Steel Vigil
/// attacks it with the dagger's stats (2 white dice) and ★, through armor,
/// paying no AP. The roll waits for her rerolls like any of her rolls, the
/// crocodile's turn on hold; on `Accept` it lands and the crocodile's turn
/// goes on (its attack on her, its slide).
#[test]
fn l864_reaction_fires_with_the_weapon_at_no_ap() {
    let mut s = vigil_duel(cat(), 20, false, true);
    let id = s.enemies[0].id;
    let ap = s.origins[0].ap;
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(reacted(&ev), "the move into her space sets the reaction off");
    assert_eq!(s.enemy(id).unwrap().space, ix(&s, "2"));
    let p = s.pending_roll().expect("the reaction roll waits for rerolls");
    assert_eq!((p.seat, p.roll.dice.len()), (0, 2), "the dagger's 2 dice, rolled by Sebille");
    assert_eq!(waiting(&s), vec![0], "only the reacting Origin answers");
    assert!(s.reaction.is_some(), "the crocodile's turn is on hold");
    assert!(!ev.iter().any(|e| matches!(e, Ev::TurnEnded { who: Who::Enemy(_) })), "its turn is not over");
    let hp = s.origins[0].hp;
    one_hit_each(&mut s);
    let ev = ok(&mut s, 0, A::Accept);
    assert_eq!(s.enemy(id).unwrap().hp, 19, "2 hits + ★ 1 − 2 physical armor");
    assert_eq!(s.origins[0].ap, ap, "the dagger's AP is not paid");
    assert!(s.reaction.is_none() && s.pending_roll().is_none());
    let rolled = |ev: &[Ev]| ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id));
    assert!(rolled(&ev), "the crocodile's turn goes on: its attack roll");
    assert!(ev.iter().any(|e| matches!(e, Ev::TurnEnded { who: Who::Enemy(x) } if *x == id)), "and its slide");
    assert!(s.origins[0].hp <= hp);
}

/// L864, L875: only while the ongoing skill is face up. Face down (flipped
/// on its track) or never played (in hand), the same move sets nothing off.
#[test]
fn l864_no_reaction_face_down_or_not_in_play() {
    let mut s = vigil_duel(cat(), 20, false, true);
    for slot in &mut s.origins[0].track.slots {
        for c in slot.iter_mut().filter(|c| c.card == CardRef::Skill(VIGIL.into())) {
            c.face_up = false;
        }
    }
    assert!(!face_up(&s));
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(!reacted(&ev) && s.pending_roll().is_none(), "face down: no reaction");
    assert_eq!(s.enemies[0].space, ix(&s, "2"), "the crocodile did move in");

    let mut s = vigil_duel(cat(), 20, false, false);
    assert!(s.origins[0].hand.contains(&VIGIL.to_string()));
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(!reacted(&ev) && s.pending_roll().is_none(), "in hand: no reaction");
    assert_eq!(s.enemies[0].space, ix(&s, "2"));
}

/// L864: a once-per-round weapon's limit holds for a reaction. Used on her
/// turn, the dagger can't react that round; a reaction (a FAST crocodile, the
/// next round) uses the dagger's attack of that round up.
#[test]
fn l864_reaction_keeps_the_weapons_once_per_round_limit() {
    let mut c = cat().clone();
    c.items.get_mut("rusty_dagger").unwrap().action.as_mut().unwrap().per_round = Some(1);
    let dagger = |id| use_card(CardUse::Item("rusty_dagger".into()), Aim::Enemy(id));

    // Used on her turn first: no reaction that round.
    let mut s = vigil_duel(&c, 20, false, true);
    let id = s.enemies[0].id;
    s.enemies[0].space = ix(&s, "2");
    ok_with(&c, &mut s, 0, dagger(id));
    ok_with(&c, &mut s, 0, A::Accept);
    s.enemies[0].space = ix(&s, "1");
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert_eq!(s.enemies[0].space, ix(&s, "2"), "the crocodile moved in");
    assert!(!reacted(&ev) && s.pending_roll().is_none(), "the dagger already attacked this round");

    // A reaction first (FAST, next round): the dagger is spent for the round.
    let mut s = vigil_duel(&c, 20, true, true);
    let id = s.enemies[0].id;
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(reacted(&ev), "next round, the FAST crocodile walks in and Sebille reacts");
    one_hit_each(&mut s);
    ok_with(&c, &mut s, 0, A::Accept);
    assert!(s.pending_roll().is_none() && s.reaction.is_none());
    ok_with(&c, &mut s, 0, A::StartTurn);
    rejected_with(&c, &mut s, 0, dagger(id), "once_per_round"); // the dagger reacted this round
}

/// L864, L1743: a reaction that defeats the last enemy ends its turn (no
/// attack) and the combat at once, as a victory.
#[test]
fn l864_reaction_defeating_the_last_enemy_ends_the_combat() {
    let mut s = vigil_duel(cat(), 1, false, true);
    let id = s.enemies[0].id;
    let hp = s.origins[0].hp;
    ok(&mut s, 0, A::EndTurn);
    one_hit_each(&mut s);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::Defeated { enemy: id }));
    assert!(ev.contains(&Ev::CombatEnded { victory: true }), "victory at once");
    assert!(s.enemies.is_empty() && s.reaction.is_none());
    assert!(!matches!(s.phase, Phase::Combat { .. }));
    let rolled = ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id));
    assert!(!rolled, "the defeated crocodile does not attack");
    assert_eq!(s.origins[0].hp, hp);
}

/// L864, L511: a reaction roll is Sebille's own roll: she may reroll it with
/// Source before `Accept`. Against a Boss (the Warden walking into her space
/// with its strike), the Boss plays on once the roll is accepted: its strike
/// rolls.
#[test]
fn l864_boss_plays_on_after_a_reaction_rerolled_with_source() {
    let (mut s, id) = temple_boss(&["sebille"]);
    s.enemies.retain(|e| e.id == id);
    s.enemies[0].space = ix(&s, "2");
    s.enemies[0].tactics.retain(|t| t != "w_strike");
    s.enemies[0].tactics.insert(0, "w_strike".into());
    s.origins[0].space = ix(&s, "3");
    s.origins[0].hand.push(VIGIL.into());
    s.origins[0].source = 1;
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Skill(VIGIL.into()), Aim::Origin(0)));
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(reacted(&ev), "the Warden ends its move in her space");
    assert_eq!(s.enemy(id).unwrap().space, ix(&s, "3"));
    assert_eq!(s.reaction.as_ref().map(|r| r.tactic.as_deref()), Some(Some("w_strike")));
    ok(&mut s, 0, A::Reroll { dice: vec![0], source: true });
    assert_eq!(s.origins[0].source, 0, "a Source reroll of the reaction roll");
    assert!(s.reaction.is_some(), "still on hold while the roll waits");
    one_hit_each(&mut s);
    let hp = s.enemy(id).unwrap().hp;
    let star = cat().origins["sebille"].at(s.origins[0].level).unwrap().level_bonus;
    let ev = ok(&mut s, 0, A::Accept);
    assert_eq!(s.enemy(id).unwrap().hp, hp - (2 + star - 2), "2 hits + ★ − 2 physical armor");
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id)), "the strike goes on");
    assert!(s.reaction.is_none());
}

/// L864, L873: the reaction is data on an ongoing skill: the catalogue
/// refuses one that is not ongoing, or that also attacks by itself.
#[test]
fn l864_a_reaction_is_an_ongoing_skill() {
    let d = &cat().skills[VIGIL];
    assert!(d.reaction.is_some() && d.flip_at.is_some() && d.attack.is_none() && d.weapon.is_none());
    let mut c = cat().clone();
    c.skills.get_mut(VIGIL).unwrap().flip_at = None;
    refused(c.validate(), "a reaction is an ongoing skill", "a reaction that is not ongoing");
    let mut c = cat().clone();
    c.skills.get_mut(VIGIL).unwrap().weapon = c.skills["flurry"].weapon;
    refused(c.validate(), "a reaction is an ongoing skill", "a reaction that is also a weapon skill");
}
