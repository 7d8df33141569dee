//! The URLs the site writes besides articles, in one list: what an article's `slug:`, an
//! alias or a standalone page may not take. Checked when the site is assembled, before anything
//! renders, so `build`, `check` and `serve` refuse the same pages with the same message naming
//! the article's file and line (a page written at `atom.xml/index.html` while rendering used to
//! make the build fail on the feed with `Is a directory` and no article named). The stages that
//! write these files name them from here.

use crate::config::SiteConfig;

/// A language's feed, in the folder of its home page (and of each tag page).
pub const FEED: &str = "atom.xml";
/// A folder's page.
pub const INDEX: &str = "index.html";
/// The folder of each language's tag index.
pub const TAGS: &str = "tags";
/// The folder of a listing's later pages (`/page/2/`).
pub const PAGES: &str = "page";
/// The folder of the experiments' source pages.
pub const EXPERIMENTS: &str = "experiments";
/// The folder of the search index, one folder per language under it.
pub const SEARCH: &str = "search";
/// The site's own files at its root.
pub const SITEMAP: &str = "sitemap.xml";
pub const NOT_FOUND: &str = "404.html";
pub const ROBOTS: &str = "robots.txt";

/// How much of the URL space under a reserved path the site takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A file: neither it nor a folder of its name.
    File,
    /// A folder's own page only (`/tags/`: a tag's page below it is the tag's).
    Folder,
    /// A folder and everything under it (`/search/`).
    Tree,
}

/// The reserved site paths of a site, with what takes each.
#[derive(Debug, Clone, Default)]
pub struct Reserved {
    entries: Vec<(String, Kind, String)>,
}

impl Reserved {
    /// The reserved paths of `config`'s site.
    pub fn of(config: &SiteConfig) -> Reserved {
        let mut r = Reserved::default();
        for lang in config.langs() {
            let p = config.lang_prefix(lang);
            r.add(format!("{p}{TAGS}/"), Kind::Folder, "the tag index".into());
            if p != "/" {
                r.add(
                    p.clone(),
                    Kind::Folder,
                    format!("the home page of `{lang}`"),
                );
            }
            // Taken however few articles there are, so an article never loses its URL when
            // the site grows past a page.
            if config.paginate.is_some() {
                let what =
                    format!("the later pages of the home page of `{lang}` ({p}{PAGES}/2/, …)");
                r.add(format!("{p}{PAGES}/"), Kind::Tree, what);
            }
            r.add(
                format!("{p}{EXPERIMENTS}/"),
                Kind::Tree,
                "the experiments' source pages".into(),
            );
            for file in [FEED, INDEX] {
                r.file(&format!("{p}{file}"));
            }
        }
        r.add(format!("/{SEARCH}/"), Kind::Tree, "the search index".into());
        for file in [SITEMAP, NOT_FOUND, ROBOTS] {
            r.file(&format!("/{file}"));
        }
        r
    }

    fn add(&mut self, path: String, kind: Kind, what: String) {
        self.entries.push((path, kind, what));
    }

    fn file(&mut self, path: &str) {
        let what = format!("the file {} of the site", path.trim_start_matches('/'));
        self.add(path.to_string(), Kind::File, what);
    }

    /// What takes the site path `url` (a page's `/a/`, an alias's `/x/` or `/x.html`), if the
    /// site writes something there.
    pub fn taken(&self, url: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(path, kind, _)| match kind {
                Kind::File => {
                    url == path
                        || url
                            .strip_prefix(path.as_str())
                            .is_some_and(|r| r.starts_with('/'))
                }
                Kind::Folder => url == path,
                Kind::Tree => url.starts_with(path.as_str()),
            })
            .map(|(_, _, what)| what.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sites_own_urls_are_taken_and_the_rest_free() {
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        let config = crate::config::parse(
            std::path::Path::new("/s"),
            std::path::Path::new("/s/site.toml"),
            text,
        )
        .unwrap();
        let r = Reserved::of(&config);
        for (url, what) in [
            ("/atom.xml/", "the file atom.xml of the site"),
            ("/atom.xml", "the file atom.xml of the site"),
            ("/en/atom.xml/", "the file en/atom.xml of the site"),
            ("/index.html/", "the file index.html of the site"),
            ("/sitemap.xml/", "the file sitemap.xml of the site"),
            ("/404.html/", "the file 404.html of the site"),
            ("/robots.txt/", "the file robots.txt of the site"),
            ("/search/vi/index.json/", "the search index"),
            ("/search/", "the search index"),
            ("/tags/", "the tag index"),
            ("/en/", "the home page of `en`"),
            (
                "/page/2/",
                "the later pages of the home page of `vi` (/page/2/, …)",
            ),
            ("/en/experiments/x/", "the experiments' source pages"),
        ] {
            assert_eq!(r.taken(url), Some(what), "{url}");
        }
        for free in [
            "/a/",
            "/tags/mang/",
            "/atom/",
            "/searching/",
            "/en/a/",
            "/2016/x.html",
        ] {
            assert_eq!(r.taken(free), None, "{free}");
        }
    }
}
