//! The Hugo side of the corpus: a multilingual config (vi at `/`, en under `/en/`), tags and
//! series, pagination of 10 as `measured`'s, class-based highlighting, and minimal templates.

use std::io;
use std::path::Path;

pub fn write_hugo_scaffold(root: &Path) -> io::Result<()> {
    let layouts = root.join("layouts/_default");
    std::fs::create_dir_all(&layouts)?;
    std::fs::create_dir_all(root.join("content"))?;
    std::fs::write(root.join("hugo.toml"), HUGO_CONFIG)?;
    std::fs::write(layouts.join("baseof.html"), HUGO_BASEOF)?;
    std::fs::write(layouts.join("single.html"), HUGO_SINGLE)?;
    std::fs::write(layouts.join("list.html"), HUGO_LIST)?;
    Ok(())
}

const HUGO_CONFIG: &str = r#"# The benchmark corpus as a Hugo site (written by benches/corpus.rs).
baseURL = "https://bench.example.org/"
defaultContentLanguage = "vi"
defaultContentLanguageInSubdir = false
disableKinds = ["robotsTXT"]
paginate = 10

[taxonomies]
tag = "tags"
series = "series"

[languages.vi]
languageName = "Tiếng Việt"
title = "Đo thật"
weight = 1
[languages.en]
languageName = "English"
title = "Measured"
weight = 2

[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
"#;

const HUGO_BASEOF: &str = r#"<!DOCTYPE html>
<html lang="{{ .Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}{{ if ne .Title .Site.Title }} · {{ .Site.Title }}{{ end }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
<link rel="canonical" href="{{ .Permalink }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{ end }}<link rel="stylesheet" href="/style.css">
<link rel="stylesheet" href="/highlight.css">
<meta property="og:title" content="{{ .Title }}">
<meta property="og:url" content="{{ .Permalink }}">
<meta property="og:site_name" content="{{ .Site.Title }}">
{{ with .Description }}<meta property="og:description" content="{{ . }}">{{ end }}
</head>
<body>
<header class="site-header">
  <nav class="site-nav">
    <a class="site-title" href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a>
    <a href="{{ "tags/" | relLangURL }}">Tags</a>
    <ul class="lang-switch">{{ range .AllTranslations }}<li><a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}">{{ .Language.LanguageName }}</a></li>{{ end }}</ul>
  </nav>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<footer class="site-footer"><p>{{ .Site.Title }}</p></footer>
</body>
</html>
"#;

const HUGO_SINGLE: &str = r#"{{ define "main" }}
<article class="article">
  <header class="article-header">
    <h1>{{ .Title }}</h1>
    <p class="article-meta"><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "02/01/2006" }}</time> <span>{{ .ReadingTime }} min</span></p>
    {{ with .GetTerms "tags" }}<ul class="tags">{{ range . }}<li><a href="{{ .RelPermalink }}" rel="tag">{{ .LinkTitle }}</a></li>{{ end }}</ul>{{ end }}
  </header>
  <nav class="toc">{{ .TableOfContents }}</nav>
  <div class="content">
{{ .Content }}
  </div>
  {{ $page := . }}
  {{ range .GetTerms "series" }}
  <nav class="series" id="series">
    <h2>{{ .LinkTitle }}</h2>
    <ol>{{ range .Pages.ByParam "part" }}<li>{{ if eq . $page }}<span aria-current="page">{{ .Title }}</span>{{ else }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</li>{{ end }}</ol>
  </nav>
  {{ end }}
  {{ with .Site.RegularPages.Related . | first 3 }}
  <section class="related"><h2>Related</h2>
    <ul>{{ range . }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a><p>{{ .Description }}</p></li>{{ end }}</ul>
  </section>
  {{ end }}
</article>
{{ end }}
"#;

const HUGO_LIST: &str = r#"{{ define "main" }}
<h1 class="list-title">{{ .Title }}</h1>
{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = .Site.RegularPages }}{{ end }}
{{ $paginator := .Paginate $pages }}
<ol class="article-list">
{{ range $paginator.Pages }}
  <li>
    <h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
    <p class="article-meta"><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "02/01/2006" }}</time></p>
    <p>{{ .Description }}</p>
  </li>
{{ end }}
</ol>
<nav class="pagination">{{ if $paginator.HasPrev }}<a href="{{ $paginator.Prev.URL }}" rel="prev">←</a>{{ end }} {{ if $paginator.HasNext }}<a href="{{ $paginator.Next.URL }}" rel="next">→</a>{{ end }}</nav>
{{ end }}
"#;
