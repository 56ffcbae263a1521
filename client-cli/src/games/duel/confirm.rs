//! Questions asked before an action is sent: actions that cost the player's
//! own Alphas life (walking into water, drowning at the end of an
//! activation, a life sacrifice, an attack that also hits their own units)
//! and the ones that end or may end the game (resigning, a draw). The
//! server stays the judge of what is legal; this only spares a slip.

use athlas_engine::duel::{
    card::{Catalogue, Effect, Passive, Terrain},
    state::DROWN_LOSS,
    view::{DuelView, UnitView},
    DuelAction,
};
use athlas_engine::hex::Hex;

fn terrain(view: &DuelView, h: Hex) -> Option<Terrain> {
    view.hexes.iter().find(|x| x.hex == h).map(|x| x.terrain)
}

/// Whether a unit's Alpha walks on water (the viewer sees its own designs).
fn water_walker(cat: &Catalogue, view: &DuelView, u: &UnitView) -> bool {
    let design = view
        .players
        .iter()
        .find(|p| p.seat == u.owner)
        .and_then(|p| p.alphas.get(u.alpha))
        .and_then(|a| a.design.as_ref());
    design.is_some_and(|d| {
        d.cards
            .iter()
            .filter_map(|id| cat.card(id))
            .any(|c| c.passives.iter().any(|p| matches!(p, Passive::WaterWalker)))
    })
}

fn drowns_in(cat: &Catalogue, view: &DuelView, u: &UnitView) -> bool {
    !u.flying && !water_walker(cat, view, u)
}

fn activated(view: &DuelView) -> Option<&UnitView> {
    let a = view.activation.as_ref()?;
    view.units.iter().find(|u| u.id == a.unit)
}

/// The question to ask before sending `action`, if any.
pub fn question(cat: &Catalogue, view: &DuelView, action: &DuelAction) -> Option<String> {
    let me = view.viewer.seat()?;
    match action {
        DuelAction::Resign => Some("Resign? Your opponent wins the game at once.".into()),
        DuelAction::OfferDraw => Some("Offer a draw? If your opponent accepts, the game ends drawn.".into()),
        DuelAction::AcceptDraw => Some("Accept the draw? The game ends drawn.".into()),
        DuelAction::DiscardDi { count } => {
            Some(format!("Discard {count} DI card(s) from the top of your stack? They leave the game unused."))
        }
        DuelAction::Move { to, .. } => {
            let u = activated(view)?;
            (terrain(view, *to) == Some(Terrain::Water) && drowns_in(cat, view, u)).then(|| {
                format!("Unit {} moves into water at {to} and drowns: its Alpha loses {DROWN_LOSS} life. Move?", u.id)
            })
        }
        DuelAction::EndActivation => {
            let a = view.activation.as_ref()?;
            let u = activated(view)?;
            let drowns = a.started_in_water && terrain(view, u.hex) == Some(Terrain::Water) && drowns_in(cat, view, u);
            drowns.then(|| {
                format!(
                    "Unit {} started and ends this activation in water: it drowns, its Alpha loses {DROWN_LOSS} life. End?",
                    u.id
                )
            })
        }
        DuelAction::UsePower { card, power, target } => {
            let c = cat.card(card)?;
            let p = c.powers.get(*power)?;
            let mut harm: Vec<String> = Vec::new();
            if p.cost.life > 0 {
                harm.push(format!("it sacrifices {} life of this Alpha", p.cost.life));
            }
            let target_unit = target.unit.and_then(|id| view.units.iter().find(|u| u.id == id));
            for e in &p.effects {
                match e {
                    Effect::Attack { radius, .. } => {
                        let center = target_unit.map(|u| u.hex).or(target.hex);
                        let hit: Vec<String> = view
                            .units
                            .iter()
                            .filter(|u| u.owner == me)
                            .filter(|u| match center {
                                Some(c) => u.hex == c || (*radius > 0 && u.hex.distance(c) <= *radius),
                                None => false,
                            })
                            .map(|u| format!("unit {}", u.id))
                            .collect();
                        if !hit.is_empty() {
                            harm.push(format!("the attack also hits your {}", hit.join(", ")));
                        }
                    }
                    Effect::LoseLife { amount } if target_unit.is_some_and(|u| u.owner == me) => {
                        harm.push(format!("your unit loses {amount} life"));
                    }
                    _ => {}
                }
            }
            harm.dedup();
            (!harm.is_empty()).then(|| format!("{}: {}. Use it?", p.name, harm.join("; ")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duel::board::tests::small_view;
    use athlas_engine::duel::Target;

    #[test]
    fn resigning_and_draws_ask_first() {
        let cat = Catalogue::standard();
        let v = small_view();
        assert!(question(cat, &v, &DuelAction::Resign).unwrap().starts_with("Resign?"));
        assert!(question(cat, &v, &DuelAction::OfferDraw).unwrap().contains("draw"));
        assert!(question(cat, &v, &DuelAction::AcceptDraw).is_some());
        assert!(question(cat, &v, &DuelAction::EndTurn).is_none());
    }

    #[test]
    fn walking_into_water_warns_of_drowning() {
        let cat = Catalogue::standard();
        let v = small_view(); // unit 1 activated on [0,0]; [-1,0] is water
        let q = question(cat, &v, &DuelAction::Move { to: Hex::new(-1, 0), carry_relic: None }).unwrap();
        assert!(q.contains("drowns") && q.contains('5'), "{q}");
        assert!(question(cat, &v, &DuelAction::Move { to: Hex::new(0, 1), carry_relic: None }).is_none());
        // A water walker does not drown.
        let mut v2 = v.clone();
        v2.players[0].alphas[0].design = Some(athlas_engine::duel::alpha::AlphaDesign::new(["raider_of_the_deep"]));
        assert!(question(cat, &v2, &DuelAction::Move { to: Hex::new(-1, 0), carry_relic: None }).is_none());
    }

    #[test]
    fn ending_an_activation_that_drowns_warns() {
        let cat = Catalogue::standard();
        let mut v = small_view();
        assert!(question(cat, &v, &DuelAction::EndActivation).is_none());
        v.units[0].hex = Hex::new(-1, 0);
        v.activation.as_mut().unwrap().started_in_water = true;
        let q = question(cat, &v, &DuelAction::EndActivation).unwrap();
        assert!(q.contains("drowns"), "{q}");
    }

    #[test]
    fn sacrifices_and_hitting_own_units_warn() {
        let cat = Catalogue::standard();
        let v = small_view();
        let grip = DuelAction::UsePower {
            card: "necromantic_gauntlets".into(),
            power: 0,
            target: Target { unit: Some(2), ..Target::default() },
        };
        assert!(question(cat, &v, &grip).unwrap().contains("sacrifices 2 life"));
        // Fire Strike on the enemy next to unit 1 hits unit 1 too.
        let blaze = DuelAction::UsePower {
            card: "fire_strike".into(),
            power: 0,
            target: Target { unit: Some(2), ..Target::default() },
        };
        assert!(question(cat, &v, &blaze).unwrap().contains("your unit 1"));
        let bolt = DuelAction::UsePower {
            card: "magic_bolt".into(),
            power: 0,
            target: Target { unit: Some(2), ..Target::default() },
        };
        assert!(question(cat, &v, &bolt).is_none());
    }
}
