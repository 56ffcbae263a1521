//! What a seat may ask for. Every action is one JSON object tagged by `type`.

use serde::{Deserialize, Serialize};

use super::alpha::AlphaDesign;
use super::card::{CardId, Terrain};
use super::figure::{Figure, UnitId};
use crate::hex::Hex;

/// The choices a power or a Divine Intervention needs. Which fields matter
/// depends on the card's targeting and effects; the rest stay empty.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Target {
    /// The target unit (unit targeting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitId>,
    /// The target hex (hex, water-body and relic targeting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<Hex>,
    /// Several hexes (Flood: the hexes to flood; Tsunami: the hexes it adds).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hexes: Vec<Hex>,
    /// Direction 0..6 of a forced movement (0 = +q, counter-clockwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<u8>,
    /// How many hexes a forced movement of "up to N hexes" goes, 1..=N (the
    /// pushing player chooses, L1191-1193); absent means all N.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    /// Whether a forced unit carries its relic (default true). Its
    /// controller decides (L1195-1197), so only a seat pushing a unit it
    /// controls may set it; for a unit the other seat controls, that seat
    /// answers with `carry_relic` once the push is under way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carry_relic: Option<bool>,
    /// The terrain to create where the card lets the player choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terrain: Option<Terrain>,
    /// Where a teleport, a summoned copy or a shifted relic goes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dest: Option<Hex>,
    /// Only in a legal list, never sent: "choose up to N of these hexes"
    /// (Flood, Tsunami). The client sends the same action with the chosen
    /// hexes in `hexes` and without `choose` ([`DuelAction::with_hexes`];
    /// protocol/DUEL.md, "Choosing several hexes"); `apply` refuses it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choose: Option<HexChoice>,
}

/// Several hexes to choose for one legal entry: at least `at_least` and at
/// most `up_to` distinct hexes of `from`; where `next_to_distinct` is given
/// (Tsunami: the body's water hexes), each chosen hex must be next to a
/// different one of those (L1729-1734, facts rule 156: inner hexes don't
/// multiply).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexChoice {
    pub from: Vec<Hex>,
    pub up_to: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub at_least: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next_to_distinct: Vec<Hex>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl HexChoice {
    /// Whether `hexes` is a choice this entry offers.
    pub fn allows(&self, hexes: &[Hex]) -> bool {
        hexes.len() >= self.at_least as usize && self.fits(hexes)
    }

    /// `allows` but for the least count: a start that more hexes may finish.
    fn fits(&self, hexes: &[Hex]) -> bool {
        let distinct = hexes.iter().enumerate().all(|(i, h)| !hexes[..i].contains(h));
        distinct
            && hexes.len() <= self.up_to as usize
            && hexes.iter().all(|h| self.from.contains(h))
            && (self.next_to_distinct.is_empty() || matched(hexes, &self.next_to_distinct))
    }

    /// A random choice it offers: a size drawn in `at_least..=up_to`, then
    /// hexes of `from` in random order, each kept if the choice still holds.
    /// `below(n)` draws uniformly in `0..n`.
    pub fn pick(&self, mut below: impl FnMut(usize) -> usize) -> Vec<Hex> {
        let span = (self.up_to.saturating_sub(self.at_least)) as usize + 1;
        let size = self.at_least as usize + below(span);
        let mut pool = self.from.clone();
        let mut out = Vec::new();
        while out.len() < size && !pool.is_empty() {
            let h = pool.swap_remove(below(pool.len()));
            out.push(h);
            if !self.fits(&out) {
                out.pop();
            }
        }
        out
    }
}

