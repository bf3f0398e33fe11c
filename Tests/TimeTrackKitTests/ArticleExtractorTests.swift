import Foundation
import Testing
import TimeTrackKit

/// The article extractor on pages laid out as district CMSs lay out their news posts, with the
/// chrome around them (menus, share bars, related stories, footers): the body's paragraphs,
/// headings and lists are kept, the chrome is not.
@Suite struct ArticleExtractorTests {
    static let story = [
        "The Board of Education approved the 2026-27 school calendar at Monday's meeting, after two months of comments from families and staff.",
        "Classes begin on Wednesday, August 19, and the last day for students is Friday, May 28, with winter break from December 21 to January 1.",
        "Parents can read the whole calendar, with early-release days and conferences, on the district's calendar page.",
    ]
    static let chrome = ["Share on Facebook", "Related Posts", "Skip to main content", "Privacy Policy", "Subscribe to our newsletter", "Translate"]

    @discardableResult
    func check(_ html: String, keeps extra: [String] = [], file: String = #fileID, line: Int = #line) throws -> ArticleExtractor.Article {
        let document = try HTMLDocument(html: html, url: URL(string: "https://district.example/news/calendar"))
        let article = try #require(ArticleExtractor().extract(document))
        for paragraph in Self.story + extra { #expect(article.text.contains(paragraph), "missing: \(paragraph)\n\(article.text)") }
        for word in Self.chrome { #expect(!article.text.contains(word), "kept chrome '\(word)':\n\(article.text)") }
        #expect(article.html.contains("<p>"), "\(article.html)")
        #expect(!article.html.contains("<script"), "\(article.html)")
        return article
    }

    static func paragraphs() -> String { story.map { "<p>\($0)</p>" }.joined(separator: "\n") }

    static let header = """
        <a class="skip-link screen-reader-text" href="#content">Skip to main content</a>
        <header id="masthead"><nav class="main-navigation"><ul><li><a href="/">Home</a></li><li><a href="/about">About Us</a></li>
        <li><a href="/schools">Schools</a></li><li><a href="/departments">Departments</a></li></ul></nav>
        <div id="google_translate_element">Translate</div></header>
        """
    static let footer = """
        <footer id="colophon"><div class="footer-links"><a href="/privacy">Privacy Policy</a> <a href="/nondiscrimination">Nondiscrimination</a></div>
        <div class="newsletter-signup"><h3>Subscribe to our newsletter</h3><form><input type="email"></form></div></footer>
        """

    /// Finalsite: a post element (`fsPostElement`) holding an article with `fsTitle`,
    /// `fsDateTime` and `fsBody`, as the district captures have it.
    @Test func finalsitePost() throws {
        try check(
            """
            <html><body class="fsComposeMode"><div id="fsHeader">\(Self.header)</div>
            <div id="fsPageBodyWrapper"><div id="fsPageBody"><div id="fsPageContent"><div class="fsPageLayout">
            <div class="fsElement fsPostElement fsPost fsSingleItem" id="fsEl_23192" data-use-new="true"><div class="fsElementContent">
            <article class="fsStyleAutoclear fsBoard-30" data-post-id="1698" aria-labelledby="fsArticle_23192_1698">
            <div class="fsTitle" id="fsArticle_23192_1698">Board approves the 2026-27 calendar</div>
            <div class="fsDateTime"><time datetime="2026-09-11T17:11:00-04:00" class="fsTime"><span class="fsHour"> 5</span>:<span class="fsMinute">11</span>
            <span class="fsMeridian">PM</span></time></div>
            <div class="fsBody">\(Self.paragraphs())<h3>Key dates</h3><ul><li>Conferences: October 15 and 16, with no school for students.</li></ul></div>
            </article>
            <div class="fsPostSharing"><a class="fsShareFacebook" href="#">Share on Facebook</a></div>
            </div></div>
            <div class="fsElement fsPostElement fsList"><h2 class="fsElementTitle">Related Posts</h2><ul><li><a href="/p1">Bus routes</a></li>
            <li><a href="/p2">Lunch menu</a></li></ul></div>
            </div></div></div></div><div id="fsFooter">\(Self.footer)</div></body></html>
            """, keeps: ["Key dates", "Conferences: October 15 and 16"])
    }

    /// WordPress with Jetpack: `article.post > div.entry-content`, Jetpack's share buttons
    /// (`sharedaddy`) and related posts (`jp-relatedposts`) inside the content.
    @Test func wordPressPost() throws {
        let article = try check(
            """
            <html><head><meta property="og:image" content="/wp-content/uploads/2026/09/calendar.jpg"></head>
            <body class="post-template-default single single-post">\(Self.header)
            <div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
            <article id="post-4521" class="post-4521 post type-post status-publish format-standard hentry category-news">
            <header class="entry-header"><h1 class="entry-title">Board approves the 2026-27 calendar</h1>
            <div class="entry-meta"><span class="posted-on"><time class="entry-date published" datetime="2026-09-14T18:00:00-05:00">September 14, 2026</time>
            </span><span class="byline">by <a href="/author/comms">Communications</a></span></div></header>
            <div class="entry-content">\(Self.paragraphs())
            <div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social sd-social-icon-text sd-sharing">
            <h3 class="sd-title">Share this:</h3><ul><li class="share-facebook"><a href="#">Share on Facebook</a></li></ul></div></div>
            <div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related Posts</em></h3></div>
            </div></article></main></div>
            <aside id="secondary" class="widget-area"><section class="widget widget_recent_entries"><h2 class="widget-title">Recent News</h2>
            <ul><li><a href="/n1">Bus routes</a></li></ul></section></aside></div>\(Self.footer)</body></html>
            """)
        #expect(article.headline == "Board approves the 2026-27 calendar")
        #expect(article.date == "2026-09-14T18:00:00-05:00")
        #expect(article.image == "https://district.example/wp-content/uploads/2026/09/calendar.jpg")
    }

    /// The headline and date from the page's JSON-LD first; a dateline in the text when the page
    /// states none.
    @Test func headlineAndDateFromLinkedDataOrADateline() throws {
        let linked = try HTMLDocument(
            html: """
                <html><head><script type="application/ld+json">{"@context": "https://schema.org", "@graph": [{"@type": "WebSite"},
                {"@type": "NewsArticle", "headline": "Calendar &amp; schedule approved", "datePublished": "2026-09-14T18:00:00-05:00",
                "image": {"@type": "ImageObject", "url": "https://district.example/img/a.jpg"}}]}</script></head>
                <body><h1>Other</h1>\(Self.paragraphs())</body></html>
                """)
        let fromLinked = try #require(ArticleExtractor().extract(linked))
        #expect(fromLinked.headline == "Calendar & schedule approved")
        #expect(fromLinked.date == "2026-09-14T18:00:00-05:00")
        #expect(fromLinked.image == "https://district.example/img/a.jpg")
        let plain = try HTMLDocument(html: "<html><body><h1>Calendar</h1><p class='dateline'>Posted September 14, 2026</p>\(Self.paragraphs())</body></html>")
        let fromText = try #require(ArticleExtractor().extract(plain))
        #expect(fromText.headline == "Calendar")
        #expect(fromText.date == "September 14, 2026")
    }

    /// Drupal 8+: the body field (`field--name-body`) in a node, breadcrumbs and blocks beside it.
    @Test func drupalNode() throws {
        try check(
            """
            <html><body class="path-node page-node-type-news">\(Self.header)
            <nav role="navigation" aria-labelledby="system-breadcrumb" class="breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ol></nav>
            <main role="main"><div class="region region-content"><article role="article" class="node node--type-news node--view-mode-full">
            <h1 class="page-title"><span class="field field--name-title">Board approves the 2026-27 calendar</span></h1>
            <div class="node__content"><div class="clearfix text-formatted field field--name-body field--type-text-with-summary field--label-hidden field__item">
            \(Self.paragraphs())</div>
            <div class="field field--name-field-tags field--type-entity-reference"><div class="field__label">Tags</div>
            <div class="field__items"><div class="field__item"><a href="/taxonomy/term/4">Calendar</a></div></div></div>
            </div></article></div></main>
            <div class="region region-sidebar-first"><div class="block block-views"><h2>Related Posts</h2><ul><li><a href="/n1">Bus routes</a></li></ul></div></div>
            \(Self.footer)</body></html>
            """)
    }

    /// Web Community Manager (Schoolwires): a news item's detail in `div.ui-article` with its
    /// text in `div.ui-article-description`, inside the app's widget.
    @Test func webCommunityManagerNewsItem() throws {
        try check(
            """
            <html><body>\(Self.header)<div id="sw-content-container"><div id="sw-content-layout-wrapper">
            <div class="ui-widget app flexpage"><div class="ui-widget-header"><h1>District News</h1></div><div class="ui-widget-detail">
            <div class="ui-article"><h1 class="ui-article-title sw-article-title">Board approves the 2026-27 calendar</h1>
            <div class="ui-article-description"><span>\(Self.paragraphs())</span></div>
            <div class="ui-article-controls"><a class="sub-link" href="#">Share on Facebook</a></div></div>
            </div></div>
            <div class="ui-widget app headlines"><div class="ui-widget-header"><h2>Related Posts</h2></div><ul class="ui-articles"><li>
            <a href="/n1">Bus routes</a></li></ul></div>
            </div></div>\(Self.footer)</body></html>
            """)
    }

    /// A page that marks its body (`itemprop="articleBody"`) is read there, and a hidden copy
    /// of the body (schema.org microdata in a `display:none` block) is not taken twice.
    @Test func aMarkedBodyAndAHiddenCopy() throws {
        try check(
            """
            <html><body>\(Self.header)<div style="display:none" itemscope itemtype="http://schema.org/NewsArticle">
            <div itemprop="articleBody">\(Self.story.joined(separator: " ")) Share on Facebook</div></div>
            <div class="story"><div itemprop="articleBody">\(Self.paragraphs())</div><div class="share-tools">Share on Facebook</div></div>
            \(Self.footer)</body></html>
            """)
        let document = try HTMLDocument(html: "<html><body><div itemprop='articleBody'>\(Self.paragraphs())</div></body></html>")
        let text = try #require(ArticleExtractor().extract(document)).text
        #expect(text.components(separatedBy: "The Board of Education approved").count == 2, "\(text)")
    }

    /// Text written straight into a container between `<br>`s (an older CMS's body) is read.
    @Test func textBetweenBreaks() throws {
        try check(
            """
            <html><body>\(Self.header)<div class="col-md-3"><ul class="nav">\((1...30).map { "<li><a href='/m\($0)'>Month \($0)</a></li>" }.joined())</ul></div>
            <div class="col-md-9"><p class="titulo">Board approves the 2026-27 calendar</p><small class="text-muted"><b>05/10/2026</b> - Published by
            Communications - Tags: <a href="/t">calendar</a></small><br><br>\(Self.story.joined(separator: "<br><br>"))</div>\(Self.footer)</body></html>
            """)
    }

    /// Nothing that reads as an article: nil, never a menu.
    @Test func aPageWithNoArticle() throws {
        let document = try HTMLDocument(
            html: "<html><body>\(Self.header)<ul><li><a href='/a'>A</a></li><li><a href='/b'>B</a></li></ul>\(Self.footer)</body></html>")
        #expect(ArticleExtractor().extract(document) == nil)
    }
}
