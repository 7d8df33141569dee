//! A small site's render inputs, made in memory, for the tests of every output's context.

use std::path::Path;

use super::*;
use measured_content::content::{Content, parse_doc};

/// Two articles in both languages (`tcp`, part 1 of a series, and `dns`, part 2, which
/// uses an experiment), and `only-vi`, in Vietnamese only; tags `mạng` and `dns`.
pub(crate) fn inputs() -> RenderInputs {
    let toml = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\nauthor = \"Tác giả\"\n[languages.vi]\ntitle = \"Đo thật\"\ndescription = \"Blog đo thật\"\n[languages.en]\ntitle = \"Measured\"\n";
    let config = measured_content::config::parse(Path::new("/s"), Path::new("/s/site.toml"), toml)
        .expect("site.toml");
    let theme = measured_content::theme::load(Path::new("/nonexistent")).expect("built-in theme");
    let site = site(&config);
    let extra_pages = Arc::new(vec![ExtraPage {
        url: "/experiments/dns/".into(),
        lang: config.default_lang.clone(),
        title: "Mã nguồn: dns".into(),
        description: "Mã nguồn: dns".into(),
        body_html: "<h1>dns</h1>".into(),
    }]);
    RenderInputs {
        strings: measured_content::i18n::load(&config, &theme).expect("UI strings"),
        templates: compile(&theme).expect("templates"),
        bodies: bodies(&site),
        reproduce: reproduce(&site),
        notices: vec![None; site.pages.len()],
        claims: Arc::default(),
        related: Arc::new(site.all_related(6)),
        standalone: Arc::new(Vec::new()),
        cards: Arc::new(vec![None; site.pages.len()]),
        extra_pages,
        site,
        config,
    }
}

fn site(config: &SiteConfig) -> Site {
    let docs = [
        (
            "tcp",
            "vi",
            "title: Bắt tay TCP\ndate: 2026-01-02\ntags: [mạng]\nseries: Mạng\npart: 1",
        ),
        (
            "tcp",
            "en",
            "title: The TCP handshake\ndate: 2026-01-02\ntags: [network]\nseries: Network\npart: 1",
        ),
        (
            "dns",
            "vi",
            "title: DNS\ndate: 2026-01-05\nupdated: 2026-02-01\ntags: [mạng, dns]\nseries: Mạng\npart: 2\ndescription: Tra tên miền.",
        ),
        ("dns", "en", "title: DNS\ndate: 2026-01-05\ntags: [dns]"),
        (
            "only-vi",
            "vi",
            "title: Chỉ tiếng Việt\ndate: 2026-01-03\ntags: [mạng]",
        ),
    ];
    let docs = docs
        .iter()
        .map(|(dir, lang, front)| {
            let path = format!("content/{dir}/index.{lang}.md");
            let text = format!("---\n{front}\n---\nBody\n");
            let lang = Lang::parse(lang).expect("language");
            parse_doc(Path::new(&path), dir.to_string(), lang, &text).expect("article")
        })
        .collect();
    let content = Content {
        docs,
        assets: vec![],
        warnings: vec![],
    };
    measured_content::site::assemble(config, content, Default::default()).expect("site")
}

/// Bodies of 450 words, with a first paragraph, an image and a root-relative link.
fn bodies(site: &Site) -> Vec<Arc<Rendered>> {
    site.pages
        .iter()
        .map(|p| {
            let summary = match p.doc.dir.as_str() {
                "only-vi" => "Chỉ có tiếng Việt.".to_string(),
                _ => format!("Mở đầu của {}.", p.doc.front.title),
            };
            Arc::new(Rendered {
                html: format!("<p>{summary}</p><img src=\"a.png\"><a href=\"/x/\">x</a>"),
                summary,
                words: 450,
                ..Rendered::default()
            })
        })
        .collect()
}