/// Whether each of `added` can be paired with a different hex of `body`
/// next to it (augmenting paths; the same matching Tsunami's check uses).
fn matched(added: &[Hex], body: &[Hex]) -> bool {
    fn augment(i: usize, added: &[Hex], body: &[Hex], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for (j, b) in body.iter().enumerate() {
            if added[i].is_adjacent(*b) && !seen[j] {
                seen[j] = true;
                if owner[j].is_none_or(|k| augment(k, added, body, owner, seen)) {
                    owner[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; body.len()];
    (0..added.len()).all(|i| augment(i, added, body, &mut owner, &mut vec![false; body.len()]))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum DuelAction {
    // ----- Creation Phase (simultaneous, secret) -----
    /// Lock in Alphas (3, or 4 in a campaign) and a DI stack (top first).
    Create {
        alphas: Vec<AlphaDesign>,
        di_stack: Vec<CardId>,
    },
    /// Lock in one of the book's Alpha presets instead.
    UsePreset {
        preset: String,
    },

    // ----- Command Phase -----
    /// Summon a unit of one of your Alphas on a hex (a summoning hex unless
    /// the Alpha may deploy anywhere). `figure` is chosen at its first summon.
    Summon {
        alpha: usize,
        hex: Hex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<Figure>,
    },
    /// Start the activation of one of your units.
    Activate {
        unit: UnitId,
    },
    /// Basic movement power of the activated unit. `carry_relic` (default
    /// true) says whether a held relic goes along.
    Move {
        to: Hex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        carry_relic: Option<bool>,
    },
    /// Basic power a: pass a held relic to an adjacent friendly non-flying unit.
    PassRelic {
        to: UnitId,
    },
    /// Use power number `power` of card `card` of the activated unit's Alpha.
    UsePower {
        card: CardId,
        #[serde(default)]
        power: usize,
        #[serde(default)]
        target: Target,
    },
    /// End the activated unit's activation.
    EndActivation,
    /// End the activation step and go to summoning (optional: `Summon` or
    /// `EndTurn` do it too).
    EndActivations,
    /// End your turn.
    EndTurn,

    // ----- Divine Interventions (either seat) -----
    /// Cast the top card of your DI stack. `at`: the opponent of the active
    /// player may time it at a checkpoint of the current activation (0 = its
    /// start, k = after its k-th power); the game rewinds to that moment.
    CastDi {
        #[serde(default)]
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<usize>,
    },
    /// Discard cards from the top of your DI stack, without effect.
    DiscardDi {
        count: usize,
    },
    /// Let a pending DI resolve, or close a response window.
    Pass,
    /// A pass the server makes for a seat whose timed response window ran
    /// out (`Ruleset::timeout_action`): the same change as `Pass`, told as
    /// the time running out (`timed_out`, not `passed`). Never listed as
    /// legal; the server refuses it from a player (`Ruleset::timer_only`).
    TimedOut,
    /// Skip response windows automatically (or not).
    SetAutoPass {
        on: bool,
    },
    /// Let the server pass for this seat in a response window (or a DI's
    /// answer) where it can cast nothing (`on`, the default), or wait for
    /// its own pass there too. Secret to the seat.
    SetPassWhenUnable {
        on: bool,
    },
    /// The defender picks which hit unit dies (multi-target attacks).
    ChooseCasualty {
        unit: UnitId,
    },
    /// The controller of a pushed relic holder says whether its relic goes
    /// along (when the other seat pushed it).
    CarryRelic {
        carry: bool,
    },

    // ----- Ending -----
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
}

impl DuelAction {
    /// The hexes a listed entry asks to choose (`target.choose`), if any.
    pub fn hex_choice(&self) -> Option<&HexChoice> {
        match self {
            DuelAction::CastDi { target, .. } | DuelAction::UsePower { target, .. } => target.choose.as_ref(),
            _ => None,
        }
    }

    /// The action to send for a listed choice entry with `hexes` chosen:
    /// the entry without `choose`, `hexes` in `target.hexes`. `None` if the
    /// entry offers no such choice.
    pub fn with_hexes(&self, hexes: Vec<Hex>) -> Option<DuelAction> {
        if !self.hex_choice()?.allows(&hexes) {
            return None;
        }
        let mut a = self.clone();
        if let DuelAction::CastDi { target, .. } | DuelAction::UsePower { target, .. } = &mut a {
            target.choose = None;
            target.hexes = hexes;
        }
        Some(a)
    }

    /// A short name for logs: never the secret content of the action.
    pub fn kind(&self) -> &'static str {
        match self {
            DuelAction::Create { .. } => "create",
            DuelAction::UsePreset { .. } => "use_preset",
            DuelAction::Summon { .. } => "summon",
            DuelAction::Activate { .. } => "activate",
            DuelAction::Move { .. } => "move",
            DuelAction::PassRelic { .. } => "pass_relic",
            DuelAction::UsePower { .. } => "use_power",
            DuelAction::EndActivation => "end_activation",
            DuelAction::EndActivations => "end_activations",
            DuelAction::EndTurn => "end_turn",
            DuelAction::CastDi { .. } => "cast_di",
            DuelAction::DiscardDi { .. } => "discard_di",
            DuelAction::Pass => "pass",
            DuelAction::TimedOut => "timed_out",
            DuelAction::SetAutoPass { .. } => "set_auto_pass",
            DuelAction::SetPassWhenUnable { .. } => "set_pass_when_unable",
            DuelAction::ChooseCasualty { .. } => "choose_casualty",
            DuelAction::CarryRelic { .. } => "carry_relic",
            DuelAction::OfferDraw => "offer_draw",
            DuelAction::AcceptDraw => "accept_draw",
            DuelAction::DeclineDraw => "decline_draw",
            DuelAction::Resign => "resign",
        }
    }
}
