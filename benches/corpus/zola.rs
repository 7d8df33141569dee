//! The Zola side of the corpus: a config with the two languages (vi at `/`, en under `/en/`),
//! tags (paginated by 10, with feeds) and series, class-based highlighting, a full-text search
//! index in both languages (Fuse JSON: Zola's elasticlunr index has no Vietnamese), and
//! templates equivalent to Hugo's (`hugo.rs`): page, home and section, tag list and tag pages.

use std::io;
use std::path::Path;

pub fn write_zola_scaffold(root: &Path) -> io::Result<()> {
    let templates = root.join("templates");
    std::fs::create_dir_all(&templates)?;
    std::fs::create_dir_all(root.join("content"))?;
    std::fs::write(root.join("config.toml"), ZOLA_CONFIG)?;
    for lang in ["", ".en"] {
        std::fs::write(root.join(format!("content/_index{lang}.md")), ZOLA_SECTION)?;
    }
    for (name, text) in [
        ("base.html", ZOLA_BASE),
        ("page.html", ZOLA_PAGE),
        ("index.html", ZOLA_LIST),
        ("section.html", ZOLA_LIST),
        ("taxonomy_list.html", ZOLA_TERMS),
        ("taxonomy_single.html", ZOLA_TERM),
    ] {
        std::fs::write(templates.join(name), text)?;
    }
    Ok(())
}

const ZOLA_CONFIG: &str = r##"# The benchmark corpus as a Zola site (written by benches/corpus/zola.rs).
base_url = "https://bench.example.org"
title = "Đo thật"
description = "Bộ bài để đo tốc độ dựng trang."
default_language = "vi"
compile_sass = false
generate_feeds = true
build_search_index = true
taxonomies = [
    { name = "tags", paginate_by = 10, feed = true },
    { name = "series", render = false },
]

[search]
index_format = "fuse_json"

[markdown.highlighting]
style = "class"
theme = "catppuccin-frappe"

[languages.en]
title = "Measured"
description = "A corpus to measure build speed."
generate_feeds = true
build_search_index = true
taxonomies = [
    { name = "tags", paginate_by = 10, feed = true },
    { name = "series", render = false },
]
"##;

const ZOLA_SECTION: &str = "+++\nsort_by = \"date\"\npaginate_by = 10\n+++\n";

const ZOLA_BASE: &str = r##"<!DOCTYPE html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{{ config.title }}{% endblock %}</title>
{% block meta %}{% endblock %}
<link rel="stylesheet" href="/style.css">
<link rel="stylesheet" href="/highlight.css">
</head>
<body>
<header class="site-header">
  <nav class="site-nav">
    <a class="site-title" href="{% if lang == "vi" %}/{% else %}/en/{% endif %}">{{ config.title }}</a>
    <a href="{% if lang == "vi" %}/tags/{% else %}/en/tags/{% endif %}">Tags</a>
  </nav>
</header>
<main id="main">
{% block main %}{% endblock %}
</main>
<footer class="site-footer"><p>{{ config.title }}</p></footer>
</body>
</html>
"##;

const ZOLA_PAGE: &str = r##"{% extends "base.html" %}
{% block title %}{{ page.title }} · {{ config.title }}{% endblock %}
{% block meta %}{% if page.description %}<meta name="description" content="{{ page.description }}">{% endif %}
<link rel="canonical" href="{{ page.permalink }}">
{% for t in page.translations %}<link rel="alternate" hreflang="{{ t.lang }}" href="{{ t.permalink }}">
{% endfor %}<meta property="og:title" content="{{ page.title }}">
<meta property="og:url" content="{{ page.permalink }}">
<meta property="og:site_name" content="{{ config.title }}">
{% if page.description %}<meta property="og:description" content="{{ page.description }}">{% endif %}
{% endblock %}
{% block main %}
<article class="article">
  <header class="article-header">
    <h1>{{ page.title }}</h1>
    <p class="article-meta"><time datetime="{{ page.date | date(format="%Y-%m-%d") }}">{{ page.date | date(format="%d/%m/%Y") }}</time> <span>{{ page.reading_time }} min</span></p>
    {% if page.taxonomies.tags %}<ul class="tags">{% for t in page.taxonomies.tags %}<li><a href="{{ get_taxonomy_url(kind="tags", name=t, lang=lang) }}" rel="tag">{{ t }}</a></li>{% endfor %}</ul>{% endif %}
  </header>
  <nav class="toc"><ul>{% for h in page.toc %}<li><a href="#{{ h.id }}">{{ h.title }}</a>{% if h.children %}<ul>{% for c in h.children %}<li><a href="#{{ c.id }}">{{ c.title }}</a></li>{% endfor %}</ul>{% endif %}</li>{% endfor %}</ul></nav>
  <div class="content">
{{ page.content | safe }}
  </div>
  {% if page.taxonomies.series %}{% set series = get_taxonomy_term(kind="series", term=page.taxonomies.series[0], lang=lang) %}
  <nav class="series" id="series">
    <h2>{{ series.name }}</h2>
    <ol>{% for p in series.pages | sort(attribute="extra.part") %}<li>{% if p.permalink == page.permalink %}<span aria-current="page">{{ p.title }}</span>{% else %}<a href="{{ p.permalink }}">{{ p.title }}</a>{% endif %}</li>{% endfor %}</ol>
  </nav>
  {% endif %}
</article>
{% endblock %}
"##;

const ZOLA_LIST: &str = r##"{% extends "base.html" %}
{% block main %}
<h1 class="list-title">{{ config.title }}</h1>
<ol class="article-list">
{% for p in paginator.pages %}
  <li>
    <h2><a href="{{ p.permalink }}">{{ p.title }}</a></h2>
    <p class="article-meta"><time datetime="{{ p.date | date(format="%Y-%m-%d") }}">{{ p.date | date(format="%d/%m/%Y") }}</time></p>
    <p>{% if p.description %}{{ p.description }}{% endif %}</p>
  </li>
{% endfor %}
</ol>
<nav class="pagination">{% if paginator.previous %}<a href="{{ paginator.previous }}" rel="prev">←</a>{% endif %} {% if paginator.next %}<a href="{{ paginator.next }}" rel="next">→</a>{% endif %}</nav>
{% endblock %}
"##;

const ZOLA_TERMS: &str = r##"{% extends "base.html" %}
{% block main %}
<h1 class="list-title">Tags</h1>
<ul class="terms">{% for term in terms %}<li><a href="{{ term.permalink }}">{{ term.name }}</a> ({{ term.page_count }})</li>{% endfor %}</ul>
{% endblock %}
"##;

const ZOLA_TERM: &str = r##"{% extends "base.html" %}
{% block title %}{{ term.name }} · {{ config.title }}{% endblock %}
{% block main %}
<h1 class="list-title">{{ term.name }}</h1>
<ol class="article-list">
{% for p in paginator.pages %}
  <li>
    <h2><a href="{{ p.permalink }}">{{ p.title }}</a></h2>
    <p class="article-meta"><time datetime="{{ p.date | date(format="%Y-%m-%d") }}">{{ p.date | date(format="%d/%m/%Y") }}</time></p>
    <p>{% if p.description %}{{ p.description }}{% endif %}</p>
  </li>
{% endfor %}
</ol>
<nav class="pagination">{% if paginator.previous %}<a href="{{ paginator.previous }}" rel="prev">←</a>{% endif %} {% if paginator.next %}<a href="{{ paginator.next }}" rel="next">→</a>{% endif %}</nav>
{% endblock %}
"##;
