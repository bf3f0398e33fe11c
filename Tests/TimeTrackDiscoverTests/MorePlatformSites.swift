import Foundation
import TestSupport

/// Five more platforms districts and schools use: sites in their public markup, read through
/// their recognizers, their feeds or inference.
enum MorePlatformSites {
    static func all(_ base: String) -> [FixtureSite] { [squarespace(base), joomla(base), weebly(base), blogger(base), simbli(base)] }

    static func rss(_ base: String, title: String, link: (String) -> String) -> TestHTTPServer.Response {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/Chicago")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let out = DateFormatter()
        out.locale = Locale(identifier: "en_US_POSIX")
        out.timeZone = TimeZone(identifier: "America/Chicago")
        out.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let items = Sample.news.map { item in
            let date = formatter.date(from: "\(item.day) 08:00").map(out.string) ?? ""
            return
                "<item><title>\(item.title)</title><link>\(link(item.slug))</link><guid>\(link(item.slug))</guid><pubDate>\(date)</pubDate><description>\(item.summary)</description></item>"
        }.joined()
        let text =
            #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\#(title)</title><link>\#(base)/</link>"# + items + "</channel></rss>"
        return TestHTTPServer.Response(status: 200, headers: ["Content-Type": "application/rss+xml; charset=utf-8"], body: Data(text.utf8))
    }

    // MARK: Squarespace

