//! The browser tests' harness: real headless Chromium, one `chromedriver`
//! per browser, driven through WebDriver with fantoccini.
//!
//! Every page operation waits with a deadline, and a whole scenario runs
//! under one too, so a page that never shows what a test waits for fails
//! with its screenshot instead of hanging CI. Each chromedriver runs in its
//! own process group, killed with its Chromium when the scenario ends; their
//! output goes to a file, never to the test's pipes (an orphaned Chromium
//! holding a pipe open would keep `cargo test | tail` waiting forever).
#![allow(dead_code)] // each test uses its own part

use std::future::Future;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::elements::Element;
pub use fantoccini::key::Key;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::FutureExt;
use serde_json::{json, Value};

/// How long one wait for the page may take.
pub const PAGE_WAIT: Duration = Duration::from_secs(20);
/// How long a new Chromium may take to open its session before the launch
/// is given up and made once more.
const SESSION_WAIT: Duration = Duration::from_secs(30);
/// How long a whole scenario may take before it fails as hung.
pub const SCENARIO_LIMIT: Duration = Duration::from_secs(420);

/// Browser scenarios run one at a time: each starts several Chromiums, and
/// two cores are few.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Where failing scenarios leave their screenshots and page sources.
pub fn failure_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/browser-failures");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chromedriver`, or `None` when this machine has none: outside CI the
/// tests then say so and pass; in CI (`CI` set, as `.ci/run` does) a
/// missing browser is a failure, never a silent pass.
pub fn chromedriver() -> Option<PathBuf> {
    let found = std::env::var_os("CHROMEDRIVER").map(PathBuf::from).or_else(|| {
        ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].iter().map(PathBuf::from).find(|p| p.exists())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no chromedriver: install Debian's chromium and chromium-driver (`.ci/run` does)"
        );
        eprintln!("no chromedriver on this machine: browser test skipped (install chromium chromium-driver)");
    }
    found
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// A chromedriver process group; dropping it kills the driver and every
/// Chromium it started.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.child.id())]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start(bin: &Path, name: &str) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let log = std::fs::File::create(failure_dir().join(format!("chromedriver-{name}.log"))).unwrap();
        let child = Command::new(bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("start chromedriver");
        let driver = Driver { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < PAGE_WAIT, "chromedriver did not listen on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

/// chromedriver's log endpoint (not in the W3C protocol, so not in
/// fantoccini): the DevTools performance log carries every WebSocket frame
/// the page received, the browser log its console.
#[derive(Debug)]
struct GetLog(&'static str);

impl WebDriverCompatibleCommand for GetLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": self.0 }).to_string()))
    }
}

/// One browser session: a Chromium window with its own profile (so its own
/// local storage: a separate player).
#[derive(Clone)]
pub struct Browser {
    pub name: String,
    base: String,
    client: Client,
    /// Every WebSocket frame the page has received so far (text payloads).
    frames: Arc<Mutex<Vec<String>>>,
    /// Console messages so far.
    console: Arc<Mutex<Vec<String>>>,
}

struct Opened {
    browser: Browser,
    _driver: Driver,
}

/// A scenario's browsers, for the screenshots of a failure and the clean-up.
#[derive(Clone)]
pub struct Scene {
    name: String,
    base: String,
    driver_bin: PathBuf,
    opened: Arc<Mutex<Vec<Opened>>>,
}

/// Run a browser scenario against the server at `base`
/// (`http://127.0.0.1:PORT`): on a panic or when it runs past
/// [`SCENARIO_LIMIT`], every browser's screenshot, page source and console
/// are saved under `target/browser-failures/` before the test fails.
/// Returns false when no browser is available (outside CI only).
pub async fn scenario<F, Fut>(name: &str, base: &str, body: F) -> bool
where
    F: FnOnce(Scene) -> Fut,
    Fut: Future<Output = ()>,
{
    let Some(driver_bin) = chromedriver() else { return false };
    let _one_at_a_time = SERIAL.lock().await;
    let scene = Scene { name: name.into(), base: base.into(), driver_bin, opened: Arc::default() };
    let run = tokio::time::timeout(SCENARIO_LIMIT, AssertUnwindSafe(body(scene.clone())).catch_unwind()).await;
    let failure: Option<Box<dyn std::any::Any + Send>> = match run {
        Ok(Ok(())) => None,
        Ok(Err(panic)) => Some(panic),
        Err(_) => Some(Box::new(format!("scenario {name} ran past {SCENARIO_LIMIT:?}"))),
    };
    let opened = std::mem::take(&mut *scene.opened.lock().unwrap());
    if failure.is_some() {
        for o in &opened {
            o.browser.save_failure(name).await;
        }
    }
    for o in opened {
        let _ = tokio::time::timeout(Duration::from_secs(10), o.browser.client.clone().close()).await;
    }
    if let Some(panic) = failure {
        std::panic::resume_unwind(panic);
    }
    true
}

impl Scene {
    /// A new browser window at the lobby.
    pub async fn browser(&self, who: &str) -> Browser {
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900", "--no-first-run", "--disable-extensions"],
                "perfLoggingPrefs": { "enableNetwork": true, "enablePage": false },
            },
            "goog:loggingPrefs": { "performance": "ALL", "browser": "ALL" },
        });
        let Value::Object(caps) = caps else { unreachable!() };
        // Chromium now and then does not come up at all (seen once in CI:
        // no session after 20 s, nothing in chromedriver's log): such a
        // launch is given up and made once more with a new chromedriver,
        // whose own log says it was a second try.
        let mut tries = 0;
        let (client, driver) = loop {
            tries += 1;
            let log =
                if tries == 1 { format!("{}-{who}", self.name) } else { format!("{}-{who}-try{tries}", self.name) };
            let driver = Driver::start(&self.driver_bin, &log);
            let session = tokio::time::timeout(
                SESSION_WAIT,
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps.clone())
                    .connect(&format!("http://127.0.0.1:{}/", driver.port)),
            )
            .await;
            let why = match session {
                Ok(Ok(client)) => break (client, driver),
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("none in {SESSION_WAIT:?}"),
            };
            assert!(tries < 2, "chromedriver opens a session: {why}, twice");
            eprintln!("{who}: chromedriver opened no session ({why}); once more");
        };
        let browser = Browser {
            name: who.into(),
            base: self.base.clone(),
            client,
            frames: Arc::default(),
            console: Arc::default(),
        };
        self.opened.lock().unwrap().push(Opened { browser: browser.clone(), _driver: driver });
        browser.goto("/").await;
        browser
    }

    /// Save a screenshot of `browser` as `docs/screenshots/NAME.png` when
    /// `ATHLAS_SCREENSHOTS=update`, else under `target/screenshots/`.
    pub async fn screenshot(&self, browser: &Browser, name: &str) {
        self.screenshot_of(browser, name, None).await;
    }

    /// [`Scene::screenshot`] with the element `css` scrolled into view
    /// (from the top when `None`).
    pub async fn screenshot_of(&self, browser: &Browser, name: &str, css: Option<&str>) {
        let dir = if std::env::var("ATHLAS_SCREENSHOTS").as_deref() == Ok("update") {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots")
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots")
        };
        std::fs::create_dir_all(&dir).unwrap();
        // From the top of the page, as a person arriving would see it, or
        // where the person is looking.
        let js = "window.scrollTo(0, 0); document.activeElement?.blur(); \
                  if (arguments[0]) document.querySelector(arguments[0])?.scrollIntoView({block: 'start'});";
        let _ = browser.client.execute(js, vec![Value::from(css)]).await;
        let png = browser.client.screenshot().await.expect("screenshot");
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

impl Browser {
    pub fn client(&self) -> &Client {
        &self.client
    }

    pub async fn goto(&self, path: &str) {
        let url = format!("{}{path}", self.base);
        self.client.goto(&url).await.unwrap_or_else(|e| panic!("{}: open {url}: {e}", self.name));
    }

    /// The last seq the match page applied (`data-seq` of `[data-test=match]`;
    /// -1 before its welcome).
    pub async fn match_seq(&self) -> i64 {
        self.until_js(
            "the match page",
            "const m = document.querySelector('[data-test=match]'); return m ? String(m.dataset.seq) : null;",
        )
        .await
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(-1)
    }

    pub async fn path(&self) -> String {
        self.client.current_url().await.expect("current url").path().to_owned()
    }

    pub async fn reload(&self) {
        self.client.refresh().await.expect("reload");
    }

    /// The first element matching `css`, waiting for it to appear.
    pub async fn wait(&self, css: &str) -> Element {
        let started = Instant::now();
        loop {
            if let Ok(e) = self.client.find(Locator::Css(css)).await {
                return e;
            }
            if started.elapsed() > PAGE_WAIT {
                panic!("{}: `{css}` did not appear within {PAGE_WAIT:?}", self.name);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Wait until no element matches `css`.
    pub async fn wait_gone(&self, css: &str) {
        let started = Instant::now();
        while !self.client.find_all(Locator::Css(css)).await.unwrap_or_default().is_empty() {
            assert!(started.elapsed() < PAGE_WAIT, "{}: `{css}` still shown after {PAGE_WAIT:?}", self.name);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn exists(&self, css: &str) -> bool {
        !self.client.find_all(Locator::Css(css)).await.unwrap_or_default().is_empty()
    }

    pub async fn all(&self, css: &str) -> Vec<Element> {
        self.client.find_all(Locator::Css(css)).await.unwrap_or_default()
    }

    /// Wait for `css`, then click it (retrying while a re-render replaces
    /// the element under the click).
    pub async fn click(&self, css: &str) {
        let started = Instant::now();
        loop {
            let e = self.wait(css).await;
            match e.click().await {
                Ok(()) => return,
                Err(err) if started.elapsed() > PAGE_WAIT => panic!("{}: click `{css}`: {err}", self.name),
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Press and release one key where the keyboard's focus is, as a
    /// person at the keyboard would (a WebDriver key action, not a script).
    pub async fn press(&self, key: Key) {
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key.into() })
            .then(KeyAction::Up { value: key.into() });
        self.client.perform_actions(keys).await.unwrap_or_else(|e| panic!("{}: press {key:?}: {e}", self.name));
    }

    /// Move the mouse over the first element matching `css` (scrolled to
    /// the middle of the window first), as a person pointing at it would:
    /// a WebDriver pointer action, so the page sees real hover events.
    pub async fn hover(&self, css: &str) {
        let e = self.wait(css).await;
        let js = "arguments[0].scrollIntoView({block: 'center'});";
        let _ = self.client.execute(js, vec![serde_json::to_value(&e).unwrap()]).await;
        let moves = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: e,
            duration: None,
            x: 0,
            y: 0,
        });
        self.client.perform_actions(moves).await.unwrap_or_else(|err| panic!("{}: hover `{css}`: {err}", self.name));
    }

    /// Press Tab until the focused element matches `css` (failing after
    /// `max` presses): how a keyboard user reaches a control.
    pub async fn tab_to(&self, css: &str, max: usize) {
        let focused = format!("return document.activeElement?.matches({}) || null;", Value::from(css));
        for _ in 0..max {
            self.press(Key::Tab).await;
            if self.client.execute(&focused, vec![]).await.ok().is_some_and(|v| v == Value::Bool(true)) {
                return;
            }
        }
        panic!("{}: {max} presses of Tab never reached `{css}`", self.name);
    }

    /// Whether the keyboard's focus is on an element matching `css`.
    pub async fn focused(&self, css: &str) -> bool {
        let js = format!("return document.activeElement?.matches({}) ?? false;", Value::from(css));
        self.client.execute(&js, vec![]).await.ok() == Some(Value::Bool(true))
    }

    /// Type into the field `css`, replacing its content.
    pub async fn fill(&self, css: &str, text: &str) {
        let e = self.wait(css).await;
        e.clear().await.expect("clear field");
        e.send_keys(text).await.expect("type");
    }

    pub async fn text(&self, css: &str) -> String {
        self.wait(css).await.text().await.unwrap_or_default()
    }

    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.wait(css).await.attr(name).await.ok().flatten()
    }

    /// Wait until the script `js` (a function body returning a value)
    /// returns something truthy, and return that.
    pub async fn until_js(&self, what: &str, js: &str) -> Value {
        let started = Instant::now();
        loop {
            match self.client.execute(js, vec![]).await {
                Ok(v) if !v.is_null() && v != Value::Bool(false) => return v,
                _ => {}
            }
            assert!(started.elapsed() < PAGE_WAIT, "{}: waited {PAGE_WAIT:?} for {what}", self.name);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Resize to a phone's width (390 × 844), wait until the page fits it
    /// without scrolling sideways (failing if it never does), save a
    /// screenshot named `shot`, and resize back.
    pub async fn fits_a_phone(&self, scene: &Scene, shot: &str) {
        self.fits_a_phone_at(scene, shot, None).await;
    }

    /// [`Browser::fits_a_phone`] with `css` scrolled into view.
    pub async fn fits_a_phone_at(&self, scene: &Scene, shot: &str, css: Option<&str>) {
        self.client.set_window_size(390, 844).await.expect("resize to a phone's width");
        self.until_js(
            "the page to fit 390 px",
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;",
        )
        .await;
        scene.screenshot_of(self, shot, css).await;
        self.client.set_window_size(1280, 900).await.expect("resize back");
    }

    /// The whole DOM as HTML, input values included.
    pub async fn html(&self) -> String {
        let v = self
            .client
            .execute(
                "return document.documentElement.outerHTML + '\\n' + \
                 [...document.querySelectorAll('input,textarea,select')].map(e => e.value).join('\\n');",
                vec![],
            )
            .await;
        v.ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }

    /// Every WebSocket frame this page has received so far, from the
    /// DevTools network log.
    pub async fn ws_frames(&self) -> Vec<String> {
        self.ws_frames_tail(usize::MAX).await
    }

    /// The last `n` of [`Browser::ws_frames`] (a long game's frames add up
    /// to megabytes: a test that looks at the latest few takes only those).
    pub async fn ws_frames_tail(&self, n: usize) -> Vec<String> {
        let entries = self.client.issue_cmd(GetLog("performance")).await.unwrap_or_default();
        let mut frames = self.frames.lock().unwrap();
        for entry in entries.as_array().into_iter().flatten() {
            let Some(message) = entry["message"].as_str() else { continue };
            let Ok(m) = serde_json::from_str::<Value>(message) else { continue };
            if m["message"]["method"] == "Network.webSocketFrameReceived" {
                if let Some(p) = m["message"]["params"]["response"]["payloadData"].as_str() {
                    frames.push(p.to_owned());
                }
            }
        }
        frames[frames.len().saturating_sub(n)..].to_vec()
    }

    /// Console messages so far (errors from the page's scripts among them).
    pub async fn console(&self) -> Vec<String> {
        if let Ok(entries) = self.client.issue_cmd(GetLog("browser")).await {
            let mut console = self.console.lock().unwrap();
            for e in entries.as_array().into_iter().flatten() {
                console.push(format!("{} {}", e["level"].as_str().unwrap_or(""), e["message"].as_str().unwrap_or("")));
            }
        }
        self.console.lock().unwrap().clone()
    }

    async fn save_failure(&self, scenario: &str) {
        let dir = failure_dir();
        let stem = format!("{scenario}-{}", self.name);
        let limit = Duration::from_secs(10);
        if let Ok(Ok(png)) = tokio::time::timeout(limit, self.client.screenshot()).await {
            let path = dir.join(format!("{stem}.png"));
            let _ = std::fs::write(&path, png);
            eprintln!("screenshot of {}: {}", self.name, path.display());
        }
        if let Ok(html) = tokio::time::timeout(limit, self.html()).await {
            let _ = std::fs::write(dir.join(format!("{stem}.html")), html);
        }
        if let Ok(console) = tokio::time::timeout(limit, self.console()).await {
            eprintln!("console of {}:\n{}", self.name, console.join("\n"));
        }
    }
}
