use super::*;

#[test]
fn a_frame_head_read_off_the_front_is_the_parsed_one() {
    use athlas_protocol::ServerMsg;
    let update = |seq| ServerMsg::Update {
        seq,
        seat: 1,
        events: vec![serde_json::json!({"type": "moved", "seq": 3})],
        log: Vec::new(),
        status: serde_json::json!({"status": "waiting", "seats": [0]}),
        view: serde_json::json!({"seq": 7, "type": "x", "code": "y"}),
        timer_ms: None,
        sender: None,
        taken_back: None,
        legal: Vec::new(),
        control: None,
    };
    let frames = [
        update(0),
        update(41),
        update(u64::MAX),
        ServerMsg::Ack { id: 3, seq: 9 },
        ServerMsg::error(Some(4), "not_your_turn", "wait"),
        ServerMsg::Commitment { seat: 0, hash: "ab".into(), seq: 2 },
        ServerMsg::Pong,
    ];
    for f in &frames {
        let text = serde_json::to_string(f).unwrap();
        let (front, parsed) = (FrameHead::read(&text).unwrap(), serde_json::from_str::<FrameHead>(&text).unwrap());
        assert_eq!((&front.kind, front.seq, &front.code), (&parsed.kind, parsed.seq, &parsed.code), "{text}");
    }
    // Fields in another order, or an escape: parsed whole, still right.
    let h = FrameHead::read(r#"{"seq":5,"type":"update"}"#).unwrap();
    assert_eq!((h.kind.as_str(), h.seq), ("update", Some(5)));
    let h = FrameHead::read(r#"{"type":"update","seq":5.5}"#);
    assert!(h.is_none(), "not a seq: refused as the parser refuses it");
    assert!(FrameHead::read(r#"{"type":"update","seq":05}"#).is_none(), "no leading zero in JSON");
    let h = FrameHead::read(r#"{"type":"ack","id":1,"seq":2,"later":true}"#).unwrap();
    assert_eq!((h.kind.as_str(), h.seq), ("ack", Some(2)), "an ack written otherwise: parsed");
    assert_eq!(FrameHead::read(r#"{"type":"a\u0063k"}"#).unwrap().kind, "ack");
    assert!(FrameHead::read("not json").is_none());
}

/// A fake server: each connection to `listener` in turn must greet with
/// a `hello` and gets the next of `answers`; connections are held open.
fn answer_greetings(listener: tokio::net::TcpListener, answers: Vec<String>) {
    tokio::spawn(async move {
        let mut held = Vec::new();
        for answer in answers {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            let hello = ws.next().await.unwrap().unwrap();
            assert!(hello.to_text().unwrap().contains(r#""type":"hello""#));
            ws.send(Message::text(answer)).await.unwrap();
            held.push(ws);
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
    });
}

/// Every event of `link` up to and including the first welcome frame;
/// failing if the link gives up or ends first.
async fn until_welcome(link: &mut Link) -> Vec<LinkEvent> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), link.next()).await.unwrap() {
            Some(LinkEvent::GaveUp { reason }) => panic!("gave up: {reason} after {seen:?}"),
            Some(ev) => {
                let welcome = matches!(&ev, LinkEvent::Frame(f) if f.contains("welcome"));
                seen.push(ev);
                if welcome {
                    return seen;
                }
            }
            None => panic!("the link ended: {seen:?}"),
        }
    }
}

/// A greeting answered `room_elsewhere` (or `store_unavailable`) is
/// tried again on a new connection, which here gets its welcome; one
/// that names the node to go to (`at`) is tried there.
#[tokio::test]
async fn a_greeting_answered_not_here_not_now_is_tried_again() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let owner = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let owner_at = format!("ws://{}/ws", owner.local_addr().unwrap());
    let redirect =
        format!(r#"{{"type":"error","code":"room_elsewhere","message":"node b plays it","at":"{owner_at}"}}"#);
    answer_greetings(owner, vec![r#"{"type":"welcome","seq":9}"#.to_owned()]);
    answer_greetings(
        listener,
        vec![
            r#"{"type":"error","code":"room_elsewhere","message":"another node plays this match now"}"#.to_owned(),
            r#"{"type":"welcome","seq":7}"#.to_owned(),
            redirect,
        ],
    );
    let backoff = Backoff { first: Duration::from_millis(10), max: Duration::from_millis(10), attempts: Some(3) };
    let mut link = Link::spawn(format!("ws://{addr}/ws"), Identity::Seat { token: "t".into() }, None, backoff);
    let seen = until_welcome(&mut link).await;
    assert!(matches!(seen[0], LinkEvent::Connected { attempt: 1 }), "{seen:?}");
    assert!(matches!(&seen[1], LinkEvent::Frame(f) if f.contains("room_elsewhere")), "{seen:?}");
    assert!(
        matches!(&seen[2], LinkEvent::Disconnected { reason, .. } if reason.contains("room_elsewhere")),
        "{seen:?}"
    );
    assert!(matches!(seen[3], LinkEvent::Connected { attempt: 2 }), "{seen:?}");
    assert_eq!(link.last_seq(), Some(7));
    drop(link);

    // Redirected: the third connection is told where the match is played.
    let mut link = Link::spawn(format!("ws://{addr}/ws"), Identity::Seat { token: "t".into() }, None, backoff);
    let frames: Vec<String> = until_welcome(&mut link)
        .await
        .into_iter()
        .filter_map(|ev| match ev {
            LinkEvent::Frame(f) => Some(f),
            _ => None,
        })
        .collect();
    assert!(frames[0].contains("room_elsewhere") && frames[1].contains(r#""seq":9"#), "{frames:?}");
    assert_eq!(link.last_seq(), Some(9), "the owner's welcome");
}

/// Sent to a node that then cannot be reached (it died after saying
/// so, or the `at` was stale), the link goes back to the address it
/// started from, where the match is now played.
#[tokio::test]
async fn a_redirect_to_a_node_that_is_gone_leads_back_home() {
    let home = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = home.local_addr().unwrap();
    let gone = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gone_at = format!("ws://{}/ws", gone.local_addr().unwrap());
    drop(gone); // nothing listens there any more
    let redirect =
        format!(r#"{{"type":"error","code":"room_elsewhere","message":"node b plays it","at":"{gone_at}"}}"#);
    answer_greetings(home, vec![redirect, r#"{"type":"welcome","seq":4}"#.to_owned()]);
    let backoff = Backoff { first: Duration::from_millis(10), max: Duration::from_millis(10), attempts: Some(4) };
    let mut link = Link::spawn(format!("ws://{addr}/ws"), Identity::Seat { token: "t".into() }, None, backoff);
    let reasons: Vec<String> = until_welcome(&mut link)
        .await
        .into_iter()
        .filter_map(|ev| match ev {
            LinkEvent::Disconnected { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(link.last_seq(), Some(4), "welcomed at home");
    assert!(reasons.iter().any(|r| r.contains(&gone_at) && r.contains("back to")), "{reasons:?}");
}

#[test]
fn addresses_in_every_form() {
    for s in ["127.0.0.1:8080", "http://127.0.0.1:8080/", "ws://127.0.0.1:8080/ws"] {
        let a = ServerAddr::parse(s).unwrap();
        assert_eq!(a.http(), "http://127.0.0.1:8080");
        assert_eq!(a.ws(), "ws://127.0.0.1:8080/ws");
        assert!(a.is_loopback());
        assert_eq!(a.ws_for("m-1"), "ws://127.0.0.1:8080/ws?match=m-1");
        assert_eq!(a.ws_for(""), a.ws());
    }
    assert!(ServerAddr::parse("localhost:1").unwrap().is_loopback());
    assert!(ServerAddr::parse("[::1]:9").unwrap().is_loopback());
    assert!(!ServerAddr::parse("example.org:80").unwrap().is_loopback());
    for s in ["https://play.example.org", "wss://play.example.org/ws", "https://play.example.org:443/"] {
        let a = ServerAddr::parse(s).unwrap();
        assert!(a.tls, "{s}");
        assert!(a.http().starts_with("https://play.example.org"), "{s}");
        assert!(a.ws().starts_with("wss://play.example.org") && a.ws().ends_with("/ws"), "{s}");
    }
    assert!(ServerAddr::parse("ftp://x").is_err());
    assert!(ServerAddr::parse("https://x/some/path").is_err());
    assert!(ServerAddr::parse("").is_err());
}

#[test]
fn backoff_doubles_up_to_its_cap() {
    let b = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(1), attempts: None };
    let d: Vec<u64> = (1..=6).map(|n| b.delay(n).as_millis() as u64).collect();
    assert_eq!(d, [100, 200, 400, 800, 1000, 1000]);
}

#[test]
fn greetings_say_hello_or_watch_with_the_last_seq() {
    let hello: Value = serde_json::from_str(&Identity::Seat { token: "t".into() }.greeting(Some(4))).unwrap();
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["token"], "t");
    assert_eq!(hello["last_seq"], 4);
    let watch: Value = serde_json::from_str(&Identity::Spectator { match_id: "m".into() }.greeting(None)).unwrap();
    assert_eq!(watch["type"], "watch");
    assert!(watch.get("last_seq").is_none());
}

/// A one-route HTTP server on loopback that answers every request with
/// `body` and hands back each request's head (request line and headers).
async fn recorder(body: &'static str) -> (ServerAddr, mpsc::UnboundedReceiver<String>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = ServerAddr::parse(&listener.local_addr().unwrap().to_string()).unwrap();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Read the head and the body its Content-Length announces.
            loop {
                let n = sock.read(&mut chunk).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned())
                        })
                        .and_then(|v| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + len {
                        break;
                    }
                }
            }
            let _ = tx.send(String::from_utf8_lossy(&buf).to_string());
            let resp = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = sock.write_all(resp.as_bytes()).await;
        }
    });
    (addr, rx)
}

#[tokio::test]
async fn campaign_requests_carry_the_token_in_a_header_never_in_the_url() {
    const STATUS: &str = r#"{"campaign_id":"c-1","game":"divinity","rules_version":2,"stage":"between","seats":[],"matches":[],"saved":null,"match_id":"m-2","campaigns":[]}"#;
    let (addr, mut seen) = recorder(STATUS).await;
    let lobby = Lobby::new(addr);
    let token = "s3cret-token";
    lobby.choose("c-1", token, serde_json::json!({"origin":"ifan"})).await.unwrap();
    lobby.next_match("c-1", token).await.unwrap();
    lobby.campaign("c-1", Some(token)).await.unwrap();
    lobby.my_campaigns(vec![token.to_owned()]).await.unwrap();
    let mut requests = Vec::new();
    for _ in 0..4 {
        requests.push(seen.recv().await.unwrap());
    }
    let lines: Vec<&str> = requests.iter().map(|r| r.lines().next().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "POST /api/campaigns/c-1/choose HTTP/1.1",
            "POST /api/campaigns/c-1/next HTTP/1.1",
            "GET /api/campaigns/c-1 HTTP/1.1",
            "POST /api/campaigns/mine HTTP/1.1",
        ]
    );
    for r in &requests[..3] {
        let auth = r.lines().find(|l| l.to_ascii_lowercase().starts_with("authorization:")).unwrap_or("");
        assert_eq!(auth.split_once(':').map(|(_, v)| v.trim()), Some("Bearer s3cret-token"), "{r}");
    }
    assert!(requests[0].ends_with(r#"{"choice":{"origin":"ifan"}}"#), "{}", requests[0]);
    assert!(requests[3].ends_with(r#"{"tokens":["s3cret-token"]}"#), "mine sends tokens in the body: {}", requests[3]);
    assert!(lines.iter().all(|l| !l.contains(token)), "a token in a URL: {lines:?}");
    // A name that is not one path segment never reaches the server.
    assert!(matches!(lobby.next_match("../matches", token).await, Err(NetError::BadName(_))));
    assert!(matches!(lobby.join_campaign("AB?token=x").await, Err(NetError::BadName(_))));
}