    static func squarespace(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Squarespace")
        let head =
            #"<!-- This is Squarespace. --><link rel="alternate" type="application/rss+xml" title="RSS Feed" href="\#(base)/news?format=rss"><script"#
            + #" src="https://static1.squarespace.com/static/vta/5c5a519771c10ba3470d8101/scripts/site-bundle.js"></script>"#
        let nav = #"<li><a href="/news">News</a></li><li><a href="/events">Events</a></li>"#
        site.pages["/"] = Sample.page(title: "Oak Hill Charter School", head: head, body: "<h1>Oak Hill Charter School</h1>", nav: nav)
        site.pages["/news"] = Sample.page(title: "News — Oak Hill Charter School", head: head, body: "<h1>News</h1>", nav: nav)
        site.other["/news?format=rss"] = rss(base, title: "News - Oak Hill Charter School") { "\(base)/news/\($0)" }
        site.keys["/news?format=rss"] = Sample.newsKeys { "\(base)/news/\($0)" }
        let events = Sample.events.enumerated().map { index, event in
            let time =
                event.time.map { t in
                    #"<li class="eventlist-meta-item eventlist-meta-time event-meta-item"><span class="event-time-12hr"><time"#
                        + #" class="event-time-12hr-start" datetime="\#(event.day)">\#(Sample.twelveHour(t))</time></span></li>"#
                } ?? ""
            return """
                <article class="eventlist-event eventlist-event--upcoming"><div class="eventlist-column-info">
                <h1 class="eventlist-title"><a href="/events/event-\(index + 1)" class="eventlist-title-link">\(event.title)</a></h1>
                <ul class="eventlist-meta event-meta"><li class="eventlist-meta-item eventlist-meta-date event-meta-item"><time class="event-date"\
                 datetime="\(event.day)">\(Sample.weekdayLong(event.day))</time></li>
                \(time)<li class="eventlist-meta-item eventlist-meta-address event-meta-item">\(event.location) <a\
                 href="http://maps.google.com?q=\(event.location.replacingOccurrences(of: " ", with: "+"))" class="eventlist-meta-address-maplink"\
                 target="_blank">(map)</a></li></ul>
                </div></article>
                """
        }.joined(separator: "\n")
        site.pages["/events"] = Sample.page(
            title: "Events — Oak Hill Charter School", head: head, body: #"<div class="eventlist eventlist--upcoming">"# + events + "</div>", nav: nav)
        site.keys["/events"] = Sample.eventKeys { "\(base)/events/event-\($0 + 1)" }
        return site
    }

    // MARK: Joomla

    static func joomla(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Joomla")
        let head =
            #"<meta name="generator" content="Joomla! - Open Source Content Management"><link href="/templates/protostar/css/template.css" rel="stylesheet">"#
        let nav = #"<li><a href="/index.php/news">News</a></li><li><a href="/index.php/calendar">Calendar</a></li>"#
        site.pages["/"] = Sample.page(title: "Home - Pine Valley USD", head: head, body: "<h1>Pine Valley Unified</h1>", nav: nav)
        func blog(_ items: ArraySlice<(title: String, day: String, slug: String, summary: String)>, page: Int) -> String {
            let rows = items.enumerated().map { index, n in
                """
                <div class="items-row cols-1 row-\(index) row-fluid clearfix"><div class="span12"><div class="item column-1" itemprop="blogPost"\
                 itemscope itemtype="https://schema.org/BlogPosting">
                <div class="page-header"><h2 itemprop="name"><a href="/index.php/news/\(120 + index + page * 10)-\(n.slug)"\
                 itemprop="url">\(n.title)</a></h2></div>
                <dl class="article-info muted"><dt class="article-info-term">Details</dt><dd class="published"><span class="icon-calendar"\
                 aria-hidden="true"></span>
                <time datetime="\(n.day)T08:00:00\(Sample.offset(n.day))" itemprop="datePublished">Published: \(Sample.long(n.day))</time></dd></dl>
                <p>\(n.summary)</p></div></div></div>
                """
            }.joined()
            let pager =
                page == 0
                ? #"<div class="pagination"><p class="counter pull-right">Page 1 of 2</p><ul class="pagination-list"><li"#
                    + #" class="active"><a>1</a></li><li><a href="/index.php/news?start=3" class="pagenav">2</a></li><li><a title="Next""#
                    + #" href="/index.php/news?start=3" class="hasTooltip pagenav">Next</a></li></ul></div>"#
                : #"<div class="pagination"><p class="counter pull-right">Page 2 of 2</p></div>"#
            return #"<div class="blog" itemscope itemtype="https://schema.org/Blog"><div class="page-header"><h1>News</h1></div>"# + rows + pager + "</div>"
        }
        site.pages["/index.php/news"] = Sample.page(title: "News - Pine Valley USD", head: head, body: blog(Sample.news.prefix(3), page: 0), nav: nav)
        site.pages["/index.php/news?start=3"] = Sample.page(
            title: "News - Pine Valley USD", head: head, body: blog(Sample.news.dropFirst(3), page: 1), nav: nav)
        site.keys["/index.php/news"] = Sample.news.enumerated().map { index, n in
            let page = index < 3 ? 0 : 1
            let position = index < 3 ? index : index - 3
            return KeyItem(title: n.title, when: n.day, link: "\(base)/index.php/news/\(120 + position + page * 10)-\(n.slug)")
        }
        let rows = Sample.events.map { e in
            "<tr><td>\(Sample.long(e.day))</td><td>\(e.time.map(Sample.twelveHour) ?? "All Day")</td><td>\(e.title)</td><td>\(e.location)</td></tr>"
        }.joined()
        site.pages["/index.php/calendar"] = Sample.page(
            title: "District Calendar - Pine Valley USD", head: head,
            body:
                #"<div class="item-page"><h2>District Calendar</h2><table"#
                + #" class="table"><tbody><tr><th>Date</th><th>Time</th><th>Event</th><th>Location</th></tr>"#
                + rows + "</tbody></table></div>", nav: nav)
        site.keys["/index.php/calendar"] = Sample.eventKeys { _ in nil }
        return site
    }

    // MARK: Weebly

    static func weebly(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Weebly")
        let head =
            #"<link rel="alternate" type="application/rss+xml" title="RSS" href="\#(base)/news/feed"><script"#
            + #" src="//cdn2.editmysite.com/js/site/main.js"></script><link rel="stylesheet" href="//cdn2.editmysite.com/css/sites.css">"#
        let nav = #"<li id="pg1"><a href="/news.html" class="wsite-menu-item">News</a></li>"#
        site.pages["/"] = Sample.page(
            title: "Riverside Elementary PTA", head: head, body: #"<div class="wsite-section-wrap"><h2 class="wsite-content-title">Welcome</h2></div>"#,
            nav: nav)
        let posts = Sample.news.enumerated().map { index, n in
            let parts = n.day.split(separator: "-")
            return """
                <div class="blog-post" id="blog-post-\(80_000_000 + index)"><div class="blog-header">
                <h2 class="blog-title"><a class="blog-title-link blog-link" href="/news/\(n.slug)">\(n.title)</a></h2>
                <p class="blog-date"><span class="date-text">\(parts[1])/\(parts[2])/\(parts[0])</span></p></div>
                <div class="blog-content"><div class="paragraph">\(n.summary)</div></div></div>
                """
        }.joined(separator: "\n")
        site.pages["/news.html"] = Sample.page(
            title: "News - Riverside Elementary PTA", head: head, body: #"<div id="blogTable"><div class="blog-body">"# + posts + "</div></div>", nav: nav)
        site.keys["/news.html"] = Sample.newsKeys { "\(base)/news/\($0)" }
        site.other["/news/feed"] = rss(base, title: "Riverside Elementary PTA - News") { "\(base)/news/\($0)" }
        site.keys["/news/feed"] = Sample.newsKeys { "\(base)/news/\($0)" }
        return site
    }

    // MARK: Blogger

    static func blogger(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Blogger")
        let head =
            #"<meta content='blogger' name='generator'/><link rel="alternate" type="application/atom+xml" title="Lincoln Library News - Atom""#
            + #" href="\#(base)/feeds/posts/default"><link href='https://www.blogger.com/static/v1/widgets/2975350028-css_bundle_v2.css'"#
            + #" rel='stylesheet' type='text/css'/>"#
        let nav = #"<li><a href="/p/calendar.html">Calendar</a></li>"#
        let posts = Sample.news.map { n in
            #"<div class="date-outer"><h2 class="date-header"><span>\#(Sample.weekdayLong(n.day))</span></h2><div class="date-posts"><div"#
                + #" class="post-outer"><div class="post hentry"><h3 class="post-title entry-title"><a"#
                + #" href="\#(base)/2026/10/\#(n.slug).html">\#(n.title)</a></h3><div class="post-body"#
                + #" entry-content">\#(n.summary)</div></div></div></div></div>"#
        }.joined()
        site.pages["/"] = Sample.page(title: "Lincoln Library News", head: head, body: #"<div class="blog-posts hfeed">"# + posts + "</div>", nav: nav)
        let entries = Sample.news.map { n in
            "<entry><id>tag:blogger.com,1999:blog-1.post-\(n.slug)</id><published>\(n.day)T08:00:00.000-05:00</published><updated>\(n.day)T08:00:00.000-05:00</updated><title type='text'>\(n.title)</title><content type='html'>\(n.summary)</content><link rel='alternate' type='text/html' href='\(base)/2026/10/\(n.slug).html' title='\(n.title)'/></entry>"
        }.joined()
        let atom =
            "<?xml version='1.0' encoding='UTF-8'?><feed"
            + " xmlns='http://www.w3.org/2005/Atom'><id>tag:blogger.com,1999:blog-1</id><updated>2026-10-14T08:00:00.000-05:00</updated><title"
            + " type='text'>Lincoln Library News</title>"
            + entries + "</feed>"
        site.other["/feeds/posts/default"] = TestHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/atom+xml; charset=UTF-8"], body: Data(atom.utf8))
        site.keys["/feeds/posts/default"] = Sample.newsKeys { "\(base)/2026/10/\($0).html" }
        let calendar = Sample.events.map { e in "<li>\(Sample.long(e.day)) – \(e.title)</li>" }.joined()
        site.pages["/p/calendar.html"] = Sample.page(
            title: "Lincoln Library News: Calendar", head: head,
            body: #"<div class="post hentry"><h3 class="post-title">Calendar</h3><div class="post-body"><ul>"# + calendar + "</ul></div></div>", nav: nav)
        site.keys["/p/calendar.html"] = Sample.events.map { KeyItem(title: $0.title, when: $0.day) }
        return site
    }

    // MARK: Simbli (eBoard Solutions), a board-meeting service

    static func simbli(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Simbli (eBoard Solutions)")
        let nav = #"<li><a href="/SB_Meetings/SB_MeetingListing.aspx?S=36030397">Board Meetings</a></li>"#
        site.pages["/"] = Sample.page(
            title: "Board of Education", body: "<h1>Board of Education</h1><p>Agendas and minutes are posted on Simbli.</p>", nav: nav)
        let board = Sample.events.enumerated().filter { $0.element.time != nil }
        let rows = board.map { index, e in
            let parts = e.day.split(separator: "-")
            return """
                <tr class="meetingRow"><td class="meetingDate">\(parts[1])/\(parts[2])/\(parts[0]) \(Sample.twelveHour(e.time ?? "00:00"))</td>
                <td class="meetingName"><a href="ViewMeeting.aspx?S=36030397&amp;MID=\(21_000 + index)">\(e.title)</a></td><td\
                 class="meetingLocation">\(e.location)</td></tr>
                """
        }.joined()
        site.pages["/SB_Meetings/SB_MeetingListing.aspx?S=36030397"] = Sample.page(
            title: "Simbli - Meetings",
            head: #"<link href="https://simbli.eboardsolutions.com/Content/css/simbli.css" rel="stylesheet">"#,
            body:
                #"<form id="form1" action="./SB_MeetingListing.aspx?S=36030397"><h2>Meetings</h2><table class="table""#
                + #" id="ContentPlaceHolder1_gvMeetings"><tr class="headerRow"><th>Meeting Date</th><th>Meeting</th><th>Location</th></tr>"#
                + rows + "</table></form>", nav: nav)
        site.keys["/SB_Meetings/SB_MeetingListing.aspx?S=36030397"] = board.map { index, e in
            KeyItem(
                title: e.title, when: "\(e.day)T\(e.time ?? "")", link: "\(base)/SB_Meetings/ViewMeeting.aspx?S=36030397&MID=\(21_000 + index)",
                location: e.location)
        }
        return site
    }
}

/// A district site on a CMS no recognizer knows: headlines without dates (each article's page
/// has its date), and an events page of cards: read by inference alone.
enum UnknownPlatformSite {
    static let name = "(none)"

    static func site(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: name)
        let nav =
            #"<li><a href="/district/news">District News</a></li><li><a href="/district/events">Events</a></li><li><a"#
            + #" href="/district/contact">Contact</a></li>"#
        site.pages["/"] = Sample.page(title: "Lakeview Community Schools", body: "<h1>Lakeview Community Schools</h1><p>Welcome.</p>", nav: nav)
        site.pages["/district/contact"] = Sample.page(title: "Contact", body: "<h1>Contact</h1><p>100 Main St, Lakeview</p>", nav: nav)
        let headlines = Sample.news.map { n in
            #"<div class="headline"><h3 class="headline-title"><a href="/district/news/\#(n.slug)">\#(n.title)</a></h3><p"#
                + #" class="headline-teaser">\#(n.summary)</p></div>"#
        }.joined()
        site.pages["/district/news"] = Sample.page(
            title: "District News - Lakeview", body: #"<h1>District News</h1><div class="headlines">"# + headlines + "</div>", nav: nav)
        for n in Sample.news {
            site.pages["/district/news/\(n.slug)"] = Sample.page(
                title: "\(n.title) - Lakeview",
                body:
                    #"<article class="story"><h1>\#(n.title)</h1><p class="byline">By Communications · <time"#
                    + #" datetime="\#(n.day)T09:00:00\#(Sample.offset(n.day))">\#(Sample.long(n.day))</time></p><p>\#(n.summary)</p></article>"#,
                nav: nav)
        }
        site.keys["/district/news"] = Sample.newsKeys { "\(base)/district/news/\($0)" }
        let cards = Sample.events.enumerated().map { index, e in
            #"<div class="event-card"><div class="event-card__date">\#(Sample.weekdayLong(e.day))</div><h4 class="event-card__title"><a"#
                + #" href="/district/events/\#(index + 1)">\#(e.title)</a></h4><div"#
                + #" class="event-card__time">\#(e.time.map(Sample.twelveHour) ?? "All Day")</div><div"#
                + #" class="event-card__location">\#(e.location)</div></div>"#
        }.joined()
        let widget =
            #"<div id="athletics-calendar" class="js-calendar""#
            + #" data-events-url="/api/v1/athletics/events.json"></div><script>window.addEventListener('load', function () {"#
            + #" loadCalendar('#athletics-calendar'); });</script>"#
        site.pages["/district/events"] = Sample.page(
            title: "Events - Lakeview", body: #"<h1>Upcoming Events</h1><div class="event-cards">"# + cards + "</div><h2>Athletics</h2>" + widget, nav: nav)
        site.keys["/district/events"] = Sample.eventKeys { "\(base)/district/events/\($0 + 1)" }
        // The athletics calendar its script loads: a JSON API.
        let games = [
            ("Varsity Football vs. Central", "2026-10-16T19:00:00-05:00", "Lakeview Stadium"),
            ("JV Volleyball at Westfield", "2026-10-20T17:30:00-05:00", "Westfield High"), ("Cross Country Regional", "2026-10-24T09:00:00-05:00", "Pine Park"),
        ]
        let json = games.enumerated().map { index, game in
            #"{"id": \#(500 + index), "title": "\#(game.0)", "startDate": "\#(game.1)", "location": {"name": "\#(game.2)", "address": "1 Field Rd"},"#
                + #" "url": "/athletics/events/\#(500 + index)"}"#
        }.joined(separator: ",")
        site.other["/api/v1/athletics/events.json"] = TestHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Data((#"{"meta": {"count": 3}, "data": {"events": ["# + json + "]}}").utf8))
        site.keys["/api/v1/athletics/events.json"] = games.enumerated().map { index, game in
            KeyItem(title: game.0, when: String(game.1.prefix(16)), link: "\(base)/athletics/events/\(500 + index)", location: game.2)
        }
        return site
    }
}
