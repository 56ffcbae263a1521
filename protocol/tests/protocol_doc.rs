//! Every envelope example in PROTOCOL.md parses as the type it documents, so
//! the document and the code cannot drift apart.

use athlas_protocol::{ClientMsg, ErrorBody, ServerMsg};
use serde_json::Value;

fn json_blocks(doc: &str) -> Vec<Value> {
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```json" {
            let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            let text = body.join("\n");
            blocks.push(serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON example {text}: {e}")));
        }
    }
    blocks
}

#[test]
fn every_frame_example_parses() {
    let doc = include_str!("../PROTOCOL.md");
    let blocks = json_blocks(doc);
    let (mut client, mut server) = (0, 0);
    for b in &blocks {
        let Some(ty) = b.get("type").and_then(Value::as_str) else { continue };
        // `chat` goes both ways: the server's line has its number `n`.
        let from_client = ["hello", "watch", "act", "take_back", "hand", "ping", "propose", "agree", "object"]
            .contains(&ty)
            || (ty == "chat" && b.get("n").is_none());
        if from_client {
            serde_json::from_value::<ClientMsg>(b.clone()).unwrap_or_else(|e| panic!("{b}: {e}"));
            client += 1;
        } else {
            let msg: ServerMsg = serde_json::from_value(b.clone()).unwrap_or_else(|e| panic!("{b}: {e}"));
            assert_eq!(serde_json::to_value(&msg).unwrap(), *b, "round trip");
            server += 1;
        }
    }
    assert_eq!((client, server), (11, 11), "every message kind has its example (act twice: for a handed seat too)");
    let error: ErrorBody = serde_json::from_value(blocks[0].clone()).unwrap();
    assert_eq!(error.code, "match_full");
}