/// The Vietnamese `dns` uses experiment `dns`.
fn reproduce(site: &Site) -> Vec<Vec<Reproduce>> {
    site.pages
        .iter()
        .map(|p| {
            let uses = p.doc.dir == "dns" && p.doc.lang.code() == "vi";
            uses.then(|| Reproduce {
                experiment: "dns".into(),
                source_url: "/experiments/dns/".into(),
                command: "measured build --rerun dns".into(),
                measure: "cargo run --release -- measure dns --out dns.results.json".into(),
                lock_hash: "l".into(),
                source_hash: "s".into(),
                machine: "cpu, 2 × CPU, Linux 6".into(),
                rustc: "rustc 1.85".into(),
                measured_at: "2026-01-05T10:00:00Z".into(),
                quick: false,
            })
            .into_iter()
            .collect()
        })
        .collect()
}

/// The index of the page of folder `dir` in `lang`.
pub(crate) fn page(inputs: &RenderInputs, dir: &str, lang: &str) -> usize {
    inputs
        .site
        .pages
        .iter()
        .position(|p| p.doc.dir == dir && p.doc.lang.code() == lang)
        .unwrap_or_else(|| panic!("no page {dir} in {lang}"))
}

#[test]
fn paths_of_urls() {
    assert_eq!(path_of("/"), "index.html");
    assert_eq!(path_of("/en/"), "en/index.html");
    assert_eq!(path_of("/a/"), "a/index.html");
    assert_eq!(path_of("/a/b.json"), "a/b.json");
}

#[test]
fn a_render_reuses_the_pages_whose_context_did_not_change() {
    let mut inputs = inputs();
    let (first, rendering) = render(&inputs, Some(&PageMemo::new()), None).unwrap();
    assert_eq!(rendering.rendered, first.len(), "everything rendered once");
    let (again, second) = render(&inputs, Some(&rendering.pages), None).unwrap();
    assert_eq!((second.rendered, &again), (0, &first));
    let dns = page(&inputs, "dns", "vi");
    let mut body = (*inputs.bodies[dns]).clone();
    body.html = "<p>Sửa.</p>".into();
    inputs.bodies[dns] = Arc::new(body);
    let (_, third) = render(&inputs, Some(&second.pages), None).unwrap();
    // The article, the feed that carries its body and the feeds of its tags.
    let tag_feeds = inputs.site.tags[&inputs.config.default_lang]
        .iter()
        .filter(|t| t.pages.contains(&dns))
        .count();
    assert_eq!(tag_feeds, inputs.site.pages[dns].doc.front.tags.len());
    assert!(tag_feeds > 0, "the fixture's article has tags");
    assert_eq!(third.rendered, 2 + tag_feeds);
}

/// A store that records what it was given.
#[derive(Default)]
struct Recorder(std::sync::Mutex<BTreeMap<String, Vec<u8>>>);

impl Store for Recorder {
    fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
        let mut files = self.0.lock().unwrap();
        assert!(
            files.insert(path.into(), bytes.into()).is_none(),
            "{path} twice"
        );
        Ok(())
    }
}

#[test]
fn a_render_into_a_store_writes_every_file_once_and_holds_none() {
    let inputs = inputs();
    let (held, _) = render(&inputs, None, None).unwrap();
    let store = Recorder::default();
    let (written, _) = render(&inputs, None, Some(&store)).unwrap();
    let stored = store.0.into_inner().unwrap();
    let expected: BTreeMap<String, Vec<u8>> = held
        .files
        .iter()
        .map(|(p, b)| (p.clone(), b.to_vec()))
        .collect();
    assert!(
        expected.contains_key("dns/index.html"),
        "{:?}",
        expected.keys()
    );
    assert_eq!(stored, expected, "the same files, with the same bytes");
    assert!(written.files.is_empty(), "nothing held");
    assert_eq!(
        written.written.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    // What the link checks read of a written page: its ids, as of the held page.
    let ids = |o: &Output| {
        o.with_ids("dns/index.html", |ids| {
            ids.map(String::from).collect::<Vec<_>>()
        })
    };
    assert_eq!(ids(&written), ids(&held));
    assert!(ids(&held).is_some_and(|ids| !ids.is_empty()));
}
