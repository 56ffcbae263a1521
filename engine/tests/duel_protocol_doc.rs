//! Every action example in protocol/DUEL.md parses as a `DuelAction`, and
//! every kind of action has an example.

use std::collections::BTreeSet;

use athlas_engine::duel::DuelAction;

#[test]
fn documented_actions_parse() {
    let doc = include_str!("../../protocol/DUEL.md");
    let mut kinds = BTreeSet::new();
    let mut rest = doc;
    while let Some(start) = rest.find("```json action\n") {
        let body = &rest[start + 15..];
        let end = body.find("```").expect("closed block");
        let json = body[..end].trim();
        let a: DuelAction = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        kinds.insert(a.kind());
        rest = &body[end..];
    }
    let all = [
        "create",
        "use_preset",
        "summon",
        "activate",
        "move",
        "pass_relic",
        "use_power",
        "end_activation",
        "end_activations",
        "end_turn",
        "cast_di",
        "discard_di",
        "pass",
        "timed_out",
        "set_auto_pass",
        "set_pass_when_unable",
        "choose_casualty",
        "carry_relic",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "resign",
    ];
    for k in all {
        assert!(kinds.contains(k), "protocol/DUEL.md has no example of {k}");
    }
}

/// The refusal table of protocol/DUEL.md lists exactly the codes of
/// `DuelRefusal` and the defaults the duel keeps (`CommonRefusal`).
#[test]
fn the_refusal_table_lists_exactly_the_engines_codes() {
    use athlas_engine::duel::DuelRefusal;
    use athlas_engine::refusal::{CommonRefusal, Refusal};
    let doc = include_str!("../../protocol/DUEL.md");
    let start = doc.find("Every refusal code of the duel").expect("the refusal table");
    let documented: BTreeSet<&str> = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let engine: BTreeSet<&str> =
        DuelRefusal::all().iter().map(|r| r.code()).chain(CommonRefusal::all().iter().map(|r| r.code())).collect();
    assert!(engine.len() >= 80 && engine.contains("not_your_turn"), "{engine:?}");
    let missing: Vec<_> = engine.difference(&documented).collect();
    let stale: Vec<_> = documented.difference(&engine).collect();
    assert!(missing.is_empty(), "refusal codes missing from protocol/DUEL.md: {missing:?}");
    assert!(stale.is_empty(), "protocol/DUEL.md lists codes the engine does not have: {stale:?}");
}
