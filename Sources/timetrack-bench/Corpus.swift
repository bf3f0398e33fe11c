import Foundation

/// A synthetic district in the markup styles of real CMSs: per school, a news listing with
/// pagination (WordPress-like) and a detail page per article (Finalsite-like post), a calendar
/// grid (Finalsite calendar), and a School Info document listing (sections under headings).
struct Corpus {
    let root: URL
    let schools: Int
    /// Listing pages per school (10 articles each).
    let listingPages: Int
    private(set) var pageFiles: [URL] = []

    /// Pages per school: listing pages + their articles + calendar + documents.
    static func pagesPerSchool(listingPages: Int) -> Int { listingPages * 11 + 2 }

    init(root: URL, totalPages: Int) {
        self.root = root
        listingPages = 9
        schools = max(1, Int((Double(totalPages) / Double(Corpus.pagesPerSchool(listingPages: 9))).rounded()))
    }

    static let boilerplateHead = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%TITLE% | Lakeside School District</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/css/site.css">
        <script src="/js/jquery.min.js"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script>
        <style>.nav li{display:inline-block}.footer{color:#333}</style></head>
        <body class="fsPage"><a class="skip" href="#main">Skip to content</a>
        <header id="fsHeader"><div class="logo"><a href="/"><img src="/img/logo.png" alt="Lakeside"></a></div>
        <nav class="nav"><ul>
        """
        + (1...40).map {
            "<li><a href=\"/section-\($0)/\">Menu section \($0)</a><ul><li><a href=\"/section-\($0)/a\">Sub A</a></li><li><a"
                + " href=\"/section-\($0)/b\">Sub B</a></li></ul></li>"
        }.joined() + """
            </ul></nav></header><main id="main">
            """

    static let boilerplateFoot =
        "</main><footer class=\"footer\"><p>Lakeside School District · 100 Lake Rd · (555) 555-0100</p>"
        + (1...30).map { "<a href=\"/footer-\($0)/\">Footer link \($0)</a> " }.joined()
        + "<script>gtag('config','G-XXXX')</script></footer></body></html>\n"

    static func page(_ title: String, _ body: String) -> String {
        boilerplateHead.replacingOccurrences(of: "%TITLE%", with: title) + body + boilerplateFoot
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    func articleBody(school: Int, article: Int, revision: Int) -> String {
        let paragraphs = (1...6).map { p in
            "<p>Paragraph \(p) about article \(article) at school \(school). Students, families and staff are invited; details follow in this"
                + " paragraph with enough words to look like a real announcement from a district communications office (rev \(revision)).</p>"
        }.joined()
        return """
            <div class="fsElement fsPostElement fsPost fsSingleItem"><article class="post" data-post-id="\(school * 10_000 + article)">
            <div class="fsTitle">School \(school) news item \(article)</div>
            <div class="fsDateTime"><time\
             datetime="2026-\(String(format: "%02d", article % 12 + 1))-\(String(format: "%02d", article % 28 + 1))T08:30:00-06:00">date</time></div>
            <div class="fsBody">\(paragraphs)<p><img src="/img/news/\(article).jpg" alt="Photo \(article)"></p><script>track(\(article))</script></div>
            </article></div>
            """
    }

    /// Writes every page and the source definitions.
    ///
    /// Returns the imports folder.
    mutating func generate() throws -> URL {
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        let imports = root.appendingPathComponent("Imports")
        try fm.createDirectory(at: imports, withIntermediateDirectories: true)
        try Data(#"{ "requestDelay": 0 }"#.utf8).write(to: imports.appendingPathComponent("_settings.json"))
        pageFiles = []
        for school in 1...schools {
            let folder = imports.appendingPathComponent("site/school\(school)")
            try fm.createDirectory(at: folder.appendingPathComponent("news"), withIntermediateDirectories: true)
            // News listing pages with pagination, and detail pages.
            for pageIndex in 1...listingPages {
                var list = "<h1>School \(school) News</h1><div class=\"news-list\">"
                for n in 1...10 {
                    let article = (pageIndex - 1) * 10 + n
                    let month = Corpus.months[article % 12]
                    list += """
                        <article class="news post type-post"><h2 class="entry-title"><a href="/school\(school)/news/article-\(article).html">School\
                         \(school) news item \(article)</a></h2>
                        <span class="date">\(month) \(article % 28 + 1), 2026</span><img class="wp-post-image" src="/img/news/\(article)-thumb.jpg" alt="">
                        <div class="entry-summary"><p>Summary of news item \(article) for school \(school), with a few words more. Read\
                         more…</p></div></article>
                        """
                    try write(
                        folder.appendingPathComponent("news/article-\(article).html"),
                        Corpus.page("News \(article)", articleBody(school: school, article: article, revision: 0)))
                }
                list +=
                    "</div><nav class=\"pagination\">"
                    + (pageIndex < listingPages ? "<a class=\"next\" href=\"/school\(school)/news/page-\(pageIndex + 1).html\">Older</a>" : "") + "</nav>"
                try write(folder.appendingPathComponent("news/page-\(pageIndex).html"), Corpus.page("News", list))
            }
            // A calendar grid with 30 events (a third all-day).
            var calendar = "<div class=\"fsCalendar\"><div class=\"fsCalendarRow\">"
            for day in 1...30 {
                if day % 3 == 0 {
                    calendar +=
                        "<div class=\"fsCalendarDaybox\"><div class=\"fsCalendarInfo\"><a class=\"fsCalendarEventLink\" title=\"No School Day"
                        + " \(day)\" data-occur-id=\"\(school)\(day)_2026-10-\(String(format: "%02d", day))T00:00:00Z_x\" href=\"#\">No School"
                        + " Day \(day)</a><div class=\"fsTimeRange\"><span class=\"fsAllDayEvent\">All Day</span></div></div></div>"
                } else {
                    calendar +=
                        "<div class=\"fsCalendarDaybox\"><div class=\"fsCalendarInfo fsCalendarEvent\"><a class=\"fsCalendarEventLink\" title=\"Event"
                        + " \(day)\" data-occur-id=\"\(school)\(day)_2026-10-\(String(format: "%02d", day))T23:00:00Z_x\" href=\"#\">Event"
                        + " \(day)</a><div class=\"fsTimeRange\"><time class=\"fsStartTime\""
                        + " datetime=\"2026-10-\(String(format: "%02d", day))T18:00:00-06:00\">6 PM</time><time class=\"fsEndTime\""
                        + " datetime=\"2026-10-\(String(format: "%02d", day))T19:30:00-06:00\">7:30 PM</time></div><div"
                        + " class=\"fsLocation\">School \(school) Gym</div></div></div>"
                }
            }
            calendar += "</div></div>"
            try write(folder.appendingPathComponent("calendar.html"), Corpus.page("Calendar", calendar))
            // A School Info page.
            var info = "<h1>School Info</h1>"
            for (section, names) in [
                ("Schedules", ["Bell Schedule", "Friday Schedule", "Lunch Schedule"]), ("Policies", ["Attendance Policy", "Technology Policy", "Fee Policy"]),
                ("Programs", ["AP Courses", "CTE Classes", "Concurrent Enrollment"]),
                ("Counseling", ["Scholarships", "College Night"]),
            ] {
                info +=
                    "<section class=\"fsElement\"><h2 class=\"fsElementTitle\">\(section)</h2><ul>"
                    + names.map { "<li><a href=\"/school\(school)/docs/\($0.replacingOccurrences(of: " ", with: "_")).pdf\">\($0) (PDF)</a></li>" }.joined()
                    + "</ul></section>"
            }
            try write(folder.appendingPathComponent("info.html"), Corpus.page("School Info", info))
            try definitions(school: school, imports: imports)
        }
        return imports
    }

    private mutating func write(_ url: URL, _ text: String) throws {
        try Data(text.utf8).write(to: url)
        pageFiles.append(url)
    }

    private func definitions(school: Int, imports: URL) throws {
        let base = "https://lakeside.example/school\(school)"
        let news = """
            { "id": "school\(school)-news", "importer": "html", "kind": "announcement", "url": "site/school\(school)/news/page-1.html",
              "baseURL": "\(base)/news/page-1.html", "school": "school\(school)", "timeZone": "America/Denver", "schedule": "6h",
              "options": { "item": "article.news", "fields": { "title": "h2 a", "link": "h2 a@href", "date": ".date", "summary": ".entry-summary",\
             "image": "img@src" },
                "next": "a.next@href", "maxPages": \(listingPages),
                "detail": { "link": "link", "fields": { "date": "time@datetime", "body": ".fsBody@html" } } } }
            """
        let calendar = """
            { "id": "school\(school)-calendar", "importer": "html", "kind": "event", "url": "site/school\(school)/calendar.html",
              "baseURL": "\(base)/calendar.html", "school": "school\(school)", "timeZone": "America/Denver", "schedule": "1d",
              "options": { "item": ".fsCalendarInfo", "key": "a.fsCalendarEventLink@data-occur-id",
                "fields": { "title": "a.fsCalendarEventLink@title",
                  "start": ["time.fsStartTime@datetime", { "select": "a.fsCalendarEventLink@data-occur-id", "pattern": "_(\\\\d{4}-\\\\d{2}-\\\\d{2})T" }],
                  "end": "time.fsEndTime@datetime", "allDay": { "select": ".fsAllDayEvent", "exists": true }, "location": ".fsLocation" } } }
            """
        let info = """
            { "id": "school\(school)-info", "importer": "documents", "kind": "school-info", "url": "site/school\(school)/info.html",
              "baseURL": "\(base)/info.html", "school": "school\(school)", "timeZone": "America/Denver", "schedule": "1d" }
            """
        try Data(news.utf8).write(to: imports.appendingPathComponent("school\(school)-news.json"))
        try Data(calendar.utf8).write(to: imports.appendingPathComponent("school\(school)-calendar.json"))
        try Data(info.utf8).write(to: imports.appendingPathComponent("school\(school)-info.json"))
    }

    /// Changes the text of `fraction` of the article pages (every n-th), as a day of edits would.
    func touch(fraction: Double) throws -> Int {
        let articles = pageFiles.filter { $0.lastPathComponent.hasPrefix("article-") }
        let step = max(1, Int((1 / fraction).rounded()))
        var changed = 0
        for (index, url) in articles.enumerated() where index % step == 0 {
            let school = Int(url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.dropFirst(6)) ?? 0
            let article = Int(url.deletingPathExtension().lastPathComponent.dropFirst(8)) ?? 0
            try Data(Corpus.page("News \(article)", articleBody(school: school, article: article, revision: 1)).utf8).write(to: url)
            changed += 1
        }
        return changed
    }
}
